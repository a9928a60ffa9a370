"""Players for simulated tables, each choosing a commit from what its view shows (L14: nothing
hidden), and :func:`simulate`, which plays a whole game with them.

Every player here is a rule of thumb a newcomer might follow, written from the rules alone. The
noble is turned only once everyone has committed (L7), so no player knows the suit to follow:
each weighs the nobles still face down (public, though their order is not). Each reads its own
view only (:class:`~companion.games.love_money_power_death.view.LmpdView`): its hand, the
nobles still face down, the cards revealed so far.

- :class:`RandomPlayer` commits any card of its hand.
- :class:`RuleOfThumbPlayer` keeps the agents for the end (an agent wins a noble alone, L9),
  but never finishes with one unplayed; otherwise it commits the resource most likely to win
  the nobles still face down: its rank, weighed by the share of those nobles' crowns in its
  suit (L8).
- :class:`EagerPlayer` commits its strongest card every round: an agent when it holds one,
  else its highest rank, in the suit with the most crowns still face down among equals.
- :class:`CautiousPlayer` saves its agents and high cards (rank 4 and 5): it commits its lowest
  card, of the suit with the fewest crowns still face down, until it holds no more cards than
  rounds are left to play them in; then it spends its high cards, and its agents last (two
  agents cancel out, L9, and fewer are unseen late in the game).
- :class:`CounterPlayer` counts the cards seen: it commits an agent once at most one other
  agent is unseen (it then likely stands alone, L9), or when it holds as many agents as rounds
  left; otherwise a resource that no unseen card of its suit beats or ties (the top of its
  suit still in play, L8), of the suit with the most crowns still face down; otherwise it
  dumps its lowest card.

Each is also a function of a view and a random generator (:data:`VIEW_PLAYERS`), the form the
coach's benchmark plays them in.

>>> setup, moves = simulate(["ann", "bob", "cy"], seed=4)
>>> len(moves), type(moves[0]).__name__
(60, 'Deal')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import ClassVar

from companion.games.love_money_power_death.cards import DEALT, SUITS, Card
from companion.games.love_money_power_death.moves import Commit, Move
from companion.games.love_money_power_death.setup import DEFAULT_FIVES, MOST, LmpdSetup
from companion.games.love_money_power_death.state import LmpdState
from companion.games.love_money_power_death.view import LmpdView

__all__ = [
    "Player",
    "RandomPlayer",
    "RuleOfThumbPlayer",
    "EagerPlayer",
    "CautiousPlayer",
    "CounterPlayer",
    "POLICIES",
    "VIEW_PLAYERS",
    "ViewPlayer",
    "crowns_left",
    "unseen_cards",
    "rounds_left",
    "simulate",
]

ViewPlayer = Callable[[LmpdView, random.Random], Commit]
"""A player as a function: ``player(view, rng)`` is the commit of ``view.player``, who is
deciding, chosen from ``view.decisions``."""

HIGH = 4
"""The ranks a cautious player saves: 4 and 5."""


def crowns_left(view: LmpdView) -> dict[str, int]:
    """The crowns of the nobles still face down, by suit (L1, L7): public, though which one
    comes next is not."""
    out = dict.fromkeys(SUITS, 0)
    for noble in view.nobles_left:
        out[noble.suit or ""] += noble.rank
    return out


def rounds_left(view: LmpdView) -> int:
    """The rounds still to play, this one included: one a noble face down (L12)."""
    return view.noble_pile


def unseen_cards(view: LmpdView) -> list[Card]:
    """The resources and agents the player cannot place: neither revealed in an earlier round
    (L10) nor in their own hand. They lie in the other hands and piles, their own pile, and
    the cards set aside (L5)."""
    out = 0
    for r in view.rounds:
        for _, card in r.plays:
            out |= card.bit
    for card in view.hand:
        out |= card.bit
    return [c for c in DEALT if not c.bit & out]


def _cards(view: LmpdView) -> list[tuple[Commit, Card]]:
    """The player's decisions that name a card (a hand the companion did not see names none)."""
    return [(m, m.card) for m in view.decisions if type(m.card) is Card]


