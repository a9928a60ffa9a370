"""The tracker's question to the table: several moves explain what the sensors saw, and only
the players know which happened. One key answers it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from companion.tracker import Question

__all__ = ["QuestionScreen"]


class QuestionScreen(ModalScreen[int | None]):
    DEFAULT_CSS = """
    QuestionScreen {
        align: center middle;
    }
    QuestionScreen > Vertical {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: thick $warning;
        background: $surface;
        padding: 0 1;
    }
    QuestionScreen OptionList {
        height: auto;
        max-height: 16;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Later"), *[
        Binding(str(k), f"choose({k - 1})", f"Choice {k}", show=False) for k in range(1, 10)
    ]]

    def __init__(self, question: Question) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]{self.question.prompt}[/b]  (1-{len(self.question.choices)}, Esc: later)", markup=True)
            yield OptionList(*(Option(f"{k}. {c.label}", id=str(k - 1)) for k, c in enumerate(self.question.choices, 1)))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_choose(self, index: int) -> None:
        if 0 <= index < len(self.question.choices):
            self.dismiss(index)

    def action_cancel(self) -> None:
        self.dismiss(None)
