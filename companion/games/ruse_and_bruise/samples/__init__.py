"""Sample records of Ruse and Bruise shipped with the companion: one game of each table size
from 2 to 6 players, and one as a player's own companion keeps it (the other players' hands,
placements and draws unseen, B29). ``rop replay --samples`` lists them.

They are written by ``python -m companion.games.ruse_and_bruise.samples.generate`` from fixed
seeds (:data:`SAMPLES`) with the rulings' example values table (B4), players playing by rules
of thumb, and replayed with every rule checked by the test suite.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import NamedTuple

__all__ = ["SAMPLES", "SampleGame", "sample_path"]


class SampleGame(NamedTuple):
    """How a sample is made: the players in turn order, the simulation's seed, whose companion
    keeps the record (``None``: every card named), and what it shows."""

    players: tuple[str, ...]
    seed: int
    kept_by: str | None
    description: str


_NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")

#: name: how it is made and what it shows.
SAMPLES: dict[str, SampleGame] = {
    "ruse-2": SampleGame(_NAMES[:2], 2, None, "2 players, every card named, example values table"),
    "ruse-3": SampleGame(_NAMES[:3], 3, None, "3 players, every card named, example values table"),
    "ruse-4": SampleGame(_NAMES[:4], 4, None, "4 players, every card named, example values table"),
    "ruse-5": SampleGame(_NAMES[:5], 5, None, "5 players, every card named, example values table"),
    "ruse-6": SampleGame(_NAMES[:6], 6, None, "6 players, every card named, example values table"),
    "ruse-by-ann-4": SampleGame(
        _NAMES[:4], 14, "ann", "4 players as ann's companion keeps it: the other hands, placements and draws unseen (B29)"
    ),
}


def sample_path(name: str) -> Path:
    """The path of a shipped sample record."""
    if name not in SAMPLES:
        raise KeyError(f"no sample named {name!r}; the samples are {', '.join(SAMPLES)}")
    return Path(str(resources.files(__package__).joinpath(f"{name}.jsonl")))
