"""Season results, totals, knock-outs and the end of the game (C16-C20).

A season scores one point per trophy in each emperor's line (C16), none in Lonely Tyrant
(C18). Destroyed cities count towards a player's knock-out, up to the fifth, never a dummy's
(C18, C19). The game ends after a season in which a player still in the game reaches the
target (C17, C20), or at once when all players but one are knocked out (C18).

>>> outcome = decide_after_season({"ann": 6, "bob": 6, "@1": 9}, ("ann", "bob"), (), 6)
>>> outcome.winner, outcome.draw, outcome.how.value
(None, True, 'one-true-emperor')
>>> decide_after_season({"ann": 5, "bob": 3, "@1": 9}, ("ann", "bob"), (), 6) is None
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.circle_of_power.cards import Card

__all__ = [
    "Termination",
    "Outcome",
    "SeasonResult",
    "KNOCK_OUT",
    "decide_after_season",
    "season_points",
]

KNOCK_OUT = 5
"""A player whose fifth holy city is destroyed is knocked out (C18)."""


class Termination(enum.Enum):
    """How a game of Circle of Power ended."""

    ONE_TRUE_EMPEROR = "one-true-emperor"
    """After a season in which a player still in the game reached the target (C17, C20); the
    highest total among such players wins, a shared highest total is a draw."""
    LONELY_TYRANT = "lonely-tyrant"
    """All players but one were knocked out (C18, C19): the last one is the Lonely Tyrant."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the ``winner`` (``None`` for a draw), whether it is a
    ``draw``, ``how`` it ended, and the ``totals`` of every emperor at the end."""

    winner: str | None
    draw: bool
    how: Termination
    totals: Mapping[str, int]

    def explain(self) -> str:
        """The result in words."""
        if self.how is Termination.LONELY_TYRANT:
            return f"{self.winner} is the Lonely Tyrant: every other player is knocked out (C18)"
        if self.draw:
            best = max(self.totals.values()) if self.totals else 0
            return f"a draw: the highest total, {best}, is shared (C17)"
        return f"{self.winner} is the One True Emperor with {self.totals.get(self.winner or '', 0)} (C17)"


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """A finished season (or one cut short by the Lonely Tyrant, ``cut_short``).

    - ``points``: each emperor's points, one per trophy (C16; none in Lonely Tyrant, C18), and
      ``trophies`` the cards behind them (the reasons).
    - ``destroyed``: the cities each emperor lost to destruction in the season that count
      towards a knock-out (C18: a player's, up to the fifth; never a dummy's), and
      ``destroyed_cards`` every city destroyed, counted or not.
    - ``knocked_out``: the players knocked out in the season, in order.
    - ``totals`` and ``destroyed_totals``: the game's running counts after the season, of every
      emperor seated so far.
    """

    number: int
    dealer: str
    seats: tuple[str, ...]
    points: Mapping[str, int]
    trophies: Mapping[str, tuple[Card, ...]]
    destroyed: Mapping[str, int]
    destroyed_cards: Mapping[str, tuple[Card, ...]]
    knocked_out: tuple[str, ...]
    totals: Mapping[str, int]
    destroyed_totals: Mapping[str, int]
    cut_short: bool = False

    def to_json(self) -> dict[str, dict[str, int]]:
        """The season as the record format's scores list it: ``points`` and ``destroyed``."""
        return {"points": dict(self.points), "destroyed": dict(self.destroyed)}

    def explain(self, name: str) -> str:
        """``name``'s points with their reasons: ``"2 (QD, JH)"``, ``"0"``."""
        points = self.points.get(name, 0)
        cards = self.trophies.get(name, ())
        if points and cards:
            return f"{points} ({', '.join(c.id for c in cards)})"
        return str(points)


def season_points(variant: str, trophies: Sequence[tuple[Card, ...]]) -> tuple[int, ...]:
    """Each seat's points: one per trophy (C16, C19). In Lonely Tyrant a conquest destroys
    and wins no trophy, so nobody scores (C18)."""
    return tuple(len(line) for line in trophies)


def decide_after_season(
    totals: Mapping[str, int], players: Sequence[str], knocked_out: Sequence[str], target: int
) -> Outcome | None:
    """C17 with C20: the game ends when a player still in the game has reached ``target``;
    the highest total among the players still in wins, a shared one is a draw. Dummies and
    knocked-out players never end nor win the game; their totals are still shown."""
    eligible = [p for p in players if p not in knocked_out]
    if not eligible or max(totals.get(p, 0) for p in eligible) < target:
        return None
    best = max(totals.get(p, 0) for p in eligible)
    leaders = [p for p in eligible if totals.get(p, 0) == best]
    if len(leaders) == 1:
        return Outcome(leaders[0], False, Termination.ONE_TRUE_EMPEROR, dict(totals))
    return Outcome(None, True, Termination.ONE_TRUE_EMPEROR, dict(totals))
