"""What a game session tells its listeners: each change of the one game state, as it happens.

Listeners (the dashboard, ``rop track``'s output, a club feed, the tracker) receive these in
the order the changes were made, in the thread that made them.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import Any

from companion.contract import Move

__all__ = [
    "SessionEvent",
    "Started",
    "Applied",
    "Refused",
    "Undone",
    "Corrected",
    "Dropped",
    "RedoDropped",
    "RecordTrouble",
]


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """Something changed in the session. ``source`` says who caused it: ``"manual"``,
    ``"demo"``, ``"replay"``, ``"tracker (camera)"``, ..."""

    source: str


@dataclass(frozen=True, slots=True)
class Started(SessionEvent):
    """A game begins in the session, or a saved one is taken up again with ``resumed``
    events already recorded."""

    setup: Any
    """The game's set-up (:class:`~companion.contract.Setup`)."""
    resumed: int = 0


@dataclass(frozen=True, slots=True)
class Applied(SessionEvent):
    """``move`` was checked and applied as event ``index`` (0-based, the record's line
    ``index + 2``); ``effects`` says what it did, the round it ended included."""

    index: int
    move: Move
    effects: Any
    redo: bool = False
    """The move was re-applied from the undone ones (redo)."""


@dataclass(frozen=True, slots=True)
class Refused(SessionEvent):
    """``move`` breaks a rule (``error.rule``) or is malformed; nothing changed."""

    move: Move
    error: ValueError

    @property
    def rule(self) -> str | None:
        return getattr(self.error, "rule", None)


@dataclass(frozen=True, slots=True)
class Undone(SessionEvent):
    """Event ``index``, ``move``, was taken back; it can be re-applied (redo)."""

    index: int
    move: Move


@dataclass(frozen=True, slots=True)
class Dropped:
    """An event after a correction that no longer fits the game, and why."""

    index: int
    move: Move
    error: ValueError


@dataclass(frozen=True, slots=True)
class Corrected(SessionEvent):
    """Event ``index`` was replaced by ``new``; the events after it that still fit were
    applied again (``reapplied``, their new indices), the others were ``dropped``."""

    index: int
    old: Move
    new: Move
    reapplied: tuple[int, ...]
    dropped: tuple[Dropped, ...]


@dataclass(frozen=True, slots=True)
class RedoDropped(SessionEvent):
    """A new move made the undone ones stale: they can no longer be re-applied."""

    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class RecordTrouble(SessionEvent):
    """The record could not be written (a full disk, a removed directory): the game goes
    on in memory, and ``message`` says what happened."""

    message: str
