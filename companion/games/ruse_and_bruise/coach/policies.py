"""Decisions, and the quick player of the coach's playouts.

A *decision* is what a player chooses (:meth:`RabState.decision <companion.games.
ruse_and_bruise.game.RabState.decision>`): a card of their hand and the column it goes into
(B8), a card under their Cloak or none (B14), a column for their Traitor's exchange or none
(B15), the pass of an empty hand. The card they draw after it is chance's (B9), which
:func:`realize` draws in the world.

:class:`RolloutPolicy` plays the playouts. It reads its player's view alone
(:class:`~companion.games.ruse_and_bruise.view.RabView`) and plays by a few sound habits,
quickly (:mod:`.reckon`):

- a card: each column reckoned as it stands and with each card of the hand added; the card
  and column that most raise the goal points it stands to take (a column's chance times
  its goal card's value), less what the card would still be worth in a later round (strong
  cards are kept while rounds remain);
- a Cloak: the card that most raises its chance in the Cloak's column, if any does (the
  card costs no turn: the Cloak's owner draws at once, B14);
- a Traitor: the exchange that most raises the goal points it stands to take, if any.

Now and then (``noise``) it plays at random, so that playouts cover what real players do.
"""

from __future__ import annotations

import random
from functools import lru_cache
from collections.abc import Callable, Hashable, Sequence

from companion.contract.cards import UNSEEN, Unseen
from companion.games.ruse_and_bruise.cards import ROUNDS, Goal, Influence
from companion.games.ruse_and_bruise.coach.reckon import UNKNOWN_WORTH, chance_of, lead_of, numbers_under, reckon
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Pass, Place, Swap
from companion.games.ruse_and_bruise.values import ValuesTable
from companion.games.ruse_and_bruise.view import RabView

__all__ = [
    "Player",
    "decisions",
    "alike",
    "realize",
    "RolloutPolicy",
    "play_out",
    "advance",
    "describe",
    "column_cards",
    "keep_worth",
    "cloak_column",
    "swap_gain",
]

Player = Callable[[RabView, random.Random], Move]
"""A player of playouts: ``player(view, rng)`` is the decision of ``view.player``, who is to
decide, from their view alone (one of :attr:`RabView.decisions`)."""

_ROUND = Phase.ROUND
_OVER = Phase.OVER


def decisions(state: RabState, player: str) -> dict[Hashable, list[Move]]:
    """The decisions of ``player``, who is deciding, each with a move making it (the card
    drawn after it left to :func:`realize`), keyed as :meth:`RabState.decision` keys them,
    in a stable order: the columns left to right, the cards in catalogue order, an unseen
    card last (B8); declining first, then the cards or the columns (B14, B15)."""
    if player != state.to_move:
        return {}
    return {state.decision(d): [d] for d in state.view(player).decisions}


def alike(move: Move) -> Hashable:
    """Every decision plays out on its own: no two cards of a hand are alike (B1)."""
    return move


def realize(state: RabState, decision: Move, chance: object, rng: random.Random) -> Move:
    """The move of ``decision`` in a world: a card placed with the card its player draws at
    the end of the turn, drawn from what their stack (their discard pile, when the stack is
    empty, B9) may hold in the world; a Cloak's card with its draw likewise (B14); anything
    else as it is. With a single card left in the stack the turn's draw is left unseen: a
    Cloak of the same player may take that card first, and the turn's draw then comes from
    the discard pile shuffled (B9, B14)."""
    t = type(decision)
    if t is Place:
        assert isinstance(decision, Place)
        if decision.drew is not None:
            return decision
        w = state._core.known[state.players.index(decision.player)]  # the world's own: the coach's part reads it
        if w.stack == 1:
            return decision
        draws = state._draw_choices(w)
        return Place(decision.player, decision.column, decision.card, draws[0] if len(draws) == 1 else rng.choice(draws))
    if t is Cloak:
        assert isinstance(decision, Cloak)
        if not decision.placed or decision.drew is not None:
            return decision
        options = [m for m in state.generate_legal_moves() if type(m) is Cloak and m.placed and m.card == decision.card]
        return rng.choice(options) if options else Cloak(decision.player, False)
    return decision


# ---------------------------------------------------------------------- reckoning a view


def column_cards(view: RabView, k: int) -> list[tuple[str, Influence | None]]:
    """Column ``k`` (from 0) as ``view.player`` sees it: each card's owner, and the card or
    ``None`` for a back."""
    return [(owner, card) for owner, card, _up in view.columns[k]]


def keep_worth(card: Influence | Unseen, view: RabView, values: ValuesTable) -> float:
    """What ``card`` would still be worth in a later round, in goal points: its number beyond
    the middle of the numbers, weighed by the rounds left (hands are kept, B27); a
    Doppelgänger, a professional and an unseen card are middling."""
    if not isinstance(card, Influence):
        return 0.0
    n = _general_number(card, values)
    left = (ROUNDS - view.round) / (ROUNDS - 1) if view.round else 1.0
    return max(0.0, n - 9.0) * 0.05 * left


