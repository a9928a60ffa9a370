"""What a played-out season is worth to one player: the season's points margin, the points of
each kind that changed hands, a few things whose chance is told apart, and the chance to win
the game.

Only players count: dummies score points but never win (C16), and a knocked-out player can
neither end nor win the game (C20).

- **Margin**: the player's points of the season less the best other player's (C16). In
  Lonely Tyrant nobody scores, and what counts is the holy cities each loses (C18): the margin
  is then the cities the other players lost, on average, less the player's own.
- **Categories**: what changed hands from the decision on, the player's less the other
  players' average: trophies won by conquest (C12), trophies lost to retakes (C13) and to
  rebellions (C14), each a point, and cities destroyed (C18, C19).
- **Feats**: whether the player holds the initiative in the first action decided after the
  decision (the action under way after a card; the next action after an act: the
  rulebook's winning strike), whether they hold a card of their trump suit when the next
  action begins (the rulebook's look-ahead: the city held and the next city bring the trump
  suit), and whether their city is taken over in that first action.
- **Win**: exact when the season ends the game (C17, C18); otherwise a model, as a chess
  engine's winning chances are: the lead over each rival after the season against the spread
  of the seasons likely left (:func:`win_model`), put together over the rivals
  (:func:`field_win`: at a table of four, three of them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.coach.model import Category
from companion.games.circle_of_power.coach.worlds import PlayoutState
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.scoring import KNOCK_OUT
from companion.games.circle_of_power.setup import LONELY_TYRANT

__all__ = [
    "CATEGORIES",
    "FEATS",
    "SeasonValue",
    "season_value",
    "win_model",
    "field_win",
    "SEASON_SPREAD",
    "POINTS_PER_SEASON",
    "LOSS_SPREAD",
    "LOSSES_PER_SEASON",
]

CATEGORIES: tuple[Category, ...] = (
    Category("conquests", "conquests", "C12"),
    Category("retakes", "retakes", "C13"),
    Category("rebellions", "rebellions", "C14"),
    Category("destroyed", "destroyed cities", "C18"),
)
"""The kinds of points, each counted for the player as points: a trophy won by conquest is
+1, a trophy lost to a retake or a rebellion -1, a holy city destroyed -1."""

FEATS = ("initiative", "trump_ready", "city_taken")
"""Told apart, per sample: the player holds the initiative in the first action decided after
the decision (C9); holds a card of their trump suit when the next action begins (C9: the
rulebook's winning strikes and look-ahead); and their city is taken over in that first action
(C12, C13, C18)."""

SEASON_SPREAD = 2.0
"""How far one season moves the margin between two players (its standard deviation), as
simulated tables of rule-of-thumb players show it."""
POINTS_PER_SEASON = 3.8
"""The points the leading player scores in a season, likewise."""
LOSS_SPREAD = 1.9
"""Lonely Tyrant: how far one season moves the difference of two players' destroyed cities."""
LOSSES_PER_SEASON = 2.1
"""Lonely Tyrant: the holy cities a player loses in a season."""


def win_model(lead: float, seasons: float, spread: float) -> float:
    """The chance that a player leading by ``lead`` wins with about ``seasons`` seasons left:
    a normal curve over the seasons left, each moving the lead by ``spread`` (logistic
    approximation)."""
    z = lead / (spread * math.sqrt(max(1.0, seasons)))
    return 1.0 / (1.0 + math.exp(-1.702 * z))


def field_win(scores: Sequence[float], seasons: float, spread: float) -> float:
    """The chance that the first of ``scores`` (the player's, then each rival's) wins: each
    player's chance to finish ahead of each other one (:func:`win_model`), multiplied over
    their rivals and shared out in proportion among the players. With one rival it is
    :func:`win_model` itself; with three it counts every rival, not the best one alone: a tie
    with the leader while two others trail is worth more than a four-way tie, and every point
    the player scores raises their chance against all three."""
    weights = []
    for i, mine in enumerate(scores):
        w = 1.0
        for j, theirs in enumerate(scores):
            if j != i:
                w *= win_model(mine - theirs, seasons, spread)
        weights.append(w)
    return weights[0] / sum(weights)


@dataclass(frozen=True, slots=True)
class SeasonValue:
    margin: float
    win: float
    categories: tuple[float, ...]
    feats: tuple[bool, ...]


def _others(state: CircleState, player: str) -> list[str]:
    """The other players seated this season: the player's rivals for the game."""
    return [p for p in state.players if p != player and p in state.seats]


def season_value(state: CircleState, player: str) -> SeasonValue:
    """The value to ``player`` of ``state``, whose season has just ended (or whose game the
    Lonely Tyrant just ended)."""
    result = state.results[-1]
    others = _others(state, player)
    lonely = state.variant == LONELY_TYRANT
    if lonely:
        lost = result.destroyed
        margin = (sum(lost.get(p, 0) for p in others) / len(others) if others else 0.0) - lost.get(player, 0)
    else:
        points = result.points
        margin = points.get(player, 0) - max((points.get(p, 0) for p in others), default=0)
    cats: tuple[float, ...] = (0.0,) * len(CATEGORIES)
    feats = (False, False, False)
    if isinstance(state, PlayoutState):
        tally = state.tally

        def share(counts: dict[str, int], sign: float) -> float:
            mine = counts.get(player, 0)
            theirs = sum(counts.get(p, 0) for p in others) / len(others) if others else 0.0
            return sign * (mine - theirs)

        cats = (
            share(tally.gained, 1.0),
            share(tally.retaken, -1.0),
            share(tally.rebelled, -1.0),
            share(tally.destroyed, -1.0),
        )
        window = tally.window
        ready = bool(tally.trump_ready)
        if window is None:
            feats = (False, ready, False)
        else:
            winner, act, victim = window
            feats = (winner == player, ready, victim == player)
    return SeasonValue(margin, _win(state, player, others), cats, feats)


def _win(state: CircleState, player: str, others: list[str]) -> float:
    """The chance to win the game after this season: exact at its end, else the model."""
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner == player:
            return 1.0
        if outcome.draw:
            best = max(outcome.totals.get(p, 0) for p in state.players if p not in state.knocked_out)
            if player not in state.knocked_out and outcome.totals.get(player, 0) == best:
                tied = sum(1 for p in state.players if p not in state.knocked_out and outcome.totals.get(p, 0) == best)
                return 1.0 / tied
        return 0.0
    knocked = state.knocked_out
    if player in knocked:
        return 0.0  # C20: out means out
    rivals = [p for p in state.players if p != player and p not in knocked]
    if not rivals:
        return 1.0
    field = [player, *rivals]
    if state.variant == LONELY_TYRANT:
        lives = [KNOCK_OUT - state.destroyed_totals.get(p, 0) for p in field]
        return field_win(lives, min(lives) / LOSSES_PER_SEASON, LOSS_SPREAD)
    totals = state.totals
    scores = [totals.get(p, 0) for p in field]
    to_go = state.setup.target - max(scores)
    return field_win(scores, to_go / POINTS_PER_SEASON, SEASON_SPREAD)
