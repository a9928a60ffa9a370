"""The event log: every move in words, and every illegal move flagged with its rule. In
manual play an event can be picked to correct it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

__all__ = ["EventLog", "LogEntry"]


@dataclass(frozen=True)
class LogEntry:
    """A line of the log. ``index`` is the move's place in the game's move stack, ``None``
    for a flag or a note (which stay until the moves before them are undone)."""

    text: str
    index: int | None
    kind: str = "move"
    """``move``, ``round``, ``deal``, ``illegal``, ``note``, ``error``, ``result``."""
    after: int = 0
    """For flags and notes: how many moves the game had when they were written."""


_STYLES = {
    "round": "bold",
    "deal": "bold",
    "illegal": "bold #ffffff on #b00020",
    "error": "bold #ffffff on #b00020",
    "result": "bold reverse",
    "note": "italic",
}


class EventLog(OptionList):
    class Picked(Message):
        """The table picked event ``index`` of the move stack, to correct it."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    DEFAULT_CSS = """
    EventLog {
        border: round $primary 50%;
        border-title-color: $text-accent;
        border-title-style: bold;
        height: 1fr;
        min-height: 4;
    }
    """

    BORDER_TITLE = "Events"

    def __init__(self, *, editable: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[LogEntry] = []
        self.editable = editable

    def on_mount(self) -> None:
        # Anchored, the newest event stays in view at every layout, even when the scroll bar
        # appearing wraps the last line onto a second one.
        self.anchor()
        if self.editable:
            self.border_subtitle = "Enter on an event: correct it"

    def _prompt(self, entry: LogEntry) -> Text:
        style = _STYLES.get(entry.kind, "")
        if entry.kind == "illegal":
            t = Text(" ILLEGAL ", style=style)
            t.append(" " + entry.text, style="bold")
            return t
        prefix = f"{entry.index + 1:>3} " if entry.index is not None else "    "
        t = Text(prefix, style="dim")
        t.append(entry.text, style=style)
        return t

    def add(self, entry: LogEntry) -> None:
        self.entries.append(entry)
        self.add_option(Option(self._prompt(entry), disabled=entry.index is None or not self.editable))
        self.highlighted = None
        self.anchor()  # back to the newest, if the table had scrolled up to pick an event

    def truncate(self, moves: int) -> None:
        """Drop the entries of moves at or after ``moves`` (after an undo), and the flags
        written after them."""
        keep = [e for e in self.entries if (e.index is not None and e.index < moves) or (e.index is None and e.after <= moves)]
        if len(keep) == len(self.entries):
            return
        self.entries = []
        self.clear_options()
        for e in keep:
            self.add(e)

    def clear(self) -> None:
        self.entries = []
        self.clear_options()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entry = self.entries[event.option_index]
        if self.editable and entry.index is not None:
            self.post_message(EventLog.Picked(entry.index))