def _general_number(card: Influence, values: ValuesTable) -> float:
    if card.area is not None:
        return 9.0  # 12 under its own area, 8 elsewhere
    number = values.number(card)
    return float(number) if number is not None else UNKNOWN_WORTH


def _worth(goal: Goal, cards: list[tuple[str, Influence | None]], me: str, values: ValuesTable) -> float:
    """The goal points ``me`` stands to take in a column: its chance times the goal card's
    value."""
    return goal.value * chance_of(lead_of(me, reckon(goal, cards, values)))


def _best_place(view: RabView, columns: Sequence[int], cards: Sequence[Influence | Unseen], values: ValuesTable) -> Place:
    """The placement of the highest gain in the goal points the player stands to take (B8),
    less what the card would still be worth later (:func:`keep_worth`), among every card of
    ``cards`` in every column of ``columns`` (from 1), the first in :attr:`RabView.decisions`'
    order among equals. The card is added to the column's sums as reckoned
    (:meth:`Reckoning.with_card`) where its ability is easily told, else the column is
    reckoned again; no placement is made but the chosen one (a playout asks at every turn)."""
    me = view.player
    keeps = [keep_worth(card, view, values) for card in cards]
    known = [card if isinstance(card, Influence) else None for card in cards]
    goals, shown = view.goals, view.columns
    best = -1e9
    at = (columns[0], 0)
    for number in columns:
        goal = goals[number - 1]
        assert goal is not None
        col = _column(goal, shown[number - 1], me, values)
        for i, card in enumerate(known):
            g = col.gain(me, card, values) - keeps[i]
            if g > best:
                best, at = g, (number, i)
    return Place(me, at[0], cards[at[1]], None)


@lru_cache(maxsize=1 << 11)  # small, as reckon's cache of columns is, for the garbage collector's sake
def _column(goal: Goal, column: tuple[tuple[str, Influence | None, bool], ...], me: str, values: ValuesTable) -> _Column:
    """A column as ``me`` reckons it, kept for the next time: between two decisions of a
    playout all columns but one are as they were, and the backs of the others' cards look
    alike in every world."""
    return _Column(goal, column, me, values)


class _Column:
    """One column as a placing player reckons it, ready for each card of their hand: its goal
    card, its cards, what the player stands to take there now, and, where only the player's
    sum changes with a card (no Hermit, Small Giant or pair there), their sum and the best
    (with a Beggar, the lowest) other sum."""

    __slots__ = ("goal", "cards", "r", "before", "nums", "quick", "mine", "other", "cut")

    def __init__(self, goal: Goal, column: tuple[tuple[str, Influence | None, bool], ...], me: str, values: ValuesTable) -> None:
        self.goal = goal
        self.cards = cards = [(owner, card) for owner, card, _up in column]
        self.r = r = reckon(goal, cards, values)
        self.before = goal.value * chance_of(lead_of(me, r))
        self.nums = numbers_under(values, goal.area)
        self.quick = r.pair is None and not r.hermits and not r.giants
        sums = r.sums
        self.mine = sums.get(me, 0.0)
        others = [v for o, v in sums.items() if o != me]
        self.other = None if not others else min(others) if r.beggar else max(others)
        self.cut = 0 if r.musk else 2 * sum(n for o, n in r.dragons if o != me)

    def gain(self, me: str, card: Influence | None, values: ValuesTable) -> float:
        """The goal points gained with ``card`` (``None``: one the companion has not seen)
        placed at the bottom."""
        r = self.r
        if self.quick and (card is None or card.kind != "distribution"):
            n = float(UNKNOWN_WORTH if card is None else self.nums[card.index])
            if not r.musk and ((r.high_gone and n >= 10) or (r.low_gone and n <= 9)):
                if me not in r.sums:
                    return 0.0  # removed at once: the player still takes no part (B20, B26)
                n = 0.0
            elif self.cut:
                n = max(0.0, n - self.cut)
            other = self.other
            if other is None:
                lead = 10.0
            else:
                lead = other - (self.mine + n) if r.beggar else self.mine + n - other
            return self.goal.value * chance_of(lead) - self.before
        goal = self.goal
        sums = r.with_card(me, card, self.nums, self.cards) if card is not None else r.plus(me, UNKNOWN_WORTH) if r.pair is None else None
        if sums is not None:
            return goal.value * chance_of(lead_of(me, r._replace(sums=sums))) - self.before
        return _worth(goal, self.cards + [(me, card)], me, values) - self.before


def cloak_column(view: RabView) -> int | None:
    """The column (from 0) of the card acting now: a Cloak's or a Traitor's."""
    return view.at[0] if view.at is not None else None


