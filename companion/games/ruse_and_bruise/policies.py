"""Players for simulated tables, and :func:`simulate`, which deals and plays a whole game.

A policy chooses the decision of the player deciding (:attr:`RabState.to_move
<companion.games.ruse_and_bruise.game.RabState.to_move>`): a card to place and where (B8), what
to do with a Cloak (B14) or a Traitor (B15). It reads only its player's view
(:class:`~companion.games.ruse_and_bruise.view.RabView`); what the player draws is chance's.

>>> from companion.games.ruse_and_bruise.values import EXAMPLE
>>> setup, moves = simulate(["ann", "bob", "cy"], EXAMPLE, seed=3)
>>> state = setup.game.new_state(setup)
>>> for move in moves:
...     state.push(move)
>>> state.is_game_over(), len(state.results)
(True, 6)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from companion.games.ruse_and_bruise.cards import COLOURS, GOALS, GOALS_PER_PLAYER, HAND_SIZE, INFLUENCE, Influence
from companion.games.ruse_and_bruise.distribution import distribute, number_in
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Place, Swap
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.values import ValuesTable
from companion.games.ruse_and_bruise.view import RabView

__all__ = ["Policy", "RandomPlayer", "RuleOfThumbPlayer", "POLICIES", "LEVELS", "simulate", "deal", "play_out"]

UNKNOWN_WORTH = 7
"""What a face-down card of another player is taken to add to its owner's sum: about the
middle of the numbers a hand holds."""


class Policy(Protocol):
    """A player: chooses one of ``decisions`` (moves of the player deciding, each standing for
    every move with the same decision) from what ``view`` shows."""

    name: str

    def choose(self, view: RabView, decisions: Sequence[Move], values: ValuesTable, rng: random.Random) -> Move: ...


class RandomPlayer:
    """Chooses uniformly among the distinct decisions open to it."""

    name = "random"

    def choose(self, view: RabView, decisions: Sequence[Move], values: ValuesTable, rng: random.Random) -> Move:
        return rng.choice(list(decisions))


def _standing(view: RabView, k: int, values: ValuesTable, extra: Influence | None = None, *, under: int | None = None) -> float:
    """How well ``view.player`` stands in column ``k`` as far as they can see: their lead
    over the best other player (positive when ahead), with a face-down card of another player
    worth :data:`UNKNOWN_WORTH`; with ``extra``, the same after placing it at the bottom (or
    right under position ``under``)."""
    goal = view.goals[k]
    if goal is None:
        return 0.0
    cards: list[tuple[str, Influence]] = []
    unknown: dict[str, int] = {}
    for owner, card, _up in view.columns[k]:
        if card is None:
            unknown[owner] = unknown.get(owner, 0) + 1
        else:
            cards.append((owner, card))
    if extra is not None:
        if under is None:
            cards.append((view.player, extra))
        else:
            cards.insert(min(under + 1, len(cards)), (view.player, extra))
    column = distribute(goal, cards, values)
    sums = dict(column.sums)
    for owner, n in unknown.items():
        sums[owner] = sums.get(owner, 0) + UNKNOWN_WORTH * n
    if column.winner is not None and column.why in ("pair", "pair-closest"):
        return 50.0 if column.winner == view.player else -50.0
    mine = sums.get(view.player, 0) if view.player in column.taking_part or extra is not None else -1
    others = [v for o, v in sums.items() if o != view.player]
    if not others:
        return 10.0 if mine >= 0 else 0.0
    beggar = any(c.card.id == "BEGGAR" and c.removed is None for c in column.cards)
    return float(min(others) - mine) if beggar else float(mine - max(others))


class RuleOfThumbPlayer:
    """A player of simple habits, the level of a table's newcomer, who reckons each column by
    the cards they can see (a face-down card of another player worth about 7):

    - Placing (B8): the card and column that most raise the goal points they stand to win,
      a column counting when they lead in it after the card; among equal choices the weaker
      card (strong cards are kept for later), then a column nearer its goal card's count.
    - A Cloak (B14): the strongest card of the hand under it when they do not lead in its
      column, else nothing.
    - A Traitor (B15): they bring the highest goal card into the Traitor's column when they
      lead there, and send its goal card to the column they lead least in otherwise; nothing
      when neither helps.
    """

    name = "rule-of-thumb"

    def choose(self, view: RabView, decisions: Sequence[Move], values: ValuesTable, rng: random.Random) -> Move:
        first = decisions[0]
        if isinstance(first, Place):
            return self._place(view, [d for d in decisions if isinstance(d, Place)], values)
        if isinstance(first, Cloak):
            return self._cloak(view, [d for d in decisions if isinstance(d, Cloak)], values)
        if isinstance(first, Swap):
            return self._swap(view, [d for d in decisions if isinstance(d, Swap)], values)
        return first

    def _place(self, view: RabView, decisions: list[Place], values: ValuesTable) -> Move:
        before = {k: _standing(view, k, values) for k in range(len(view.goals))}

        def worth(move: Place) -> tuple[float, float, float]:
            k = move.column - 1
            goal = view.goals[k]
            assert goal is not None
            card = move.card if isinstance(move.card, Influence) else None
            after = _standing(view, k, values, card) if card is not None else before[k] + UNKNOWN_WORTH
            gain = goal.value * ((after > 0) - (before[k] > 0)) + 0.05 * (after - before[k])
            number = number_in(card, goal, values) if card is not None else UNKNOWN_WORTH
            needs = goal.value - len(view.columns[k])
            return (gain, -(number or 0), -needs)

        return max(decisions, key=worth)

    def _cloak(self, view: RabView, decisions: list[Cloak], values: ValuesTable) -> Move:
        decline = next((d for d in decisions if not d.placed), decisions[0])
        placing = [(d, d.card) for d in decisions if d.placed and isinstance(d.card, Influence)]
        k = next((k for k, col in enumerate(view.columns) for owner, card, up in col if up and card is not None and card.id == "CLOAK" and owner == view.player), None)
        if not placing or k is None or _standing(view, k, values) > 0:
            return decline
        goal = view.goals[k]
        assert goal is not None
        return max(placing, key=lambda placed: number_in(placed[1], goal, values) or 0)[0]

    def _swap(self, view: RabView, decisions: list[Swap], values: ValuesTable) -> Move:
        decline = next(d for d in decisions if d.swap is None)
        k = next((k for k, col in enumerate(view.columns) for owner, card, up in col if up and card is not None and card.id == "TRAITOR" and owner == view.player), None)
        if k is None:
            return decline
        here = view.goals[k]
        assert here is not None
        leading = _standing(view, k, values) > 0
        best = decline
        best_gain = 0
        for d in decisions:
            if d.swap is None:
                continue
            there = view.goals[d.swap - 1]
            assert there is not None
            lead_there = _standing(view, d.swap - 1, values) > 0
            gain = (there.value - here.value) * (int(leading) - int(lead_there))
            if gain > best_gain:
                best, best_gain = d, gain
        return best


POLICIES: dict[str, type[RandomPlayer] | type[RuleOfThumbPlayer]] = {"random": RandomPlayer, "rule-of-thumb": RuleOfThumbPlayer}
"""The simulated players' levels by name."""
LEVELS: tuple[str, ...] = tuple(POLICIES)


