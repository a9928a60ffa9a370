"""What lies face up on the table, step by step: the scenes a camera films.

A :class:`Scene` is the picture a sensor is expected to see after one physical step of play
(a card laid, cards taken, a Fate card shown). The simulated table produces scenes from moves
(:mod:`companion.games.rule_of_power.simulation.staging`); the camera renderer draws them (:mod:`vision.scenes`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.protocol import Card
from companion.games.protocol import Move

__all__ = ["TableCard", "Scene"]


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
