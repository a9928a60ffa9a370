"""What lies face up on the table, step by step: the scenes a camera films.

A :class:`Scene` is the picture a sensor is expected to see after one physical step of play
(a card laid, cards taken, a Fate card shown), with the cards lying face down whose backs a
camera sees (a committed card). The simulated table produces scenes from moves
(each game's ``simulation.staging``); the camera renderer draws them (:mod:`vision.scenes`), and
:func:`changes` tells what an ideal camera reports from one scene to the next.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from companion.contract import Card, Move
from companion.contract.registry import game
from companion.observations.types import BackGone, BackSeen, CardGone, CardSeen, Observation

__all__ = ["TableCard", "Scene", "changes"]


@dataclass(frozen=True, slots=True)
class TableCard:
    """One card on the table: which, whose seal it carries (Fate cards), in which zone, and
    whether it lies face up (else the camera sees its back, where its deck's backs carry
    seals)."""

    card: Card
    owner: str | None
    zone: str
    face_up: bool = True


@dataclass(frozen=True, slots=True)
class Scene:
    """The cards after one step, in the order they were laid down, and the move the step
    belongs to (``None`` for the sweep at a round's end)."""

    cards: tuple[TableCard, ...]
    move: Move | None
    caption: str


def changes(before: Scene | None, after: Scene, at: float, source: str = "camera") -> list[Observation]:
    """What an ideal camera reports between two scenes: each card gone, each card seen; each
    back gone, each back seen (by its deck and copy, and a mark for where it lies: never by
    the card it is)."""
    old = {(c.card, c.owner, c.face_up): c.zone for c in before.cards} if before else {}
    new = {(c.card, c.owner, c.face_up): c.zone for c in after.cards}
    out: list[Observation] = []
    for (card, owner, face_up), zone in old.items():
        if new.get((card, owner, face_up)) != zone:
            out.append(CardGone(source, at, card, owner, zone) if face_up else BackGone(source, at, _deck(card), owner, zone, _mark(zone, owner)))
    for (card, owner, face_up), zone in new.items():
        if old.get((card, owner, face_up)) != zone:
            out.append(CardSeen(source, at, card, owner, zone) if face_up else BackSeen(source, at, _deck(card), owner, zone, None, _mark(zone, owner)))
    return out


def _deck(card: Card) -> str:
    """The name of the deck whose back ``card`` shows."""
    spec = game(card.game).table
    if spec is None:
        raise ValueError(f"{card.id}: {game(card.game).title} has no table whose backs a camera reads")
    return spec.deck_of(card).name


def _mark(zone: str, owner: str | None) -> int:
    """An ideal camera's number for the back lying in ``zone``: one back of a copy per zone."""
    return zlib.crc32(f"{zone}/{owner}".encode())
