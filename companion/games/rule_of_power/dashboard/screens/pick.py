"""Choosing between the legal outcomes of a card: which capture (R4), which target."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from companion.games.rule_of_power.dashboard.cards import card_chip
from companion.games.rule_of_power.dashboard.commentary import move_effect
from companion.games.rule_of_power.dashboard.widgets.moves import move_label
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import Move

__all__ = ["PickScreen"]


class PickScreen(ModalScreen[Move | None]):
    DEFAULT_CSS = """
    PickScreen {
        align: center middle;
    }
    PickScreen > Vertical {
        width: 90%;
        max-width: 90;
        height: auto;
        max-height: 90%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    PickScreen OptionList {
        height: auto;
        max-height: 20;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel"), *[
        Binding(str(k), f"pick({k - 1})", f"Option {k}", show=False) for k in range(1, 10)
    ]]

    def __init__(self, game: GameState, moves: list[Move], *, teaching: bool) -> None:
        super().__init__()
        self.game = game
        self.moves = moves
        self.teaching = teaching

    def compose(self) -> ComposeResult:
        card = getattr(self.moves[0], "card", None)
        title = Text("Which one? ", style="bold")
        if card is not None:
            title.append_text(card_chip(card, names=True))
            title.append(" has several legal outcomes (R4: the player chooses)")
        options = []
        for k, move in enumerate(self.moves):
            label = Text(f"{k + 1}. " if k < 9 else "   ")
            label.append_text(move_label(move))
            if self.teaching:
                effect = move_effect(self.game, move)
                if effect.gains:
                    label.append("   " + "; ".join(effect.gains), style="italic")
            options.append(Option(label))
        with Vertical():
            yield Static(title)
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