def deal(players: Sequence[str], values: ValuesTable, rng: random.Random, *, colours: Sequence[str] | None = None) -> RabSetup:
    """A table of ``players`` with every card dealt (B6): 6 goal cards per player in one stack
    each, 3 influence cards in each hand."""
    goals = list(GOALS)
    rng.shuffle(goals)
    stacks = tuple(tuple(goals[GOALS_PER_PLAYER * k : GOALS_PER_PLAYER * (k + 1)]) for k in range(len(players)))
    hands = tuple(tuple(rng.sample(INFLUENCE, HAND_SIZE)) for _ in players)
    return RabSetup(tuple(players), tuple(colours or COLOURS[: len(players)]), values, stacks, hands)


def play_out(state: RabState, policies: Sequence[Policy], rng: random.Random, *, max_moves: int = 20_000) -> list[Move]:
    """Play ``state`` to its end: the table's moves by chance, each player's decisions by
    their policy (``policies`` in seating order), what they draw by chance. The moves made."""
    assert state.values is not None
    moves: list[Move] = []
    players = state.players
    while not state.is_game_over():
        if len(moves) >= max_moves:
            raise RuntimeError(f"the game did not end within {max_moves} moves")
        player = state.to_move
        if player is None:
            move = state.random_table_move(rng)
        else:
            by_decision: dict[object, list[Move]] = {}
            for m in state.legal_moves:
                by_decision.setdefault(state.decision(m), []).append(m)
            options = [group[0] for group in by_decision.values()]
            policy = policies[players.index(player)]
            chosen = policy.choose(state.view(player), options, state.values, rng)
            move = rng.choice(by_decision[state.decision(chosen)])
        state.push(move, check=False)
        moves.append(move)
    return moves


def simulate(players: Sequence[str], values: ValuesTable, seed: int, level: str = "random") -> tuple[RabSetup, list[Move]]:
    """Deal a table of ``players`` from ``seed`` and play a whole game at ``level``
    (``random`` or ``rule-of-thumb``): the set-up and the moves, every card named."""
    rng = random.Random(seed)
    setup = deal(players, values, rng)
    state = RabState(setup, keep_history=False)
    policy = POLICIES[level]()
    return setup, play_out(state, [policy] * len(players), rng)
