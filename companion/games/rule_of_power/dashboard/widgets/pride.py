"""The Pride of Dragons race (R11): each side's 7s, 6s, ..., 1s and where the tie breaks."""

from __future__ import annotations

from rich.text import Text

from companion.dashboard.grid import Column, grid, lines
from companion.dashboard.widgets.base import GamePanel, side_label
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.scoring import PRIDE_VALUES, PrideOfDragons

__all__ = ["PridePanel", "pride_table"]


def pride_table(pride: PrideOfDragons, width: int | None = None) -> Text:
    """Each side's count of 7s, 6s, ... 1s; the value where the tie breaks is marked."""
    columns = [Column("side")]
    for v in PRIDE_VALUES:
        columns.append(Column(f"{v}s", justify="right", header_style="bold reverse" if v == pride.decided_at else "bold"))
    rows = []
    for side, seq in pride.sequences.items():
        won = side == pride.winner
        cells = []
        for v, n in zip(PRIDE_VALUES, seq):
            cells.append(Text(str(n), style="bold reverse" if won and v == pride.decided_at else ("bold" if won else "")))
        rows.append([Text(side_label(side) + (" +1" if won else ""), style="bold" if won else ""), *cells])
    # With a width the gaps close up rather than push the 1s onto a line of their own.
    return grid(columns, rows, width=width)


class PridePanel(GamePanel):
    BORDER_TITLE = "Pride of Dragons (R11)"

    def render_game(self, game: GameState) -> Text:
        in_round = game.round_number > len(game.results)
        pride = (game.provisional_score() if in_round or not game.results else game.results[-1].score).pride
        explain = pride.explain().removeprefix("Pride of Dragons: ")
        if pride.winner and pride.decided_at:
            explain += f"; the tie breaks at the {pride.decided_at}s now"
        width = self.size.width - 4 if self.size.width else None
        return lines([pride_table(pride, width), Text(explain, style="italic")])

    def on_resize(self) -> None:
        self.refresh_panel()
