"""The games being played now: each table's events as they arrive, checked by their game's
rules. A table may play any game whose club part is written (:mod:`companion.club.parts`);
the header of another game's record is refused (422), naming the game.

A table posts event ``number`` (its line in the record, the header being 1) of a game. The
rules of the exchange make the feed safe to repeat and to resume:

- the next event (``number`` = events stored + 1) is played on the game; if it breaks a
  rule it is refused (422, naming the event and the rule) and nothing is stored;
- an event already stored is acknowledged again (200) when identical, refused (409) when it
  differs: a table cannot rewrite what spectators saw. Two exceptions, both checked by
  replaying the game by the rules: an event posted again with cards that were face down now
  named (for Rule of Power a deal whose hands were completed when its round ended: the game's
  club part tells, :meth:`~companion.club.parts.ClubPart.fills_in`) fills them in, the events
  after it kept;
  and, with ``replace``, a move taken back at the table replaces the stored one and drops the
  events after it;
- moves taken back at the table are taken back at once (``DELETE`` of event ``number``, see
  :meth:`LiveTables.take_back`): the events from ``number`` on are dropped, and spectators see
  the table as it is again without waiting for its next move;
- an event beyond the next is refused (409) with the number expected, so the table resends
  from there (its local record holds every line).

Each live game is kept in memory, its state played up to its last event: a post plays only
the new event. What a post changes in the archive is handed back as a :class:`Write` for the
:class:`~companion.club.writer.ArchiveWriter` to store; the post is answered once it is
stored. Accepted events are kept in ``live_events``; when a game ends it is stored in the
archive like any added record (same identity, so a later ``rop club add`` of the file is a
duplicate), in the same transaction that clears its live events. A write that fails leaves
the game to be read back from the archive (:meth:`LiveTables.forget`).

Other server processes may take posts on the same archive (PostgreSQL,
:mod:`companion.club.fanout`). A write therefore checks, when it is stored, that the archive
holds the game as this process believed (:class:`Conflict` otherwise: the game is read back
and the post taken again), and the posts the others stored reach this process through
:meth:`LiveTables.receive`, to be played here when next needed.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from itertools import groupby
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import Connection, Engine, String, any_, bindparam, delete, func, select, tuple_, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql import distinct_on

from companion.club import identity
from companion.club.archive import TABLE_SOURCE, Archive, ParsedGame, played_game, table_of
from companion.club.parts import ClubPart, NoClubPart, TableView, Tally, require_part
from companion.club.fanout import LOCK_GAMES, Change, announcing, game_keys
from companion.club.schema import games, live_events
from companion.records.format import RecordError, Replayer, play_event, read_record

__all__ = ["Accepted", "Conflict", "check_writes", "store_appends", "store_writes", "LiveGame", "LiveTables", "PostError", "RECENT", "Write"]

log = logging.getLogger("companion.club.live")

#: How many of the last moves the page shows per table.
RECENT = 8
#: What a game id posted to may be.
GAME_ID = re.compile(r"[\w-]{1,64}")
MAX_EVENT_BYTES = 64 * 1024


class Conflict(Exception):
    """The archive does not hold a game as this process believed (another process stored a
    post of it meanwhile): nothing was stored; the game is to be read back and the post taken
    again."""

    expected = True  # a normal event between processes, not a failure to log as one


class PostError(Exception):
    """A refused post: an HTTP status and the reason, for the table and the log."""

    def __init__(self, status: int, reason: str, **extra: Any) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.extra = extra


@dataclass
class LiveGame:
    game_id: str
    table: str | None
    header_line: str
    header: dict[str, Any]
    game: Any  # the game's state, played up to the last event
    part: ClubPart  # the game's club part: its tally, its words, its table's view
    tally: Tally
    lines: list[str] = field(default_factory=list)  # canonical, header first
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT))
    archived: bool = False
    updated_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    view: TableView | None = None
    _snapshot: dict[str, Any] | None = None
    # Posts another server process stored, not played here yet: the events as the archive
    # has them (header first), and the table's state for the page as that process sent it.
    ahead: list[str] | None = None
    shown: str | None = None
    # Events the table took back at its last undo, said on the page until its next move.
    taken_back: int = 0

    def __post_init__(self) -> None:
        if self.view is None:
            self.view = self.part.table_view()

    def known(self) -> list[str]:
        """The events as the club holds them, header first (those played here, or ahead)."""
        return self.ahead if self.ahead is not None else self.lines

    def head(self) -> tuple[int, str]:
        """How many events the club holds of the game, and the last."""
        known = self.known()
        return len(known), known[-1]

    def catch_up(self) -> None:
        """Play what other processes stored since (:class:`RecordError` if it does not
        play: the caller reads the game back from the archive)."""
        ahead = self.ahead
        if ahead is None:
            return
        self.ahead, self.shown = None, None
        archived, updated_at = self.archived, self.updated_at
        if len(ahead) >= len(self.lines) and ahead[: len(self.lines)] == self.lines:
            for line in ahead[len(self.lines) :]:
                self.play(line, json.loads(line))
        else:
            # A move taken back or a deal filled in elsewhere: the game played again.
            taken_back = len(self.lines) - len(ahead) if self.lines[: len(ahead)] == ahead else 0
            redo = _replayed(self.game_id, self.table, ahead, self.started_at)
            for f in dataclasses.fields(self):
                setattr(self, f.name, getattr(redo, f.name))
            self.taken_back = taken_back
        self.archived, self.updated_at = archived, updated_at
        self._snapshot = None

    def snapshot(self) -> dict[str, Any]:
        """The table as the page shows it, worked out once per change."""
        if self.ahead is not None:
            if self.shown is not None:
                if self._snapshot is None:
                    self._snapshot = json.loads(self.shown)
                assert self._snapshot is not None
                return self._snapshot
            self.catch_up()
        if self._snapshot is None:
            assert self.view is not None
            state = self.view.state(self.game, self.header)
            state.update(
                game=self.game.setup.game.name,
                table=self.table,
                game_id=self.game_id,
                events=len(self.lines),
                taken_back=self.taken_back,
                last_moves=list(self.recent),
                updated_at=self.updated_at.isoformat(),
            )
            self._snapshot = state
        return self._snapshot

    def play(self, line: str, event: dict[str, Any]) -> None:
        """Play the next event (``line`` canonical); :class:`RecordError` if it breaks a rule."""
        play_event(self.game, event, line=len(self.lines) + 1)
        self.tally.after(self.game)
        self.lines.append(line)
        self.recent.append(self.part.describe(event))
        self.updated_at = datetime.now(UTC)
        self.taken_back = 0
        self._snapshot = None

    def parsed(self) -> ParsedGame:
        """The game as the archive stores it. Its date is its header's if it has one, else
        when its table began it."""
        events = [json.loads(line) for line in self.lines]
        result = self.part.result(self.game, self.tally)
        parsed = played_game(events, self.game.setup, result, played_at=self.started_at, source=f"{TABLE_SOURCE}{self.table}")
        return dataclasses.replace(parsed, id=self.game_id)


def _start(game_id: str, table: str | None, header_line: str, started_at: datetime | None = None) -> LiveGame:
    """A game from its header line; :class:`RecordError` when it is not one, or when the
    club does not keep its game's games."""
    replayer = Replayer()
    read_record([header_line], replayer)
    assert replayer.game is not None
    setup = replayer.game.setup
    try:
        part = require_part(setup.game)
    except NoClubPart as exc:
        raise RecordError(str(exc), line=1) from None
    header = json.loads(header_line)
    live = LiveGame(game_id, table, header_line, header, replayer.game, part, part.tally(setup))
    if started_at is not None:
        live.started_at = live.updated_at = started_at
    live.lines.append(header_line)
    live.recent.append(part.describe(header))
    return live


