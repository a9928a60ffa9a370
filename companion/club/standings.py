"""Standings, ratings and a player's history, from the archive, per game.

Standings count, per player and per team, over their games of one game: games (finished or
not), unfinished games and wins, then the figures the game's club part names
(:attr:`companion.club.parts.ClubPart.columns`), each summed over the games: a player's row
sums the player's figures, a team's row its side's. For Rule of Power these are points
scored and conceded (a side's game total and the other sides' totals), clean sweeps (R7) and
wins by the Rule of Power (R13); in a team game a player's row carries the team's wins and
points (R16: the team scores as one) and the sweeps the player made, those made with the
cards they laid, and the team's row has the sum of its members' sweeps.

Ratings use openskill's Plackett-Luce model over the finished games in the order they were
played (an unfinished game is stored and counted, never rated). Sides rank by their places
(for Rule of Power the winner first, R13, R14, then by game totals, equal totals sharing a
place). Players are rated through their sides (a team game rates each member through the
team); automatic seats (dummies) are never rated; teams, named by their members, have ratings
of their own from their team games. A late arrival simply has no games before their first.
Ratings are kept in the archive, per game and season, as of the last rated game, so that a
league's standings rate only the games added since; a game added before that point, or a
correction, drops them and the next standings rate every game again in date order.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, Text, and_, case, cast, delete, func, or_, select
from sqlalchemy.exc import IntegrityError

from companion.club.parts import ClubPart, Column, places, require_part
from companion.club.schema import PLAYER, TEAM, game_figures, game_players, game_sides, games, rating_marks, ratings
from companion.contract.registry import DEFAULT, game as game_named

__all__ = ["LEADING", "TRAILING", "Standing", "Standings", "club_part", "compute_standings", "history", "rate_games", "ranks"]

#: The columns every game's standings begin and end with; the game's figures come between.
LEADING = ("name", "kind", "games", "unfinished", "wins")
TRAILING = ("rating", "mu", "sigma", "rated_games")

ranks = places
"""Finishing places from totals and the winner (:func:`companion.club.parts.places`)."""


def club_part(game: str = DEFAULT) -> ClubPart:
    """The club part of the game called ``game``: :class:`~companion.contract.registry.
    UnknownGameError` for a game this companion does not know,
    :class:`~companion.club.parts.NoClubPart` for one whose club part is not written."""
    return require_part(game_named(game))


@dataclass
class Standing:
    """One row of the standings: a player's or a team's games, wins, the game's figures
    (read as attributes too: ``standing.sweeps``) and rating."""

    name: str
    kind: str  # "player" or "team"
    games: int = 0
    unfinished: int = 0
    wins: int = 0
    figures: dict[str, int] = field(default_factory=dict)  # in the game's column order
    rating: float | None = None  # openskill's ordinal: mu - 3 sigma, a cautious estimate
    mu: float | None = None
    sigma: float | None = None
    rated_games: int = 0

    def __getattr__(self, name: str) -> int:
        # Only called for names that are not fields: the game's figures.
        figures = self.__dict__.get("figures")
        if figures is not None and name in figures:
            return int(figures[name])
        raise AttributeError(f"{type(self).__name__!r} has no column {name!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in LEADING}
        out.update(self.figures)
        for k in TRAILING:
            out[k] = getattr(self, k)
        for k in ("rating", "mu", "sigma"):
            if out[k] is not None:
                out[k] = round(out[k], 3)
        return out


@dataclass
class Standings:
    season: str | None
    players: list[Standing] = field(default_factory=list)
    teams: list[Standing] = field(default_factory=list)
    figures: tuple[Column, ...] = ()
    """The game's columns (:attr:`companion.club.parts.ClubPart.columns`)."""

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column, in order: what ``--csv`` writes and each ``--json`` row holds."""
        return (*LEADING, *(c.figure for c in self.figures), *TRAILING)

    def to_json(self) -> dict[str, Any]:
        return {
            "season": self.season,
            "players": [s.to_json() for s in self.players],
            "teams": [s.to_json() for s in self.teams],
        }

    def rows(self) -> Iterator[Standing]:
        yield from self.players
        yield from self.teams


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

    def rows(self, game: str, season: str) -> list[dict[str, Any]]:
        out = []
        for kind, pool, count in (("player", self.players, self.player_games), ("team", self.teams, self.team_games)):
            for name, r in pool.items():
                out.append({"game": game, "season": season, "pool": kind, "name": name, "mu": r.mu, "sigma": r.sigma, "games": count[name]})
        return out

    def _get(self, pool: dict[str, Any], name: str) -> Any:
        r = pool.get(name)
        if r is None:
            r = pool[name] = self.model.rating(name=name)
        return r

    def rate(self, sides: dict[str, list[str]], place: dict[str, int], is_team: bool) -> None:
        """Rate one game: each side's rated members, the sides ranked by their places."""
        order = list(sides)
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


