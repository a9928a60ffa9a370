"""Adding game records to the archive, and reading them back.

Every record is replayed by the engine first (:func:`companion.records.format.read_record`
checks every rule); a record that breaks one is refused with its file, line and rule, and
nothing of it is stored. A stored game keeps every event, its set-up and players, each
round's points per side with the settlement's reasons, and per side the figures standings
need. Storing a game is one transaction: a reader sees it whole or not at all.

A game already stored (same identity, see :mod:`companion.club.identity`) is recognised: the
same events are a duplicate and are not stored twice; other events under the same id are a
correction, which replaces the stored game.

Many games at once (``rop club add`` of a folder) are stored in batches: one transaction and
one multi-row insert per table for a whole batch, each game still replayed by the rules
first, with the same outcome as storing them one by one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, or_, select

from companion.club import identity
from companion.club.schema import (
    GAME_CHILDREN,
    game_records,
    game_players,
    game_rounds,
    game_sides,
    games,
    rating_marks,
    ratings,
    round_points,
)
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Move
from companion.records.format import RecordError, Replayer, read_record

__all__ = [
    "AddResult", "Archive", "ParsedGame", "SweepCount", "game_date", "parse_record", "played_game", "player_sweeps",
    "read_record_file",
]

#: Header keys that may carry when the game was played (ISO 8601).
DATE_KEYS = ("date", "started", "played_at")
#: Ids per ``IN (...)`` list, well under every backend's limit on bound parameters.
_IN_CHUNK = 500


@dataclass(frozen=True)
class ParsedGame:
    """A record replayed by the engine, ready to store."""

    id: str
    digest: str
    events: list[Any]  # the JSON objects, header first
    lines: list[str]  # the same, as canonical lines (what is stored)
    game: GameState
    played_at: datetime
    source: str | None
    #: Each player's own clean sweeps in the rounds that ended (R7): in a team game the
    #: member who laid the sweeping card, where the side's score pools the team's.
    sweeps: dict[str, int] = field(default_factory=dict)

    @property
    def header(self) -> dict[str, Any]:
        return dict(self.events[0])


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


class SweepCount:
    """Each player's own clean sweeps (R7: a capture is the sweep of the player who laid the
    card) in the rounds that ended, kept as a game is played: :meth:`after` each move."""

    def __init__(self, players: Iterable[str]) -> None:
        self.sweeps: dict[str, int] = dict.fromkeys(players, 0)
        self._rounds = 0

    def after(self, game: GameState) -> None:
        if len(game.results) != self._rounds:
            # The round just ended; its sweeps stay with the players until the next round.
            self._rounds = len(game.results)
            for player in self.sweeps:
                self.sweeps[player] += len(game.sweeps(player))


class _Replay(Replayer):
    """Plays a record with every rule checked, keeping its events as read and counting each
    player's own sweeps."""

    def __init__(self) -> None:
        super().__init__()
        self.count = SweepCount(())
        self.events: list[dict[str, Any]] = []

    def visit_event(self, event: dict[str, Any], line: int) -> None:
        self.events.append(event)

    def begin_game(self, setup: GameSetup, line: int) -> None:
        super().begin_game(setup, line)
        self.count = SweepCount(setup.players)

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        assert self.game is not None
        self.count.after(self.game)


def player_sweeps(lines: Iterable[str]) -> dict[str, int]:
    """Each player's own clean sweeps in a record's finished rounds (R7)."""
    replay = _Replay()
    read_record(lines, replay)
    return replay.count.sweeps


def game_date(header: dict[str, Any]) -> datetime | None:
    """When the game was played, from its header (:data:`DATE_KEYS`), if it says."""
    for key in DATE_KEYS:
        when = _parse_date(header.get(key))
        if when:
            return when
    return None


def played_game(
    events: list[Any],
    game: GameState,
    sweeps: dict[str, int],
    *,
    played_at: datetime | None = None,
    source: str | None = None,
    path: str | None = None,
) -> ParsedGame:
    """What the archive stores of a game whose events (header first) were played on
    ``game`` with every rule checked; its date is its header's, else ``played_at``."""
    canonical = [identity.canonical(e) for e in events]
    digest = identity.digest_lines(canonical)
    gid = identity.game_id(events, known_digest=digest)
    if len(gid) > 64:
        raise RecordError(f'the game "id" is longer than 64 characters: {gid[:20]}...', line=1, path=path)
    return ParsedGame(
        id=gid,
        digest=digest,
        events=events,
        lines=canonical,
        game=game,
        played_at=game_date(events[0]) or played_at or datetime.now(UTC),
        source=source if source is not None else path,
        sweeps=sweeps,
    )


def parse_record(
    lines: Iterable[str], *, path: str | None = None, played_at: datetime | None = None
) -> ParsedGame:
    """Replay ``lines`` with every rule checked (raises :class:`RecordError` naming the
    line and rule) and gather what the archive stores."""
    replayer = _Replay()
    read_record(lines, replayer, path=path)
    assert replayer.game is not None
    return played_game(replayer.events, replayer.game, replayer.count.sweeps, played_at=played_at, path=path)