def _replayed(game_id: str, table: str | None, lines: Sequence[str], started_at: datetime | None = None) -> LiveGame:
    """The game started from its header, ``lines[0]``, and played over the events after it."""
    live = _start(game_id, table, lines[0], started_at)
    for line in lines[1:]:
        live.play(line, json.loads(line))
    return live


def _rebuild(live: LiveGame, lines: list[str], table: str | None) -> LiveGame:
    """The game played again from its header over ``lines`` (the events after the header)."""
    return _replayed(live.game_id, table, [live.header_line, *lines], live.started_at)


def _from_rows(game_id: str, rows: Sequence[Any]) -> LiveGame:
    """A game being played, from its stored live events (in order); it last changed when its
    last event arrived."""
    live = _replayed(game_id, rows[0].table_name, [row.body for row in rows], _utc(rows[0].received_at))
    live.updated_at = _utc(rows[-1].received_at)
    return live


def _from_archive(game_id: str, source: str | None, lines: Sequence[str], stored_at: datetime | None = None) -> LiveGame:
    """A game over and stored, from its record; the table that played it live is its
    source's ("table NAME"), and it last changed when it was stored (if told)."""
    live = _replayed(game_id, table_of(source), lines)
    live.archived = True
    if stored_at is not None:
        live.updated_at = _utc(stored_at)
    return live


