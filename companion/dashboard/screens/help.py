"""The help screen: every key binding, what each code on the table screen means and, in manual
play, how moves are typed (the last two in the game's words, from its dashboard kit)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["HelpScreen", "bindings_table", "legend"]


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
    # Long key lists wrap at their commas rather than push the descriptions off a small screen.
    table.add_column("key", style="bold", max_width=22)
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


def legend(codes: Sequence[tuple[str, str]]) -> Table:
    """The table of codes, for every mode (demo, replay, manual play, camera or NFC)."""
    table = Table(box=None, padding=(0, 2), show_edge=False, title="Reading the screen", title_justify="left", title_style="bold underline")
    table.add_column("code", style="bold", no_wrap=True)
    table.add_column("means")
    for code, meaning in codes:
        table.add_row(code, meaning)
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

    def __init__(self, groups: list[tuple[str, list[BindingType]]], *, codes: Sequence[tuple[str, str]], entry: str | None) -> None:
        """``groups``: the keys offered now, titled (the table's own among them); ``codes``:
        what each code on the table screen means; ``entry``: how moves are typed (in manual
        play, else ``None``)."""
        super().__init__()
        self.groups = groups
        self.codes = codes
        self.entry = entry

    def compose(self) -> ComposeResult:
        parts: list[RenderableType] = [bindings_table(self.groups), Text(""), legend(self.codes)]
        if self.entry is not None:
            parts += [Text(""), Text("Typing moves", style="bold underline"), Text(self.entry)]
        self.body = Group(*parts)
        """Everything the help says (for readers other than the screen: tests, a plain dump)."""
        with Vertical():
            yield Static(Text("Help: keys and entries", style="bold"), id="help-title")
            with VerticalScroll():
                yield Static(self.body)
            yield Static("Esc, Q or F1: close", classes="keys")

    def action_close(self) -> None:
        self.dismiss(None)
