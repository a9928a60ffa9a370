"""The Pride of Dragons race (R11): each side's 7s, 6s, ..., 1s and where the tie breaks."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from companion.dashboard.widgets.base import GamePanel, side_label
from companion.game import GameState
from companion.scoring import PRIDE_VALUES, PrideOfDragons

__all__ = ["PridePanel", "pride_table"]


def pride_table(pride: PrideOfDragons) -> Table:
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False)
    table.add_column("side", no_wrap=True)
    for v in PRIDE_VALUES:
        style = "bold reverse" if v == pride.decided_at else ""
        table.add_column(f"{v}s", justify="right", header_style=style or "bold")
    for side, seq in pride.sequences.items():
        won = side == pride.winner
        cells = []
        for v, n in zip(PRIDE_VALUES, seq):
            cells.append(Text(str(n), style="bold reverse" if won and v == pride.decided_at else ("bold" if won else "")))
        table.add_row(Text(side_label(side) + (" +1" if won else ""), style="bold" if won else ""), *cells)
    return table


class PridePanel(GamePanel):
    BORDER_TITLE = "Pride of Dragons (R11)"

    def render_game(self, game: GameState) -> RenderableType:
        in_round = game.round_number > len(game.results)
        pride = (game.provisional_score() if in_round or not game.results else game.results[-1].score).pride
        explain = pride.explain().removeprefix("Pride of Dragons: ")
        if pride.winner and pride.decided_at:
            explain += f"; the tie breaks at the {pride.decided_at}s now"
        return Group(pride_table(pride), Text(explain, style="italic"))
