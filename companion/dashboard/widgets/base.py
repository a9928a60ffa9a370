"""The common ground of the panels: a game state handed down, re-rendered on change."""

from __future__ import annotations

from rich.console import RenderableType
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
    teaching: reactive[bool] = reactive(False)

    def watch_game(self, game: GameState | None) -> None:
        self.refresh_panel()

    def watch_teaching(self, teaching: bool) -> None:
        self.refresh_panel()

    def refresh_panel(self) -> None:
        if self.game is None:
            self.update(Text("waiting for the game to start", style="italic"))
        else:
            self.update(self.render_game(self.game))

    def render_game(self, game: GameState) -> RenderableType:  # pragma: no cover - abstract
        raise NotImplementedError
