"""Adding game records to the archive, and reading them back.

Every record is replayed by its game's rules first (:func:`companion.records.format.
read_record` checks every rule); a record that breaks one is refused with its file, line and
rule, and nothing of it is stored. So is the record of a game whose club part is not written
yet (:mod:`companion.club.parts`), naming the game. A stored game keeps which game it is, its
set-up, every event, its seats and sides, and the figures its game's club part counts: for
the whole game per side and per player (what standings need), and for each scoring period
with the period in the game's words. Storing a game is one transaction: a reader sees it
whole or not at all.

A game already stored (same identity, see :mod:`companion.club.identity`) is recognised: the
same events are a duplicate and are not stored twice; other events under the same id are a
correction, which replaces the stored game.

Many games at once (``rop club add`` of a folder) are stored in batches: one transaction and
one multi-row insert per table for a whole batch, each game still replayed by the rules
first, with the same outcome as storing them one by one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, or_, select

from companion.club import identity
from companion.club.parts import ClubPart, Figures, NoClubPart, Result, Tally, part_of, require_part
from companion.club.schema import (
    GAME_CHILDREN,
    PLAYER,
    SIDE,
    TEAM,
    game_figures,
    game_periods,
    game_players,
    game_records,
    game_sides,
    games,
    period_figures,
    rating_marks,
    ratings,
)
from companion.contract import Move, Setup
from companion.contract.registry import UnknownGameError, game as game_named
from companion.records.format import RecordError, Replayer, read_record, record_file

__all__ = [
    "AddResult", "Archive", "ParsedGame", "TABLE_SOURCE", "game_date", "parse_record", "played_game", "read_record_file",
    "table_of",
]

#: Header keys that may carry when the game was played (ISO 8601).
DATE_KEYS = ("date", "started", "played_at")
#: Ids per ``IN (...)`` list, well under every backend's limit on bound parameters.
_IN_CHUNK = 500
#: The source of a game stored when it ended at a table, before the table's name.
TABLE_SOURCE = "table "


def table_of(source: str | None) -> str | None:
    """The table that played a stored game live, from its source (``"table oak"``); ``None``
    for a game added from a record (its source is the record's file, or nothing).

    >>> table_of("table oak"), table_of("/home/club/games/1.jsonl"), table_of(None)
    ('oak', None, None)
    """
    return source[len(TABLE_SOURCE) :] if source is not None and source.startswith(TABLE_SOURCE) else None


@dataclass(frozen=True)
class ParsedGame:
    """A record replayed by its game's rules, ready to store: what the archive keeps, and
    nothing of the game played (a batch of many games waits to be stored in memory)."""

    id: str
    digest: str
    header: dict[str, Any]  # the record's game event, as read
    lines: list[str]  # every event as a canonical line, header first (what is stored)
    setup: Any  # the game's set-up (``setup.game`` is the game)
    played_at: datetime
    source: str | None
    _result: Result | Callable[[], Result] = field(repr=False)

    @property
    def result(self) -> Result:
        """What the archive keeps of the game besides its record: seats, sides, figures,
        periods (its game's club part tells them). A game added alone works it out when it
        is stored, so that a game already stored is recognised without it."""
        found = self._result
        if callable(found):
            found = found()
            object.__setattr__(self, "_result", found)
        return found


@dataclass(frozen=True)
class AddResult:
    game_id: str
    status: str  # "added", "duplicate" or "replaced"
    source: str | None = None


def _parse_date(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class _Replay(Replayer):
    """Plays a record with every rule checked, keeping its events as read and its game's
    tally (:meth:`companion.club.parts.ClubPart.tally`). A record of a game without a club
    part is refused at its first line, naming the game."""

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.part: ClubPart | None = None
        self.tally: Tally | None = None
        self.events: list[dict[str, Any]] = []
        self.at: list[int] = []  # each event's line in the record
        self._after: Callable[[Any], None] = lambda state: None

    def visit_event(self, event: dict[str, Any], line: int) -> None:
        self.events.append(event)
        self.at.append(line)

    def begin_game(self, setup: Setup, line: int) -> None:
        try:
            self.part = require_part(setup.game)
        except NoClubPart as exc:
            raise RecordError(str(exc), line=line, path=self.path) from None
        super().begin_game(setup, line)
        self.tally = self.part.tally(setup)
        # The tally sees every move: bound once, called for each.
        self._after = self.tally.after

    def visit_move(self, move: Move, line: int) -> None:
        self.game.push(move)
        self._after(self.game)


def game_date(header: dict[str, Any]) -> datetime | None:
    """When the game was played, from its header (:data:`DATE_KEYS`), if it says."""
    for key in DATE_KEYS:
        when = _parse_date(header.get(key))
        if when:
            return when
    return None


def played_game(
    events: list[Any],
    setup: Any,
    result: Result | Callable[[], Result],
    *,
    played_at: datetime | None = None,
    source: str | None = None,
    path: str | None = None,
    at: Sequence[int] | None = None,
) -> ParsedGame:
    """What the archive stores of a game of ``setup`` whose events (header first) were
    played with every rule checked, with its ``result`` (or what works it out when asked);
    its date is its header's, else ``played_at``. A string that is not text (a lone
    surrogate, :func:`~companion.club.identity.not_text`) cannot be stored: the record is
    refused naming its line (``at``: each event's line in the record, else its place)."""
    canonical = [identity.canonical(e) for e in events]
    try:
        digest = identity.digest_lines(canonical)
    except UnicodeEncodeError:
        for i, event in enumerate(events):
            problem = identity.not_text(event)
            if problem is not None:
                raise RecordError(problem, line=at[i] if at is not None else i + 1, path=path) from None
        raise
    gid = identity.game_id(events, known_digest=digest)
    if len(gid) > 64:
        raise RecordError(f'the game "id" is longer than 64 characters: {gid[:20]}...', line=1, path=path)
    return ParsedGame(
        id=gid,
        digest=digest,
        header=dict(events[0]),
        lines=canonical,
        setup=setup,
        played_at=game_date(events[0]) or played_at or datetime.now(UTC),
        source=source if source is not None else path,
        _result=result,
    )


def parse_record(
    lines: Iterable[str], *, path: str | None = None, played_at: datetime | None = None, alone: bool = False
) -> ParsedGame:
    """Replay ``lines`` with every rule checked (raises :class:`RecordError` naming the
    line and rule, or the game when the club does not keep its games) and gather what the
    archive stores. Its result is worked out at once (a batch of games waiting to be stored
    keeps nothing of the games played), or, for a game stored ``alone``, when it is stored."""
    replayer = _Replay(path)
    read_record(lines, replayer, path=path)
    state, part, tally = replayer.game, replayer.part, replayer.tally
    assert state is not None and part is not None
    result: Result | Callable[[], Result] = (lambda: part.result(state, tally)) if alone else part.result(state, tally)
    return played_game(replayer.events, state.setup, result, played_at=played_at, path=path, at=replayer.at)


def read_record_file(path: str | os.PathLike[str], *, alone: bool = False) -> ParsedGame:
    """Read and replay a record file (see :func:`parse_record`), line by line as every record
    file is read (:func:`~companion.records.format.record_file`: a regular file, bounded); the
    game's date is its header's, else the file's modification time."""
    name = os.fspath(path)
    with record_file(name) as lines:
        try:
            mtime = datetime.fromtimestamp(os.stat(name).st_mtime, UTC)
        except OSError as exc:
            raise RecordError(f"cannot read the record ({exc.strerror or exc})", line=0, path=name) from None
        return parse_record(lines, path=name, played_at=mtime, alone=alone)


#: The figure tables' columns, in the order of their rows (tuples: they are many and small).
_FIGURE_COLUMNS: dict[Any, tuple[str, ...]] = {
    game_figures: ("game_id", "scope", "holder", "figure", "value"),
    period_figures: ("game_id", "period", "scope", "holder", "figure", "value"),
}


def _figure_rows(out: list[tuple[Any, ...]], gid: str, figures: Figures, teams: set[str], *period: int) -> None:
    """Append ``figures`` as long rows, one a figure of a side (a team's told apart: those of
    ``teams``) or a player; a figure of 0 is not stored (a figure a holder does not have is
    0)."""
    for holder, named in figures.sides.items():
        scope = TEAM if holder in teams else SIDE
        for figure, value in named.items():
            if value:
                out.append((gid, *period, scope, holder, figure, int(value)))
    for holder, named in figures.players.items():
        for figure, value in named.items():
            if value:
                out.append((gid, *period, PLAYER, holder, figure, int(value)))


def _rows(parsed: ParsedGame, season: str) -> dict[Any, list[Any]]:
    """The rows of a game, per table: dicts, and tuples for the figure tables."""
    setup = parsed.setup
    result = parsed.result
    gid = parsed.id
    header = setup.game.codec.setup_event(setup)
    header.pop("event", None)
    teams = {side.name for side in result.sides if side.is_team}
    whole: list[tuple[Any, ...]] = []
    _figure_rows(whole, gid, result.figures, teams)
    by_period: list[tuple[Any, ...]] = []
    for period in result.periods:
        _figure_rows(by_period, gid, period.figures, teams, period.number)
    return {
        games: [
            {
                "id": gid,
                "digest": parsed.digest,
                "game": setup.game.name,
                "season": season,
                "played_at": parsed.played_at.astimezone(UTC),
                "setup": header,
                "players": list(setup.players),
                "finished": result.finished,
                "winner": result.winner,
                "termination": result.termination,
                "periods": len(result.periods),
                "events": len(parsed.lines),
                "source": parsed.source,
                "stored_at": datetime.now(UTC),
            }
        ],
        game_players: [
            {"game_id": gid, "seat": i, "player": seat.player, "side": seat.side, "automatic": seat.automatic}
            for i, seat in enumerate(result.seats)
        ],
        game_records: [{"game_id": gid, "body": "\n".join(parsed.lines)}],
        game_sides: [
            {
                "game_id": gid,
                "side": side.name,
                "is_team": side.is_team,
                "won": side.won,
                "place": side.place,
                "members": [seat.player for seat in result.seats if seat.side == side.name and not seat.automatic],
            }
            for side in result.sides
        ],
        game_periods: [{"game_id": gid, "number": p.number, "details": dict(p.details)} for p in result.periods],
        game_figures: whole,
        period_figures: by_period,
    }


def _insert(conn: Connection, table: Any, rows: list[Any]) -> None:
    """Insert ``rows`` into ``table``. The figure tables' many small rows go past SQLAlchemy's
    work per row: PostgreSQL copies them in (``COPY``), SQLite takes them in one
    ``executemany``."""
    columns = _FIGURE_COLUMNS.get(table)
    if columns is None:
        conn.execute(table.insert(), rows)
        return
    backend = conn.dialect.name
    if backend == "postgresql":
        raw: Any = conn.connection.driver_connection  # psycopg's own connection, for COPY
        with raw.cursor() as cursor:
            with cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
    elif backend == "sqlite":
        marks = ", ".join("?" for _ in columns)
        conn.exec_driver_sql(f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks})", rows)
    else:
        conn.execute(table.insert(), [dict(zip(columns, row)) for row in rows])


#: The tables whose statistics standings and history are planned with.
_PLANNED = ("games", "game_players", "game_sides", "game_figures")


def _analyze_if_grown(conn: Connection, stored: int) -> None:
    """PostgreSQL plans its queries from statistics its autovacuum gathers a while after big
    changes. When one batch stores more games than the statistics know of (a new archive, a
    large ``rop club add``), the tables standings read are analysed at once, in the batch's
    transaction, so that the next standings are planned for the archive's size (they are
    analysed a few times as an archive doubles and doubles again, then left to autovacuum)."""
    if conn.dialect.name != "postgresql" or stored < 100:
        return
    known = conn.exec_driver_sql("SELECT reltuples FROM pg_class WHERE oid = 'games'::regclass").scalar()
    if known is not None and known >= stored:
        return
    for table in _PLANNED:
        conn.exec_driver_sql(f"ANALYZE {table}")


def _part_named(name: str) -> ClubPart | None:
    """The club part of the game a stored game names (``None`` for a game this companion
    does not know or whose part is not written)."""
    try:
        return part_of(game_named(name))
    except UnknownGameError:
        return None


def _in_words(row: dict[str, Any]) -> dict[str, Any]:
    """A stored game's row with its set-up's fields beside it (``teams``, ``target``) and its
    periods counted under its game's word (``rounds``)."""
    out = dict(row)
    for key, value in (out.get("setup") or {}).items():
        out.setdefault(key, value)
    part = _part_named(out["game"]) if "game" in out else None
    if part is not None:
        out.setdefault(part.periods, out.get("periods"))
    return out


class Archive:
    """The club's archive on an engine from :func:`companion.club.database.open_archive`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ writing

    def add_file(self, path: str | os.PathLike[str], *, season: str | None = None) -> AddResult:
        """Replay and store one record file (raises :class:`RecordError` if refused)."""
        return self.store(read_record_file(path, alone=True), season=season)

    def add_lines(self, lines: Iterable[str], *, season: str | None = None, source: str | None = None) -> AddResult:
        return self.store(parse_record(lines, path=source, alone=True), season=season)

    def store(self, parsed: ParsedGame, *, season: str | None = None) -> AddResult:
        with self.engine.begin() as conn:
            return self.store_on(conn, parsed, season=season)

    def store_many(self, batch: Iterable[ParsedGame], *, season: str | None = None) -> list[AddResult]:
        """Store games in one transaction, each table's rows in one insert: the outcome of
        storing them one by one (a game given twice in the batch counts as given twice)."""
        with self.engine.begin() as conn:
            return self.store_many_on(conn, batch, season=season)

    def store_on(self, conn: Connection, parsed: ParsedGame, *, season: str | None = None) -> AddResult:
        """Store ``parsed`` inside the caller's transaction."""
        return self.store_many_on(conn, [parsed], season=season)[0]

    def store_many_on(self, conn: Connection, batch: Iterable[ParsedGame], *, season: str | None = None) -> list[AddResult]:
        """Store games inside the caller's transaction (see :meth:`store_many`)."""
        games_ = list(batch)
        stored: dict[str, tuple[str, str]] = {}  # id -> (digest, season) of what is stored now
        ids = list(dict.fromkeys(p.id for p in games_))
        for k in range(0, len(ids), _IN_CHUNK):
            query = select(games.c.id, games.c.digest, games.c.season).where(games.c.id.in_(ids[k : k + _IN_CHUNK]))
            stored.update((row.id, (row.digest, row.season)) for row in conn.execute(query))
        pending: dict[str, tuple[ParsedGame, str]] = {}  # what this batch stores, by id
        results: list[AddResult] = []
        replaced: list[str] = []
        for parsed in games_:
            label = season or str(parsed.played_at.year)
            before = pending.get(parsed.id)
            known = (before[0].digest, before[1]) if before else stored.get(parsed.id)
            if known is None:
                status = "added"
            elif known[0] == parsed.digest:
                results.append(AddResult(parsed.id, "duplicate", parsed.source))
                continue
            else:
                # A correction keeps the season it was filed under unless told otherwise.
                label = season or known[1]
                status = "replaced"
                if before is None:
                    replaced.append(parsed.id)
            pending[parsed.id] = (parsed, label)
            results.append(AddResult(parsed.id, status, parsed.source))
        for k in range(0, len(replaced), _IN_CHUNK):
            chunk = replaced[k : k + _IN_CHUNK]
            for table in GAME_CHILDREN:
                conn.execute(delete(table).where(table.c.game_id.in_(chunk)))
            conn.execute(delete(games).where(games.c.id.in_(chunk)))
        if not pending:
            return results
        rows: dict[Any, list[Any]] = {}
        for parsed, label in pending.values():
            for table, table_rows in _rows(parsed, label).items():
                rows.setdefault(table, []).extend(table_rows)
        # Parents first: the children's foreign keys name the games.
        for table in (games, *GAME_CHILDREN):
            if rows.get(table):
                _insert(conn, table, rows[table])
        _analyze_if_grown(conn, len(rows[games]))
        for name in {r["game"] for r in rows[games]}:
            first = min((r for r in rows[games] if r["game"] == name), key=lambda r: (r["played_at"], r["id"]))
            self._forget_ratings(conn, name, first["played_at"], first["id"], everything=bool(replaced))
        return results

    @staticmethod
    def _forget_ratings(conn: Connection, game: str, played_at: datetime, game_id: str, *, everything: bool) -> None:
        """Kept ratings of ``game`` that a new game changes are dropped (standings rate
        afresh): those rated through a point at or after the game; all of them after a
        correction."""
        marks = select(rating_marks.c.season).where(rating_marks.c.game == game)
        if not everything:
            marks = marks.where(
                or_(
                    rating_marks.c.played_at > played_at,
                    and_(rating_marks.c.played_at == played_at, rating_marks.c.game_id >= game_id),
                )
            )
        stale = list(conn.execute(marks).scalars())
        if stale:
            conn.execute(delete(ratings).where((ratings.c.game == game) & ratings.c.season.in_(stale)))
            conn.execute(delete(rating_marks).where((rating_marks.c.game == game) & rating_marks.c.season.in_(stale)))

    # ------------------------------------------------------------------ reading

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games)).scalar_one())

    def counts(self) -> dict[str, int]:
        """The stored games of each game, by its name."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.game, func.count()).group_by(games.c.game).order_by(games.c.game.desc()))
            return {name: int(n) for name, n in rows}

    def game(self, game_id: str) -> dict[str, Any] | None:
        """A stored game's row, in its game's words (:func:`_in_words`), with its ``sides`` and
        ``seats`` (each with its figures for the whole game) and its ``period_list`` (each
        period with what its game says of it, and its figures; also under the game's word:
        ``round_list``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            out = _in_words(dict(row))
            figures: dict[tuple[int, str, str], dict[str, int]] = {}
            for r in conn.execute(select(game_figures).where(game_figures.c.game_id == game_id)):
                figures.setdefault((0, r.scope, r.holder), {})[r.figure] = r.value
            for r in conn.execute(select(period_figures).where(period_figures.c.game_id == game_id)):
                figures.setdefault((r.period, r.scope, r.holder), {})[r.figure] = r.value
            # A figure not stored is 0: each side and seat shows every figure its game names
            # for standings and history, and any that another holder of the game has.
            part = _part_named(out["game"])
            shown = [*(c.figure for c in part.columns), *part.history] if part is not None else []
            for (n, _, _), values in figures.items():
                if n == 0:
                    shown.extend(values)
            zeros = dict.fromkeys(shown, 0)
            out["sides"] = [
                {**dict(r), **zeros, **figures.get((0, TEAM if r["is_team"] else SIDE, r["side"]), {})}
                for r in conn.execute(select(game_sides).where(game_sides.c.game_id == game_id)).mappings()
            ]
            out["seats"] = [
                {**dict(r), **zeros, **figures.get((0, PLAYER, r["player"]), {})}
                for r in conn.execute(
                    select(game_players).where(game_players.c.game_id == game_id).order_by(game_players.c.seat)
                ).mappings()
            ]
            periods = []
            for period in conn.execute(
                select(game_periods).where(game_periods.c.game_id == game_id).order_by(game_periods.c.number)
            ):
                held = {(scope, holder): named for (n, scope, holder), named in figures.items() if n == period.number}
                periods.append(
                    {
                        "game_id": period.game_id,
                        "number": period.number,
                        **period.details,
                        "figures": {
                            "sides": {h: named for (scope, h), named in held.items() if scope != PLAYER},
                            "players": {h: named for (scope, h), named in held.items() if scope == PLAYER},
                        },
                    }
                )
            out["period_list"] = periods
            if part is not None:
                out[f"{part.period}_list"] = periods
            return out

    def events(self, game_id: str) -> list[str]:
        """The stored game's record lines (canonical), header first; empty if unknown."""
        with self.engine.connect() as conn:
            body = conn.execute(select(game_records.c.body).where(game_records.c.game_id == game_id)).scalar()
        return body.split("\n") if body else []

    def games(self, *, game: str | None = None, season: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The latest stored games (of ``game``, of every game by default), newest first, in
        their games' words, each with the ``table`` that played it live (``None`` for a game
        added from a record: where its record was read is not told) and its sides' ``scores``
        (:meth:`_scores`)."""
        query = select(
            games.c.id, games.c.game, games.c.season, games.c.played_at, games.c.setup, games.c.players,
            games.c.finished, games.c.winner, games.c.termination, games.c.periods, games.c.source,
        ).order_by(games.c.played_at.desc(), games.c.id).limit(limit)
        if game:
            query = query.where(games.c.game == game)
        if season:
            query = query.where(games.c.season == season)
        with self.engine.connect() as conn:
            rows = [_in_words(dict(r)) for r in conn.execute(query).mappings()]
            scores = self._scores(conn, rows)
        for r in rows:
            r.pop("setup", None)
            r["table"] = table_of(r.pop("source", None))
            r["scores"] = scores.get(r["id"], [])
        return rows

    @staticmethod
    def _scores(conn: Connection, rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        """Each listed game's sides in seat order (a side's place is its first seat's), each as
        ``{"side", "score", "won", "place", "automatic"}``: its score is the figure its game's
        club part names (:attr:`~companion.club.parts.ClubPart.score`; ``None`` for a game this
        companion does not know), its place ``None`` while unfinished, and a side all of whose
        seats are automatic (a dummy) is told as such. Three queries for the whole list."""
        named: dict[str, str | None] = {}
        for r in rows:
            part = _part_named(r["game"])
            named[r["id"]] = part.score if part is not None else None
        ids = list(named)
        wanted = {f for f in named.values() if f is not None}
        sides: dict[str, list[Any]] = {}
        first: dict[tuple[str, str], int] = {}  # (game, side) -> its first seat
        manned: set[tuple[str, str]] = set()  # sides someone sits for
        held: dict[tuple[str, str], int] = {}  # (game, side) -> its score, when not 0
        for k in range(0, len(ids), _IN_CHUNK):
            chunk = ids[k : k + _IN_CHUNK]
            for s in conn.execute(select(game_sides).where(game_sides.c.game_id.in_(chunk))):
                sides.setdefault(s.game_id, []).append(s)
            for p in conn.execute(
                select(game_players.c.game_id, game_players.c.seat, game_players.c.side, game_players.c.automatic)
                .where(game_players.c.game_id.in_(chunk))
            ):
                first[(p.game_id, p.side)] = min(p.seat, first.get((p.game_id, p.side), p.seat))
                if not p.automatic:
                    manned.add((p.game_id, p.side))
            if wanted:
                # A side's figures only (a player may bear a side's name); a figure of 0 is not stored.
                for f in conn.execute(
                    select(game_figures.c.game_id, game_figures.c.holder, game_figures.c.figure, game_figures.c.value).where(
                        game_figures.c.game_id.in_(chunk),
                        game_figures.c.scope.in_((SIDE, TEAM)),
                        game_figures.c.figure.in_(sorted(wanted)),
                    )
                ):
                    if f.figure == named[f.game_id]:
                        held[(f.game_id, f.holder)] = f.value
        out: dict[str, list[dict[str, Any]]] = {}
        for gid, listed in sides.items():
            seated = sorted(listed, key=lambda s: (first.get((gid, s.side), len(first)), s.side))
            out[gid] = [
                {
                    "side": s.side,
                    "score": held.get((gid, s.side), 0) if named[gid] is not None else None,
                    "won": bool(s.won),
                    "place": s.place,
                    "automatic": (gid, s.side) in first and (gid, s.side) not in manned,
                }
                for s in seated
            ]
        return out


def record_paths(args: Sequence[str]) -> list[Path]:
    """Files named on the command line; a directory stands for its ``*.jsonl`` files. A name
    that cannot even be looked at (too long, a loop of links) stays a file, refused with the
    reason when it is read, so that the rest of a batch still goes in."""
    out: list[Path] = []
    for arg in args:
        p = Path(arg)
        try:
            is_dir = p.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            out.extend(sorted(p.glob("*.jsonl")))
        else:
            out.append(p)
    return out
