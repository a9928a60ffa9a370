"""Standings, ratings and a player's history, from the archive.

Standings count, per player and per team: games (finished or not), unfinished games, wins,
points scored and conceded (a side's game total and the other sides' totals), clean sweeps
(R7), and wins by the Rule of Power (R13). In a team game a player's row carries the team's
wins and points (R16: the team scores as one) and the sweeps the player made, those made
with the cards they laid; the team's row has the sum of its members' sweeps.

Ratings use openskill's Plackett-Luce model over the finished games in the order they were
played (an unfinished game is stored and counted, never rated). The winner ranks first (R13,
R14), the other sides by their game totals, equal totals sharing a rank. Players are rated
through their sides (a team game rates each member through the team); teams, named by their
members, have ratings of their own from their team games. A late arrival simply has no games
before their first. Ratings are kept in the archive as of the last rated game, so that a
league's standings rate only the games added since; a game added before that point, or a
correction, drops them and the next standings rate every game again in date order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, and_, case, delete, func, or_, select
from sqlalchemy.exc import IntegrityError

from companion.club.schema import game_players, game_sides, games, rating_marks, ratings

__all__ = ["Standing", "Standings", "compute_standings", "history", "rate_games", "ranks"]

COLUMNS = (
    "name", "kind", "games", "unfinished", "wins", "points_for", "points_against",
    "sweeps", "rule_of_power_wins", "rating", "mu", "sigma", "rated_games",
)


@dataclass
class Standing:
    name: str
    kind: str  # "player" or "team"
    games: int = 0
    unfinished: int = 0
    wins: int = 0
    points_for: int = 0
    points_against: int = 0
    sweeps: int = 0
    rule_of_power_wins: int = 0
    rating: float | None = None  # openskill's ordinal: mu - 3 sigma, a cautious estimate
    mu: float | None = None
    sigma: float | None = None
    rated_games: int = 0

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in COLUMNS}
        for k in ("rating", "mu", "sigma"):
            if out[k] is not None:
                out[k] = round(out[k], 3)
        return out


@dataclass
class Standings:
    season: str | None
    players: list[Standing] = field(default_factory=list)
    teams: list[Standing] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "season": self.season,
            "players": [s.to_json() for s in self.players],
            "teams": [s.to_json() for s in self.teams],
        }

    def rows(self) -> Iterator[Standing]:
        yield from self.players
        yield from self.teams


def ranks(totals: dict[str, int], winner: str) -> dict[str, int]:
    """Finishing places: the winner first, then by game total, equal totals sharing a place."""
    others = sorted((s for s in totals if s != winner), key=lambda s: -totals[s])
    out = {winner: 1}
    place = 2
    for i, side in enumerate(others):
        if i and totals[side] == totals[others[i - 1]]:
            out[side] = out[others[i - 1]]
        else:
            out[side] = place + i
    return out


@dataclass
class RatedGame:
    game_id: str
    played_at: datetime
    ratings_after: dict[str, tuple[float, float]]  # player -> (mu, sigma)


class _Ratings:
    """Two pools of openskill ratings (players, teams) updated game by game."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.players: dict[str, Any] = {}
        self.teams: dict[str, Any] = {}
        self.player_games: dict[str, int] = defaultdict(int)
        self.team_games: dict[str, int] = defaultdict(int)

    def load(self, rows: Iterable[Any]) -> None:
        """Ratings kept from an earlier run (rows of the ``ratings`` table)."""
        for row in rows:
            pool, count = (self.players, self.player_games) if row.pool == "player" else (self.teams, self.team_games)
            pool[row.name] = self.model.rating(mu=row.mu, sigma=row.sigma, name=row.name)
            count[row.name] = row.games

    def rows(self, season: str) -> list[dict[str, Any]]:
        out = []
        for kind, pool, count in (("player", self.players, self.player_games), ("team", self.teams, self.team_games)):
            for name, r in pool.items():
                out.append({"season": season, "pool": kind, "name": name, "mu": r.mu, "sigma": r.sigma, "games": count[name]})
        return out

    def _get(self, pool: dict[str, Any], name: str) -> Any:
        r = pool.get(name)
        if r is None:
            r = pool[name] = self.model.rating(name=name)
        return r

    def rate(self, sides: dict[str, list[str]], totals: dict[str, int], winner: str, is_team: bool) -> None:
        order = list(sides)
        place = ranks(totals, winner)
        rank_list: list[float] = [float(place[s]) for s in order]
        teams = [[self._get(self.players, p) for p in sides[s]] for s in order]
        new = self.model.rate(teams, ranks=rank_list)
        for side, members in zip(order, new):
            for p, r in zip(sides[side], members):
                self.players[p] = r
                self.player_games[p] += 1
        if is_team:
            new_t = self.model.rate([[self._get(self.teams, s)] for s in order], ranks=rank_list)
            for side, (r,) in zip(order, new_t):
                self.teams[side] = r
                self.team_games[side] += 1


