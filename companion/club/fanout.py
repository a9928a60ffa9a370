"""Several server processes over one PostgreSQL archive: what one takes, every other shows.

Each process keeps every live game in memory (:mod:`companion.club.live`). A post is stored by
one of them; right after that transaction it is announced with PostgreSQL's ``NOTIFY`` on
:data:`CHANNEL` (:func:`announce`), before the table is answered, so that a game's posts are
announced in the order they were stored. Every process ``LISTEN``\\ s on a connection of
its own (:class:`Listener`) and passes each other process's announcements to its live
tables and its spectators. Nothing else carries the posts between processes: no broker.

The posts of one game are taken one at a time across processes: the transaction that stores
a batch of posts first takes a transaction-scoped advisory lock per game
(:func:`lock_games`, in one order so that two processes never wait on each other), and each
write then checks that the archive holds what the process believed (:class:`~companion.club.
live.Write`), so that a post numbered N is stored once whichever process took it and however
often it was sent. A process whose memory was behind reads the game back and takes the post
again.

Following the others is work every process does for every post, so it is kept to what the
post's own spectators need: the listening connection is read by the process's event loop
itself (no thread to wake and hand over to), every announcement that arrived in one read,
and while they keep coming, one read at each of the process's ticks (:mod:`companion.club.
ticks`, every 50 ms at most, the tick that sends its spectators their updates too); a
process's own announcements, which PostgreSQL sends it too, are passed over by their first
bytes, unread. A receiving process neither reads the archive nor plays the game nor works out
the table's state: it stores the announced line as the game's next event (played when a post
of that game next comes to it) and sends its spectators the state as announced, one frame
for all of them.

An announcement (:class:`Change`) is one line of JSON saying which post, then the event's
line, then the table's state for the page as the storing process worked it out, so that the
others forward it to their spectators without playing the game. A notification holds at most
8,000 bytes: a larger announcement leaves the state out (the others work it out), or the line
too (the others read the game back from the archive).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, text

from companion.club.ticks import Ticks

if TYPE_CHECKING:
    from psycopg.pq.abc import PGconn

__all__ = ["CHANNEL", "Change", "LOCK_GAMES", "Listener", "announce", "announcing", "game_key", "game_keys", "lock_games"]

log = logging.getLogger("companion.club.fanout")

#: The PostgreSQL notification channel of the club's live posts.
CHANNEL = "rop_club_live"
#: PostgreSQL refuses a notification payload of 8,000 bytes or more.
MAX_PAYLOAD = 7_900
#: How many times a read of the announcements refills libpq's buffer at most (about 1 MB).
_READS_A_TICK = 64


@dataclass(frozen=True)
class Change:
    """A post stored by the process ``origin``: event ``number`` of ``game_id`` from
    ``table``, ``kind`` "append", "fill", "replace" or "truncate" (see :class:`~companion.
    club.live.Write`), ``ended`` when the game is over and archived; ``line`` the event (for
    "truncate", the event now last; ``None``: too large to announce, read it from the archive); ``state`` the table as the page shows it
    (JSON text, ``None``: work it out); ``at`` when it was taken (ISO 8601)."""

    origin: str
    game_id: str
    table: str
    number: int
    kind: str
    ended: bool
    at: str
    line: str | None = None
    state: str | None = None

    def encode(self) -> str:
        """The notification's payload, within PostgreSQL's limit."""
        head = json.dumps(
            {"o": self.origin, "g": self.game_id, "t": self.table, "n": self.number, "k": self.kind,
             "e": self.ended, "a": self.at},
            separators=(",", ":"),
        )
        for line, state in ((self.line, self.state), (self.line, None), (None, None)):
            payload = f"{head}\n{line or ''}\n{state or ''}"
            if len(payload.encode("utf-8")) <= MAX_PAYLOAD:
                return payload
        raise ValueError(f"the announcement of {self.game_id} event {self.number} is too long")  # the head alone is small

    @staticmethod
    def prefix(origin: str) -> str:
        """How every announcement of the process ``origin`` begins (:meth:`encode`)."""
        return json.dumps({"o": origin}, separators=(",", ":"))[:-1] + ","

    @classmethod
    def decode(cls, payload: str) -> Change:
        head, line, state = payload.split("\n", 2)
        h = json.loads(head)
        return cls(h["o"], h["g"], h["t"], int(h["n"]), h["k"], bool(h["e"]), h["a"], line or None, state or None)


def new_origin() -> str:
    """A name for this process among the club's processes."""
    return uuid.uuid4().hex[:12]