@dataclass
class Write:
    """What an accepted post changes in the archive: event ``number`` of the game appended,
    or filled in, or replacing the events from ``number`` on, or the events from ``number`` on
    taken back (``kind`` "truncate": ``line`` is then the event now last); and the game
    archived when it ended (``ended``). :meth:`run` does it on the writer's connection."""

    game_id: str
    table: str
    number: int
    line: str
    kind: str = "append"  # "append", "fill", "replace" or "truncate"
    ended: LiveGame | None = None
    received_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    # What the archive held of the game when the post was taken: how many live events, and
    # the last of them. Another process may have stored a post of the game since.
    expect: tuple[int, str | None] = (0, None)
    notice: str | None = None  # its announcement to the other processes (:mod:`~companion.club.fanout`)
    checked: bool = False  # checked with its batch (:func:`check_writes`)
    announced: bool = False  # announced with its batch (:func:`store_appends`)

    def check(self, conn: Connection) -> None:
        """:class:`Conflict` unless the archive holds the game as expected (under the game's
        lock, :func:`~companion.club.fanout.lock_games`, on PostgreSQL)."""
        gid = self.game_id
        row = conn.execute(
            select(live_events.c.number, live_events.c.body)
            .where(live_events.c.game_id == gid)
            .order_by(live_events.c.number.desc())
            .limit(1)
        ).first()
        found = (row.number, row.body) if row is not None else (0, None)
        if found != self.expect:
            raise Conflict(f"game {gid}: event {self.number} was taken with {self.expect[0]} event(s) stored, the archive has {found[0]}")
        if found[0] == 0 and conn.execute(select(games.c.id).where(games.c.id == gid)).first() is not None:
            raise Conflict(f"game {gid} is already in the archive")

    def run(self, conn: Connection) -> None:
        gid = self.game_id
        if not self.checked:
            self.check(conn)
        if self.ended is not None:
            # The game is over: into the archive, out of the live events.
            Archive(conn.engine).store_on(conn, self.ended.parsed())
            conn.execute(delete(live_events).where(live_events.c.game_id == gid))
            return
        if self.kind == "fill":
            conn.execute(
                update(live_events)
                .where((live_events.c.game_id == gid) & (live_events.c.number == self.number))
                .values(body=self.line)
            )
            return
        if self.kind in ("replace", "truncate"):
            conn.execute(delete(live_events).where((live_events.c.game_id == gid) & (live_events.c.number >= self.number)))
        if self.kind != "truncate":
            conn.execute(live_events.insert(), self.row())

    def row(self) -> dict[str, Any]:
        """The live event it stores."""
        return {"game_id": self.game_id, "number": self.number, "table_name": self.table, "body": self.line, "received_at": self.received_at}

    @property
    def appends(self) -> bool:
        """It only appends an event to a game still being played."""
        return self.kind == "append" and self.ended is None


# A batch's games as one array: the same statement whatever their number, so that it is
# compiled once and PostgreSQL prepares it, where an IN list of each batch's length is
# written out and parsed anew for every batch.
_BATCH_IDS = bindparam("ids", type_=postgresql.ARRAY(String(64)))
#: Each game's last event, read along the primary key's index (PostgreSQL).
_LAST_EVENTS = (
    select(live_events.c.game_id, live_events.c.number, live_events.c.body)
    .where(live_events.c.game_id == any_(_BATCH_IDS))
    .order_by(live_events.c.game_id, live_events.c.number.desc())
    .ext(distinct_on(live_events.c.game_id))
)
#: Whether any of the games is in the archive already (PostgreSQL).
_ANY_ARCHIVED = select(games.c.id).where(games.c.id == any_(_BATCH_IDS)).limit(1)


