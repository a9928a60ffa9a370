"""The settlement of a round, read point by point (or on the demo table's clock): the noble,
the cards revealed, the agents (L9), suit then rank (L8), where the noble goes (L10), the courts
and totals, and what comes next, or after the last round the end and its tie-break (L12, L13)
(:func:`~companion.games.love_money_power_death.dashboard.settle.round_steps`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.dashboard.screens.settlement import Settlement
from companion.games.love_money_power_death.dashboard.screens import TCSS
from companion.games.love_money_power_death.dashboard.settle import round_steps
from companion.games.love_money_power_death.moves import Move
from companion.games.love_money_power_death.scoring import RoundResult
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["RoundSettlement"]


class RoundSettlement(Settlement):
    """Walks through the settlement of a round, one point per key press."""

    CSS_PATH = TCSS

    def __init__(self) -> None:
        super().__init__()
        self.result: RoundResult | None = None
        self.rounds = 0

    def load(self, state: LmpdState, result: RoundResult, moves: Sequence[Move]) -> None:
        """Round ``result`` of ``state``'s game to settle; the screen is installed once and
        shown for every round."""
        self.result = result
        self.rounds = state.setup.rounds
        self.steps = round_steps(state, result)
        self.begin()

    def heading(self) -> str | None:
        result = self.result
        if result is None:
            return None
        last = " (the last: the game's end)" if result.number == self.rounds else ""
        return f"Settlement of round {result.number} of {self.rounds}{last}"
