"""The nobles: those still face down in the noble pile (which ones is public, not their order,
L7) with their crowns by suit, this round's noble once turned, the discarded ones (L10), and the
nobles not in use (L4)."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.love_money_power_death.cards import DECK_NOBLES
from companion.games.love_money_power_death.dashboard.cards import card_chip, cards_line
from companion.games.love_money_power_death.dashboard.settle import crowns_by_suit
from companion.games.love_money_power_death.dashboard.words import plural
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["NoblesPanel"]


class NoblesPanel(GamePanel):
    BORDER_TITLE = "Nobles"

    def render_game(self, game: LmpdState) -> Text:
        setup = game.setup
        parts: list[Text] = []
        down = [c for c in game.nobles_left if c is not game.noble]
        head = Text("Face down: ", style="bold")
        head.append(f"{plural(len(down), 'noble')}, order unknown (L7)")
        parts.append(head)
        parts.append(cards_line(down, empty="none"))
        crowns = Text("crowns ")
        crowns.append_text(crowns_by_suit(down))
        parts.append(crowns)
        if game.noble is not None:
            up = Text("This round's: ", style="bold")
            up.append_text(card_chip(game.noble))
            parts.append(up)
        gone = Text("Discarded (L10): ", style="bold")
        gone.append_text(cards_line(game.discarded, empty="none"))
        parts.append(gone)
        if len(setup.nobles) < DECK_NOBLES:
            unused = DECK_NOBLES - len(setup.nobles)
            parts.append(Text(f"Not in use (L4): {plural(unused, 'noble')} of the deck's {DECK_NOBLES}, set aside before the deal", style="dim"))
        return lines(parts)
