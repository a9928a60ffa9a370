"""The table tracker: from what the sensors see to moves of the game.

:class:`Tracker` takes observations and applies the moves that explain them, by the reasoning
of the game played (``game.tracking()``: :class:`TableRules`); a game's simulated table does
the reverse, turning moves into what a camera would see (for the demo table, tests and
benchmarks).
"""

from companion.tracker.events import (
    Choice,
    Failure,
    InSync,
    MoveApplied,
    Notice,
    OutOfSync,
    Question,
    RuleHint,
    TrackerEvent,
    TrackerState,
)
from companion.tracker.tracker import SOURCE, TableReasoner, TableRules, Tracker, TrackerConfig

__all__ = [
    "Tracker",
    "TrackerConfig",
    "TableRules",
    "TableReasoner",
    "TrackerState",
    "TrackerEvent",
    "MoveApplied",
    "SOURCE",
    "Question",
    "Choice",
    "RuleHint",
    "OutOfSync",
    "InSync",
    "Notice",
    "Failure",
]
