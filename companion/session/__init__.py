"""The game session: one game at one table, the one state every move source talks to
(:mod:`~companion.session.session`), and what it tells its listeners
(:mod:`~companion.session.events`)."""

from companion.session.events import (
    Applied,
    Corrected,
    Dropped,
    RecordTrouble,
    RedoDropped,
    Refused,
    SessionEvent,
    Started,
    Undone,
)
from companion.session.session import GameSession, Listener, RecordSink

__all__ = [
    "GameSession",
    "Listener",
    "RecordSink",
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