def _fallback(view: LmpdView, rng: random.Random) -> Commit:
    """A card face down when the hand was never seen: the only decision there is."""
    return view.decisions[rng.randrange(len(view.decisions))]


def random_choice(view: LmpdView, rng: random.Random) -> Commit:
    """Any card of the hand."""
    return view.decisions[rng.randrange(len(view.decisions))]


def rule_of_thumb(view: LmpdView, rng: random.Random) -> Commit:
    """Keeps its agents for the end, unless it has as many agents as rounds left; otherwise
    commits the resource whose rank, weighed by the share of crowns still face down in its
    suit, is highest."""
    cards = _cards(view)
    if not cards:
        return _fallback(view, rng)
    agents = [m for m, c in cards if c.is_agent]
    resources = [(m, c) for m, c in cards if not c.is_agent]
    if agents and (len(agents) >= rounds_left(view) or not resources):
        return agents[0]
    crowns = sum(c.rank for c in view.nobles_left) or 1
    share = {s: sum(c.rank for c in view.nobles_left if c.suit == s) / crowns for s in SUITS}
    best = max(c.rank * (1 + 2 * share[c.suit or "L"]) for _, c in resources)
    choices = [m for m, c in resources if c.rank * (1 + 2 * share[c.suit or "L"]) == best]
    return choices[rng.randrange(len(choices))]


def eager(view: LmpdView, rng: random.Random) -> Commit:
    """Its strongest card every round: an agent when it holds one (L9), else its highest rank,
    of the suit with the most crowns still face down among equals (L8)."""
    cards = _cards(view)
    if not cards:
        return _fallback(view, rng)
    for m, c in cards:
        if c.is_agent:
            return m
    crowns = crowns_left(view)
    return max(cards, key=lambda mc: (mc[1].rank, crowns[mc[1].suit or ""], -mc[1].index))[0]


def cautious(view: LmpdView, rng: random.Random) -> Commit:
    """Saves its agents and high cards: its lowest card, of the suit with the fewest crowns
    still face down, while it holds more cards than rounds are left (cards it may never play);
    then its high cards, highest first, and its agents last."""
    cards = _cards(view)
    if not cards:
        return _fallback(view, rng)
    crowns = crowns_left(view)
    strong = [(m, c) for m, c in cards if c.is_agent or c.rank >= HIGH]
    if len(strong) < len(cards) and len(view.hand) + view.pile_sizes.get(view.player, 0) > rounds_left(view):
        weak = [(m, c) for m, c in cards if not (c.is_agent or c.rank >= HIGH)]
        return min(weak, key=lambda mc: (mc[1].rank, crowns[mc[1].suit or ""], mc[1].index))[0]
    resources = [(m, c) for m, c in cards if not c.is_agent]
    if resources:
        return max(resources, key=lambda mc: (mc[1].rank, crowns[mc[1].suit or ""], -mc[1].index))[0]
    return cards[0][0]


def counter(view: LmpdView, rng: random.Random) -> Commit:
    """Counts the cards seen: an agent once at most one other agent is unseen, or when it holds
    as many agents as rounds left; else the top resource of its suit still in play (no unseen
    card of that suit beats or ties it), of the suit with the most crowns still face down;
    else its lowest card."""
    cards = _cards(view)
    if not cards:
        return _fallback(view, rng)
    unseen = unseen_cards(view)
    agents = [m for m, c in cards if c.is_agent]
    agents_unseen = sum(1 for c in unseen if c.is_agent)
    resources = [(m, c) for m, c in cards if not c.is_agent]
    if agents and (agents_unseen <= 1 or len(agents) >= rounds_left(view) or not resources):
        return agents[0]
    crowns = crowns_left(view)
    top = {s: max((c.rank for c in unseen if c.suit == s), default=0) for s in SUITS}
    safe = [(m, c) for m, c in resources if c.rank > top[c.suit or ""] and crowns[c.suit or ""]]
    if safe:
        return max(safe, key=lambda mc: (crowns[mc[1].suit or ""], -mc[1].rank, -mc[1].index))[0]
    return min(resources, key=lambda mc: (mc[1].rank, crowns[mc[1].suit or ""], mc[1].index))[0]


