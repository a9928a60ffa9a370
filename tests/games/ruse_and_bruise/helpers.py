"""Tables and columns for the Ruse and Bruise tests: a game dealt as the test says, moves
written briefly, one column's distribution from its cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.distribution import ColumnDistribution
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Assassinate, Cloak, Distribute, Explore, Move, Pass, Place, Reveal, Round, Storm, Swap, TurnOver
from companion.games.ruse_and_bruise.query import legal
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.values import EXAMPLE, ValuesTable

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def table(
    players: int | Sequence[str] = 2,
    hands: Mapping[str, Sequence[str | None] | None] | None = None,
    goals: Sequence[Sequence[str | None]] | None = None,
    values: ValuesTable = EXAMPLE,
) -> RabState:
    """A game about to begin: ``players`` (a count or names), each hand as given (unseen when
    left out), the goal stacks as given (unseen when left out), the example values table."""
    names = NAMES[:players] if isinstance(players, int) else tuple(players)
    setup = GAME.make_setup(names, values=values, hands=dict(hands) if hands else None, goals=goals)
    return GAME.new_state(setup)


def play(state: RabState, *moves: Move) -> RabState:
    """Push each move, every rule checked."""
    for move in moves:
        state.push(move)
    return state


def rnd(*goals: str, drew: Mapping[str, Sequence[str | None]] | None = None) -> Round:
    return Round.make(goals, drew)


def place(player: str, column: int, card: str | None, drew: str | None = None) -> Place:
    return Place.make(player, column, card, drew)


def turn(column: int, card: str) -> TurnOver:
    return TurnOver.make(column, card)


def explore(to: int | None) -> Explore:
    return Explore(to)


def assassin(card: str | None) -> Assassinate:
    return Assassinate.make(card)


def storm(column: int) -> Storm:
    return Storm(column)


def cloak(player: str, card: str | None = None, drew: str | None = None, *, placed: bool = True) -> Cloak:
    return Cloak.make(player, card, drew, placed=placed)


def swap(player: str, column: int | None) -> Swap:
    return Swap(player, column)


def passes(player: str) -> Pass:
    return Pass(player)


def reveal(*columns: str) -> Reveal:
    """``reveal("KING,QUEEN", "", "WIZ")``: each column's face-down cards, top down."""
    return Reveal.make([[c for c in col.split(",") if c] for col in columns])


def winners(*names: str | None) -> Distribute:
    return Distribute(tuple(names))


def column(goal: str, cards: str, values: ValuesTable = EXAMPLE) -> ColumnDistribution:
    """One column's distribution: ``column("music-3a", "blue:KING,white:WIZ")``."""
    return legal(goal, cards, values)


def card(card_id: str) -> Influence:
    return Influence.from_id(card_id)


def goal(goal_id: str) -> Goal:
    return Goal.from_id(goal_id)


def values_with(**numbers: int) -> ValuesTable:
    """The example table with some numbers changed."""
    return ValuesTable.from_mapping({**EXAMPLE.to_json(), **numbers})


def record_lines(setup: RabSetup, *events: Mapping[str, Any]) -> list[str]:
    """A record's lines: the set-up's game event, then ``events`` as written."""
    import json

    from companion.records.format import dumps_event, game_event

    return [dumps_event(game_event(setup)), *(json.dumps(e) for e in events)]
