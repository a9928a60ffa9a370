"""What a played-out game is worth to one player: the crowns margin at the end, the chance to
win, the crowns won by each way of winning a noble, and whether the player won the noble of the
round decided.

A game of Love, Money, Power, Death is short (one noble a round, ten rounds at most, L12), so
the coach plays every playout to the game's end: the scoring period it judges is the game, and
the chance to win is exact in every playout (L13), never a model.

- **Margin**: the player's score (the crowns in their court, L13) less the best other
  player's.
- **Win**: 1 when the player wins alone, ``1/k`` when they share the win with ``k - 1`` others
  (L13: the same score and the same number of nobles), 0 otherwise.
- **Categories**: the crowns won from the decision's round on, by the way each noble was won,
  the player's less the other players' average: with a lone agent (L9), with the highest card
  of the noble's suit (L8), on rank alone when nobody had the suit (L8).
- **Feat** ``noble``: the player wins the noble of the round the decision was made in (whose
  suit nobody knows when committing, L7).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.coach.model import Category
from companion.games.love_money_power_death.coach.worlds import PlayoutState
from companion.games.love_money_power_death.scoring import Why
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["CATEGORIES", "FEATS", "GameValue", "game_value", "win_share"]

CATEGORIES: tuple[Category, ...] = (
    Category("agent", "nobles won with a lone agent", "L9"),
    Category("suit", "nobles won with the highest card of their suit", "L8"),
    Category("rank", "nobles won on rank alone", "L8"),
)
"""The ways of winning a noble, each counted in crowns."""

FEATS = ("noble",)
"""Told apart, per sample: the player wins the noble of the round the decision was made in."""

_KINDS = {Why.AGENT: 0, Why.SUIT: 1, Why.RANK: 2}


@dataclass(frozen=True, slots=True)
class GameValue:
    margin: float
    win: float
    categories: tuple[float, ...]
    feats: tuple[bool, ...]


def win_share(state: LmpdState, player: str) -> float:
    """``player``'s share of the win in a finished game (L13)."""
    outcome = state.outcome()
    if outcome is None or player not in outcome.winners:
        return 0.0
    return 1.0 / len(outcome.winners)


def game_value(state: LmpdState, player: str) -> GameValue:
    """The value to ``player`` of ``state``, a game just ended (L12)."""
    totals = state.totals
    others = [p for p in state.players if p != player]
    margin = totals[player] - max(totals[p] for p in others)
    first = state.first_round if isinstance(state, PlayoutState) else 1
    kinds = {p: [0.0, 0.0, 0.0] for p in state.players}
    noble = False
    for r in state.rounds:
        if r.number < first or r.winner is None:
            continue
        if r.number == first and r.winner == player:
            noble = True
        kinds[r.winner][_KINDS[r.why]] += r.noble.rank
    cats = tuple(kinds[player][i] - sum(kinds[p][i] for p in others) / len(others) for i in range(len(CATEGORIES)))
    return GameValue(float(margin), win_share(state, player), cats, (noble,))
