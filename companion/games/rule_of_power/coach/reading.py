"""What the other players' plays of this deal say of the cards they still hold.

Every play is made face up (R4), so a player being advised has seen, card by card, what each
other player chose this deal, and from what centre. A player who laid a low card into a
centre that a 10 would have taken (R4) likely held no 10 then, and if they still hold all they
held, holds none now. The coach's worlds read that: they deal the other players' hands less
often where the plays seen would have been unlikely.

What a player would have played is modelled by the counting player
(:func:`~.opponents.counting_value`: what a play takes less the next opponent's expected
reply), the strongest of the rule-of-thumb players and the rulebook's own advice, or else by
anything at all:

- at each play seen this deal, every card the player might have held then is scored as the
  counting player scores it (its best play on that centre), against the card played; the
  cards that score higher are those a counting player holding them would have played instead;
- a hand is then as likely as the plays it explains: each play seen counts 1 - ``SLIP`` (and
  its share of ``SLIP``) when the player held none of those better cards (the cards still in
  hand, and the cards they played since, which were in hand then too), its share of ``SLIP``
  (shared out over the cards they held) otherwise;
  a player plays like the counting player with a chance of ``LIKE_COUNTING``, and any card as
  likely as another with the rest, so a player whose plays no counting hand explains is read
  as playing anything;
- each world's uniform deal is dealt again, player by player in a random order, by rejection:
  a hand drawn from the cards the world left to those players and the deck is kept with the
  chance that its likelihood bears to the most a hand could have, up to ``TRIES`` draws (the
  likeliest of them otherwise).

Only the plays of the deal under way count: every card of an earlier deal has been played
(R15), so they say nothing of the hands held now. The reading needs the game's history (a
state made with ``keep_history``); without it, or at a table with Fate cards (whose plays
move cards between hands, R21-R25, and which the counting player mostly keeps), nothing is
read and every world is the uniform one. It reads what the player saw (the public table before
each play, the plays) and nothing else: the advised player's own view at each play, never a
hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.rule_of_power.coach.opponents import Counting, card_worth, counting_value, reply_hand
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play
from companion.games.rule_of_power.engine.sampling import World

__all__ = ["DealReading", "Evidence", "SLIP", "LIKE_COUNTING", "TRIES"]

SLIP = 0.05
"""The chance that a player who plays like the counting player plays otherwise, once."""

LIKE_COUNTING = 0.9
"""The chance that a player plays like the counting player at all."""

TRIES = 32
"""Hands drawn for a player of a world, at most, before the likeliest is kept."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """One play seen this deal, as the counting player reads it."""

    card: Card
    """The card played."""
    later: frozenset[Card]
    """The cards the player played after it this deal (in hand at this play)."""
    better: frozenset[Card]
    """The cards the counting player would have played instead, had it held one."""
    fits: bool
    """Whether a counting player could have made this play at all: its capture the card's
    best, and no card played later among the better ones."""
    choices: int
    """How many cards the player held then (what ``SLIP`` is shared out over)."""

    @property
    def most(self) -> float:
        """How likely the counting player makes this play, holding none of the better cards."""
        return 1.0 - SLIP + SLIP / self.choices if self.fits else SLIP / self.choices

    def weight(self, hand: frozenset[Card]) -> float:
        """How likely the counting player makes this play, holding ``hand`` now."""
        return SLIP / self.choices if hand & self.better else self.most


class DealReading:
    """What ``player``, deciding in ``game``, reads of the other hands from the plays of the
    deal under way (:class:`Evidence` per play, by player)."""

    def __init__(self, game: GameState, player: str, unseen: list[Card]) -> None:
        self.player = player
        self._plays: list[tuple[GameState, Play, frozenset[Card], int]] = []
        self._evidence: dict[str, list[Evidence]] | None = None
        if not _readable(game):
            return
        stack = game.move_stack
        start = len(stack)
        while start > 0 and type(stack[start - 1]) not in (Deal, NewRound):
            start -= 1
        plays = [(ply, m) for ply, m in enumerate(stack[start:], start) if type(m) is Play]
        self._candidates = frozenset(unseen)
        for n, (ply, move) in enumerate(plays):
            mover = move.player
            if mover == player or not move.card.is_world:
                continue
            later = frozenset(m.card for _, m in plays[n + 1 :] if m.player == mover)
            choices = game.world_cards_in_hand(mover) + len(later) + 1
            self._plays.append((game.before(ply), move, later, choices))

    @property
    def evidence(self) -> dict[str, list[Evidence]]:
        """Each other player's plays of this deal as read, worked out when first asked (in the
        search's first sample, so that its time counts in the search's budget)."""
        if self._evidence is None:
            self._evidence = {}
            for before, move, later, choices in self._plays:
                read = _read(before, self.player, move, self._candidates | later)
                if read is not None:
                    better, fits = read
                    evidence = Evidence(move.card, later, better, fits and not (later & better), choices)
                    self._evidence.setdefault(move.player, []).append(evidence)
        return self._evidence

    def __bool__(self) -> bool:
        return bool(self._plays)

    def likelihood(self, player: str, hand: frozenset[Card]) -> tuple[float, float]:
        """How well ``hand`` held now explains ``player``'s plays of this deal, and the most any
        hand could: a counting player (``LIKE_COUNTING``) or anyone."""
        counting = most = 1.0
        anyone = 1.0
        for e in self.evidence.get(player, ()):
            counting *= e.weight(hand)
            most *= e.most
            anyone /= e.choices
        return LIKE_COUNTING * counting + (1.0 - LIKE_COUNTING) * anyone, LIKE_COUNTING * most + (1.0 - LIKE_COUNTING) * anyone

    def redeal(self, world: World, rng: random.Random) -> World:
        """``world`` with the hands of the players read dealt again, each by rejection from the
        cards those hands and the deck hold (:data:`TRIES` draws at most), the deck the rest in
        a random order."""
        read = [p for p in world.hands if p in self.evidence]
        rng.shuffle(read)
        pool = [c for p in read for c in world.hands[p]] + world.deck
        pool.sort(key=lambda c: c.index)  # the same world for the same seed, whatever the order drawn
        hands = dict(world.hands)
        for p in read:
            size = len(world.hands[p])
            best: list[Card] = []
            best_weight = -1.0
            for _ in range(TRIES):
                drawn = rng.sample(pool, size)
                weight, most = self.likelihood(p, frozenset(drawn))
                if weight > best_weight:
                    best, best_weight = drawn, weight
                if rng.random() * most < weight:
                    break
            hands[p] = tuple(best)
            taken = set(best)
            pool = [c for c in pool if c not in taken]
        rng.shuffle(pool)
        return World(hands, world.fate_hands, world.fate_decks, pool)


def _readable(game: GameState) -> bool:
    """Whether the plays can be read: the history is kept, and no Fate card is in the game."""
    if not game.move_stack:
        return False
    return all(game.fate_deck_count(p) == 0 and not game.fate_hand(p) and game.hand_size(p) == game.world_cards_in_hand(p) for p in game.players) and not game.in_play


def _read(before: GameState, player: str, move: Play, candidates: frozenset[Card]) -> tuple[frozenset[Card], bool] | None:
    """The cards of ``candidates`` the counting player would have played instead of ``move`` on
    the table ``before`` it, and whether its play was the best of its card; read from
    ``player``'s view of that table (public but for ``player``'s own hand), the mover counting
    every card it could not see then but the one it played."""
    view = before.view(player)
    mover = move.player
    if before.turn != mover:
        return None
    unseen = (view.unseen | frozenset(view.hand)) - {move.card}
    # The centres scored here (each card laid on a table of the past) will not come again.
    counting = Counting(view, unseen, reply_hand(view, mover), remember=False)
    played = counting_value(view, counting, move)
    if played is None:
        return None
    # Two cards of one value and one worth score alike (their plays take the same, leave
    # centres alike): each kind is scored once.
    by_kind: dict[tuple[int | None, float], float] = {}
    scores: dict[Card, float] = {}
    for card in candidates | {move.card}:
        kind = (card.value, card_worth(card))
        score = by_kind.get(kind)
        if score is None:
            options = before.capture_options(card)
            plays = [Play(mover, card, option) for option in options] if options else [Play(mover, card)]
            score = by_kind[kind] = max(v for v in (counting_value(view, counting, m) for m in plays) if v is not None)
        scores[card] = score
    better = frozenset(c for c, v in scores.items() if v > played + 1e-9)
    return better, played >= scores[move.card] - 1e-9