def check_writes(conn: Connection, writes: Sequence[Write]) -> None:
    """:meth:`Write.check` for a batch of writes of different games, in one query or two:
    :class:`Conflict` when any does not hold."""
    ids = [w.game_id for w in writes]
    new = [w.game_id for w in writes if w.expect[0] == 0]
    if conn.dialect.name == "postgresql":
        found = {row.game_id: (row.number, row.body) for row in conn.execute(_LAST_EVENTS, {"ids": ids})}
        archived = bool(new) and conn.execute(_ANY_ARCHIVED, {"ids": new}).first() is not None
    else:
        last = (
            select(live_events.c.game_id, func.max(live_events.c.number))
            .where(live_events.c.game_id.in_(ids))
            .group_by(live_events.c.game_id)
        )
        query = select(live_events.c.game_id, live_events.c.number, live_events.c.body).where(
            tuple_(live_events.c.game_id, live_events.c.number).in_(last)
        )
        found = {row.game_id: (row.number, row.body) for row in conn.execute(query)}
        archived = bool(new) and conn.execute(select(games.c.id).where(games.c.id.in_(new)).limit(1)).first() is not None
    _hold(writes, found, archived)


def _hold(writes: Sequence[Write], found: dict[str, tuple[int, str]], archived: bool) -> None:
    """:class:`Conflict` unless the archive holds each game as its write expects (``found``:
    each game's last event there) and none begun is archived already."""
    for w in writes:
        if found.get(w.game_id, (0, None)) != w.expect:
            raise Conflict(f"game {w.game_id}: event {w.number} was taken with {w.expect[0]} event(s) stored")
    if archived:
        raise Conflict("a game begun is already in the archive")
    for w in writes:
        w.checked = True


def store_appends(conn: Connection, writes: Sequence[Write]) -> None:
    """PostgreSQL: a batch of writes that only append (:attr:`Write.appends`, nearly every
    post) stored, committed and announced (:func:`~companion.club.fanout.announce`) in two
    round trips to the database, where a statement at a time takes six: the transaction
    begun, the games' locked (:data:`~companion.club.fanout.LOCK_GAMES`) and the archive
    checked (:func:`check_writes`) sent together; then the events inserted, the transaction
    committed and the posts announced together. Sent together, each statement still runs
    once the one before has, and sees what was committed before it began: the checks see
    every post another process stored before it let go of a game's lock. :class:`Conflict`
    (nothing stored) when a check does not hold. Each write announced is marked so
    (:attr:`Write.announced`). The transaction ``conn`` began for the batch has nothing left
    to do: its commit sends nothing."""
    from psycopg import pq

    raw: Any = conn.connection.driver_connection
    ids = [w.game_id for w in writes]
    new = [w.game_id for w in writes if w.expect[0] == 0]
    notices = [w.notice for w in writes if w.notice]
    committed = None
    raw.autocommit = True  # the transaction begun and committed by statements sent with the others
    try:
        with raw.pipeline() as pipeline:
            raw.execute("BEGIN")
            raw.execute(*_sql(conn, LOCK_GAMES, keys=game_keys(ids)))
            last = raw.execute(*_sql(conn, _LAST_EVENTS, ids=ids))
            archived = raw.execute(*_sql(conn, _ANY_ARCHIVED, ids=new)) if new else None
            pipeline.sync()
            found = {gid: (number, body) for gid, number, body in last.fetchall()}
            _hold(writes, found, archived is not None and archived.fetchone() is not None)
            with raw.cursor() as cursor:
                cursor.executemany(_sql(conn, _APPEND)[0], [w.row() for w in writes])
            committed = raw.execute("COMMIT")
            if notices:
                # Its own transaction, after the posts' (see announce).
                raw.execute(*announcing(notices))
    except Exception as exc:
        if committed is None or committed.statusmessage != "COMMIT":
            raise
        # Stored all the same: the posts are answered as such (the others read them from
        # the archive at the game's next post, or when they listen again).
        log.warning("stored %d post(s), but announcing them failed: %s", len(writes), exc)
    else:
        for w in writes:
            w.announced = bool(w.notice)
    finally:
        if not raw.closed:  # a connection lost is dropped by the writer as it is
            if raw.pgconn.transaction_status in (pq.TransactionStatus.INTRANS, pq.TransactionStatus.INERROR):
                raw.execute("ROLLBACK")  # a check that did not hold, or a statement that failed
            raw.autocommit = False


