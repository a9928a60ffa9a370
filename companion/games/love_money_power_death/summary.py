"""The scores of a game as JSON: the ``rop replay --json`` object of record-format.md
("Scores"), and a finished round as ``rop track`` reports it."""

from __future__ import annotations

from typing import Any

from companion.games.love_money_power_death.scoring import RoundResult
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["summary", "period_json"]


def summary(state: LmpdState) -> dict[str, Any]:
    """The scores exactly as record-format.md lays them out: every decided round (noble, plays,
    winner, why), the courts in the order won, the discarded nobles, each player's score and
    number of nobles, and the result (L13). An unfinished game has ``finished`` false, no
    winner, ``winners`` empty, ``draw`` false and ``tiebreak`` null."""
    outcome = state.outcome()
    return {
        "game": "love-money-power-death",
        "rounds": [r.to_json() for r in state.rounds],
        "courts": {p: [c.id for c in court] for p, court in state.courts.items()},
        "discarded": [c.id for c in state.discarded],
        "totals": state.totals,
        "counts": state.counts,
        "finished": outcome is not None,
        "winner": outcome.winner if outcome else None,
        "winners": list(outcome.winners) if outcome else [],
        "draw": outcome.draw if outcome else False,
        "tiebreak": outcome.tiebreak.value if outcome else None,
    }


def period_json(state: LmpdState, result: RoundResult) -> dict[str, Any]:
    """A decided round for ``rop track``: its number, noble, plays, winner and why (as
    ``rop replay --json`` lists it), the reason in words, the totals and nobles after it, and
    the game's result once it is over."""
    outcome = state.outcome()
    return {
        "kind": "round",
        "round": result.number,
        **result.to_json(),
        "reason": result.reason,
        "totals": state.totals,
        "counts": state.counts,
        "result": None
        if outcome is None
        else {"winners": list(outcome.winners), "winner": outcome.winner, "draw": outcome.draw, "tiebreak": outcome.tiebreak.value},
    }
