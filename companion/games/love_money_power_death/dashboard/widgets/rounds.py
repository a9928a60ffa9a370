"""The rounds decided so far, one line each: the noble, who won it and how (a lone agent, L9;
suit or rank, L8; a tie or every agent, discarded), and, with room, each player's card."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import Column, grid
from companion.dashboard.widgets.base import GamePanel
from companion.games.love_money_power_death.dashboard.cards import card_chip
from companion.games.love_money_power_death.scoring import Why
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["RoundsPanel", "WHY_WORDS"]

WHY_WORDS: dict[Why, str] = {
    Why.AGENT: "agent L9",
    Why.SUIT: "suit L8",
    Why.RANK: "rank L8",
    Why.TIE: "tie L8",
    Why.ALL_AGENTS: "agents L9",
}
"""How a round was decided, in the panel's few words."""


class RoundsPanel(GamePanel):
    BORDER_TITLE = "Rounds"

    def render_game(self, game: LmpdState) -> Text:
        rounds = game.rounds
        if not rounds:
            return Text("No round decided yet.", style="italic")
        width = self.size.width or 40
        plays = width >= 60
        rows: list[list[Text | str]] = []
        for r in rounds:
            row: list[Text | str] = [str(r.number), card_chip(r.noble), Text(r.winner or "-", style="bold" if r.winner else "dim"), WHY_WORDS[r.why]]
            if plays:
                cards = Text()
                for k, (p, card) in enumerate(r.plays):
                    if k:
                        cards.append(" ")
                    cards.append(f"{p} ")
                    cards.append_text(card_chip(card))
                row.append(cards)
            rows.append(row)
        columns = [Column("#", justify="right"), Column("noble"), Column("to"), Column("how")]
        if plays:
            columns.append(Column("cards"))
        return grid(columns, rows, width=width)

    def on_resize(self) -> None:
        self.refresh_panel()