_Finished = tuple[str, datetime, dict[str, list[str]], dict[str, int], bool]
_Point = tuple[datetime, str]  # a game's place in date order: (played_at, id)
_Sums = dict[str, dict[str, dict[str, int]]]  # kind ("player", "team") -> name -> count or figure -> value


def _between(q: Any, after: _Point | None, upto: _Point | None) -> Any:
    """``q`` restricted to the games after ``after`` and up to ``upto`` in date order."""
    if after is not None:
        q = q.where(or_(games.c.played_at > after[0], and_(games.c.played_at == after[0], games.c.id > after[1])))
    if upto is not None:
        q = q.where(or_(games.c.played_at < upto[0], and_(games.c.played_at == upto[0], games.c.id <= upto[1])))
    return q


@lru_cache(maxsize=4096)
def _members(text: str) -> list[str]:
    """A side's members from their JSON, read once for every side that has the same (a
    player plays many games, a team too)."""
    members: list[str] = json.loads(text)
    return members


def _finished_games(
    conn: Connection, game: str, season: str | None, after: _Point | None = None, upto: _Point | None = None
) -> Iterator[_Finished]:
    """Finished games of ``game`` in date order (those after ``after`` and up to ``upto``
    only), each with its sides' rated members (seating order), their places, and whether the
    sides are teams. Sides without a rated member (automatic seats only) are left out; a game
    with fewer than two sides left is not rated."""
    q = (
        select(
            games.c.id, games.c.played_at, game_sides.c.side, game_sides.c.is_team, game_sides.c.place,
            cast(game_sides.c.members, Text).label("members"),
        )
        .join(game_sides, game_sides.c.game_id == games.c.id)
        .where(games.c.finished.is_(True), games.c.game == game)
        .order_by(games.c.played_at, games.c.id, game_sides.c.side)
    )
    if season:
        q = q.where(games.c.season == season)
    current: str | None = None
    when: datetime | None = None
    sides: dict[str, list[str]] = {}
    place: dict[str, int] = {}
    teams = True
    for row in conn.execute(_between(q, after, upto)):
        if row.id != current:
            if current is not None and len(sides) > 1:
                assert when is not None
                yield current, when, sides, place, teams
            current, when, sides, place, teams = row.id, row.played_at, {}, {}, True
        members = _members(row.members)
        if members:
            sides[row.side] = members
            place[row.side] = row.place
            teams = teams and bool(row.is_team)
    if current is not None and len(sides) > 1:
        assert when is not None
        yield current, when, sides, place, teams


def _mark(conn: Connection, game: str, key: str) -> Any:
    return conn.execute(select(rating_marks).where((rating_marks.c.game == game) & (rating_marks.c.season == key))).first()


def _load(conn: Connection, ratings_: _Ratings, game: str, key: str) -> None:
    ratings_.load(conn.execute(select(ratings).where((ratings.c.game == game) & (ratings.c.season == key))))


