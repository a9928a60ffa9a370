"""Adding game records to the archive, and reading them back.

Every record is replayed by the engine first (:func:`companion.records.format.read_record`
checks every rule); a record that breaks one is refused with its file, line and rule, and
nothing of it is stored. A stored game keeps every event, its set-up and players, each
round's points per side with the settlement's reasons, and per side the figures standings
need. Storing a game is one transaction: a reader sees it whole or not at all.

A game already stored (same identity, see :mod:`companion.club.identity`) is recognised: the
same events are a duplicate and are not stored twice; other events under the same id are a
correction, which replaces the stored game.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, or_, select

from companion.club import identity
from companion.club.schema import (
    GAME_CHILDREN,
    game_events,
    game_players,
    game_rounds,
    game_sides,
    games,
    rating_marks,
    ratings,
    round_points,
)
from companion.engine.game import GameState
from companion.records.format import RecordError, Replayer, read_record

__all__ = ["AddResult", "Archive", "ParsedGame", "parse_record", "read_record_file"]

#: Header keys that may carry when the game was played (ISO 8601).
DATE_KEYS = ("date", "started", "played_at")


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


def parse_record(
    lines: Iterable[str], *, path: str | None = None, played_at: datetime | None = None
) -> ParsedGame:
    """Replay ``lines`` with every rule checked (raises :class:`RecordError` naming the
    line and rule) and gather what the archive stores."""
    texts = list(lines)
    replayer = Replayer()
    read_record(texts, replayer, path=path)
    assert replayer.game is not None
    events = [json.loads(t) for t in texts if t.strip()]
    header = events[0]
    canonical = [identity.canonical(e) for e in events]
    digest = identity.digest_lines(canonical)
    gid = identity.game_id(events, known_digest=digest)
    if len(gid) > 64:
        raise RecordError(f'the game "id" is longer than 64 characters: {gid[:20]}...', line=1, path=path)
    when = None
    for key in DATE_KEYS:
        when = _parse_date(header.get(key))
        if when:
            break
    return ParsedGame(
        id=gid,
        digest=digest,
        events=events,
        lines=canonical,
        game=replayer.game,
        played_at=when or played_at or datetime.now(UTC),
        source=path,
    )


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
            {"game_id": gid, "seat": i, "player": p, "side": setup.side_of(p)} for i, p in enumerate(setup.players)
        ],
        game_events: [
            {"game_id": gid, "number": n, "body": line} for n, line in enumerate(parsed.lines, 1)
        ],
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

    def store_on(self, conn: Connection, parsed: ParsedGame, *, season: str | None = None) -> AddResult:
        """Store ``parsed`` inside the caller's transaction."""
        label = season or str(parsed.played_at.year)
        stored = conn.execute(select(games.c.digest, games.c.season).where(games.c.id == parsed.id)).first()
        status = "added"
        if stored is not None:
            if stored.digest == parsed.digest:
                return AddResult(parsed.id, "duplicate", parsed.source)
            # A correction keeps the season it was filed under unless told otherwise.
            label = season or stored.season
            for table in GAME_CHILDREN:
                conn.execute(delete(table).where(table.c.game_id == parsed.id))
            conn.execute(delete(games).where(games.c.id == parsed.id))
            status = "replaced"
        rows = _rows(parsed, label)
        for table, table_rows in rows.items():
            if table_rows:
                conn.execute(table.insert(), table_rows)
        self._forget_ratings(conn, rows[games][0]["played_at"], parsed.id, everything=status == "replaced")
        return AddResult(parsed.id, status, parsed.source)

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
            return list(
                conn.execute(
                    select(game_events.c.body).where(game_events.c.game_id == game_id).order_by(game_events.c.number)
                ).scalars()
            )

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
