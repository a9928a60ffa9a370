"""The tracker's question to the table: several moves explain what the sensors saw, and only
the players know which happened. One key answers it; a question of more than nine choices
(a card laid that the camera cannot read may be any card the player holds) is narrowed by
typing a few letters of the answer (its code, its name)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.tracker import Question

__all__ = ["QuestionScreen"]

#: Choices answered by a digit key; a longer list is narrowed by typing.
KEYED = 9


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
    QuestionScreen Input {
        margin: 0;
    }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Later"),
        Binding("down", "move(1)", "Next", show=False),
        Binding("up", "move(-1)", "Previous", show=False),
        *[Binding(str(k), f"choose({k - 1})", f"Choice {k}", show=False) for k in range(1, KEYED + 1)],
    ]

    def __init__(self, question: Question) -> None:
        super().__init__()
        self.question = question
        self.narrowed = len(question.choices) > KEYED
        """Whether the choices are narrowed by typing (the digit keys type then)."""

    def compose(self) -> ComposeResult:
        n = len(self.question.choices)
        with Vertical():
            if self.narrowed:
                yield Static(f"[b]{self.question.prompt}[/b]  ({n} choices; Esc: later)", markup=True)
                yield Input(placeholder="type part of the answer (a code, a name); Enter picks", id="narrow")
            else:
                yield Static(f"[b]{self.question.prompt}[/b]  (1-{n}, Esc: later)", markup=True)
            yield OptionList(*self._options(""))

    def on_mount(self) -> None:
        if self.narrowed:
            self.query_one(Input).focus()
            self.query_one(OptionList).highlighted = 0  # Enter picks the first until another is chosen

    def _options(self, typed: str) -> list[Option]:
        """The choices whose words hold every word typed, numbered as asked."""
        words = typed.lower().split()
        return [
            Option(f"{k}. {c.label}", id=str(k - 1))
            for k, c in enumerate(self.question.choices, 1)
            if all(w in c.label.lower() for w in words)
        ] or [Option(f"no answer holds {typed.strip()!r}: Backspace", disabled=True)]

    @on(Input.Changed, "#narrow")
    def _narrow(self, event: Input.Changed) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        shown = self._options(event.value)
        options.add_options(shown)
        options.highlighted = None if shown[0].disabled else 0

    @on(Input.Submitted, "#narrow")
    def _submitted(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            self.dismiss(int(options.get_option_at_index(options.highlighted).id or 0))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_move(self, step: int) -> None:
        """Up and down move through the choices, while the typing stays where it is."""
        options = self.query_one(OptionList)
        if not options.get_option_at_index(0).disabled:
            now = options.highlighted
            options.highlighted = 0 if now is None else (now + step) % options.option_count

    def action_choose(self, index: int) -> None:
        if not self.narrowed and 0 <= index < len(self.question.choices):
            self.dismiss(index)

    def action_cancel(self) -> None:
        self.dismiss(None)