def rate_games(
    engine: Engine, season: str | None = None, *, follow: str | None = None, game: str = DEFAULT
) -> tuple[_Ratings, list[RatedGame]]:
    """Rate every finished game of ``game`` in date order; with ``follow``, also the
    player's rating after each of their games.

    Without ``follow``, the ratings kept from the last run are the starting point and only
    the games played after its last rated game are rated (the archive drops the kept ratings
    when a game is added before that point or corrected), then the result is kept."""
    ratings_ = _Ratings()
    trail: list[RatedGame] = []
    key = season or ""
    with engine.connect() as conn:
        mark = _mark(conn, game, key) if follow is None else None
        if mark is not None:
            _load(conn, ratings_, game, key)
        last = (mark.played_at, mark.game_id) if mark is not None else None
        rated = mark.games if mark is not None else 0
        for gid, when, sides, place, is_team in _finished_games(conn, game, season, last):
            ratings_.rate(sides, place, is_team)
            rated += 1
            last = (when, gid)
            if follow is not None and any(follow in m for m in sides.values()):
                r = ratings_.players[follow]
                trail.append(RatedGame(gid, when, {follow: (r.mu, r.sigma)}))
    if follow is None and last is not None and (mark is None or last != (mark.played_at, mark.game_id)):
        _keep(engine, game, key, ratings_, last, rated, None)
    return ratings_, trail


def _keep(
    engine: Engine, game: str, key: str, ratings_: _Ratings, last: _Point, rated: int, sums: dict[str, Any] | None
) -> None:
    """Keep the ratings as of ``last`` (and, when given, the standings' sums over every game
    up to it)."""
    try:
        with engine.begin() as conn:
            conn.execute(delete(ratings).where((ratings.c.game == game) & (ratings.c.season == key)))
            conn.execute(delete(rating_marks).where((rating_marks.c.game == game) & (rating_marks.c.season == key)))
            rows = ratings_.rows(game, key)
            if rows:
                conn.execute(ratings.insert(), rows)
            conn.execute(
                rating_marks.insert(),
                {"game": game, "season": key, "played_at": last[0], "game_id": last[1], "games": rated, "sums": sums},
            )
    except IntegrityError:
        # Another reader kept the same ratings at the same moment: theirs do as well.
        pass


#: What standings count of every game, beside the game's own figures.
COUNTS = ("games", "unfinished", "wins")



def _count(
    conn: Connection, game: str, season: str | None, figures: Sequence[str], after: _Point | None, upto: _Point | None, sums: _Sums
) -> None:
    """Add to ``sums`` the games, unfinished games and wins of each player and team, and the
    game's ``figures`` summed (a player's own, a team's its side's in its team games), over
    the games after ``after`` and up to ``upto``."""
    aggregates = (
        func.count().label("games"),
        func.sum(case((games.c.finished.is_(False), 1), else_=0)).label("unfinished"),
        func.sum(case((game_sides.c.won.is_(True), 1), else_=0)).label("wins"),
    )
    by_player = (
        select(game_players.c.player.label("name"), *aggregates)
        .select_from(game_players)
        .join(games, games.c.id == game_players.c.game_id)
        .join(game_sides, (game_sides.c.game_id == game_players.c.game_id) & (game_sides.c.side == game_players.c.side))
        .where(games.c.game == game, game_players.c.automatic.is_(False))
        .group_by(game_players.c.player)
    )
    by_team = (
        select(game_sides.c.side.label("name"), *aggregates)
        .select_from(game_sides)
        .join(games, games.c.id == game_sides.c.game_id)
        .where(games.c.game == game, game_sides.c.is_team.is_(True))
        .group_by(game_sides.c.side)
    )
    # The figures of each holder in one row, a column each (one group a holder: fewer to sort).
    pivot = [func.sum(case((game_figures.c.figure == f, game_figures.c.value), else_=0)) for f in figures]
    player_figures = (
        select(game_figures.c.holder, *pivot)
        .join(games, games.c.id == game_figures.c.game_id)
        .where(games.c.game == game, game_figures.c.scope == PLAYER, game_figures.c.figure.in_(figures))
        .group_by(game_figures.c.holder)
    )
    team_figures = (
        select(game_figures.c.holder, *pivot)
        .join(games, games.c.id == game_figures.c.game_id)
        .where(games.c.game == game, game_figures.c.scope == TEAM, game_figures.c.figure.in_(figures))
        .group_by(game_figures.c.holder)
    )
    if season:
        by_player, by_team = by_player.where(games.c.season == season), by_team.where(games.c.season == season)
        player_figures, team_figures = player_figures.where(games.c.season == season), team_figures.where(games.c.season == season)
    for kind, query in (("player", by_player), ("team", by_team)):
        pool = sums.setdefault(kind, {})
        for row in conn.execute(_between(query, after, upto)).mappings():
            counts = pool.setdefault(row["name"], {})
            for name in COUNTS:
                counts[name] = counts.get(name, 0) + int(row[name] or 0)
    if figures:
        for kind, query in (("player", player_figures), ("team", team_figures)):
            pool = sums[kind]
            for holder, *values in conn.execute(_between(query, after, upto)):
                counts = pool.setdefault(holder, {})
                for figure, value in zip(figures, values):
                    counts[figure] = counts.get(figure, 0) + int(value or 0)


