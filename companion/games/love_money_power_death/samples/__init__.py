"""Sample records of Love, Money, Power, Death shipped with the companion: games of two to six
players, and one kept from one player's view (the other hands, the piles, the noble pile and
the other players' commits and draws unseen). ``rop replay --samples`` lists them.

They are written by ``python -m companion.games.love_money_power_death.samples.generate`` from
fixed seeds (:data:`SAMPLES`), and replayed with every rule checked by the test suite.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import NamedTuple

__all__ = ["SAMPLES", "SampleGame", "sample_path"]


class SampleGame(NamedTuple):
    """How a sample is made: the players (seating order), the nobles in use (how many of the
    deck's), the simulation's seed and level, and whose view the record is kept from (``None``:
    every card seen)."""

    players: tuple[str, ...]
    nobles: int
    seed: int
    level: int
    seen_by: str | None
    description: str


#: name: how it is made and what it shows.
SAMPLES: dict[str, SampleGame] = {
    "lmpd-2": SampleGame(("ann", "bob"), 10, 3, 1, None, "2 players, all ten nobles, played by rules of thumb"),
    "lmpd-3": SampleGame(("ann", "bob", "cy"), 10, 7, 1, None, "3 players, all ten nobles"),
    "lmpd-4": SampleGame(("ann", "bob", "cy", "dee"), 10, 11, 0, None, "4 players, two cards set aside (L5)"),
    "lmpd-5": SampleGame(("ann", "bob", "cy", "dee", "eve"), 8, 5, 1, None, "5 players with eight nobles (L4)"),
    "lmpd-6": SampleGame(("ann", "bob", "cy", "dee", "eve", "fay"), 7, 2, 0, None, "6 players with seven nobles, piles run out (L11)"),
    "lmpd-seen-by-ann": SampleGame(
        ("ann", "bob", "cy"), 10, 9, 1, "ann", "3 players, kept from ann's view: other hands, piles, commits and draws unseen (L14)"
    ),
}


def sample_path(name: str) -> Path:
    """The path of a shipped sample record."""
    if name not in SAMPLES:
        raise KeyError(f"no sample named {name!r}; the samples are {', '.join(SAMPLES)}")
    return Path(str(resources.files(__package__).joinpath(f"{name}.jsonl")))
