"""The line at the top of the table screen: the game's state in a few words, then the
source's (demo paused, manual play, saved...), on one line whatever the width."""

from __future__ import annotations

from textual.reactive import reactive

from companion.dashboard.widgets.base import GamePanel

__all__ = ["StatusLine"]


class StatusLine(GamePanel):
    """A game's status line renders the game (:meth:`render_game`) and ends with
    :attr:`source_status`, the part that gives way first on a narrow line."""

    DEFAULT_CSS = """
    StatusLine {
        border: none;
        padding: 0 1;
        background: $boost;
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    source_status: reactive[str] = reactive("")

    def watch_source_status(self, value: str) -> None:
        self.refresh_panel()

    def on_resize(self) -> None:
        self.refresh_panel()