def game_key(game_id: str) -> int:
    """The advisory lock's key of a game: 64 bits of a hash of its id."""
    return int.from_bytes(hashlib.blake2b(game_id.encode("utf-8"), digest_size=8).digest(), "big", signed=True)


#: Takes the games' locks (``keys``, :func:`game_keys`) for the rest of the transaction, in
#: the order of their keys, so that two processes storing batches of the same games never
#: wait on each other.
LOCK_GAMES = text("SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT k FROM unnest(CAST(:keys AS bigint[])) AS k ORDER BY k) AS s")


def game_keys(game_ids: Sequence[str]) -> list[int]:
    """The games' advisory lock keys, each once, in order."""
    return sorted({game_key(g) for g in game_ids})


def lock_games(conn: Connection, game_ids: Sequence[str]) -> None:
    """Take the games' locks for the rest of ``conn``'s transaction (PostgreSQL):
    :data:`LOCK_GAMES`."""
    if conn.dialect.name != "postgresql" or not game_ids:
        return
    conn.execute(LOCK_GAMES, {"keys": game_keys(game_ids)})


def announce(conn: Connection, payloads: Sequence[str]) -> None:
    """Announce stored posts (PostgreSQL) on ``conn``, right after their transaction committed,
    in one statement that is its own transaction.

    PostgreSQL lets one transaction that notifies commit at a time: notifying in the posts'
    own transactions would make the processes wait on each other's writes to disk. The
    announcement holds nothing to keep, so its transaction does not wait for the disk. A
    process that dies between the two leaves its last posts unannounced: the others read
    them from the archive at the game's next post, or when they listen again."""
    if conn.dialect.name != "postgresql" or not payloads:
        return
    raw: Any = conn.connection.driver_connection
    raw.autocommit = True  # one round trip: no BEGIN and COMMIT around the statement
    try:
        raw.execute(*announcing(payloads))
    finally:
        raw.autocommit = False


def announcing(payloads: Sequence[str]) -> tuple[str, tuple[str, list[str]]]:
    """The statement that announces ``payloads``, and its parameters, for the driver
    (psycopg) on a connection that commits each statement (:func:`announce`). The payloads go
    as a binary array: as text, every quote in them would be escaped, one by one."""
    return (
        "SELECT set_config('synchronous_commit', 'off', true), count(pg_notify(%s, p)) FROM unnest(%b::text[]) WITH ORDINALITY AS u(p, i)",
        (CHANNEL, list(payloads)),
    )


