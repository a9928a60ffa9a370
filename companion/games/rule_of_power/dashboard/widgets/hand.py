"""The players around the table: turn, dealer, cards in hand, capture stacks and sweeps;
in teaching mode the hand of the player to move is shown face up."""

from __future__ import annotations

from rich.text import Text

from companion.games.rule_of_power.dashboard.cards import card_chip, cards_line
from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["PlayersPanel"]


class PlayersPanel(GamePanel):
    BORDER_TITLE = "Players"

    COLUMNS = (Column(""), Column("player"), Column("hand", justify="right"), Column("stack", justify="right"), Column("top"), Column("sweeps"))

    def render_game(self, game: GameState) -> Text:
        width = self.size.width or None
        table = self._table(game, teams=bool(game.setup.teams), width=width)
        if game.setup.teams and "\u2026" in table.plain:
            # Too narrow for each player's team as well as whole headings: the scores name the teams.
            table = self._table(game, teams=False, width=width)
        parts = [table]
        if self.teaching and game.turn:
            t = Text(f"{game.turn}'s hand: ", style="bold")
            t.append_text(cards_line(game.hand(game.turn), names=self.size.width > 60, empty="nothing seen"))
            hidden = game.unseen_in_hand(game.turn)
            if hidden:
                t.append(f" +{hidden} face down", style="dim")
            if game.fate_hand(game.turn):
                t.append("  ")
                t.append_text(cards_line(game.fate_hand(game.turn)))
            parts.append(t)
        return lines(parts)

    def _table(self, game: GameState, *, teams: bool, width: int | None) -> Text:
        rows: list[list[Text | str]] = []
        for p in game.players:
            mark = ">" if game.turn == p else ("D" if game.dealer == p else "")
            name = Text(p, style="bold reverse" if game.turn == p else "bold")
            if teams:
                name.append(f" ({game.setup.side_of(p)})", style="dim")
            world = game.world_cards_in_hand(p)
            fate = game.hand_size(p) - world
            hand = f"{world}" + (f"+{fate}F" if fate else "")
            stack = game.stack(p)
            top = card_chip(stack[-1]) if stack else Text("-", style="dim")
            sweeps = cards_line(game.sweeps(p), empty="-")
            rows.append([mark, name, hand, str(len(stack)), top, sweeps])
        return grid(self.COLUMNS, rows, width=width)
