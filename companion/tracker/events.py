"""What the tracker tells the dashboard and the record: moves applied, questions for the table,
rule hints, and whether the table and the game agree."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.contract import Move

__all__ = [
    "TrackerState",
    "TrackerEvent",
    "MoveApplied",
    "Choice",
    "Question",
    "RuleHint",
    "OutOfSync",
    "InSync",
    "Notice",
    "Failure",
]


class TrackerState(enum.Enum):
    SYNCED = "synced"
    """The table shows what the game expects."""
    WAITING = "waiting"
    """A move is under way on the table (a card shown, captures being picked up)."""
    ASKING = "asking"
    """Several moves explain the table: the players choose one."""
    OUT_OF_SYNC = "out of sync"
    """The table shows something no legal move explains; nothing is applied until it does."""


@dataclass(frozen=True, slots=True)
class TrackerEvent:
    pass


@dataclass(frozen=True, slots=True)
class MoveApplied(TrackerEvent):
    """A move was applied to the game. ``how`` says what decided it: ``"camera"``,
    ``"nfc"``, ``"forced"`` (the only thing the rules allow: a new deal, a pass with an empty
    hand), ``"answer"`` (the table chose) or ``"manual"``."""

    move: Move
    how: str


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class Question(TrackerEvent):
    """Several sequences of moves explain what the table shows; the players pick one
    (``Tracker.answer(index)``)."""

    prompt: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class RuleHint(TrackerEvent):
    """What the table shows is not legal; ``message`` says what the rules allow instead
    ("the 6 must take the 2 and the 4 (R4)"). The tracker waits for the table to be put right."""

    message: str
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class OutOfSync(TrackerEvent):
    """The table and the game disagree; ``differences`` lists each one in words."""

    differences: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InSync(TrackerEvent):
    """The table shows what the game expects again."""


@dataclass(frozen=True, slots=True)
class Notice(TrackerEvent):
    """Something worth telling the table that changes nothing: a sensor's state, an
    unknown tag, a card read outside any zone."""

    message: str


@dataclass(frozen=True, slots=True)
class Failure(Notice):
    """Something went wrong inside the tracker (a fault of the companion's, not of the table):
    reported, while the game, the record and the sensors go on."""