_APPEND = live_events.insert().values({c: bindparam(c) for c in ("game_id", "number", "table_name", "body", "received_at")})
_COMPILED: dict[object, tuple[str, dict[str, Any]]] = {}


def _sql(conn: Connection, statement: Any, **params: Any) -> tuple[str, dict[str, Any]]:
    """A statement as the driver takes it (named parameters), compiled once, and its
    parameters: ``params`` and those the statement sets itself (a limit)."""
    compiled = _COMPILED.get(statement)
    if compiled is None:
        done = statement.compile(dialect=conn.dialect)
        compiled = _COMPILED[statement] = (str(done), dict(done.params))
    return compiled[0], {**compiled[1], **params}


def store_writes(conn: Connection, writes: Sequence[Write]) -> None:
    """Store a batch of writes, each of another game, on ``conn``'s transaction: checked in
    one query (:func:`check_writes`), the events appended inserted in one statement (most
    posts; a transaction of many short statements would wait on the database for each)."""
    check_writes(conn, writes)
    appends = [w.row() for w in writes if w.appends]
    if appends:
        conn.execute(live_events.insert(), appends)
    for w in writes:
        if not w.appends:
            w.run(conn)


@dataclass(frozen=True)
class Accepted:
    """A post taken: 201 (stored once ``write`` is) or 200 (already stored, ``write`` None)."""

    status: int
    game: LiveGame
    write: Write | None = None


