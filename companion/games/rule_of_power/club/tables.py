"""Rule of Power's figures in the club archive, read back as tables of their own.

The archive keeps every game's figures as long rows (:mod:`companion.club.schema`: one row a
figure, none for a figure of 0). These selectables turn Rule of Power's back into a column per
figure, the shape its archive had before it kept other games (revision 0004), for SQL reports
and checks:

- :data:`round_points`: a row per round and side, its points (R6-R14);
- :data:`game_sides`: a row per game and side, its game figures, whether it won and whether by
  the Rule of Power (R13);
- :data:`game_players`: a row per seat, with the clean sweeps the player made (R7).

>>> from sqlalchemy import select
>>> print(select(round_points.c.side, round_points.c.total).where(round_points.c.round == 1))  # doctest: +ELLIPSIS
SELECT round_points.side, round_points.total...
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Integer, and_, case, cast, func, select

from companion.club.schema import PLAYER, SIDE, TEAM, game_figures, game_periods, game_players as _players, game_sides as _sides, games, period_figures
from companion.games.rule_of_power import GAME
from companion.games.rule_of_power.club.part import GAME_FIGURES, ROUND_POINTS

__all__ = ["game_players", "game_sides", "round_points"]

_NAME = GAME.name  # what the archive's games.game says of a Rule of Power game


def _pivot(table: Any, name: str) -> Any:
    """``SUM(value)`` of the rows of one figure: its value, the holder's row being grouped."""
    return func.sum(case((table.c.figure == name, table.c.value), else_=0))


_points = (
    select(
        period_figures.c.game_id,
        period_figures.c.period,
        period_figures.c.holder,
        *(_pivot(period_figures, name).label(name) for name in ROUND_POINTS),
    )
    .where(period_figures.c.scope.in_((SIDE, TEAM)))
    .group_by(period_figures.c.game_id, period_figures.c.period, period_figures.c.holder)
    .subquery()
)

# Every round of a game has a row for every side (a point of 0 is not stored).
round_points = (
    select(
        game_periods.c.game_id,
        game_periods.c.number.label("round"),
        _sides.c.side,
        *(cast(func.coalesce(_points.c[name], 0), Integer).label(name) for name in ROUND_POINTS),
    )
    .join(games, games.c.id == game_periods.c.game_id)
    .join(_sides, _sides.c.game_id == game_periods.c.game_id)
    .outerjoin(
        _points,
        and_(_points.c.game_id == game_periods.c.game_id, _points.c.period == game_periods.c.number, _points.c.holder == _sides.c.side),
    )
    .where(games.c.game == _NAME)
    .subquery("round_points")
)
"""Each round's points per side (``game_id``, ``round``, ``side``, then a column per point)."""

_side_figures = (
    select(
        game_figures.c.game_id,
        game_figures.c.holder,
        *(_pivot(game_figures, name).label(name) for name in GAME_FIGURES),
    )
    .where(game_figures.c.scope.in_((SIDE, TEAM)))
    .group_by(game_figures.c.game_id, game_figures.c.holder)
    .subquery()
)


def _figure(name: str) -> Any:
    return cast(func.coalesce(_side_figures.c[name], 0), Integer)


game_sides = (
    select(
        _sides.c.game_id,
        _sides.c.side,
        _sides.c.is_team,
        _figure("points_for").label("points_for"),
        _figure("points_against").label("points_against"),
        _figure("sweeps").label("sweeps"),
        _sides.c.won,
        cast(_figure("rule_of_power_wins") > 0, Boolean).label("rule_of_power_win"),
    )
    .join(games, games.c.id == _sides.c.game_id)
    .outerjoin(_side_figures, and_(_side_figures.c.game_id == _sides.c.game_id, _side_figures.c.holder == _sides.c.side))
    .where(games.c.game == _NAME)
    .subquery("rule_of_power_sides")
)
"""Each game's sides with their figures for the whole game: ``points_for``,
``points_against``, ``sweeps``, ``won`` and ``rule_of_power_win``."""

_sweeps = game_figures.alias("player_sweeps")

game_players = (
    select(
        _players.c.game_id,
        _players.c.seat,
        _players.c.player,
        _players.c.side,
        cast(func.coalesce(_sweeps.c.value, 0), Integer).label("sweeps"),
    )
    .join(games, games.c.id == _players.c.game_id)
    .outerjoin(
        _sweeps,
        and_(
            _sweeps.c.game_id == _players.c.game_id,
            _sweeps.c.scope == PLAYER,
            _sweeps.c.holder == _players.c.player,
            _sweeps.c.figure == "sweeps",
        ),
    )
    .where(games.c.game == _NAME)
    .subquery("rule_of_power_players")
)
"""Each game's seats with the clean sweeps each player made (R7)."""
