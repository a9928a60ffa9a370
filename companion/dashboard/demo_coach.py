"""The coach as a demo table's player, in any game that brings a coach: its levels, named
``coach`` and ``coach:LEVEL``, and its decision for one player from that player's view, at a
fixed number of samples so that a seeded demo plays the same on any machine."""

from __future__ import annotations

import random
from typing import Any

from companion.contract import Game

__all__ = ["coach_levels", "coach_decision"]


def coach_levels(game: Game[Any, Any]) -> tuple[str, ...]:
    """``coach`` and ``coach:LEVEL`` for each of the coach's levels, once ``game`` brings a
    coach (``game.coach()``); none before."""
    from companion.coach import LEVELS, CoachError, model_of

    try:
        model_of(game)
    except CoachError:
        return ()
    return ("coach",) + tuple(f"coach:{name}" for name in LEVELS)


def coach_decision(state: Any, player: str, level: str, rng: random.Random) -> Any:
    """``player``'s decision in ``state`` as the coach at ``level`` (``coach`` is its default
    level, ``coach:deep`` its deep one) chooses it, sampling the hidden cards itself."""
    from companion.coach import LEVELS, Coach

    _, _, depth = level.partition(":")
    name = depth or "default"
    advice = Coach(name).advise(state, player, samples=LEVELS[name].fixed_samples, seed=rng.getrandbits(32))
    return state.decision(advice.best.move)
