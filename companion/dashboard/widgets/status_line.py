"""The line at the top of the table screen: the game's state in a few words, then the
source's (demo paused, manual play, saved...), on one line whatever the width."""

from __future__ import annotations

import re

from rich.text import Text
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

    def ending(self, game_part: Text) -> Text:
        """``game_part`` (the game's state in a few words) ended with the source's state in the
        room left, in whole words (:meth:`fitted_status`), on one line whatever the width."""
        t = game_part.copy()
        room = self.size.width - 2 - t.cell_len - 2 if self.size.width else 200
        status = self.fitted_status(room)
        if status:
            t.append(f"  {status}", style="dim")
        t.no_wrap = True
        t.overflow = "ellipsis"
        return t

    def fitted_status(self, room: int) -> str:
        """:attr:`source_status` in at most ``room`` cells, with whole words only: its parts
        (``"manual play; 1 undone (Ctrl+Y re-applies); saved"``) lose first their explanations
        (after a colon or in brackets), then the parts least needed go, the last kept longest
        but one: a correction under way outlasts the rest. ``""`` when not even that fits."""
        return fit_status(self.source_status, room)


def _short(part: str) -> str:
    part = re.sub(r" \(.*\)$", "", part)
    return part.partition(": ")[0].partition(", ")[0]


def fit_status(status: str, room: int) -> str:
    """``status`` (``"; "``-separated parts) in ``room`` cells, bracketed, whole words only."""
    parts = [p for p in status.split("; ") if p]
    if not parts:
        return ""
    tries = [parts, [_short(p) for p in parts]]
    short = tries[-1]
    # Then the parts least needed go first: "saved", then the source's name, then the rest.
    order = sorted(range(len(short)), key=lambda i: (short[i] != "saved", i != 0, "correcting" in short[i], i))
    kept = list(range(len(short)))
    for i in order[:-1]:
        kept.remove(i)
        tries.append([short[k] for k in kept])
    for parts_tried in tries:
        text = f"[{'; '.join(parts_tried)}]"
        if len(text) <= room:
            return text
    return ""
