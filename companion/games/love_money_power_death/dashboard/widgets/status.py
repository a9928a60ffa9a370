"""The line at the top: the round and what the table waits for (who is still to commit, the
noble, the reveal), or the winner at the end, then the source's state. The round and what is
due are the game's words (:mod:`companion.games.love_money_power_death.progress`), which the
club's page says too."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.widgets.status_line import StatusLine
from companion.games.love_money_power_death.dashboard.cards import card_chip
from companion.games.love_money_power_death.progress import progress
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["LmpdStatus"]


class LmpdStatus(StatusLine):
    def render_game(self, game: LmpdState) -> Text:
        narrow = bool(self.size.width) and self.size.width < 100
        setup = game.setup
        phase = game.phase
        said = progress(game, narrow=narrow)
        t = Text()
        if phase is Phase.DEAL:
            t.append(f"{said.period} ", style="bold")
            t.append(f"{', '.join(setup.players)}; {len(setup.nobles)} nobles")
        else:
            t.append(said.period, style="bold")
        outcome = game.outcome()
        if outcome is not None:
            t.append("  Winner: " if outcome.winner else "  Shared win: ", style="bold")
            t.append(f" {' and '.join(outcome.winners)} ", style="bold reverse")
        elif said.who:
            t.append(f"  {said.label}: ")
            t.append(f" {said.who} ", style="bold reverse")
        elif said.what:
            noble = game.noble
            if phase is Phase.REVEAL and noble is not None:
                t.append("  Noble ")
                t.append_text(card_chip(noble))
            t.append(f"  {said.due}", style="italic")
        # The source's state gives way first, whole words only (a narrow line drops it).
        room = (self.size.width or 200) - t.cell_len - 4
        status = self.fitted_status(room) if room > 0 else ""
        if status:
            t.append(f"  {status}", style="dim")
        t.no_wrap = True
        return t
