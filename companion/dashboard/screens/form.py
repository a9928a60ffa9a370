"""A dialog of fields the table fills in (a game's set-up, a deal, a season's cities), as every
game's dialogs behave: Enter goes on to the next field and, in the last, submits; the submit
button submits, a ``#shuffle`` button fills the fields in; what is wrong is said in the
dialog, which stays open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static

__all__ = ["Form", "SetupForm"]

T = TypeVar("T")


class Form(ModalScreen[T]):
    """A game's dialog subclasses it and gives ``SUBMIT`` (the submitting action's name, also
    its button's id: ``"start"`` calls ``action_start``), ``ERROR`` (the id of the line
    where refusals go) and, when it offers one, ``action_shuffle``."""

    SUBMIT = "start"
    ERROR = "error"
    #: Enter in any field submits (a short form), instead of going on to the next field.
    ENTER_SUBMITS = False

    def submit(self) -> None:
        getattr(self, f"action_{self.SUBMIT}")()

    def refuse(self, reason: str) -> None:
        """Say what is wrong; the dialog stays open for the fix."""
        self.query_one(f"#{self.ERROR}", Static).update(reason)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == self.SUBMIT:
            self.submit()
        elif event.button.id == "shuffle":
            getattr(self, "action_shuffle")()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        inputs = list(self.query(Input))
        i = inputs.index(event.input)
        if not self.ENTER_SUBMITS and i + 1 < len(inputs):
            inputs[i + 1].focus()
        else:
            self.submit()


class SetupForm(Form[T]):
    """A new game's set-up, laid out alike for every game: its ``HEADING``, a row per field
    (:meth:`rows`), the refusal, Start; the players' field (``#players``) has the focus, and
    Enter in any field starts."""

    BINDINGS = [Binding("ctrl+s", "start", "Start the game")]
    ERROR = "setup-error"
    ENTER_SUBMITS = True
    HEADING = ""

    def rows(self) -> Iterator[tuple[str | None, list[Widget]]]:
        """Each row's label (``None``: none) and its fields."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.HEADING)
            with VerticalScroll():
                for label, fields in self.rows():
                    with Horizontal(classes="row"):
                        if label is not None:
                            yield Label(label)
                        yield from fields
            yield Static("", id=self.ERROR)
            with Horizontal(id="setup-buttons"):
                yield Button("Start", variant="primary", id=self.SUBMIT, compact=True)
            yield Static("Tab: next field  Enter or Ctrl+S: start", classes="keys")

    def on_mount(self) -> None:
        self.query_one("#players", Input).focus()
