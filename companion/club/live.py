"""The games being played now: each table's events as they arrive, checked by the engine.

A table posts event ``number`` (its line in the record, the header being 1) of a game. The
rules of the exchange make the feed safe to repeat and to resume:

- the next event (``number`` = events stored + 1) is replayed on the game; if it breaks a
  rule it is refused (422, naming the event and the rule) and nothing is stored;
- an event already stored is acknowledged again (200) when identical, refused (409) when it
  differs: a table cannot rewrite what spectators saw;
- an event beyond the next is refused (409) with the number expected, so the table resends
  from there (its local record holds every line).

Accepted events are kept in ``live_events``; when a game ends it is stored in the archive
like any added record (same identity, so a later ``rop club add`` of the file is a
duplicate), in the same transaction that clears its live events.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, select

from companion.club import identity
from companion.club.archive import Archive, parse_record
from companion.club.describe import describe_event, table_state
from companion.club.schema import live_events
from companion.engine.game import GameState
from companion.engine.moves import Move
from companion.records.format import RecordError, RecordVisitor, Replayer, read_record

__all__ = ["LiveGame", "LiveTables", "PostError", "RECENT"]

#: How many of the last moves the page shows per table.
RECENT = 8
MAX_EVENT_BYTES = 64 * 1024


class PostError(Exception):
    """A refused post: an HTTP status and the reason, for the table and the log."""

    def __init__(self, status: int, reason: str, **extra: Any) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.extra = extra


class _Continue(RecordVisitor):
    """Plays further lines on an existing game (the header line only names the set-up)."""

    def __init__(self, game: GameState) -> None:
        self.game = game

    def visit_move(self, move: Move, line: int) -> None:
        self.game.push(move)


@dataclass
class LiveGame:
    game_id: str
    table: str | None
    header_line: str
    header: dict[str, Any]
    game: GameState
    lines: list[str] = field(default_factory=list)  # canonical, header first
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT))
    archived: bool = False
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def snapshot(self) -> dict[str, Any]:
        state = table_state(self.game, self.header)
        state.update(
            table=self.table,
            game_id=self.game_id,
            events=len(self.lines),
            last_moves=list(self.recent),
            updated_at=self.updated_at.isoformat(),
        )
        return state


def _start(game_id: str, table: str | None, header_line: str, started_at: datetime | None = None) -> LiveGame:
    # History is kept so that a move the database failed to store can be taken back.
    replayer = Replayer(keep_history=True)
    read_record([header_line], replayer)
    assert replayer.game is not None
    header = json.loads(header_line)
    live = LiveGame(game_id, table, header_line, header, replayer.game)
    if started_at is not None:
        live.started_at = live.updated_at = started_at
    live.lines.append(header_line)
    live.recent.append(describe_event(header))
    return live


def _advance(live: LiveGame, line: str, event: dict[str, Any]) -> None:
    read_record([live.header_line, line], _Continue(live.game))
    live.lines.append(line)
    live.recent.append(describe_event(event))
    live.updated_at = datetime.now(UTC)


class LiveTables:
    """Every table's current game; posts go through :meth:`post`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.archive = Archive(engine)
        self.games: dict[str, LiveGame] = {}
        self._reload()

    def _reload(self) -> None:
        """Games still being played when the server stopped carry on where they were."""
        rows = []
        with self.engine.connect() as conn:
            rows = list(conn.execute(select(live_events).order_by(live_events.c.game_id, live_events.c.number)))
        for row in rows:
            live = self.games.get(row.game_id)
            if live is None:
                received = row.received_at if row.received_at.tzinfo else row.received_at.replace(tzinfo=UTC)
                self.games[row.game_id] = _start(row.game_id, row.table_name, row.body, received)
            else:
                _advance(live, row.body, json.loads(row.body))

    def tables(self) -> list[dict[str, Any]]:
        """The latest game of each table, for the page."""
        latest: dict[str, LiveGame] = {}
        for live in self.games.values():
            key = live.table or live.game_id
            if key not in latest or live.updated_at >= latest[key].updated_at:
                latest[key] = live
        return [g.snapshot() for g in sorted(latest.values(), key=lambda g: g.table or "")]

    def stored(self, game_id: str) -> int:
        """How many events of the game the club holds (live or archived)."""
        live = self.games.get(game_id)
        if live is not None:
            return len(live.lines)
        return len(self.archive.events(game_id))

    def _from_archive(self, game_id: str) -> LiveGame | None:
        lines = self.archive.events(game_id)
        if not lines:
            return None
        live = _start(game_id, None, lines[0])
        for line in lines[1:]:
            _advance(live, line, json.loads(line))
        live.archived = True
        return live

    def post(self, table: str, game_id: str, number: int, body: bytes, *, replace: bool = False) -> tuple[int, LiveGame]:
        """Take event ``number`` of ``game_id`` from ``table``. Returns (201 stored | 200
        already stored, the game); raises :class:`PostError` when refused.

        With ``replace`` (a move taken back at the table, then another made), an event that
        differs from the stored one replaces it and drops the events after it, provided the
        game is still being played and the table is the one playing it."""
        if not game_id or len(game_id) > 64 or not all(c.isalnum() or c in "-_" for c in game_id):
            raise PostError(400, "a game id is 1 to 64 letters, digits, '-' or '_'")
        if number < 1:
            raise PostError(400, f"event numbers start at 1 (the game header), not {number}")
        if len(body) > MAX_EVENT_BYTES:
            raise PostError(413, f"event {number} is larger than {MAX_EVENT_BYTES} bytes")
        try:
            event = json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise PostError(400, f"event {number} is not valid JSON ({exc})") from None
        if not isinstance(event, dict):
            raise PostError(400, f"event {number} must be a JSON object")
        line = identity.canonical(event)
        live = self.games.get(game_id) or self._from_archive(game_id)
        if live is None:
            if number != 1:
                raise PostError(409, f"game {game_id} is unknown here: send its events from 1", expected=1)
            header_id = event.get("id")
            if header_id is not None and header_id != game_id:
                raise PostError(422, f"the game header's id {header_id!r} is not the game posted to ({game_id})")
            try:
                live = _start(game_id, table, line)
            except RecordError as exc:
                raise PostError(422, _reason(exc, number), rule=exc.rule) from None
            self._persist(live, table, 1, line)
            # The table's earlier games that are over are in the archive: forget them here.
            for gid in [g.game_id for g in self.games.values() if g.table == table and g.archived]:
                del self.games[gid]
            self.games[game_id] = live
            return 201, live
        if live.table is not None and live.table != table:
            raise PostError(403, f"game {game_id} belongs to table {live.table}, not {table}")
        stored = len(live.lines)
        if number <= stored:
            if live.lines[number - 1] == line:
                self.games.setdefault(game_id, live)
                return 200, live
            if not replace:
                raise PostError(409, f"event {number} of game {game_id} is already stored, with other content", expected=stored + 1)
            if live.archived or live.table != table:
                raise PostError(409, f"game {game_id} is over and archived: correct it with rop club add")
            if number == 1:
                raise PostError(409, "the game header cannot be replaced: start a new game")
            return 201, self._take_back(live, table, number, line, event)
        if number > stored + 1:
            raise PostError(409, f"event {number} of game {game_id} is ahead: the club has {stored}", expected=stored + 1)
        if live.archived:
            raise PostError(409, f"game {game_id} is already in the archive; send a corrected record with rop club add")
        try:
            _advance(live, line, event)
        except RecordError as exc:
            raise PostError(422, _reason(exc, number), rule=exc.rule) from None
        try:
            self._persist(live, table, number, line)
        except Exception:
            # The engine moved but the database did not: take the move back so both agree.
            live.game.pop()
            live.lines.pop()
            raise
        return 201, live

    def _take_back(self, live: LiveGame, table: str, number: int, line: str, event: dict[str, Any]) -> LiveGame:
        """Events ``number`` and after are taken back; ``line`` becomes event ``number``."""
        redo = _start(live.game_id, table, live.header_line, live.started_at)
        for kept in live.lines[1 : number - 1]:
            _advance(redo, kept, json.loads(kept))
        try:
            _advance(redo, line, event)
        except RecordError as exc:
            raise PostError(422, _reason(exc, number), rule=exc.rule) from None
        self._persist(redo, table, number, line, take_back=True)
        self.games[live.game_id] = redo
        return redo

    def _persist(self, live: LiveGame, table: str, number: int, line: str, *, take_back: bool = False) -> None:
        with self.engine.begin() as conn:
            if take_back:
                conn.execute(delete(live_events).where((live_events.c.game_id == live.game_id) & (live_events.c.number >= number)))
            conn.execute(
                live_events.insert(),
                {"game_id": live.game_id, "number": number, "table_name": table, "body": line, "received_at": datetime.now(UTC)},
            )
            if live.game.is_game_over():
                # The game's date is its header's if it has one, else when its table began it.
                parsed = parse_record(live.lines, played_at=live.started_at)
                self.archive.store_on(conn, replace(parsed, id=live.game_id, source=f"table {table}"))
                conn.execute(delete(live_events).where(live_events.c.game_id == live.game_id))
                live.archived = True


def _reason(exc: RecordError, number: int) -> str:
    rule = f" [{exc.rule}]" if exc.rule else ""
    return f"event {number}: {exc.reason}{rule}"