def read_record_file(path: str | os.PathLike[str]) -> ParsedGame:
    """Read and replay a record file; the game's date is its header's, else the file's
    modification time."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as fp:
            lines = fp.readlines()
        mtime = datetime.fromtimestamp(os.stat(name).st_mtime, UTC)
    except OSError as exc:
        raise RecordError(f"cannot read the record ({exc.strerror})", line=0, path=name) from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text ({exc.reason})", line=0, path=name) from None
    return parse_record(lines, path=name, played_at=mtime)


def _rows(parsed: ParsedGame, season: str) -> dict[Any, list[dict[str, Any]]]:
    game = parsed.game
    setup = game.setup
    gid = parsed.id
    outcome = game.outcome()
    totals = game.totals
    grand = sum(totals.values())
    sweeps: dict[str, int] = {s: 0 for s in setup.sides}
    rounds = []
    points = []
    for result in game.results:
        score = result.score
        rounds.append(
            {
                "game_id": gid,
                "number": result.number,
                "dealer": result.dealer,
                "rule_of_power": score.rule_of_power,
                "reasons": score.reasons(),
            }
        )
        for side, pts in score.sides.items():
            points.append({"game_id": gid, "round": result.number, "side": side, **pts.to_json()})
        for side, n in score.sweeps.items():
            sweeps[side] = sweeps.get(side, 0) + n
    winner = outcome.winner if outcome else None
    rop = outcome.termination.value == "rule_of_power" if outcome else False
    return {
        games: [
            {
                "id": gid,
                "digest": parsed.digest,
                "season": season,
                "played_at": parsed.played_at.astimezone(UTC),
                "players": list(setup.players),
                "teams": [list(t) for t in setup.teams] if setup.teams else None,
                "target": setup.target,
                "expansion": setup.expansion,
                "finished": outcome is not None,
                "winner": winner,
                "termination": outcome.termination.value if outcome else None,
                "rounds": len(game.results),
                "events": len(parsed.events),
                "source": parsed.source,
                "stored_at": datetime.now(UTC),
            }
        ],
        game_players: [
            {"game_id": gid, "seat": i, "player": p, "side": setup.side_of(p), "sweeps": parsed.sweeps.get(p, 0)}
            for i, p in enumerate(setup.players)
        ],
        game_records: [{"game_id": gid, "body": "\n".join(parsed.lines)}],
        game_rounds: rounds,
        round_points: points,
        game_sides: [
            {
                "game_id": gid,
                "side": side,
                "is_team": setup.teams is not None,
                "points_for": totals[side],
                "points_against": grand - totals[side],
                "sweeps": sweeps.get(side, 0),
                "won": side == winner,
                "rule_of_power_win": rop and side == winner,
            }
            for side in setup.sides
        ],
    }


class Archive:
    """The club's archive on an engine from :func:`companion.club.database.open_archive`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ writing

    def add_file(self, path: str | os.PathLike[str], *, season: str | None = None) -> AddResult:
        """Replay and store one record file (raises :class:`RecordError` if refused)."""
        return self.store(read_record_file(path), season=season)

    def add_lines(self, lines: Iterable[str], *, season: str | None = None, source: str | None = None) -> AddResult:
        return self.store(parse_record(lines, path=source), season=season)

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
        rows: dict[Any, list[dict[str, Any]]] = {}
        for parsed, label in pending.values():
            for table, table_rows in _rows(parsed, label).items():
                rows.setdefault(table, []).extend(table_rows)
        # Parents first: the children's foreign keys name the games.
        for table in (games, *GAME_CHILDREN):
            if rows.get(table):
                conn.execute(table.insert(), rows[table])
        first = min(rows[games], key=lambda r: (r["played_at"], r["id"]))
        self._forget_ratings(conn, first["played_at"], first["id"], everything=bool(replaced))
        return results

    @staticmethod
    def _forget_ratings(conn: Connection, played_at: datetime, game_id: str, *, everything: bool) -> None:
        """Kept ratings that a new game changes are dropped (standings rate afresh): those
        rated through a point at or after the game; all of them after a correction."""
        marks = select(rating_marks.c.season)
        if not everything:
            marks = marks.where(
                or_(
                    rating_marks.c.played_at > played_at,
                    and_(rating_marks.c.played_at == played_at, rating_marks.c.game_id >= game_id),
                )
            )
        stale = list(conn.execute(marks).scalars())
        if stale:
            conn.execute(delete(ratings).where(ratings.c.season.in_(stale)))
            conn.execute(delete(rating_marks).where(rating_marks.c.season.in_(stale)))

    # ------------------------------------------------------------------ reading

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games)).scalar_one())

    def game(self, game_id: str) -> dict[str, Any] | None:
        """A stored game's row, with its sides and rounds."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            out = dict(row)
            out["sides"] = [
                dict(r) for r in conn.execute(select(game_sides).where(game_sides.c.game_id == game_id)).mappings()
            ]
            out["round_list"] = [
                dict(r)
                for r in conn.execute(
                    select(game_rounds).where(game_rounds.c.game_id == game_id).order_by(game_rounds.c.number)
                ).mappings()
            ]
            return out

    def events(self, game_id: str) -> list[str]:
        """The stored game's record lines (canonical), header first; empty if unknown."""
        with self.engine.connect() as conn:
            body = conn.execute(select(game_records.c.body).where(game_records.c.game_id == game_id)).scalar()
        return body.split("\n") if body else []

    def games(self, *, season: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The latest stored games, newest first."""
        query = select(
            games.c.id, games.c.season, games.c.played_at, games.c.players, games.c.teams,
            games.c.finished, games.c.winner, games.c.termination, games.c.rounds,
        ).order_by(games.c.played_at.desc(), games.c.id).limit(limit)
        if season:
            query = query.where(games.c.season == season)
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]


def record_paths(args: Sequence[str]) -> list[Path]:
    """Files named on the command line; a directory stands for its ``*.jsonl`` files."""
    out: list[Path] = []
    for arg in args:
        p = Path(arg)
        if p.is_dir():
            out.extend(sorted(p.glob("*.jsonl")))
        else:
            out.append(p)
    return out
