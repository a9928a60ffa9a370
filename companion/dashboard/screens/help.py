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

from companion.games.rule_of_power.dashboard.entry import __doc__ as ENTRY_DOC

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


def _offered(screen: object, action: str) -> bool:
    """Whether the table screen offers ``action`` now, asked as if no dialog were open."""
    if action == "next_panel":
        return not getattr(screen, "roomy", True)
    if action == "step_back":
        from companion.dashboard.sources import ReplaySource

        return isinstance(getattr(getattr(screen, "app", None), "source", None), ReplaySource)
    return True


#: What each code on the table screen means: (code, meaning).
LEGEND: tuple[tuple[str, str], ...] = (
    ("6M, 10D", "a card by value and suit letter: P Powers (gold), M Men (blue), E Elves (green), D Darkness (purple); W016 is the id printed on the card"),
    ("^  *  !", "marks: ^ a Wizard (1), * a Dragon (7), ! the Fire Dragon (7P, W007, R10)"),
    ("1Po 2Poo 3Pooo", "the Power Ring cards, with the rings printed on them: Cosmic Power (W001), Sword of Power (W002), Temple of Power (W003), R12"),
    ("Fate colours", "teal Magic, red Creature, orange Character, grey Event (R3)"),
    ("takes 6P 4P", "the cards a play captures (R4); 'to the centre' when it captures nothing"),
    ("+2 pt", "teaching mode: how the side's points for the round change with that move"),
    ("+1", "the side wins that point now (most World or Power cards R9, Fire Dragon R10, Pride R11)"),
    ("Pride 0-3-1..", "the side's Dragons (7s), 6s and 5s; the Pride of Dragons panel shows every value down to the 1s (R11)"),
    ("1/3 rings", "Ring cards the side holds; Master +n: it holds all three and scores the Power chain (R12)"),
    ("0->3, 0>3", "game total before this round -> with the round's points so far; /11 is the target (R14)"),
    ("Wld Pow FD Prd Ring Sw Rnd", "narrow score table: World cards, Power cards, Fire Dragon, Pride, Power Ring, sweeps, round points"),
    ("> and D", "Players panel: > the player to move, D the dealer"),
    ("hand 3+1F", "3 World cards and 1 Fate card in hand (R17)"),
    ("stack, top", "how many cards the player captured, and the last of them"),
    ('"last hand"', "the last deal of the round: what is left in the centre goes to the last capturer (R6)"),
    ("unseen", "not yet seen face up: in the deck or in someone's hand"),
    ("F4: Fate", "small terminal: the side column shows one panel; F4 turns to the one named"),
)


def legend() -> Table:
    """The table of codes, for every mode (demo, replay, manual play, camera or NFC)."""
    table = Table(box=None, padding=(0, 2), show_edge=False, title="Reading the screen", title_justify="left", title_style="bold underline")
    table.add_column("code", style="bold", no_wrap=True)
    table.add_column("means")
    for code, meaning in LEGEND:
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

    def __init__(self, groups: list[tuple[str, list[BindingType]]], *, manual: bool) -> None:
        super().__init__()
        self.groups = groups
        self.manual = manual

    def compose(self) -> ComposeResult:
        parts: list[RenderableType] = [bindings_table(self._groups()), Text(""), legend()]
        if self.manual:
            parts += [Text(""), Text("Typing moves", style="bold underline"), Text((ENTRY_DOC or "").split("::", 1)[-1].split(":func:")[0].rstrip())]
        self.body = Group(*parts)
        """Everything the help says (for readers other than the screen: tests, a plain dump)."""
        with Vertical():
            yield Static(Text("Help: keys and entries", style="bold"), id="help-title")
            with VerticalScroll():
                yield Static(self.body)
            yield Static("Esc, Q or F1: close", classes="keys")

    def _groups(self) -> list[tuple[str, list[BindingType]]]:
        """The app's groups, with the table screen's own keys (F4 panels, B back) in the
        first when they apply."""
        groups = list(self.groups)
        table = self.app.screen_stack[0] if self.app.screen_stack else None
        own: list[BindingType] = [
            b
            for b in getattr(table, "BINDINGS", [])
            if isinstance(b, Binding) and table is not None and _offered(table, b.action)
        ]
        if own and groups:
            title, bindings = groups[0]
            groups[0] = (title, [*bindings, *own])
        elif own:
            groups.insert(0, ("The table", own))
        return groups

    def action_close(self) -> None:
        self.dismiss(None)
