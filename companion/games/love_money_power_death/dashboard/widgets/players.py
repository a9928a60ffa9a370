"""The players in their seats: who has committed this round (never what, L6), how many cards
each pile and hand holds (L5, L11: nobody looks at a pile), each court with its crowns and
number of nobles (L10, L13), the leader or, at the end, the winners."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel
from companion.games.love_money_power_death.dashboard.cards import FACE_DOWN, TO_COMMIT, cards_line
from companion.games.love_money_power_death.dashboard.words import names_list
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["PlayersPanel", "leaders"]


def leaders(game: LmpdState) -> list[str]:
    """The players ahead by L13 so far: the highest score, then the fewest nobles (none before
    a noble is won)."""
    totals, counts = game.totals, game.counts
    top = max(totals.values())
    if not top:
        return []
    best = [p for p in game.players if totals[p] == top]
    fewest = min(counts[p] for p in best)
    return [p for p in best if counts[p] == fewest]


class PlayersPanel(GamePanel):
    BORDER_TITLE = "Players"

    def render_game(self, game: LmpdState) -> Text:
        width = self.size.width or 40
        beside = width >= 56  # room for the courts in a column of their own
        outcome = game.outcome()
        winners = set(outcome.winners) if outcome is not None else set()
        committing = game.phase is Phase.COMMIT or game.phase is Phase.NOBLE
        committed = set(game.committed)
        totals, counts = game.totals, game.counts
        dealt = game.phase is not Phase.DEAL
        rows: list[list[Text | str]] = []
        for p in game.players:
            mark = (FACE_DOWN if p in committed else TO_COMMIT) if committing else "*" if p in winners else ""
            name = Text(p, style="bold reverse" if p in winners else "bold")
            row: list[Text | str] = [mark, name, str(game.pile_size(p)) if dealt else "-", str(game.hand_size(p)) if dealt else "-", str(totals[p])]
            if beside:
                row += [str(counts[p]), cards_line(game.court(p))]
            rows.append(row)
        columns = [Column(""), Column("player"), Column("pile", justify="right"), Column("hand", justify="right"), Column("crowns", justify="right")]
        if beside:
            columns += [Column("nobles", justify="right"), Column("court")]
        parts = [grid(columns, rows, width=width if beside else None)]
        if not beside:
            courts = Text("Courts: ", style="bold")
            for k, p in enumerate(game.players):
                if k:
                    courts.append("; ")
                courts.append(f"{p} ")
                courts.append_text(cards_line(game.court(p)))
            parts.append(courts)
        if outcome is None:
            ahead = leaders(game)
            if ahead:
                parts.append(Text(f"Ahead (L13): {names_list(ahead)}", style="dim"))
        else:
            parts.append(Text(f"{'Winner' if len(winners) == 1 else 'Shared win'}: {names_list(outcome.winners)} (L13)", style="bold"))
        return lines(parts)

    def on_resize(self) -> None:
        self.refresh_panel()