class LiveTables:
    """Every table's current game; posts go through :meth:`post`, on one thread (the
    server's event loop), one post of a game at a time.

    ``shared``: other server processes take posts on the same archive (PostgreSQL). Their
    posts reach this one through :meth:`receive`; and what this one holds may be behind the
    archive for a moment, so a post that does not follow on from it (refused as out of order)
    is taken again once the game is read back from the archive."""

    def __init__(self, engine: Engine, *, shared: bool = False) -> None:
        self.engine = engine
        self.shared = shared
        self.archive = Archive(engine)
        self.games: dict[str, LiveGame] = {}
        # Each game as this process's spectators were last sent it (:meth:`LiveGame.head`),
        # kept when memory reads a game back.
        self.published: dict[str, tuple[int, str]] = {}
        self._reload()

    def _reload(self) -> None:
        """Games still being played when the server stopped carry on where they were; and each
        table's last game, when it is over and the table has begun none since, is shown with
        its result, as a server that ran all along shows it (until the table begins another)."""
        with self.engine.connect() as conn:
            rows = list(conn.execute(select(live_events).order_by(live_events.c.game_id, live_events.c.number)))
        for game_id, group in groupby(rows, key=lambda row: row.game_id):
            self.games[game_id] = _from_rows(game_id, list(group))
        begun: dict[str | None, datetime] = {}  # each table's latest game under way: when it began
        for live in self.games.values():
            begun[live.table] = max(live.started_at, begun.get(live.table, live.started_at))
        for gid, source, stored_at in self._last_archived():
            table = table_of(source)
            if table in begun and begun[table] >= _utc(stored_at):
                continue  # the table began another game since
            try:
                self.games[gid] = _from_archive(gid, source, self.archive.events(gid), stored_at)
            except RecordError as exc:  # a game the rules now read otherwise: not shown
                log.warning("table %s's last game %s is not shown: %s", table, gid, exc)

    def _last_archived(self) -> list[tuple[str, str, datetime]]:
        """Each table's last game stored in the archive: its id, source and when it was
        stored."""
        by_table = (
            select(games.c.source, func.max(games.c.stored_at).label("stored_at"))
            .where(games.c.source.like(f"{TABLE_SOURCE}%"))
            .group_by(games.c.source)
            .subquery()
        )
        query = select(games.c.id, games.c.source, games.c.stored_at).join(
            by_table, (games.c.source == by_table.c.source) & (games.c.stored_at == by_table.c.stored_at)
        )
        last: dict[str, tuple[str, str, datetime]] = {}
        with self.engine.connect() as conn:
            for gid, source, stored_at in conn.execute(query.order_by(games.c.id)):
                last[source] = (gid, source, stored_at)  # of two stored at once, one
        return list(last.values())

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
        if self.shared:
            # Another process may have taken the game's last posts: the archive tells.
            with self.engine.connect() as conn:
                count = conn.execute(select(func.count()).select_from(live_events).where(live_events.c.game_id == game_id)).scalar_one()
            return int(count) or len(self.archive.events(game_id))
        live = self.games.get(game_id) or self._load_live(game_id)
        # An archived game's events are counted, not played again.
        return len(live.lines) if live is not None else len(self.archive.events(game_id))

    def forget(self, game_id: str) -> None:
        """The game's last change could not be stored: drop what memory holds of it, so that
        the next post reads it back from the archive as it is."""
        self.games.pop(game_id, None)

    def _load(self, game_id: str) -> LiveGame | None:
        """A game not in memory, from its live events or else from the archive."""
        live = self._load_live(game_id)
        if live is not None:
            return live
        lines = self.archive.events(game_id)
        if not lines:
            return None
        # A game a table played live is stored as coming from it ("table NAME").
        with self.engine.connect() as conn:
            source = conn.execute(select(games.c.source).where(games.c.id == game_id)).scalar()
        return _from_archive(game_id, source, lines)

    def _load_live(self, game_id: str) -> LiveGame | None:
        """A game still being played, from its live events; memory keeps it from then on."""
        with self.engine.connect() as conn:
            rows = list(
                conn.execute(select(live_events).where(live_events.c.game_id == game_id).order_by(live_events.c.number))
            )
        if not rows:
            return None
        live = self.games[game_id] = _from_rows(game_id, rows)
        return live

    def post(
        self, table: str, game_id: str, number: int, body: bytes, *, replace: bool = False, read: bool = False
    ) -> Accepted:
        """Take event ``number`` of ``game_id`` from ``table``; raises :class:`PostError`
        when refused. The game in memory is changed at once; the caller stores the
        returned write before answering, and calls :meth:`forget` if that fails.

        With ``replace`` (a move taken back at the table, then another made), an event that
        differs from the stored one replaces it and drops the events after it, provided the
        game is still being played and the table is the one playing it."""
        if not GAME_ID.fullmatch(game_id):
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
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            # Not storable, ever: refused for good (a 503 would have the table send it again).
            raise PostError(400, f"event {number}: {identity.not_text(event)}") from None
        try:
            taken = self._take(table, game_id, number, line, event, replace, read)
        except PostError as exc:
            if exc.status != 409 or not self.shared:
                raise
        else:
            if taken.status != 200 or read or not self.shared:
                return taken
            # "Already stored" from memory alone: another process may have taken moves back
            # since (its announcement still on its way), and an answer that loses a post
            # must not be given. Read back from the archive, the post is taken or is a
            # resend (a resend is rare, so the read is too).
        # Out of order for what this process holds: another may have taken the game's last
        # posts. Read back from the archive, the post is taken, or refused, for good.
        self.forget(game_id)
        return self._take(table, game_id, number, line, event, replace, True)

    def take_back(self, table: str, game_id: str, number: int) -> Accepted:
        """Moves taken back at ``table``: the events from ``number`` on are dropped, the game
        played again up to the one before (200 with nothing to store when the club holds no
        event ``number``). Raises :class:`PostError` when refused: the header (start a new
        game instead), another table's game, a game over and archived. The caller stores the
        returned write as it does a post's."""
        if not GAME_ID.fullmatch(game_id):
            raise PostError(400, "a game id is 1 to 64 letters, digits, '-' or '_'")
        if number < 2:
            raise PostError(409, "the game header cannot be taken back: start a new game")
        live = self._held(game_id, True)
        if live is not None and self.shared and number > len(live.lines):
            # Another process may have taken the game's last posts: the archive tells.
            live = self.refresh(game_id)
        if live is None:
            raise PostError(404, f"game {game_id} is unknown here: nothing to take back")
        if live.table is not None and live.table != table:
            raise PostError(403, f"game {game_id} belongs to table {live.table}, not {table}")
        stored = len(live.lines)
        if number > stored:
            self.games.setdefault(game_id, live)
            return Accepted(200, live)
        if live.archived:
            raise PostError(409, f"game {game_id} is over and archived: correct it with rop club add")
        before = _last(live)
        try:
            redo = _rebuild(live, live.lines[1 : number - 1], table)
        except RecordError as exc:  # the events kept played before: only a damaged archive
            raise PostError(500, _reason(exc, exc.line or number), rule=exc.rule) from None
        redo.taken_back = stored - (number - 1)
        self.games[game_id] = redo
        write = Write(game_id, table, number, redo.lines[-1], kind="truncate", expect=before)
        return Accepted(201, redo, write)

    def _held(self, game_id: str, read: bool) -> LiveGame | None:
        """The game as memory holds it, caught up with other processes' posts, else read
        from the archive if ``read``."""
        live = self.games.get(game_id)
        if live is not None:
            try:
                live.catch_up()
            except RecordError:
                live = None
        return live or (self._load(game_id) if read else None)

    def _take(
        self, table: str, game_id: str, number: int, line: str, event: dict[str, Any], replace: bool, read: bool
    ) -> Accepted:
        # A game header not in memory is a new game, nearly always: taken without reading the
        # archive first, since storing it checks that the archive does not hold the game.
        live = self._held(game_id, read or number != 1)
        if live is None:
            return self._begin(table, game_id, number, line, event)
        if live.table is not None and live.table != table:
            raise PostError(403, f"game {game_id} belongs to table {live.table}, not {table}")
        stored = len(live.lines)
        if number <= stored:
            if live.lines[number - 1] == line:
                self.games.setdefault(game_id, live)
                return Accepted(200, live)
            if not replace and live.part.fills_in(json.loads(live.lines[number - 1]), event):
                if live.archived:
                    raise PostError(409, f"game {game_id} is over and archived: correct it with rop club add")
                return self._fill(live, table, number, line)
            if not replace:
                raise PostError(409, f"event {number} of game {game_id} is already stored, with other content", expected=stored + 1)
            if live.archived or live.table != table:
                raise PostError(409, f"game {game_id} is over and archived: correct it with rop club add")
            if number == 1:
                raise PostError(409, "the game header cannot be replaced: start a new game")
            return self._take_back(live, table, number, line)
        if number > stored + 1:
            raise PostError(409, f"event {number} of game {game_id} is ahead: the club has {stored}", expected=stored + 1)
        if live.archived:
            raise PostError(409, f"game {game_id} is already in the archive; send a corrected record with rop club add")
        before = _last(live)
        try:
            live.play(line, event)
        except RecordError as exc:
            raise PostError(422, _reason(exc, number), rule=exc.rule) from None
        return Accepted(201, live, self._write(live, table, number, line, expect=before))

    # ------------------------------------------------------------------ other processes' posts

    def receive(self, change: Change) -> LiveGame | None:
        """A post another process stored: the game in memory follows it (played when next
        needed; its table's state for the page is the one that process sent, ``shown``, until
        then). The game is returned (``None``: not held here)."""
        gid = change.game_id
        live = self.games.get(gid)
        at = _parse_time(change.at)
        if live is None and change.number == 1 and change.line is not None and not change.ended:
            try:
                live = _start(gid, change.table, change.line, at)
            except RecordError as exc:
                log.warning("game %s from another server process does not start here: %s", gid, exc)
                return None
            self._drop_archived(change.table)
            self.games[gid] = live
            return live
        known: list[str] | None | Literal[False] = (
            _followed(live.known(), change) if live is not None and change.line is not None else False
        )
        if known is None:
            if change.ended and live is not None:
                live.archived = True
            return live
        if known is False:
            # Not what this process holds (a post it did not hear of, or too large to be
            # announced): the game as the archive has it.
            return self.refresh(gid)
        assert live is not None
        live.ahead, live.shown, live._snapshot = known, change.state, None
        live.updated_at = at
        if change.ended:
            live.archived = True
        return live

    def refresh(self, game_id: str) -> LiveGame | None:
        """The game read back from the archive (live or archived)."""
        self.forget(game_id)
        live = self._load(game_id)
        if live is not None:
            self.games[game_id] = live
        return live

    def heads(self) -> dict[str, tuple[int, str]]:
        """Every live game in the archive: how many events it holds, and the last."""
        last = select(live_events.c.game_id, func.max(live_events.c.number)).group_by(live_events.c.game_id)
        query = select(live_events.c.game_id, live_events.c.number, live_events.c.body).where(
            tuple_(live_events.c.game_id, live_events.c.number).in_(last)
        )
        with self.engine.connect() as conn:
            return {row.game_id: (row.number, row.body) for row in conn.execute(query)}

    def stale(self, heads: dict[str, tuple[int, str]]) -> list[str]:
        """The games memory holds otherwise than the archive's ``heads`` (:meth:`heads`):
        to be read back after announcements may have been missed."""
        out = [gid for gid, (n, last) in heads.items() if gid not in self.games or _head(self.games[gid]) != (n, last)]
        out += [gid for gid, live in self.games.items() if gid not in heads and not live.archived]
        return out

    def _drop_archived(self, table: str | None) -> None:
        """The table's earlier games that are over are in the archive: forget them here."""
        for gid in [g.game_id for g in self.games.values() if g.table == table and g.archived]:
            del self.games[gid]
            self.published.pop(gid, None)

    def _begin(self, table: str, game_id: str, number: int, line: str, event: dict[str, Any]) -> Accepted:
        """The first event of a game the club does not know: its header."""
        if number != 1:
            raise PostError(409, f"game {game_id} is unknown here: send its events from 1", expected=1)
        header_id = event.get("id")
        if header_id is not None and header_id != game_id:
            raise PostError(422, f"the game header's id {header_id!r} is not the game posted to ({game_id})")
        try:
            live = _start(game_id, table, line)
        except RecordError as exc:
            raise PostError(422, _reason(exc, number), rule=exc.rule) from None
        self._drop_archived(table)
        self.games[game_id] = live
        return Accepted(201, live, Write(game_id, table, 1, line))

    def _fill(self, live: LiveGame, table: str, number: int, line: str) -> Accepted:
        """Event ``number``, a deal, with face-down cards named: the game is played again with
        it, every later event checked against the hands now known."""
        before = _last(live)
        lines = live.lines[1:]
        lines[number - 2] = line
        try:
            redo = _rebuild(live, lines, live.table)
        except RecordError as exc:
            raise PostError(422, f"event {number} filled in: {_reason(exc, exc.line)}", rule=exc.rule) from None
        self.games[live.game_id] = redo
        return Accepted(201, redo, Write(live.game_id, table, number, line, kind="fill", expect=before))

    def _take_back(self, live: LiveGame, table: str, number: int, line: str) -> Accepted:
        """Events ``number`` and after are taken back; ``line`` becomes event ``number``."""
        before = _last(live)
        try:
            redo = _rebuild(live, live.lines[1 : number - 1] + [line], table)
        except RecordError as exc:
            raise PostError(422, _reason(exc, number), rule=exc.rule) from None
        self.games[live.game_id] = redo
        return Accepted(201, redo, self._write(redo, table, number, line, kind="replace", expect=before))

    @staticmethod
    def _write(
        live: LiveGame, table: str, number: int, line: str, *, expect: tuple[int, str | None], kind: str = "append"
    ) -> Write:
        write = Write(live.game_id, table, number, line, kind=kind, expect=expect)
        if live.game.is_game_over():
            live.archived = True
            write.ended = live
        return write


