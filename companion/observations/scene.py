"""What lies face up on the table, step by step: the scenes a camera films.

A :class:`Scene` is the picture a sensor is expected to see after one physical step of play
(a card laid, cards taken, a Fate card shown). The simulated table produces scenes from moves
(each game's ``simulation.staging``); the camera renderer draws them (:mod:`vision.scenes`), and
:func:`changes` tells what an ideal camera reports from one scene to the next.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.contract import Card, Move
from companion.observations.types import CardGone, CardSeen, Observation

__all__ = ["TableCard", "Scene", "changes"]


@dataclass(frozen=True, slots=True)
class TableCard:
    """One face-up card: which, whose seal it carries (Fate cards), and in which zone."""

    card: Card
    owner: str | None
    zone: str


@dataclass(frozen=True, slots=True)
class Scene:
    """The face-up cards after one step, in the order they were laid down, and the move the
    step belongs to (``None`` for the sweep at a round's end)."""

    cards: tuple[TableCard, ...]
    move: Move | None
    caption: str


def changes(before: Scene | None, after: Scene, at: float, source: str = "camera") -> list[Observation]:
    """What an ideal camera reports between two scenes: each card gone, each card seen."""
    old = {(c.card, c.owner): c.zone for c in before.cards} if before else {}
    new = {(c.card, c.owner): c.zone for c in after.cards}
    out: list[Observation] = [CardGone(source, at, k[0], k[1], z) for k, z in old.items() if new.get(k) != z]
    out += [CardSeen(source, at, k[0], k[1], z) for k, z in new.items() if old.get(k) != z]
    return out
