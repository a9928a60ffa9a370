"""What a played-out round is worth to one player: the round's goal points margin, the kinds
of gain it is made of, a few things whose chance is told apart, and the chance to win the
game.

- **Margin**: the goal points the player took in the round (each goal card its value, B26)
  less the best other player's.
- **Categories**, the player's less the other players' average: the goal points of the round
  (B26); the areas of goal cards taken that the player held none of before, towards the
  doubling of six areas (B28); and the strength kept in hand for the rounds to come (hands
  are kept, B27), the numbers of the cards held at the round's end, in tens.
- **Feats**: whether the player takes the goal card of the column their decision was about
  (the card placed, the Cloak's or the Traitor's column), and whether they take the most
  goal points of the round.
- **Win**: exact when the round ends the game (B28); otherwise a model, as a chess engine's
  winning chances are: every player's score after the round (the better of the plain and
  the doubled, B28) and the strength kept in hand, against the spread of the rounds left
  (:func:`win_chances`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from companion.coach.model import Category
from companion.games.ruse_and_bruise.cards import ROUNDS, Influence
from companion.games.ruse_and_bruise.coach.reckon import UNKNOWN_WORTH
from companion.games.ruse_and_bruise.coach.worlds import PlayoutState
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.scoring import score
from companion.games.ruse_and_bruise.values import ValuesTable

__all__ = ["CATEGORIES", "FEATS", "RoundValue", "round_value", "win_chances", "hand_strength", "ROUND_SPREAD", "HAND_POINTS"]

CATEGORIES: tuple[Category, ...] = (
    Category("goal_points", "goal cards taken", "B26"),
    Category("areas", "new areas towards the doubling", "B28"),
    Category("hand", "strength kept in hand", "B27"),
)

FEATS = ("column_won", "round_won")

ROUND_SPREAD = 4.2
"""How far one round moves the difference of two players' goal points (its standard
deviation), as simulated tables of rule-of-thumb players show it, from two players to six."""

HAND_POINTS = 0.08
"""The goal points a number kept in hand is worth in a later round, per round left."""


def hand_strength(state: RabState, player: str, values: ValuesTable) -> float:
    """The numbers of the cards ``player`` holds (a card the world does not name counted at a
    middling worth; a professional at 9, the middle of its 12 and 8, B3)."""
    known = state.hand(player)
    total = 0.0
    for card in known:
        total += _number(card, values)
    return total + UNKNOWN_WORTH * (state.hand_size(player) - len(known))


def _number(card: Influence, values: ValuesTable) -> float:
    if card.area is not None:
        return 9.0
    n = values.number(card)
    return float(n) if n is not None else UNKNOWN_WORTH


def win_chances(scores: Mapping[str, float], rounds_left: int) -> dict[str, float]:
    """Each player's chance to win with ``scores`` (goal points, and what the hand is worth)
    and ``rounds_left`` rounds to play: a softmax whose scale is the spread of the rounds left
    (for two players, the logistic approximation of a normal curve)."""
    scale = 1.702 / (ROUND_SPREAD * math.sqrt(max(1, rounds_left)))
    top = max(scores.values())
    weights = {p: math.exp((s - top) * scale) for p, s in scores.items()}
    total = sum(weights.values())
    return {p: w / total for p, w in weights.items()}


@dataclass(frozen=True, slots=True)
class RoundValue:
    margin: float
    win: float
    categories: tuple[float, ...]
    feats: tuple[bool, ...]


def round_value(state: RabState, player: str) -> RoundValue:
    """The value to ``player`` of ``state``, whose round has just been distributed."""
    result = state.results[-1]
    players = state.players
    values = state.values
    assert values is not None
    points = dict.fromkeys(players, 0)
    for column in result.columns:
        if column.winner is not None:
            points[column.winner] += column.goal.value
    others = [p for p in players if p != player]
    margin = points[player] - max(points[p] for p in others)
    areas: dict[str, int] = {}
    hands: dict[str, float] = {}
    for p in players:
        won = state.won(p)
        taken = sum(1 for c in result.columns if c.winner == p)
        before = {g.area for g in won[: len(won) - taken]}
        areas[p] = len({g.area for g in won[len(won) - taken :]} - before)
        hands[p] = hand_strength(state, p, values)

    def share(d: Mapping[str, float]) -> float:
        return d[player] - sum(d[p] for p in others) / len(others)

    categories = (share(points), share(areas), share(hands) / 10.0)
    won_here = False
    if isinstance(state, PlayoutState) and state.decider == player and state.decided_in is not None:
        won_here = result.columns[state.decided_in - 1].winner == player
    feats = (won_here, points[player] > max(points[p] for p in others))
    return RoundValue(float(margin), _win(state, player, hands), categories, feats)


def _win(state: RabState, player: str, hands: Mapping[str, float]) -> float:
    """The chance to win the game after this round: exact at its end, else the model."""
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner == player:
            return 1.0
        if outcome.draw:
            best = max(s.score for s in outcome.scores.values())
            tied = [p for p, s in outcome.scores.items() if s.score == best]
            return 1.0 / len(tied) if player in tied else 0.0
        return 0.0
    left = ROUNDS - state.round_number
    scores = {p: score(state.won(p)).score + HAND_POINTS * left * hands[p] for p in state.players}
    return win_chances(scores, left)[player]
