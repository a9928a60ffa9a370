"""A player tells the companion their own hand, privately (F8): whose hand, then its cards,
typed hidden. What they type is never shown: not while it is typed, not afterwards (the
table screen says only how many cards were given). The dialog answers with the player and
the cards, checked against the game (:class:`~..told.ToldHands`), or ``None``."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Static

from companion.dashboard.screens.form import Form
from companion.games.circle_of_power.dashboard.entry import EntryError
from companion.games.circle_of_power.dashboard.screens import TCSS
from companion.games.circle_of_power.dashboard.told import TellRefused, parse_hand
from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.game import CircleState

__all__ = ["HandScreen"]


class HandScreen(Form[str | None]):
    """``player``'s hand told (the player to move by default; the name can be changed);
    ``tell`` takes the player and the cards and says how many of the hand are known (or
    raises :class:`TellRefused`). Answers with the player whose hand was told."""

    CSS_PATH = TCSS
    SUBMIT = "tell"
    ERROR = "hand-error"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, state: CircleState, player: str, tell: Callable[[str, tuple[Card, ...]], int]) -> None:
        super().__init__()
        self.state = state
        self.player = player
        self.tell = tell

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Tell the companion your hand, privately", style="bold"))
            yield Static(
                "Only the coach's hint (F7) reads it; the screen and the record never show it. "
                "Type every card you hold (7h 10s 5c), or just a card drawn since you last told it.",
                classes="hint",
            )
            with Horizontal(classes="row"):
                yield Label("whose hand")
                yield Input(self.player, id="hand-player", compact=True)
            with Horizontal(classes="row"):
                yield Label("cards")
                yield Input(password=True, placeholder="hidden as you type", id="hand-cards", compact=True)
            yield Static("", id="hand-error")
            yield Static("Enter: tell  Esc: cancel", classes="keys")

    def on_mount(self) -> None:
        self.query_one("#hand-cards", Input).focus()

    def action_tell(self) -> None:
        player = self.query_one("#hand-player", Input).value.strip()
        cards = self.query_one("#hand-cards", Input)
        if player not in self.state.players:
            self.refuse(f"whose hand: one of {', '.join(self.state.players)}, not {player!r}")
            return
        try:
            self.tell(player, parse_hand(cards.value))
        except (EntryError, TellRefused) as exc:
            cards.value = ""  # what was typed goes: the dialog shows no card
            self.refuse(f"{exc}; type the hand again")
            return
        self.dismiss(player)

    def action_cancel(self) -> None:
        self.dismiss(None)
