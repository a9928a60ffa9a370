"""The tables the coach of Circle of Power is measured at (``./run bench coach``): each a maker
of a season's opening from a seed, dealt by the table (C4-C7) up to the first decision."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.setup import BASIC, COLOURED_CITIES, LONELY_TYRANT, CircleSetup

__all__ = ["TABLES", "opening"]

_NAMES = ("ann", "bob", "cy", "dee")


def opening(players: int, variant: str = BASIC) -> Callable[[random.Random], CircleState]:
    """A maker of the opening of a season of ``players`` players (and dummies for the missing
    emperors, C4) under ``variant``: the seats, cities, hands and piles dealt (C6) and the
    table's moves made up to the first emperor's play."""
    setup = CircleSetup(_NAMES[:players], variant)

    def make(rng: random.Random) -> CircleState:
        state = CircleState(setup, keep_history=False)
        while not state.deciding:
            state.push(state.random_table_move(rng), check=False)
        return state

    return make


TABLES: dict[str, Callable[[random.Random], CircleState]] = {
    f"{n} players{', ' + variant if variant != BASIC else ''}": opening(n, variant)
    for variant in (BASIC, LONELY_TYRANT, COLOURED_CITIES)
    for n in (2, 4)
}
"""The tables by name (``2 players``, ``4 players, coloured-cities``), as
:meth:`~.model.CircleOfPowerCoach.tables` gives them."""
