"""Reviewing a finished game of Rule of Power: :func:`~companion.coach.review.review` marks
each decision by the drop in winning chances (on the game's model, as for any game);
:func:`round_span` finds one round of a game, for the settlement's mistakes of the round.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.coach.review import THRESHOLDS, Mark, biggest, review, verdict
from companion.games.rule_of_power.engine.moves import Move, NewRound

__all__ = ["Mark", "review", "verdict", "biggest", "round_span", "THRESHOLDS"]


def round_span(moves: Sequence[Move], number: int) -> tuple[int, int]:
    """Where round ``number`` (1-based) lies in ``moves``: from its ``NewRound`` up to the
    next one (or the end)."""
    starts = [i for i, m in enumerate(moves) if type(m) is NewRound]
    if not 1 <= number <= len(starts):
        raise ValueError(f"round {number} is not in the moves (they hold {len(starts)} rounds)")
    begin = starts[number - 1]
    end = starts[number] if number < len(starts) else len(moves)
    return begin, end
