"""The Power Ring ladder (R12): who holds each Ring card and Power card, and the chain a
Power Master would score."""

from __future__ import annotations

from rich.text import Text

from companion.games.rule_of_power.engine.cards import power_cards
from companion.games.rule_of_power.dashboard.cards import card_chip
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["PowerRingPanel"]


def _initials(side: str) -> str:
    return "+".join(p[:3] for p in side.split("+"))


class PowerRingPanel(GamePanel):
    BORDER_TITLE = "Power Ring (R12)"

    def render_game(self, game: GameState) -> Text:
        in_round = game.round_number > len(game.results)
        score = game.provisional_score() if in_round or not game.results else game.results[-1].score
        ladder = power_cards(game.setup.expansion)
        holder: dict[object, str] = {}
        for captor, cards in score.captured.items():
            for c in cards:
                holder[c] = captor
        where: dict[object, str] = {}
        for c in game.centre:
            where[c] = "centre"
        for c in game.discards:
            where[c] = "discarded"
        rows: list[list[Text]] = []
        per_row = 2
        names = self.size.width >= 56
        chain = set(score.power_ring.chain)
        row: list[Text] = []
        for card in ladder:
            side = holder.get(card)
            if side:
                mark = Text(_initials(side), style="bold")
                if card in chain or (card.is_ring and score.power_ring.master):
                    mark.append(" scores", style="italic")
            else:
                mark = Text(where.get(card, "unseen"), style="dim")
            row += [card_chip(card, names=names), mark]
            if len(row) == 2 * per_row:
                rows.append(row)
                row = []
        if row:
            rows.append(row)
        table = grid([Column()] * (2 * per_row), rows, gap=1)
        return lines([table, Text(score.power_ring.explain().removeprefix("Power Ring: "), style="italic")])