def _count_on(engine: Engine, *args: Any) -> None:
    """:func:`_count` on a connection of its own."""
    with engine.connect() as conn:
        _count(conn, *args)


def _standing(name: str, kind: str, counts: dict[str, int], columns: Sequence[Column], pool: dict[str, Any], rated: dict[str, int]) -> Standing:
    s = Standing(
        name=name, kind=kind, games=counts.get("games", 0), unfinished=counts.get("unfinished", 0), wins=counts.get("wins", 0),
        figures={c.figure: counts.get(c.figure, 0) for c in columns},
    )
    r = pool.get(name)
    if r is not None:
        s.rating, s.mu, s.sigma, s.rated_games = r.ordinal(), r.mu, r.sigma, rated[name]
    return s


def _order(rows: list[Standing], order: Sequence[str]) -> list[Standing]:
    # Rated first, by rating; then by wins and the game's figures, so that an unrated
    # newcomer still has a place.
    return sorted(
        rows,
        key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.wins, *(-s.figures.get(f, 0) for f in order), s.name),
    )


def compute_standings(engine: Engine, season: str | None = None, *, game: str = DEFAULT) -> Standings:
    """The standings of ``game`` (the default game when not named).

    The ratings and the sums are kept in the archive as of the last game counted, so that
    the next standings count and rate only the games added after it (a game added before
    that point, or a correction, drops what was kept: see :mod:`companion.club.archive`)."""
    part = club_part(game)
    figures = [c.figure for c in part.columns]
    key = season or ""
    ratings_ = _Ratings()
    sums: _Sums = {}
    rated_to: _Point | None = None  # the ratings kept are as of this game
    counted_to: _Point | None = None  # the sums kept are as of this game
    rated = 0
    with engine.connect() as conn:
        mark = _mark(conn, game, key)
        if mark is not None:
            _load(conn, ratings_, game, key)
            rated_to, rated = (mark.played_at, mark.game_id), mark.games
            if mark.sums is not None and mark.sums.get("figures") == figures:
                counted_to, sums = rated_to, mark.sums["sums"]
        last = select(games.c.played_at, games.c.id).where(games.c.game == game).order_by(games.c.played_at.desc(), games.c.id.desc())
        if season:
            last = last.where(games.c.season == season)
        found = conn.execute(last.limit(1)).first()
    upto: _Point | None = (found.played_at, found.id) if found is not None else None
    # The counting is the database's work and the rating the interpreter's: the one is done on
    # a connection of its own while the other goes on (both up to ``upto``). An archive in
    # memory is one connection's alone: there it is done first.
    alone = engine.url.get_backend_name() == "sqlite" and engine.url.database in (None, "", ":memory:")
    with ThreadPoolExecutor(max_workers=1) as helper:
        counting = None
        if upto is not None and upto != counted_to:
            job = (engine, game, season, figures, counted_to, upto, sums)
            counting = helper.submit(_count_on, *job) if not alone else None
            if alone:
                _count_on(*job)
        if upto is not None and upto != rated_to:
            with engine.connect() as conn:
                for _, _, sides, place, is_team in _finished_games(conn, game, season, rated_to, upto):
                    ratings_.rate(sides, place, is_team)
                    rated += 1
        if counting is not None:
            counting.result()
    if upto is not None and upto != counted_to:
        _keep(engine, game, key, ratings_, upto, rated, {"figures": figures, "sums": sums})
    columns = part.columns

    def rows(kind: str, pool: dict[str, Any], rated_games: dict[str, int]) -> list[Standing]:
        counted = sums.get(kind, {})
        return _order(
            [_standing(name, kind, c, columns, pool, rated_games) for name, c in counted.items() if c.get("games")], part.order
        )

    return Standings(
        season=season,
        players=rows("player", ratings_.players, ratings_.player_games),
        teams=rows("team", ratings_.teams, ratings_.team_games),
        figures=columns,
    )


