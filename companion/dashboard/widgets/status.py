"""The line at the top: round, deal "n of m", "last hand", deck, dealer, player to move."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from companion.dashboard.widgets.base import GamePanel
from companion.engine.game import GameState, Phase

__all__ = ["TableStatus"]


class TableStatus(GamePanel):
    DEFAULT_CSS = """
    TableStatus {
        border: none;
        padding: 0 1;
        background: $boost;
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    source_status: reactive[str] = reactive("")

    def watch_source_status(self, value: str) -> None:
        self.refresh_panel()

    def render_game(self, game: GameState) -> Text:
        t = Text()
        setup = game.setup
        sides = " vs ".join(setup.sides)
        if game.round_number == 0:
            t.append("New game ", style="bold")
            t.append(f"{sides}, target {setup.target}")
        else:
            t.append(f"Round {game.round_number}", style="bold")
            if game.deal_number:
                t.append(f"  Deal {game.deal_number} of {game.deals_in_round}")
                if game.is_last_deal:
                    t.append(' "last hand"', style="bold reverse")
            t.append(f"  Deck {game.deck_count}")
            t.append(f"  Dealer {game.dealer}")
        outcome = game.outcome()
        if outcome:
            t.append("  Winner: ", style="bold")
            t.append(outcome.winner, style="bold reverse")
        elif game.phase is Phase.TURN:
            t.append("  To move: ")
            t.append(f" {game.turn} ", style="bold reverse")
        elif game.phase is Phase.DEAL:
            t.append("  Next: deal", style="italic")
        elif game.phase is Phase.ROUND:
            t.append("  Next: a new round", style="italic")
        if self.source_status:
            t.append(f"  [{self.source_status}]", style="dim")
        # One line whatever the width: the source's state, last, is what gives way.
        t.no_wrap = True
        t.overflow = "ellipsis"
        return t
