"""Ruse and Bruise's screens on the basic ones: the scores panel in a few lines, and the
settlement of a round column by column and step by step (B18-B28)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult

from companion.dashboard.basic.screens import BasicSettlement, BasicTable, TablePanel
from companion.dashboard.widgets.base import GamePanel
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.scoring import RoundResult, score

__all__ = ["RabTable", "RabTablePanel", "ScoresPanel", "RabSettlement", "settlement_steps", "score_lines"]


def settlement_steps(state: RabState, result: RoundResult) -> list[tuple[str, RenderableType]]:
    """A distributed round, step by step: each column's distribution (B18-B26), then each
    player's goal cards and score, plain and with the doubling (B28)."""
    steps: list[tuple[str, RenderableType]] = []
    for k, column in enumerate(result.columns, 1):
        lines = column.lines()
        steps.append((f"Column {k}", Text("\n".join(lines))))
    for player in state.players:
        won = state.won(player)
        s = score(won)
        steps.append((player, Text(f"{' '.join(g.id for g in won) or 'no goal card'}: {s.words()}")))
    outcome = state.outcome()
    if outcome is not None:
        steps.append(("Result", Text(outcome.explain())))
    return steps


def score_lines(state: RabState) -> list[str]:
    """The scores panel: each player's score so far (the better of plain and doubled, B28)
    and goal cards, then who took each column of every finished round."""
    lines = []
    totals = state.totals
    for p in state.players:
        won = state.won(p)
        lines.append(f"{p} {totals[p]}: {' '.join(g.id for g in won) or 'no goal card yet'}")
    for r in state.results:
        lines.append(f"Round {r.number}: {', '.join(w or '-' for w in r.winners)}")
    outcome = state.outcome()
    if outcome is not None:
        lines.append(outcome.explain())
    return lines


class ScoresPanel(GamePanel):
    """Every player's score and goal cards, and each round's winners."""

    BORDER_TITLE = "Scores"

    def render_game(self, game: Any) -> Text:
        return Text("\n".join(score_lines(game)))


class RabTablePanel(TablePanel):
    """The table panel; in teaching mode a line under each column, as the cards face up make
    it (:func:`~companion.games.ruse_and_bruise.dashboard.kit.teaching_lines`)."""

    def render_game(self, game: Any) -> Text:
        kit = game.game.dashboard()
        return Text("\n".join(kit.table_lines(game, teaching=self.teaching)))


class RabTable(BasicTable):
    """The basic table screen, its table panel with teaching mode's lines, its scores panel
    in a few lines."""

    def compose_main(self) -> ComposeResult:
        yield RabTablePanel(id="table")

    def compose_side(self) -> ComposeResult:
        yield ScoresPanel(id="scores")


class RabSettlement(BasicSettlement):
    """A round's distribution, column by column and step by step."""

    def load(self, state: Any, result: Any, moves: Sequence[Any]) -> None:
        self._title = f"Distribution of round {result.number}"
        self.steps = settlement_steps(state, result)
        self.begin()