def history(engine: Engine, player: str, season: str | None = None, *, game: str = DEFAULT) -> list[dict[str, Any]]:
    """Every stored game of ``game`` that ``player`` played, in date order: result, the
    figures the game's history shows, rating after it."""
    part = club_part(game)
    _, trail = rate_games(engine, season, follow=player, game=game)
    after = {g.game_id: g.ratings_after[player] for g in trail}
    q = (
        select(
            games.c.id, games.c.played_at, games.c.season, games.c.players, games.c.finished, games.c.winner,
            games.c.termination, game_players.c.side, game_sides.c.won, game_sides.c.place,
        )
        .join(game_players, game_players.c.game_id == games.c.id)
        .join(game_sides, (game_sides.c.game_id == games.c.id) & (game_sides.c.side == game_players.c.side))
        .where(game_players.c.player == player, games.c.game == game)
        .order_by(games.c.played_at, games.c.id)
    )
    own = (
        select(game_figures.c.game_id, game_figures.c.figure, game_figures.c.value)
        .join(games, games.c.id == game_figures.c.game_id)
        .where(
            game_figures.c.scope == PLAYER, game_figures.c.holder == player, games.c.game == game,
            game_figures.c.figure.in_(part.history),
        )
    )
    if season:
        q = q.where(games.c.season == season)
        own = own.where(games.c.season == season)
    out = []
    with engine.connect() as conn:
        figures: dict[str, dict[str, int]] = defaultdict(dict)
        if part.history:
            for gid, figure, value in conn.execute(own):
                figures[gid][figure] = value
        for row in conn.execute(q):
            if not row.finished:
                result = "unfinished"
            elif row.won:
                result = "won"
            else:
                result = "drew" if row.place == 1 else "lost"
            mu_sigma = after.get(row.id)
            entry: dict[str, Any] = {
                "game": row.id,
                # SQLite hands back naive times; they were stored in UTC.
                "played_at": (row.played_at if row.played_at.tzinfo else row.played_at.replace(tzinfo=UTC)).isoformat(),
                "season": row.season,
                "players": row.players,
                "side": row.side,
                "result": result,
                "winner": row.winner,
                "termination": row.termination,
            }
            for figure in part.history:
                entry[figure] = figures[row.id].get(figure, 0)
            entry["rating_after"] = round(mu_sigma[0] - 3 * mu_sigma[1], 3) if mu_sigma else None
            out.append(entry)
    return out
