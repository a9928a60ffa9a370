"""Choosing between the legal forms of an act: which trophy a retake discards (C13) or a
rebellion costs (C14)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.moves import Move
from companion.games.circle_of_power.dashboard.screens import TCSS

__all__ = ["PickScreen"]


class PickScreen(ModalScreen[Move | None]):
    """The table picks one of ``moves``, the forms of the act typed; ``title`` asks which."""

    CSS_PATH = TCSS

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *[Binding(str(k), f"pick({k - 1})", f"Option {k}", show=False) for k in range(1, 10)],
    ]

    def __init__(self, title: str, moves: list[Move]) -> None:
        super().__init__()
        self.title_text = title
        self.moves = moves

    def compose(self) -> ComposeResult:
        options = []
        for k, move in enumerate(self.moves):
            label = Text(f"{k + 1}. " if k < 9 else "   ")
            label.append(GAME.describe(move))
            options.append(Option(label))
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*options)
            yield Static("1-9 or arrows and Enter: choose  Esc: cancel", classes="keys")

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.moves[event.option_index])

    def action_pick(self, index: int) -> None:
        if index < len(self.moves):
            self.dismiss(self.moves[index])

    def action_cancel(self) -> None:
        self.dismiss(None)
