"""The unseen cards: the World cards still in the deck or in hands, which the rulebook
advises a good player to count. The table's view shows what nobody has seen face up; in
teaching mode the view is the player to move's (their own hand is known to them)."""

from __future__ import annotations

from collections import defaultdict

from rich.text import Text

from companion.games.rule_of_power.engine.cards import Card, world_deck
from companion.games.rule_of_power.dashboard.cards import card_chip
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["UnseenPanel", "table_unseen"]


def table_unseen(game: GameState) -> frozenset[Card]:
    """World cards not yet seen face up by the whole table: in the deck or in a hand."""
    seen: set[Card] = set(game.centre)
    for p in game.players:
        seen.update(game.stack(p))
    seen.update(c for c in game.discards if c.is_world)
    return frozenset(c for c in world_deck(game.setup.expansion) if c not in seen)


class UnseenPanel(GamePanel):
    BORDER_TITLE = "Unseen cards"

    def render_game(self, game: GameState) -> Text:
        if not game.round_number:
            return Text("The deck is not dealt yet.", style="dim")
        viewer = game.turn if self.teaching else None
        if viewer:
            # The player knows their own hand: only the deck and the other hands are unseen.
            own = set(game.hand(viewer))
            unseen = frozenset(c for c in game.view(viewer).unseen if c not in own)
            title = f"as {viewer} counts them: {len(unseen)} (deck {game.deck_count}, other hands)"
        else:
            unseen = table_unseen(game)
            title = f"not yet face up: {len(unseen)} (deck {game.deck_count}, hands {len(unseen) - game.deck_count})"
        by_value: dict[int, list[Card]] = defaultdict(list)
        for c in sorted(unseen):
            by_value[c.value or 0].append(c)
        rows = []
        top = 13 if game.setup.expansion else 10
        for v in range(top, 0, -1):
            cards = by_value.get(v, [])
            row = Text()
            for c in cards:
                if row:
                    row.append(" ")
                row.append_text(card_chip(c))
            if not cards:
                row.append("all seen", style="dim")
            rows.append([Text(f"{v}s {len(cards)}", style="bold" if v in (1, 7) else ""), row])
        table = grid((Column(justify="right"), Column()), rows, gap=1, width=self.size.width or None)
        return lines([Text(title, style="italic"), table])
