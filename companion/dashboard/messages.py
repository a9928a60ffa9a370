"""Messages of the dashboard, app-wide.

Move sources (the demo table, a record being replayed, manual entry, the sensor tracker)
propose moves to the game session; the session checks, applies and records them and tells the
app through its :class:`~companion.dashboard.link.SessionLink`, whose messages say what
changed. What a source says besides is here.
"""

from __future__ import annotations

from textual.message import Message

__all__ = ["SourceFinished", "SourceNote"]


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
