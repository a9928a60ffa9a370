"""The rule-of-thumb players the coach is measured against (``./run bench coach``), each
written from the rulebook alone and reading its own view only (:class:`~companion.games.
rule_of_power.engine.view.PlayerView`: its hand, the public table, its decisions).

Three styles a table meets, besides the random player the bench adds:

- ``greedy`` (:func:`~.policies.greedy_move`): the decision with the best immediate round
  points, the round scored as if it ended now (R7, R9-R12);
- ``cautious`` (:func:`cautious_move`): saves its strong cards. It captures whenever it can,
  taking what is worth most; it never lays a Dragon (7), a Power card or a high card into the
  centre while a plain low card will do, and draws a Fate card rather than lay one; it keeps
  the centre's sum above the highest value in play when it can (10; 13 with the Higher
  Powers, R2), so that the next player finds no clean sweep (R7);
- ``counter`` (:func:`counting_move`): counts the cards seen so far. For every decision it
  adds what the move takes to what the next opponent is expected to take back from the
  centre it leaves, with the chance that their hand holds a card of each value worked out
  from the unseen cards (the rulebook's advice: "on the basis of what's already been played
  and what you have in hand yourself you can try to postulate what cards must still be in
  play").

What a card in a capture stack is worth to these players is their own table of thumb
(:func:`card_worth`): a share of the point for most cards and most Power cards (R9), of the
Pride (R11), the Fire Dragon (R10) and the Power Ring (R12).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from math import comb

from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Play
from companion.games.rule_of_power.engine.view import PlayerView
from companion.games.rule_of_power.coach.policies import greedy_move

__all__ = ["card_worth", "cautious_move", "counting_move", "counting_value", "reply_hand", "Counting", "expected_reply", "best_takes", "OPPONENTS"]

_THIEF = FATE_CARDS[5]
_RENEWAL = FATE_CARDS[7]

SWEEP = 1.0
"""A clean sweep is a round point (R7)."""


def card_worth(card: Card) -> float:
    """A captured card's worth in round points, by thumb: every World card a share of the
    point for most cards (R9), a Power card a share of most Power cards (R9) and of the chain
    (R12), a Power Ring card much more (R12), a 7 a share of the Pride (R11), the Fire Dragon
    its own point (R10), a 6 a little of the Pride's tie-break (R11). Fate cards score
    nothing (R8)."""
    if not card.is_world:
        return 0.0
    w = 0.05
    if card.is_power:
        w += 0.15
        if card.is_ring:
            w += 0.6
    if card.value == 7:
        w += 0.35
        if card.is_power:
            w += 0.9
    elif card.value == 6:
        w += 0.08
    return w


_WORTH = {c: card_worth(c) for c in Card._by_id.values()}

_TOP = 13
"""The highest capturing value (the expansion's 13, R2)."""


def _sweeps_count(view: PlayerView) -> bool:
    """Whether a clean sweep scores now: not in the first deal nor the last (R7)."""
    return view.deal_number != 1 and not view.last_deal


def _next_player(view: PlayerView) -> str:
    players = view.setup.players
    return players[(players.index(view.player) + 1) % len(players)]


def reply_hand(view: PlayerView, player: str) -> int:
    """How many World cards the player after ``player`` holds to take back from the centre
    ``player`` leaves: none when the two are team-mates (R16)."""
    players = view.setup.players
    nxt = players[(players.index(player) + 1) % len(players)]
    return view.world_cards_by_seat[players.index(nxt)] if view.setup.is_opponent(player, nxt) else 0


def _after(view: PlayerView, move: Move) -> tuple[tuple[Card, ...], float, bool]:
    """The centre after ``move``, the worth of what it puts in the player's stack (a clean
    sweep included), and whether it lays a card into the centre."""
    centre = view.centre
    if type(move) is not Play:
        return centre, 0.0, False
    card = move.card
    if move.capture:
        gain = _WORTH[card] + sum(_WORTH[c] for c in move.capture)
        left = tuple(c for c in centre if c not in move.capture)
        if not left and card.is_world and not view.is_empowered(card) and _sweeps_count(view):
            gain += SWEEP
        return left, gain, False
    if card.to_centre:
        return centre + (card,), 0.0, True
    if card is _THIEF and move.target is not None:
        stack = view.stacks[move.target]
        return centre, (_WORTH[stack[-1]] * 2 if stack else 0.0), False
    return centre, 0.0, False


# -- cautious: saves its strong cards


def _strong(card: Card) -> bool:
    """A card the cautious player keeps out of the centre: a Dragon, a Power card, a card of 8
    or more (it takes the most), or a Fate card."""
    return not card.is_world or card.is_power or card.value == 7 or (card.value or 0) >= 8


def cautious_move(view: PlayerView, rng: random.Random) -> Move:
    """Captures what is worth most (a sweep counted, R7), preferring to spend a weak card on
    it; otherwise lays its weakest plain card, keeping the centre's sum above the highest
    value in play when it can (10; 13 with the Higher Powers, R2), so that the next player
    finds no sweep (R7), and draws a Fate card rather than lay a strong one. Plays a Vampire
    or Warlock only to capture, and a Thief on a valuable top card."""
    moves = view.decisions
    if len(moves) == 1:
        return moves[0]
    top = _TOP if view.setup.expansion else 10
    best: Move | None = None
    best_value = -1e9
    draw: Move | None = None
    for move in moves:
        if type(move) is DrawFate:
            draw = move
            continue
        if type(move) is not Play:
            continue
        card = move.card
        left, gain, laid = _after(view, move)
        if move.capture:
            value = 10.0 + gain - (0.2 if _strong(card) else 0.0)
        elif laid and card.is_world:
            value = -_WORTH[card] - (1.0 if _strong(card) else 0.0) - 0.01 * (card.value or 0)
            if _sweeps_count(view) and view.is_opponent(_next_player(view)) and sum(c.value or 0 for c in left) <= top:
                value -= 0.5
        elif card is _THIEF and gain >= 0.3:
            value = 5.0 + gain
        else:
            continue  # other Fate cards are saved
        if value > best_value:
            best, best_value = move, value
    if draw is not None and (best is None or best_value < -1.0):
        return draw
    if best is None:
        return moves[rng.randrange(len(moves))]
    return best


# -- counter: counts the unseen cards


def _none_held(unseen: int, avoid: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``unseen`` hold none of ``avoid`` given ones."""
    if hand <= 0 or avoid <= 0:
        return 1.0
    if unseen - avoid < hand:
        return 0.0
    return comb(unseen - avoid, hand) / comb(unseen, hand)


_TAKES: dict[tuple[tuple[Card, ...], bool], list[float]] = {}
""":func:`best_takes` of the centres met lately: a playout's centres recur in the next ones."""


def best_takes(centre: tuple[Card, ...], sweeps: bool, *, remember: bool = True) -> list[float]:
    """The most a plain card of each value (the list's index, 0 to 13) takes from ``centre``:
    the worth of its best capture (R4), a clean sweep counted when ``sweeps`` (R7); 0.0 where
    it takes nothing. Worked out once for every value from the sets of centre cards whose
    values add up to 13 at most, each set's worth added up in the order of its cards in
    :func:`~companion.games.rule_of_power.engine.captures.capture_options`' options (higher
    values first, then centre order), so that every figure is the one listing the options
    gives to the last bit. ``remember=False`` for a centre unlikely to come again: it is
    looked up but not kept (the table stays small, and so the heap the collector walks)."""
    key = (centre, sweeps)
    got = _TAKES.get(key)
    if got is not None:
        return got
    n = len(centre)
    best = [0.0] * (_TOP + 1)
    single = [False] * (_TOP + 1)
    sweep = SWEEP if sweeps else 0.0
    # R4: where a card of the value lies in the centre, the single cards are the only options.
    for card in centre:
        v = card.value
        assert v is not None  # a card in the centre has a value (R20)
        if v <= _TOP:
            single[v] = True
            worth = _WORTH[card] + sweep if n == 1 else _WORTH[card]
            if worth > best[v]:
                best[v] = worth
    # Otherwise every set of two or more cards adding up to the value.
    order = sorted(range(n), key=lambda i: (-(centre[i].value or 0), i))
    sets: list[tuple[int, float, int]] = [(0, 0, 0)]
    for i in order:
        card = centre[i]
        v = card.value or 0
        worth = _WORTH[card]
        sets += [(s + v, w + worth, k + 1) for s, w, k in sets if s + v <= _TOP]
    for s, w, k in sets:
        if k >= 2 and not single[s]:
            worth = w + sweep if k == n else w
            if worth > best[s]:
                best[s] = worth
    if remember:
        if len(_TAKES) >= 20_000:
            _TAKES.clear()
        _TAKES[key] = best
    return best


class Counting:
    """What a player counts once for a decision (:func:`expected_reply` for each centre it may
    leave): how many unseen cards there are of each value, whether a Mystic Crystal empowers
    a Wizard (R5), whether a clean sweep scores (R7)."""

    __slots__ = ("by_value", "pool", "crystal", "sweeps", "hand", "remember")

    def __init__(self, view: PlayerView, unseen: Iterable[Card], hand: int, *, remember: bool = True) -> None:
        by_value: dict[int, int] = {}
        pool = 0
        for card in unseen:
            pool += 1
            if card.value is not None:
                by_value[card.value] = by_value.get(card.value, 0) + 1
        self.by_value = by_value
        self.pool = pool
        self.hand = min(hand, pool)
        self.crystal = bool(view.in_play) and any(x is FATE_CARDS[0] for _, x in view.in_play)
        self.sweeps = _sweeps_count(view)
        self.remember = remember
        """Whether the centres met are kept (:func:`best_takes`)."""

    def expected_reply(self, centre: tuple[Card, ...]) -> float:
        """What the next opponent is expected to take from ``centre``: the worth of their best
        capture, each value's chance counted from the unseen cards (hypergeometric, R4, R5,
        R7)."""
        if not centre or self.hand <= 0:
            return 0.0
        table = best_takes(centre, self.sweeps, remember=self.remember)
        pool, hand = self.pool, self.hand
        # R5: an empowered Wizard takes the whole centre, no clean sweep counted.
        wizard = sum(_WORTH[c] for c in centre) if self.crystal else 0.0
        takes = sorted(
            ((wizard if self.crystal and v == 1 else table[v] if v <= _TOP else 0.0, n) for v, n in self.by_value.items()),
            key=lambda t: -t[0],
        )
        expected = 0.0
        covered = 0
        none_before = 1.0
        for worth, n in takes:
            if worth <= 0.0:
                break
            covered += n
            none_now = _none_held(pool, covered, hand)
            expected += worth * (none_before - none_now)
            none_before = none_now
        return expected


def expected_reply(view: PlayerView, centre: tuple[Card, ...], unseen: Iterable[Card], hand: int) -> float:
    """What the next opponent, holding ``hand`` World cards drawn from ``unseen``, is expected to
    take from ``centre``: the worth of their best capture, each value's chance counted from the
    unseen cards (hypergeometric, R4, R5, R7)."""
    return Counting(view, unseen, hand).expected_reply(centre)


def counting_value(view: PlayerView, counting: Counting, move: Move) -> float | None:
    """What the counting player makes of ``move`` (``view``'s public table, ``counting`` the
    cards it counts): the worth it takes, less a hundredth of the card's value (the weaker card
    is spent first), less the next opponent's expected reply to the centre it leaves; a Fate
    draw is worth a little (a card for later). ``None`` for a Fate card it keeps for later."""
    if type(move) is DrawFate:
        left, gain = view.centre, 0.15
    elif type(move) is Play:
        card = move.card
        if not card.is_world and not card.to_centre and card is not _THIEF:
            return None
        left, gain, _ = _after(view, move)
        gain -= 0.01 * (card.value or 0) if card.is_world else 0.0
    else:
        left, gain = view.centre, -0.5
    return gain - counting.expected_reply(left)


def counting_move(view: PlayerView, rng: random.Random) -> Move:
    """The decision with the best worth taken less the next opponent's expected reply, counted
    from the unseen cards (:func:`expected_reply`); a Fate draw keeps the centre as it is
    and is worth a little (a card for later). Ties go to the weaker card."""
    moves = view.decisions
    if len(moves) == 1:
        return moves[0]
    counting = Counting(view, view.unseen, reply_hand(view, view.player))
    best: list[Move] = []
    best_value = -1e9
    for move in moves:
        value = counting_value(view, counting, move)
        if value is None:
            continue
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    if not best:
        return moves[rng.randrange(len(moves))]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


OPPONENTS: dict[str, Callable[[PlayerView, random.Random], Move]] = {
    "greedy": greedy_move,
    "cautious": cautious_move,
    "counter": counting_move,
}
"""The rule-of-thumb players by name, as :meth:`~.model.RuleOfPowerCoach.opponents` gives them."""
