"""The table tracker: from what the sensors see to moves of the game.

:class:`Tracker` takes observations and applies the moves that explain them;
:mod:`companion.games.rule_of_power.simulation.staging` does the reverse, turning moves into what a camera would see
(for the demo table, tests and benchmarks).
"""

from companion.tracker.events import (
    Choice,
    InSync,
    MoveApplied,
    Notice,
    OutOfSync,
    Question,
    RuleHint,
    TrackerEvent,
    TrackerState,
)
from companion.tracker.tracker import SOURCE, Tracker, TrackerConfig

__all__ = [
    "Tracker",
    "TrackerConfig",
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
]
