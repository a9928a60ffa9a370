"""Messages of the dashboard, app-wide.

Move sources (the demo table, a record being replayed, manual entry, the sensor tracker)
propose moves to the game session; the session checks, applies and records them and tells the
app through its :class:`~companion.dashboard.link.SessionLink`, which posts one message per
kind of change (:class:`SessionChanged`) to the table screen, worded there and then. The table
screen (:class:`~companion.dashboard.screens.view.SessionView`) writes its log and its play
panel from each and redraws; the message then bubbles up to the app, which does what follows
(the settlement of a period, the table's next step). What a source says besides is here too
(:class:`SourceNote`, :class:`SourceFinished`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.message import Message

from companion import session as events
from companion.dashboard.flag import Flag
from companion.dashboard.widgets.event_log import LogEntry

__all__ = [
    "EventCorrected",
    "GameStarted",
    "MoveApplied",
    "MoveRefused",
    "MoveUndone",
    "RecordTrouble",
    "RedoDropped",
    "SessionChanged",
    "SourceFinished",
    "SourceNote",
]


class SessionChanged(Message):
    """The session changed: ``event`` says how (:mod:`companion.session.events`)."""

    def __init__(self, event: Any) -> None:
        super().__init__()
        self.event = event


class GameStarted(SessionChanged):
    """A game began in the session, or a saved one was taken up (``event.resumed``, with
    ``entries``, its whole event log)."""

    def __init__(self, event: events.Started, entries: Sequence[LogEntry] = ()) -> None:
        super().__init__(event)
        self.event: events.Started = event
        self.entries = tuple(entries)


class MoveApplied(SessionChanged):
    """A move was applied: its lines for the event log (``entries``), what the play panel
    keeps of it (``played``), and whether the source was fast-forwarding (``quiet``: no
    settlement for the period it ends)."""

    def __init__(self, event: events.Applied, entries: Sequence[LogEntry], played: Any, *, quiet: bool) -> None:
        super().__init__(event)
        self.event: events.Applied = event
        self.entries = tuple(entries)
        self.played = played
        self.quiet = quiet


class MoveRefused(SessionChanged):
    """A move was refused (``event.error`` names the ruling); nothing changed. ``tried``: the
    move in words; ``flag``: the refusal as the play panel shows it."""

    def __init__(self, event: events.Refused, tried: str, flag: Flag) -> None:
        super().__init__(event)
        self.event: events.Refused = event
        self.tried = tried
        self.flag = flag


class MoveUndone(SessionChanged):
    """The last event was taken back (``undone``: it, in words)."""

    def __init__(self, event: events.Undone, undone: str) -> None:
        super().__init__(event)
        self.event: events.Undone = event
        self.undone = undone


class EventCorrected(SessionChanged):
    """An event was replaced; the later ones applied again where they still fit. ``entries``:
    the event log written anew; ``notes``: what the log says of it, each with its kind."""

    def __init__(self, event: events.Corrected, entries: Sequence[LogEntry], notes: Sequence[tuple[str, str]]) -> None:
        super().__init__(event)
        self.event: events.Corrected = event
        self.entries = tuple(entries)
        self.notes = tuple(notes)


class RedoDropped(SessionChanged):
    """A new event made the undone ones stale."""


class RecordTrouble(SessionChanged):
    """The record could not be written (the game goes on)."""


class SourceNote(Message):
    """Something a source wants the table to read in the event log."""

    def __init__(self, text: str, source: str, *, severity: str = "information") -> None:
        super().__init__()
        self.text = text
        self.source = source
        self.severity = severity


class SourceFinished(Message):
    """The source has nothing more to give (the game is over, the record ends)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source