def _finished_games(
    conn: Connection, season: str | None, after: tuple[datetime, str] | None = None
) -> Iterator[tuple[str, datetime, str, bool, dict[str, list[str]], dict[str, int]]]:
    """Finished games in date order (those after ``after`` only) with their sides' members
    and totals."""
    q = (
        select(games.c.id, games.c.played_at, games.c.winner, game_sides.c.is_team, game_sides.c.side, game_sides.c.points_for)
        .join(game_sides, game_sides.c.game_id == games.c.id)
        .where(games.c.finished.is_(True))
        .order_by(games.c.played_at, games.c.id)
    )
    if season:
        q = q.where(games.c.season == season)
    if after is not None:
        q = q.where(or_(games.c.played_at > after[0], and_(games.c.played_at == after[0], games.c.id > after[1])))
    current: str | None = None
    row0: Any = None
    totals: dict[str, int] = {}
    for row in conn.execute(q):
        if row.id != current:
            if current is not None:
                yield _game_tuple(row0, totals)
            current, row0, totals = row.id, row, {}
        totals[row.side] = row.points_for
    if current is not None:
        yield _game_tuple(row0, totals)


def _game_tuple(row: Any, totals: dict[str, int]) -> tuple[str, datetime, str, bool, dict[str, list[str]], dict[str, int]]:
    sides = {s: s.split("+") for s in totals}
    return row.id, row.played_at, row.winner, bool(row.is_team), sides, totals


def rate_games(engine: Engine, season: str | None = None, *, follow: str | None = None) -> tuple[_Ratings, list[RatedGame]]:
    """Rate every finished game in date order; with ``follow``, also the player's rating
    after each of their games.

    Without ``follow``, the ratings kept from the last run are the starting point and only
    the games played after its last rated game are rated (the archive drops the kept ratings
    when a game is added before that point or corrected), then the result is kept."""
    ratings_ = _Ratings()
    trail: list[RatedGame] = []
    key = season or ""
    with engine.connect() as conn:
        mark = None if follow is not None else conn.execute(select(rating_marks).where(rating_marks.c.season == key)).first()
        if mark is not None:
            ratings_.load(conn.execute(select(ratings).where(ratings.c.season == key)))
        last = (mark.played_at, mark.game_id) if mark is not None else None
        rated = mark.games if mark is not None else 0
        for gid, when, winner, is_team, sides, totals in _finished_games(conn, season, last):
            ratings_.rate(sides, totals, winner, is_team)
            rated += 1
            last = (when, gid)
            if follow is not None and any(follow in m for m in sides.values()):
                r = ratings_.players[follow]
                trail.append(RatedGame(gid, when, {follow: (r.mu, r.sigma)}))
    if follow is None and last is not None and (mark is None or last != (mark.played_at, mark.game_id)):
        _keep(engine, key, ratings_, last, rated)
    return ratings_, trail


def _keep(engine: Engine, key: str, ratings_: _Ratings, last: tuple[datetime, str], rated: int) -> None:
    try:
        with engine.begin() as conn:
            conn.execute(delete(ratings).where(ratings.c.season == key))
            conn.execute(delete(rating_marks).where(rating_marks.c.season == key))
            rows = ratings_.rows(key)
            if rows:
                conn.execute(ratings.insert(), rows)
            conn.execute(rating_marks.insert(), {"season": key, "played_at": last[0], "game_id": last[1], "games": rated})
    except IntegrityError:
        # Another reader kept the same ratings at the same moment: theirs do as well.
        pass


