"""The help screen: every key binding, the entry syntax of manual play, and the card marks."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.dashboard.entry import __doc__ as ENTRY_DOC

__all__ = ["HelpScreen", "bindings_table"]


_KEY_NAMES = {
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "question_mark": "?",
    "space": "Space",
    "escape": "Esc",
    "enter": "Enter",
    "right": "Right",
    "end": "End",
}


def _one_key(key: str) -> str:
    mods, _, name = key.rpartition("+")
    name = _KEY_NAMES.get(name, name.upper() if len(name) <= 3 else name)
    return "".join(m.capitalize() + "+" for m in mods.split("+") if m) + name


def _key_label(key: str) -> str:
    """'plus,equals_sign' -> '+, ='; 'ctrl+z' -> 'Ctrl+Z'; 'f1' -> 'F1'."""
    return ", ".join(_one_key(k.strip()) for k in key.split(","))


def bindings_table(groups: list[tuple[str, list[BindingType]]]) -> Table:
    table = Table(box=None, padding=(0, 2), show_edge=False)
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("does")
    for title, bindings in groups:
        table.add_row(Text(title, style="bold underline"), "")
        for b in bindings:
            if isinstance(b, Binding):
                key, desc = b.key, b.tooltip or b.description
            else:
                key, desc = b[0], b[2] if len(b) > 2 else b[1]
            table.add_row(_key_label(key), desc)
    return table


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > Vertical {
        width: 96%;
        max-width: 110;
        height: 94%;
        border: thick $accent;
        background: $surface;
    }
    HelpScreen VerticalScroll {
        padding: 0 1;
    }
    """

    BINDINGS = [Binding("escape,q,f1,question_mark", "close", "Close")]

    def __init__(self, groups: list[tuple[str, list[BindingType]]], *, manual: bool) -> None:
        super().__init__()
        self.groups = groups
        self.manual = manual

    def compose(self) -> ComposeResult:
        marks = Text.assemble(
            ("Card marks: ", "bold"),
            "^ Wizard (1)   * Dragon (7)   ! Fire Dragon (W007)   o / oo / ooo the Power Ring cards ",
            "(W001 Cosmic Power, W002 Sword of Power, W003 Temple of Power). Colours: gold Powers, ",
            "blue Men, green Elves, purple Darkness; Fate cards teal (Magic), red (Creature), ",
            "orange (Character), grey (Event).",
        )
        parts: list[RenderableType] = [bindings_table(self.groups), Text(""), marks]
        if self.manual:
            parts += [Text(""), Text("Typing moves", style="bold underline"), Text((ENTRY_DOC or "").split("::", 1)[-1].split(":func:")[0].rstrip())]
        with Vertical():
            yield Static(Text("Help: keys and entries", style="bold"), id="help-title")
            with VerticalScroll():
                yield Static(Group(*parts))
            yield Static("Esc, Q or F1: close", classes="keys")

    def action_close(self) -> None:
        self.dismiss(None)