def _followed(lines: list[str], change: Change) -> list[str] | None | Literal[False]:
    """``lines`` (a game's events, header first) after ``change``; ``None`` when they hold it
    already; ``False`` when it does not follow on from them."""
    n, line = change.number, change.line
    assert line is not None
    if change.kind == "truncate":
        # ``line`` is the event now last, number n - 1.
        if n >= 2 and len(lines) >= n - 1 and lines[n - 2] == line:
            return lines[: n - 1] if len(lines) > n - 1 else None
        return False
    if len(lines) >= n and lines[n - 1] == line:
        return None
    if change.kind == "append" and len(lines) == n - 1:
        return [*lines, line]
    if change.kind == "replace" and n >= 2 and len(lines) >= n - 1:
        return [*lines[: n - 1], line]
    if change.kind == "fill" and len(lines) >= n:
        return [*lines[: n - 1], line, *lines[n:]]
    return False


def _head(live: LiveGame) -> tuple[int, str] | None:
    known = live.known()
    return (len(known), known[-1]) if known and not live.archived else None


def _parse_time(text: str) -> datetime:
    try:
        return _utc(datetime.fromisoformat(text))
    except ValueError:
        return datetime.now(UTC)


def _last(live: LiveGame) -> tuple[int, str | None]:
    """What the archive holds of a live game: how many events, and the last."""
    return (len(live.lines), live.lines[-1]) if not live.archived else (0, None)


def _utc(when: datetime) -> datetime:
    # SQLite hands back naive times; they were stored in UTC.
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _reason(exc: RecordError, number: int) -> str:
    rule = f" [{exc.rule}]" if exc.rule else ""
    return f"event {number}: {exc.reason}{rule}"
