"""What the toy games' coach models (``test_any_game``, ``test_simultaneous``) share: the value
of an end, a watch counting one event over the samples, and a risk told in a sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Value:
    margin: float
    win: float
    categories: tuple[float, ...]
    feats: tuple[bool, ...]


class Watch:
    """In how many of its samples a playout saw the event watched (another player taking the
    next trick, say)."""

    def __init__(self, hits: int = 0) -> None:
        self.samples, self.hits = 1, hits

    def merge(self, other: Watch) -> None:
        self.samples += other.samples
        self.hits += other.hits


@dataclass(frozen=True)
class Risk:
    chance: float
    text: str
    short: str

    def to_json(self) -> dict[str, Any]:
        return {"chance": round(self.chance, 3), "text": self.text}
