"""The centre of the table: the cards face up, big enough to recognise at a glance."""

from __future__ import annotations

from rich.text import Text

from companion.games.rule_of_power.dashboard.cards import card_block, card_chip
from companion.dashboard.grid import lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["CentreCards"]

CARD_WIDTH = 15


class CentreCards(GamePanel):
    DEFAULT_CSS = """
    CentreCards {
        min-height: 3;
    }
    CentreCards.-compact {
        min-height: 3;
    }
    """

    BORDER_TITLE = "Centre"

    def render_game(self, game: GameState) -> Text:
        cards = game.centre
        self.border_title = f"Centre ({len(cards)})" if cards else "Centre"
        hint = "  ^ Wizard  * Dragon  ! Fire Dragon  o/oo/ooo Power Ring"
        self.border_subtitle = hint.strip() if self.size.width > 60 else ""
        if not cards:
            if game.deal_number and game.results and game.phase.value != "turn":
                return Text("empty (the round is over)", style="italic")
            return Text("empty", style="italic")
        width = max(self.size.width, CARD_WIDTH)
        if self.has_class("-compact"):
            out = Text()
            for card in cards:
                if out:
                    out.append(" ")
                out.append_text(card_chip(card, names=width > 70))
            return out
        per_row = max(1, (width + 1) // (CARD_WIDTH + 1))
        rows: list[Text] = []
        for start in range(0, len(cards), per_row):
            chunk = cards[start : start + per_row]
            blocks = [card_block(c, CARD_WIDTH) for c in chunk]
            for line in range(3):
                row = Text()
                for k, block in enumerate(blocks):
                    if k:
                        row.append(" ")
                    row.append_text(block[line])
                rows.append(row)
        return lines(rows)

    def on_resize(self) -> None:
        self.refresh_panel()