def _counts(engine: Engine, season: str | None) -> tuple[list[Any], list[Any]]:
    def aggregates(sweeps: Any) -> tuple[Any, ...]:
        return (
            func.count().label("games"),
            func.sum(case((games.c.finished.is_(False), 1), else_=0)).label("unfinished"),
            func.sum(case((game_sides.c.won.is_(True), 1), else_=0)).label("wins"),
            func.sum(game_sides.c.points_for).label("points_for"),
            func.sum(game_sides.c.points_against).label("points_against"),
            func.sum(sweeps).label("sweeps"),
            func.sum(case((game_sides.c.rule_of_power_win.is_(True), 1), else_=0)).label("rule_of_power_wins"),
        )

    # A player's own sweeps (R7), a team's the sum of its members'.
    by_player = (
        select(game_players.c.player.label("name"), *aggregates(game_players.c.sweeps))
        .select_from(game_players)
        .join(games, games.c.id == game_players.c.game_id)
        .join(game_sides, (game_sides.c.game_id == game_players.c.game_id) & (game_sides.c.side == game_players.c.side))
        .group_by(game_players.c.player)
    )
    by_team = (
        select(game_sides.c.side.label("name"), *aggregates(game_sides.c.sweeps))
        .select_from(game_sides)
        .join(games, games.c.id == game_sides.c.game_id)
        .where(game_sides.c.is_team.is_(True))
        .group_by(game_sides.c.side)
    )
    if season:
        by_player = by_player.where(games.c.season == season)
        by_team = by_team.where(games.c.season == season)
    with engine.connect() as conn:
        return list(conn.execute(by_player)), list(conn.execute(by_team))


def _standing(row: Any, kind: str, pool: dict[str, Any], rated: dict[str, int]) -> Standing:
    s = Standing(
        name=row.name, kind=kind, games=int(row.games), unfinished=int(row.unfinished or 0), wins=int(row.wins or 0),
        points_for=int(row.points_for or 0), points_against=int(row.points_against or 0),
        sweeps=int(row.sweeps or 0), rule_of_power_wins=int(row.rule_of_power_wins or 0),
    )
    r = pool.get(row.name)
    if r is not None:
        s.rating, s.mu, s.sigma, s.rated_games = r.ordinal(), r.mu, r.sigma, rated[row.name]
    return s


def _order(rows: list[Standing]) -> list[Standing]:
    # Rated first, by rating; then by wins and points, so an unrated newcomer still has a place.
    return sorted(rows, key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.wins, -s.points_for, s.name))


def compute_standings(engine: Engine, season: str | None = None) -> Standings:
    ratings, _ = rate_games(engine, season)
    player_rows, team_rows = _counts(engine, season)
    return Standings(
        season=season,
        players=_order([_standing(r, "player", ratings.players, ratings.player_games) for r in player_rows]),
        teams=_order([_standing(r, "team", ratings.teams, ratings.team_games) for r in team_rows]),
    )


def history(engine: Engine, player: str, season: str | None = None) -> list[dict[str, Any]]:
    """Every stored game of ``player`` in date order: result, points, rating after it."""
    _, trail = rate_games(engine, season, follow=player)
    after = {g.game_id: g.ratings_after[player] for g in trail}
    q = (
        select(
            games.c.id, games.c.played_at, games.c.season, games.c.players, games.c.finished, games.c.winner,
            games.c.termination, game_players.c.side, game_sides.c.points_for, game_sides.c.points_against,
            game_sides.c.won,
        )
        .join(game_players, game_players.c.game_id == games.c.id)
        .join(game_sides, (game_sides.c.game_id == games.c.id) & (game_sides.c.side == game_players.c.side))
        .where(game_players.c.player == player)
        .order_by(games.c.played_at, games.c.id)
    )
    if season:
        q = q.where(games.c.season == season)
    out = []
    with engine.connect() as conn:
        for row in conn.execute(q):
            result = "unfinished" if not row.finished else ("won" if row.won else "lost")
            mu_sigma = after.get(row.id)
            out.append(
                {
                    "game": row.id,
                    # SQLite hands back naive times; they were stored in UTC.
                    "played_at": (row.played_at if row.played_at.tzinfo else row.played_at.replace(tzinfo=UTC)).isoformat(),
                    "season": row.season,
                    "players": row.players,
                    "side": row.side,
                    "result": result,
                    "winner": row.winner,
                    "termination": row.termination,
                    "points_for": row.points_for,
                    "points_against": row.points_against,
                    "rating_after": round(mu_sigma[0] - 3 * mu_sigma[1], 3) if mu_sigma else None,
                }
            )
    return out
