"""The players around the table: turn, dealer, cards in hand, capture stacks and sweeps;
in teaching mode the hand of the player to move is shown face up."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from companion.dashboard.cards import card_chip, cards_line
from companion.dashboard.widgets.base import GamePanel
from companion.game import GameState

__all__ = ["PlayersPanel"]


class PlayersPanel(GamePanel):
    BORDER_TITLE = "Players"

    def render_game(self, game: GameState) -> RenderableType:
        table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False)
        table.add_column("")
        table.add_column("player", no_wrap=True)
        table.add_column("hand", justify="right")
        table.add_column("stack", justify="right")
        table.add_column("top")
        table.add_column("sweeps")
        for p in game.players:
            mark = ">" if game.turn == p else ("D" if game.dealer == p else "")
            name = Text(p, style="bold reverse" if game.turn == p else "bold")
            if game.setup.teams:
                name.append(f" ({game.setup.side_of(p)})", style="dim")
            world = game.world_cards_in_hand(p)
            fate = game.hand_size(p) - world
            hand = f"{world}" + (f"+{fate}F" if fate else "")
            stack = game.stack(p)
            top = card_chip(stack[-1]) if stack else Text("-", style="dim")
            sweeps = cards_line(game.sweeps(p), empty="-")
            table.add_row(mark, name, hand, str(len(stack)), top, sweeps)
        parts: list[RenderableType] = [table]
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
        return Group(*parts)