class Player:
    """A simulated player: chooses one of its legal commits from its view."""

    name: ClassVar[str] = ""

    @staticmethod
    def play(view: LmpdView, rng: random.Random) -> Commit:
        """The player as a function of a view (:data:`ViewPlayer`)."""
        raise NotImplementedError

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: LmpdView, moves: Sequence[Commit]) -> Commit:
        """The commit chosen among ``moves`` (the view's decisions)."""
        if tuple(moves) != view.decisions:
            raise ValueError(f"{self.name} chooses among {view.player}'s decisions in their view")
        return type(self).play(view, self.rng)


class RandomPlayer(Player):
    """Commits a card of its hand at random."""

    name = "random"
    @staticmethod
    def play(view: LmpdView, rng: random.Random) -> Commit:
        return random_choice(view, rng)


class RuleOfThumbPlayer(Player):
    """Keeps its agents for the end, unless it has as many agents as rounds left; otherwise
    commits the resource whose rank, weighed by the share of crowns still face down in its
    suit, is highest."""

    name = "rule-of-thumb"
    @staticmethod
    def play(view: LmpdView, rng: random.Random) -> Commit:
        return rule_of_thumb(view, rng)


class EagerPlayer(Player):
    """Commits its strongest card every round: an agent first, then its highest rank."""

    name = "eager"
    @staticmethod
    def play(view: LmpdView, rng: random.Random) -> Commit:
        return eager(view, rng)


class CautiousPlayer(Player):
    """Saves its agents and high cards for the last rounds, dumping its lowest card until then."""

    name = "cautious"
    @staticmethod
    def play(view: LmpdView, rng: random.Random) -> Commit:
        return cautious(view, rng)


class CounterPlayer(Player):
    """Counts the cards seen: an agent once few are unseen, the top card of a suit, else its
    lowest."""

    name = "counter"
    @staticmethod
    def play(view: LmpdView, rng: random.Random) -> Commit:
        return counter(view, rng)


POLICIES: dict[int, type[Player]] = {0: RandomPlayer, 1: RuleOfThumbPlayer, 2: EagerPlayer, 3: CautiousPlayer, 4: CounterPlayer}
"""The simulated players by level: 0 random, then the rules of thumb (1 rule-of-thumb, 2 eager,
3 cautious, 4 counter; the numbers name them, they rank nothing)."""

VIEW_PLAYERS: dict[str, ViewPlayer] = {cls.name: cls.play for cls in POLICIES.values()}
"""Each player as a function of a view, by name."""

def simulate(
    players: Sequence[str],
    nobles: int | str | Sequence[str | Card] = MOST,
    seed: int = 0,
    level: int = 0,
    *,
    fives: str = DEFAULT_FIVES,
) -> tuple[LmpdSetup, list[Move]]:
    """A whole legal game on a virtual table: the table's moves by chance (every card seen),
    each commit chosen by a player of ``level`` from its own view. Repeatable by ``seed``.
    Raises :class:`~companion.contract.errors.IllegalMoveError` (L4) for a table the rules do
    not allow."""
    setup = LmpdSetup.make(players, nobles, fives)
    rng = random.Random(seed)
    state = LmpdState(setup, keep_history=False)
    seats = {p: POLICIES[level](random.Random(rng.getrandbits(32))) for p in setup.players}
    moves: list[Move] = []
    while not state.is_game_over():
        deciding = state.deciding
        if deciding:
            player = deciding[rng.randrange(len(deciding))]  # commits come in any order (L6)
            view = state.view(player)
            move: Move = seats[player].choose(view, view.decisions)
        else:
            move = state.random_table_move(rng)
        state.push(move)
        moves.append(move)
    return setup, moves
