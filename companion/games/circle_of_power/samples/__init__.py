"""Sample records of Circle of Power shipped with the companion: one game of each variant, of
two, three and four players, and one as ``rop play`` keeps a game at a real table (hands,
dummies' piles and draws unseen). ``rop replay --samples`` lists them, ``rop demo --game
circle-of-power --sample NAME`` plays one in the dashboard.

They are written by ``python -m companion.games.circle_of_power.samples.generate`` from fixed
seeds (:data:`SAMPLES`), players playing by rules of thumb, and replayed with every rule checked
by the test suite.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import NamedTuple

__all__ = ["SAMPLES", "SampleGame", "sample_path"]


class SampleGame(NamedTuple):
    """How a sample is made: the players (clockwise), the variant, the simulation's seed, and
    whether the record keeps only what a table kept by keyboard sees (the cards played and
    turned up; no hand, pile or draw)."""

    players: tuple[str, ...]
    variant: str
    seed: int
    by_hand: bool
    description: str


#: name: how it is made and what it shows.
SAMPLES: dict[str, SampleGame] = {
    "basic-3": SampleGame(("ann", "bob", "cy"), "basic", 7, False, "3 players and a dummy that moves each season (C4), basic rules"),
    "basic-4": SampleGame(("ann", "bob", "cy", "dee"), "basic", 8, False, "4 players, basic rules"),
    "lonely-tyrant-4": SampleGame(
        ("ann", "bob", "cy", "dee"), "lonely-tyrant", 1, False, "4 players, Lonely Tyrant (C18): knock-outs, dummies in their seats"
    ),
    "coloured-2": SampleGame(("ann", "bob"), "coloured-cities", 5, False, "2 players and two dummies, Coloured Cities (C19)"),
    "coloured-3": SampleGame(("ann", "bob", "cy"), "coloured-cities", 6, False, "3 players, Coloured Cities (C19), won by trophies"),
    "kept-by-hand-3": SampleGame(
        ("ann", "bob", "cy"), "basic", 2, True, "3 players, basic rules, as rop play keeps it: hands, piles and draws unseen"
    ),
}


def sample_path(name: str) -> Path:
    """The path of a shipped sample record."""
    if name not in SAMPLES:
        raise KeyError(f"no sample named {name!r}; the samples are {', '.join(SAMPLES)}")
    return Path(str(resources.files(__package__).joinpath(f"{name}.jsonl")))