def _dsn(engine: Engine) -> str:
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """Listens to :data:`CHANNEL` on a connection of its own, read by the server's event loop.

    The connection's socket is watched by the event loop itself, with no thread between them:
    when it is readable, every announcement that arrived is read at once, this process's own
    passed over by their first bytes, unread, and the other processes' changes are handed to
    ``on_changes`` together, in the order the posts were stored. While announcements keep
    coming, the next read is at the next of ``ticks`` (:class:`~companion.club.ticks.Ticks`,
    shared with the spectators' updates) rather than when the socket is readable: a read
    costs a process about the same for one announcement as for many, so it reads the
    others' posts at most once a tick however many they take, and the tick that reads them
    sends them to its spectators. A read that finds none watches the socket again, so an
    idle process is not woken. ``on_listening`` is awaited each time it listens again after
    (re)connecting, before anything announced meanwhile is read: what was announced while it
    did not listen is lost, so whoever holds the live tables reads back from the archive what
    changed. When the archive is away it tries again, waiting ``retry`` seconds, doubled up
    to ``max_retry``."""

    def __init__(
        self,
        engine: Engine,
        origin: str,
        on_changes: Callable[[list[Change]], object],
        on_listening: Callable[[], Awaitable[object]],
        *,
        ticks: Ticks | None = None,
        retry: float = 0.2,
        max_retry: float = 5.0,
    ) -> None:
        self.dsn = _dsn(engine)
        self.origin = origin
        self.on_changes, self.on_listening = on_changes, on_listening
        self.ticks = ticks if ticks is not None else Ticks()
        self.retry, self.max_retry = retry, max_retry
        self.listening = False
        #: Announcements read (this process's own among them, passed over unread), the other
        #: processes' changes handed on, and the reads of the connection that brought any.
        self.announcements = self.followed = self.reads = 0
        self._mine = Change.prefix(origin).encode("utf-8")
        self._task: asyncio.Task[None] | None = None

    def start(self) -> Listener:
        """Listen, on the running event loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="club-listener")
        return self

    async def stop(self) -> None:
        """Stop listening, and close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        import psycopg

        delay = self.retry
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=5) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    delay = self.retry
                    log.info("listening to the other server processes' posts")
                    await self.on_listening()
                    await self._follow(conn.pgconn)
            except psycopg.Error as exc:
                if self.listening:
                    log.error("lost the archive's notifications (%s); reconnecting", str(exc).strip())
            except Exception:  # a bug in a handler must not end the fan-out silently
                log.exception("the listener failed; listening again")
            self.listening = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_retry)

    async def _follow(self, pgconn: PGconn) -> None:
        """Read the announcements whenever the connection has some, until it is lost; while
        they keep coming, at each tick instead."""
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()
        fd = pgconn.socket
        watched = False

        def read() -> None:
            nonlocal watched
            if lost.done():
                return  # a tick after the connection was given up
            if watched:
                loop.remove_reader(fd)
                watched = False
            try:
                came = self._read(pgconn)
            except Exception as exc:
                lost.set_exception(exc)
                return
            if came:
                self.ticks.at_next(read)  # more are on their way, most likely
            else:
                loop.add_reader(fd, read)
                watched = True

        try:
            read()  # what came with the answer to LISTEN, or while the process caught up
            await lost
        finally:
            if not lost.done():
                lost.cancel()
            if watched:
                loop.remove_reader(fd)

    def _read(self, pgconn: PGconn) -> bool:
        """Every announcement the connection holds: the others' handed on, in one batch;
        whether any came. Raises :class:`psycopg.OperationalError` when the connection is
        lost."""
        import psycopg

        changes: list[Change] = []
        got = self.announcements
        # One consume_input takes what fits libpq's buffer (16 kB, a dozen announcements with
        # their states): read again while a read brings more, or a busy tick would leave the
        # rest in the socket for the next tick, and the process would fall further behind at
        # every one. Bounded, so that a flood cannot hold the event loop.
        for _ in range(_READS_A_TICK):
            pgconn.consume_input()
            if pgconn.status != psycopg.pq.ConnStatus.OK:
                raise psycopg.OperationalError(pgconn.get_error_message() or "the connection ended")
            before = self.announcements
            while (note := pgconn.notifies()) is not None:
                self.announcements += 1
                payload = note.extra
                if payload.startswith(self._mine):
                    continue
                try:
                    changes.append(Change.decode(payload.decode("utf-8")))
                except (ValueError, KeyError) as exc:
                    log.warning("ignored a notification that is not a post: %s", exc)
            if self.announcements == before:
                break
        came = self.announcements > got
        self.reads += came
        if changes:
            self.followed += len(changes)
            self.on_changes(changes)
        return came
