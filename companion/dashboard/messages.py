"""Messages of the dashboard, app-wide.

Move sources (the demo table, a record being replayed, manual entry, the sensor tracker)
propose moves to the game session; the session checks, applies and records them and tells the
app (:class:`SessionChanged`), which hands the game state down to the widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.message import Message

from companion.session import SessionEvent

if TYPE_CHECKING:
    from companion.dashboard.widgets.event_log import LogEntry
    from companion.games.rule_of_power.dashboard.widgets.moves import LastPlay

__all__ = ["SessionChanged", "SourceFinished", "SourceNote"]


class SessionChanged(Message):
    """The game session changed (:mod:`companion.session.events`), posted from whichever
    thread made the change. What depends on the state right after the change is worked out
    there and then: the lines for the event log (``entries``), the card just played with the
    captures it had (``last_play``), and whether a source was fast-forwarding (``quiet``: no
    settlement screen for the rounds it ends)."""

    def __init__(self, event: SessionEvent, entries: Sequence[LogEntry] = (), last_play: LastPlay | None = None, *, quiet: bool = False) -> None:
        super().__init__()
        self.event = event
        self.entries = tuple(entries)
        self.last_play = last_play
        self.quiet = quiet


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
