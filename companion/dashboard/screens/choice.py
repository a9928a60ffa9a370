"""A choice between a few named things: the table picks one by its number, or with the arrows
and Enter; Esc gives up (the screen answers ``None``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

__all__ = ["ChoiceScreen"]

T = TypeVar("T")


class ChoiceScreen(ModalScreen[T | None], Generic[T]):
    """``title`` asks which of ``items`` (each shown by its label)."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: auto; min-width: 40; max-width: 90%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChoiceScreen OptionList { height: auto; max-height: 12; }
    ChoiceScreen .keys { color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *[Binding(str(k), f"pick({k - 1})", f"Option {k}", show=False) for k in range(1, 10)],
    ]

    def __init__(self, title: str, items: Sequence[tuple[str, T]]) -> None:
        super().__init__()
        self.title_text = title
        self.items = list(items)

    def compose(self) -> ComposeResult:
        options = [Option(Text(f"{k + 1}. " if k < 9 else "   ") + Text(label)) for k, (label, _) in enumerate(self.items)]
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*options)
            yield Static("1-9 or arrows and Enter: choose  Esc: cancel", classes="keys")

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.items[event.option_index][1])

    def action_pick(self, index: int) -> None:
        if index < len(self.items):
            self.dismiss(self.items[index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
