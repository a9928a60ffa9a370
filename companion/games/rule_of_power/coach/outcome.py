"""What a played-out round is worth to one side: its round-point margin, the points of each
kind it wins or loses, and its chance to win the game.

The chance to win is exact when the round decides the game (R13, R14). Otherwise it is a
model, like a chess engine's winning chances: the lead after the round, against the spread of
the rounds still to play (each round moves the margin by about :data:`ROUND_SPREAD` points, and
about :data:`POINTS_PER_ROUND` points go to the leading side per round).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.coach.model import Category
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.scoring import RoundScore

__all__ = ["RoundValue", "round_value", "CATEGORIES", "FEATS", "ROUND_SPREAD", "POINTS_PER_ROUND", "win_model"]

#: The kinds of points, with the ruling that awards them (R7, R9-R12).
CATEGORIES: tuple[Category, ...] = (
    Category("world_cards", "most World cards", "R9"),
    Category("power_cards", "most Power cards", "R9"),
    Category("fire_dragon", "the Fire Dragon", "R10"),
    Category("pride_of_dragons", "the Pride of Dragons", "R11"),
    Category("power_ring", "the Power Ring and its chain", "R12"),
    Category("sweeps", "clean sweeps", "R7"),
)

#: What a side may achieve in a round that is told on its own: the Rule of Power (R13).
FEATS = ("rule_of_power",)

ROUND_SPREAD = 3.0
POINTS_PER_ROUND = 3.5


def win_model(lead: float, to_go: float) -> float:
    """The chance that a side leading by ``lead`` points wins, ``to_go`` points before the
    target: a normal curve over the rounds likely left (logistic approximation)."""
    rounds = max(1.0, to_go / POINTS_PER_ROUND)
    z = lead / (ROUND_SPREAD * math.sqrt(rounds))
    return 1.0 / (1.0 + math.exp(-1.702 * z))


@dataclass(frozen=True, slots=True)
class RoundValue:
    margin: int
    """The side's round points less the best other side's."""
    win: float
    """The chance to win the game, 0..1."""
    categories: tuple[float, ...]
    """Per :data:`CATEGORIES`: the side's points of that kind less the other sides' average."""
    rule_of_power: bool

    @property
    def feats(self) -> tuple[bool, ...]:
        """Per :data:`FEATS`: whether the side won the Rule of Power."""
        return (self.rule_of_power,)


def round_value(game: GameState, side: str) -> RoundValue:
    """The value for ``side`` of ``game``, whose round has just ended."""
    result = game.results[-1]
    score: RoundScore = result.score
    points = {s: p.total for s, p in score.sides.items()}
    others = [s for s in points if s != side]
    margin = points[side] - max(points[s] for s in others)
    cats = []
    for key, _, _ in CATEGORIES:
        if key == "power_ring":
            values = {s: p.power_master + p.power_points for s, p in score.sides.items()}
        else:
            values = {s: getattr(p, key) for s, p in score.sides.items()}
        cats.append(values[side] - sum(values[s] for s in others) / len(others))
    outcome = game.outcome()
    if outcome is not None:
        win = 1.0 if outcome.winner == side else 0.0
    else:
        totals = result.totals
        lead = totals[side] - max(totals[s] for s in others)
        to_go = game.setup.target - max(totals.values())
        win = win_model(lead, to_go)
    return RoundValue(margin, win, tuple(cats), score.rule_of_power == side)
