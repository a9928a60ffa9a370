"""The common ground of the panels: a game state handed down, re-rendered on change."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from companion.game import GameState

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

    game: reactive[GameState | None] = reactive(None, always_update=True, layout=True)
    _shown_signature: object = None
    teaching: reactive[bool] = reactive(False)

    def watch_game(self, game: GameState | None) -> None:
        self.refresh_panel()

    def watch_teaching(self, teaching: bool) -> None:
        self.refresh_panel()

    def refresh_panel(self) -> None:
        if self.game is None:
            content: RenderableType = Text("waiting for the game to start", style="italic")
        else:
            content = self.render_game(self.game)
        # Most moves change a few panels only: an unchanged panel is not re-rendered, which
        # spares the layout a measurement and keeps the dashboard quick after each move.
        signature = _signature(content)
        if signature is not None and signature == self._shown_signature:
            return
        self._shown_signature = signature
        self.update(content)

    def render_game(self, game: GameState) -> RenderableType:  # pragma: no cover - abstract
        raise NotImplementedError


def _signature(content: object) -> object:
    """A value equal for equal renderables (texts, tables, groups of them); ``None`` for
    anything else, which is always redrawn."""
    if isinstance(content, str):
        return content
    if isinstance(content, Text):
        return ("text", content.plain, tuple((sp.start, sp.end, str(sp.style)) for sp in content.spans), str(content.style), content.justify)
    if isinstance(content, Group):
        parts = tuple(_signature(r) for r in content.renderables)
        return None if None in parts else ("group", parts)
    if isinstance(content, Table):
        cells = []
        for column in content.columns:
            column_cells = tuple(_signature(c) for c in column._cells)
            if None in column_cells:
                return None
            cells.append((str(column.header), column.justify, column.width, column.ratio, column_cells))
        rows = tuple((str(row.style), row.end_section) for row in content.rows)
        return ("table", tuple(cells), rows, content.show_header, str(content.title), content.expand, str(content.box), tuple(str(s) for s in content.row_styles))
    return None
