"""The two decks: the city deck (the next available city, how many cards remain, which cities
are still in it though not in what order, the bottom joker, the discards; C6, C7, C14) and the
battle deck (its count, which of its two cycles, when the reshuffle comes; C8, C15)."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.circle_of_power.cards import CIRCLE, CITY_DECK, Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.dashboard.cards import card_chip, cards_line
from companion.games.circle_of_power.dashboard.words import battle_cycle

__all__ = ["DecksPanel", "unseen_cities"]


def unseen_cities(game: CircleState) -> list[Card]:
    """The city cards still face down in the city deck, above the bottom joker: every city card
    not seen this season (C7). The table knows them, not their order."""
    seen: set[Card] = {c for c in game.cities.values() if c is not None}
    for name in game.seats:
        seen.update(game.trophies(name))
        seen.update(game.destroyed_cities(name))
    seen.update(game.city_discards)
    for card in (game.next_city, game.bottom):
        if card is not None:
            seen.add(card)
    return [c for c in CITY_DECK if c not in seen]


def _by_type(cards: list[Card], width: int, indent: int) -> list[Text]:
    """The cards grouped by type (``J JS JD  Q QH``), as many groups a line as ``width``
    holds, each line indented by ``indent``."""
    groups = []
    for t in (*CIRCLE, "X"):
        group = Text("joker " if t == "X" else f"{t} ", style="bold")
        group.append_text(cards_line([c for c in cards if c.rank == t]))
        groups.append(group)
    out: list[Text] = []
    line = Text(" " * indent)
    for group in groups:
        if line.cell_len > indent and line.cell_len + 2 + group.cell_len > width:
            out.append(line)
            line = Text(" " * indent)
        if line.cell_len > indent:
            line.append("  ")
        line.append_text(group)
    out.append(line)
    return out


class DecksPanel(GamePanel):
    BORDER_TITLE = "Decks"

    def render_game(self, game: CircleState) -> Text:
        if not game.seats or game.phase is Phase.SEASON or game.phase is Phase.OVER:
            done = f"season {game.season_number} is over; " if game.season_number else ""
            return Text(f"{done}the decks are dealt at the next season (C6).", style="italic")
        parts = []
        count = game.city_deck_count
        head = Text("City deck: ", style="bold")
        head.append(f"{count} card{'s' if count != 1 else ''}, the bottom joker included (C7)" if game.bottom is not None and game.next_city is not game.bottom and count else f"{count} card{'s' if count != 1 else ''} (C7)")
        parts.append(head)
        nxt = Text("  next available city: ")
        nxt.append_text(card_chip(game.next_city) if game.next_city is not None else Text("none" if not count else "not turned up yet", style="dim"))
        parts.append(nxt)
        unseen = unseen_cities(game)
        if unseen:
            parts.append(Text(f"  still in it, order unknown ({len(unseen)}):"))
            parts += _by_type(unseen, self.size.width or 40, 4)
        if game.bottom is not None and game.next_city is not game.bottom and count:
            bottom = Text("  at the bottom, face up, comes out last: ")
            bottom.append_text(card_chip(game.bottom))
            parts.append(bottom)
        if game.city_discards:
            gone = Text("  discarded (C13, C14): ")
            gone.append_text(cards_line(game.city_discards))
            parts.append(gone)
        battle = Text("Battle deck: ", style="bold")
        battle.append(battle_cycle(game))
        parts.append(battle)
        played = len(game.season_plays)
        parts.append(Text(f"  cards played this season: {played} of 60 (C6, C15)", style="dim"))
        return lines(parts)

    def on_resize(self) -> None:
        self.refresh_panel()