def _cloak_gains(view: RabView, options: Sequence[Cloak], values: ValuesTable) -> list[float]:
    """Each Cloak decision's gain: the card placed right under the Cloak (B14); nothing
    placed gains nothing."""
    me = view.player
    at = view.at
    assert at is not None
    k, pos = at
    goal = view.goals[k]
    assert goal is not None
    cards = column_cards(view, k)
    before = _worth(goal, cards, me, values)
    out = []
    for d in options:
        if not d.placed:
            out.append(0.0)
            continue
        card = d.card if isinstance(d.card, Influence) else None
        after = _worth(goal, cards[: pos + 1] + [(me, card)] + cards[pos + 1 :], me, values)
        out.append(after - before - 0.5 * keep_worth(d.card or UNSEEN, view, values))
    return out


def swap_gain(view: RabView, to: int, values: ValuesTable) -> float:
    """The goal points the player stands to gain by the Traitor's exchange of his column's
    goal card with column ``to``'s (from 1, B15): both columns reckoned again, a
    professional's number following its new goal card (B3)."""
    me = view.player
    at = view.at
    assert at is not None
    k, j = at[0], to - 1
    here, there = view.goals[k], view.goals[j]
    assert here is not None and there is not None
    a, b = column_cards(view, k), column_cards(view, j)
    now = _worth(here, a, me, values) + _worth(there, b, me, values)
    then = _worth(there, a, me, values) + _worth(here, b, me, values)
    return then - now


class RolloutPolicy:
    """The quick player of playouts (the module's words say how it plays), from a player's
    view. ``noise``: the share of decisions made at random."""

    def __init__(self, noise: float = 0.1) -> None:
        self.noise = noise

    def __call__(self, view: RabView, rng: random.Random) -> Move:
        if view.waiting == "place" and view.to_move == view.player and (view.hand or view.hand_unseen):
            return self._place(view, rng)
        options = view.decisions
        if len(options) == 1:
            return options[0]
        if self.noise and rng.random() < self.noise:
            return options[rng.randrange(len(options))]
        values = view.values
        assert values is not None
        first = options[0]
        if type(first) is Cloak:
            cloaks = [d for d in options if type(d) is Cloak]
            gains = _cloak_gains(view, cloaks, values)
            best = max(range(len(cloaks)), key=gains.__getitem__)
            return cloaks[best] if gains[best] > 0.0 else cloaks[0]
        if type(first) is Swap:
            swaps = [d for d in options if type(d) is Swap]
            best_move, best_gain = swaps[0], 0.05
            for d in swaps[1:]:
                assert isinstance(d, Swap) and d.swap is not None
                g = swap_gain(view, d.swap, values)
                if g > best_gain:
                    best_move, best_gain = d, g
            return best_move
        return first

    def _place(self, view: RabView, rng: random.Random) -> Place:
        """A card and its column (B8): the decisions of :attr:`RabView.decisions` (the columns
        left to right, the cards in its order) without making each of them."""
        cards: list[Influence | Unseen] = list(view.hand)
        if view.hand_unseen:
            cards.append(UNSEEN)
        columns = [k + 1 for k, closed in enumerate(view.closed) if not closed]
        n = len(columns) * len(cards)
        if n == 1:
            return Place(view.player, columns[0], cards[0], None)
        if self.noise and rng.random() < self.noise:
            i = rng.randrange(n)
            return Place(view.player, columns[i // len(cards)], cards[i % len(cards)], None)
        values = view.values
        assert values is not None
        return _best_place(view, columns, cards, values)


def advance(state: RabState, rng: random.Random, policy: Player) -> None:
    """One move of a world: the deciding player's decision by ``policy`` from their view
    (realized in the world), or the table's: a card turned over, an ability carried out, the
    reveal, the distribution (B10-B18), a card nobody saw drawn at random from what it may
    be."""
    who = state.to_move
    if who is None:
        state.push(state.random_table_move(rng), check=False)
    else:
        state.push(realize(state, policy(state.view(who), rng), None, rng), check=False)


def play_out(state: RabState, rng: random.Random, policy: Player) -> None:
    """Play a world on with ``policy`` to the end of the round: its distribution (B18-B27)."""
    while True:
        phase = state.phase
        if phase is _ROUND or phase is _OVER:
            return
        advance(state, rng, policy)


def describe(move: Move) -> str:
    """A decision in words for the player making it: ``place KING in column 3``, ``place a
    card in column 2`` (one the companion has not seen), ``place QUEEN under the Cloak``,
    ``place nothing under the Cloak``, ``exchange the goal cards with column 4``, ``keep the
    goal cards``, ``pass``."""
    t = type(move)
    if t is Place:
        assert isinstance(move, Place)
        what = move.card.id if isinstance(move.card, Influence) else "a card"
        return f"place {what} in column {move.column}"
    if t is Cloak:
        assert isinstance(move, Cloak)
        if not move.placed:
            return "place nothing under the Cloak"
        what = move.card.id if isinstance(move.card, Influence) else "a card"
        return f"place {what} under the Cloak"
    if t is Swap:
        assert isinstance(move, Swap)
        return "keep the goal cards" if move.swap is None else f"exchange the goal cards with column {move.swap}"
    if t is Pass:
        return "pass"
    return repr(move)
