"""The common ground of the panels: a game state handed down, re-rendered on change.

A game's panels subclass :class:`GamePanel` and render the game's own state (the state is
typed ``Any`` here: each game's panels take their game's)."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

__all__ = ["GamePanel", "side_label"]


def side_label(side: str) -> str:
    return side.replace("+", " + ")


class GamePanel(Static):
    """A panel showing part of the game. The screen sets :attr:`game` after every change
    (the same object, so the reactive always updates) and :attr:`teaching`."""

    DEFAULT_CSS = """
    GamePanel {
        border: round $primary 50%;
        border-title-color: $text-accent;
        border-title-style: bold;
        padding: 0 1;
        height: auto;
    }
    """

    game: reactive[Any] = reactive(None, always_update=True, layout=True)
    """The game's state (:class:`~companion.contract.State`), ``None`` before a game."""
    _shown_signature: object = None
    teaching: reactive[bool] = reactive(False)
    guard: AbstractContextManager[Any] = nullcontext()
    """Held while the panel reads :attr:`game`: the screen hands down its session's lock, since a
    tracker's thread may be playing on the same game object (a redraw on a resize, or when a
    risk arrives, comes between the screen's own draws)."""

    def watch_game(self, game: Any) -> None:
        self.refresh_panel()

    def watch_teaching(self, teaching: bool) -> None:
        self.refresh_panel()

    def on_resize(self) -> None:
        # A panel laid out to its width (a grid, a wrapped list) is drawn again at its new
        # width: one shown by F4 was drawn while hidden, at no width at all.
        self.refresh_panel()

    def refresh_panel(self) -> None:
        with self.guard:
            if self.game is None:
                content = Text("waiting for the game to start", style="italic")
            else:
                content = self.render_game(self.game)
        # Most moves change a few panels only: an unchanged panel is not redrawn, which
        # spares the layout a measurement and keeps the dashboard quick after each move.
        signature = _signature(content)
        if signature == self._shown_signature:
            return
        self._shown_signature = signature
        self.update(content)

    def room(self) -> int | None:
        """The rows the panel's content may take: its greatest height (the screen's limit, or
        its share of its column) less its border and padding; ``None`` before it is laid out or
        when nothing limits it. A panel with more to say than room leaves out what matters least
        (:meth:`rows_of` measures)."""
        limit = self.styles.max_height
        parent = self.parent
        if limit is None or not isinstance(parent, Widget) or not parent.size.height:
            return None
        return int(limit.resolve(parent.size, self.app.size)) - self.styles.gutter.height

    def rows_of(self, content: Text) -> int:
        """The rows ``content`` takes at the panel's width, wrapped at words as it is drawn."""
        width = self.size.width
        return len(content.wrap(self.app.console, width)) if width else 0

    def render_game(self, game: Any) -> Text:  # pragma: no cover - abstract
        """The panel's content: one ``Text`` (tables drawn with :func:`~companion.dashboard.grid.grid`)."""
        raise NotImplementedError


def _signature(content: Text) -> object:
    """A value equal for texts that look the same."""
    return (content.plain, tuple((sp.start, sp.end, str(sp.style)) for sp in content.spans), str(content.style), content.justify)
