"""The Power Ring ladder (R12): who holds each Ring card and Power card, and the chain a
Power Master would score."""

from __future__ import annotations

from rich.text import Text

from companion.games.rule_of_power.engine.cards import power_cards
from companion.games.rule_of_power.dashboard.cards import card_chip
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.scoring import PowerRing

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
        return lines([table, Text(_ring_words(score.power_ring), style="italic")])


def _ring_words(ring: PowerRing) -> str:
    """The Power Ring in the panel's words: the cards in their short form, and who holds
    each Ring card, not who does not (R12)."""
    if ring.master is not None:
        if ring.chain:
            chain = " ".join(c.short for c in ring.chain)
            return f"{ring.master} is Power Master (3) with the chain {chain} (+{len(ring.chain)})"
        return f"{ring.master} is Power Master (3); no 4P, so no chain"
    held = [f"{card.short} {side}" for card, side in ring.ring.items() if side]
    if not held:
        return "no Power Master: no Ring card (1P, 2P, 3P) captured yet"
    return f"no Power Master: the Ring cards are split ({', '.join(held)})"
