"""Positions of Circle of Power for the coach's tests, found in simulated games of
rule-of-thumb players (every card seen), and the records they come from."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Move
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import CircleSetup


@dataclass
class Spot:
    """A position of a simulated game: the set-up, every move of the game, and how many of
    them were pushed to reach it."""

    setup: CircleSetup
    moves: list[Move]
    index: int
    state: CircleState

    @property
    def line(self) -> int:
        """The record's line after which the position stands (line 1 is the header)."""
        return self.index + 1


def spots(players: tuple[str, ...] = ("ann", "bob"), variant: str = "basic", seeds: range = range(40)) -> Iterator[Spot]:
    """Every position of the simulated games where a player is to move."""
    for seed in seeds:
        setup, moves = simulate(list(players), variant, seed)
        state = CircleState(setup, keep_history=False)
        for index, move in enumerate(moves):
            if state.to_move in setup.players:
                yield Spot(setup, moves, index, state.copy(keep_history=False))
            state.push(move)


def find(predicate: Callable[[CircleState], bool], **kwargs: object) -> Spot:
    """The first position satisfying ``predicate``."""
    for spot in spots(**kwargs):  # type: ignore[arg-type]
        if predicate(spot.state):
            return spot
    raise AssertionError("no such position in the simulated games")


def is_play(state: CircleState) -> bool:
    return state.phase is Phase.PLAY and len(set(state.hand(state.to_move or ""))) > 1


def is_act(state: CircleState) -> bool:
    return state.phase is Phase.ACT and len({(type(m), getattr(m, "victim", None)) for m in state.legal_moves}) > 1
