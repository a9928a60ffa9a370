"""The line at the top: the round and what the table waits for (who is still to commit, the
noble, the reveal), or the winner at the end, then the source's state."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.widgets.status_line import StatusLine
from companion.games.love_money_power_death.dashboard.cards import card_chip
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["LmpdStatus"]


class LmpdStatus(StatusLine):
    def render_game(self, game: LmpdState) -> Text:
        narrow = bool(self.size.width) and self.size.width < 100
        setup = game.setup
        phase = game.phase
        t = Text()
        if phase is Phase.DEAL:
            t.append("New game ", style="bold")
            t.append(f"{', '.join(setup.players)}; {len(setup.nobles)} nobles")
        else:
            t.append(f"Round {game.round_number}/{setup.rounds}" if narrow else f"Round {game.round_number} of {setup.rounds}", style="bold")
        outcome = game.outcome()
        if outcome is not None:
            t.append("  Winner: " if outcome.winner else "  Shared win: ", style="bold")
            t.append(f" {' and '.join(outcome.winners)} ", style="bold reverse")
        elif phase is Phase.COMMIT:
            t.append("  To commit: ")
            t.append(f" {', '.join(game.deciding)} ", style="bold reverse")
        elif phase is Phase.NOBLE:
            t.append("  Next: turn the noble up", style="italic")
        elif phase is Phase.REVEAL:
            t.append("  Noble ")
            noble = game.noble
            if noble is not None:
                t.append_text(card_chip(noble))
            t.append("  Next: reveal", style="italic")
        elif phase is Phase.DRAW:
            t.append("  Next: the draw", style="italic")
        # The source's state gives way first, whole words only (a narrow line drops it).
        room = (self.size.width or 200) - t.cell_len - 4
        status = self.fitted_status(room) if room > 0 else ""
        if status:
            t.append(f"  {status}", style="dim")
        t.no_wrap = True
        return t
