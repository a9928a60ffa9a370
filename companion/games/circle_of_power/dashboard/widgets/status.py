"""The line at the top: season, action n of 15, the next available city, the dealer, who is to
play or act (or the winner), then the source's state. The season and what is due are the
game's words (:mod:`companion.games.circle_of_power.progress`), which the club's page says too."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.widgets.status_line import StatusLine
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.progress import progress
from companion.games.circle_of_power.setup import is_dummy

__all__ = ["CircleStatus"]


class CircleStatus(StatusLine):
    def render_game(self, game: CircleState) -> Text:
        narrow = bool(self.size.width) and self.size.width < 100
        setup = game.setup
        said = progress(game, narrow=narrow)
        head = Text()
        if game.season_number == 0:
            head.append(f"{said.period} ", style="bold")
            head.append(f"{', '.join(setup.players)}; {setup.variant}")
        else:
            # The season in bold, its action after it.
            season, comma, action = said.period.partition(", ")
            head.append(season, style="bold")
            head.append(f"{comma}{action}")
        who = Text()
        outcome = game.outcome()
        phase = game.phase
        if outcome is not None:
            who.append("  Winner: " if outcome.winner else "  ", style="bold")
            who.append(outcome.winner or "a draw (C17)", style="bold reverse")
        elif said.who:
            who.append(f"  {said.label}: ")
            who.append(f" {said.who} ", style="bold reverse")
            if phase is Phase.PLAY and is_dummy(said.who) and not narrow:
                who.append(" (dummy)", style="dim")
        elif said.what:
            who.append(f"  {said.due}", style="italic")
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
