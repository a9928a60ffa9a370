"""Fate cards: those in play (Mystic Crystal, Exorcist) and what they do to the options, each
player's Fate hand and deck, and the cards out of play this round (R18-R25)."""

from __future__ import annotations

from rich.text import Text

from companion.games.rule_of_power.dashboard.cards import card_chip, cards_line
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["FatePanel", "fate_effects"]


def fate_effects(game: GameState) -> list[str]:
    """What the Fate cards in play change for the options right now."""
    out = []
    if game.crystal_in_play:
        line = "Mystic Crystal: every Wizard (a 1, the Warlock too) takes the whole centre, and no sweep (R5, R7)"
        if game.turn:
            ones = [c.short for c in game.hand(game.turn) if c.is_wizard]
            if ones and game.centre:
                line += f"; {game.turn}'s {', '.join(ones)} would take all {len(game.centre)} centre cards"
        out.append(line)
    if game.exorcist_in_play:
        out.append("Exorcist: no Creature (Warlock, Vampire) may be played; any 4 played sends it away (R24)")
    elif any(c.value == 4 for c in game.centre):
        out.append("A Minion (4) lies in the centre: the Exorcist cannot be played now (R24)")
    return out


class FatePanel(GamePanel):
    BORDER_TITLE = "Fate cards"

    COLUMNS = (Column("player"), Column("in hand", justify="right"), Column("deck", justify="right"), Column("this deal"))

    def render_game(self, game: GameState) -> Text:
        parts: list[Text] = []
        if game.in_play:
            t = Text("In play: ", style="bold")
            for k, (owner, card) in enumerate(game.in_play):
                if k:
                    t.append("  ")
                t.append_text(card_chip(card))
                t.append(f" {owner}")
            parts.append(t)
        else:
            parts.append(Text("None in play.", style="dim"))
        for line in fate_effects(game):
            parts.append(Text(line, style="italic"))
        uses_fate = any(game.fate_deck(p) or game.fate_hand(p) for p in game.players)
        if uses_fate:
            rows: list[list[Text | str]] = []
            for p in game.players:
                n_hand = game.hand_size(p) - game.world_cards_in_hand(p)
                drew = "drew (R17)" if game.has_drawn_fate(p) else ""
                rows.append([Text(p, style="bold"), str(n_hand), str(game.fate_deck_count(p)), Text(drew, style="dim")])
            parts.append(grid(self.COLUMNS, rows))
            if self.teaching and game.turn and game.fate_hand(game.turn):
                t = Text(f"{game.turn}'s Fate cards: ")
                t.append_text(cards_line(game.fate_hand(game.turn)))
                parts.append(t)
        elif game.round_number:
            parts.append(Text("This game is played without Fate decks.", style="dim"))
        out = [c for c in game.discards]
        if out:
            t = Text("Out of play this round: ")
            t.append_text(cards_line(out))
            parts.append(t)
        return lines(parts)
