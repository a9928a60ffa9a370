"""The line at the top: season, action n of 15, the next available city, the dealer, who is to
play or act (or the winner), then the source's state."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.widgets.status_line import StatusLine
from companion.games.circle_of_power.game import ACTIONS, CircleState, Phase
from companion.games.circle_of_power.setup import is_dummy

__all__ = ["CircleStatus"]


class CircleStatus(StatusLine):
    def render_game(self, game: CircleState) -> Text:
        narrow = bool(self.size.width) and self.size.width < 100
        setup = game.setup
        head = Text()
        if game.season_number == 0:
            head.append("New game ", style="bold")
            head.append(f"{', '.join(setup.players)}; {setup.variant}")
        else:
            head.append(f"Season {game.season_number}", style="bold")
            if game.phase is not Phase.SEASON and game.phase is not Phase.OVER:
                head.append(f", action {game.action_number}/{ACTIONS}" if narrow else f", action {game.action_number} of {ACTIONS}")
        who = Text()
        outcome = game.outcome()
        phase = game.phase
        to_move = game.to_move
        if outcome is not None:
            who.append("  Winner: " if outcome.winner else "  ", style="bold")
            who.append(outcome.winner or "a draw (C17)", style="bold reverse")
        elif phase is Phase.PLAY and to_move is not None:
            who.append("  To play: ")
            who.append(f" {to_move} ", style="bold reverse")
            if is_dummy(to_move) and not narrow:
                who.append(" (dummy)", style="dim")
        elif phase is Phase.ACT and to_move is not None:
            who.append("  To act: ")
            who.append(f" {to_move} ", style="bold reverse")
        elif phase is Phase.REVEAL:
            who.append("  Next: turn up a city", style="italic")
        elif phase is Phase.RESHUFFLE:
            who.append("  Next: reshuffle", style="italic")
        elif phase is Phase.SEASON:
            who.append(f"  Next: season {game.season_number + 1}", style="italic")
        detail = Text()
        if game.season_number and phase is not Phase.OVER:
            nxt = game.next_city
            if nxt is not None:
                detail.append(f"  Next city {nxt.id}")
            if not narrow:
                detail.append(f"  Dealer {game.dealer}")
        t = Text()
        for part in (head, who, detail):
            t.append_text(part)
        # One line whatever the width: the source's state, last, is what gives way.
        return self.ending(t)
