"""Storing the tables' posts: a thread of its own, one transaction per batch.

The server answers a table's post once what it changed is in the archive. Committing each
post alone would cost a transaction per event, on the server's event loop; instead the
:class:`ArchiveWriter` takes every write that arrived while the last transaction committed
and stores them together in the next (group commit). A quiet club commits each post at once;
a busy one commits a few dozen posts at a time, and the event loop never waits on the
database.

A batch that fails is tried again write by write, each in its own transaction, so that one
bad write (a constraint the archive refuses) fails only its own post. The writer keeps its
connection from batch to batch; one found lost (the database restarted meanwhile) is
replaced, and the batch stored again on the new one.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from concurrent.futures import Future
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

__all__ = ["ArchiveWriter", "Storable"]

log = logging.getLogger("companion.club.writer")


class Storable(Protocol):
    """Anything the writer stores: a change done on an open transaction."""

    def run(self, conn: Connection) -> None: ...


_Item = tuple[Storable, "Future[None]"]


class ArchiveWriter:
    """Stores writes in batches from a background thread. ``max_batch`` bounds a batch (a
    transaction holds the archive's write lock that long)."""

    def __init__(
        self,
        engine: Engine,
        *,
        max_batch: int = 500,
        store: Callable[[Connection, Sequence[Any]], None] | None = None,
        stored: Callable[[Connection, Sequence[Any]], None] | None = None,
    ) -> None:
        self.engine = engine
        self.max_batch = max_batch
        # How a batch is stored on its transaction: by default, each write in turn.
        self.store_batch = store or _each
        # What follows a batch once it is committed, on its connection, before its posts are answered.
        self.after_commit = stored
        self.batches = 0
        self.stored = 0
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._conn: Connection | None = None  # the writer thread's alone
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="club-archive-writer", daemon=True)
        self._thread.start()

    def submit(self, write: Storable) -> Future[None]:
        """Queue ``write``; the future is done once it is committed (or failed)."""
        done: Future[None] = Future()
        if self._closed:
            done.set_exception(RuntimeError("the archive writer is closed"))
        else:
            self._queue.put((write, done))
        return done

    async def store(self, write: Storable) -> None:
        """Store ``write`` and wait, without blocking the event loop; raises what failed."""
        await asyncio.wrap_future(self.submit(write))

    def close(self) -> None:
        """Store what is queued, then stop."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join()
            if self.stored:
                log.info("stored %d post(s) in %d transaction(s)", self.stored, self.batches)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._drop_connection()
                return
            batch = [_started(first)]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(_started(item))
            self._store(batch)
            if stop:
                self._drop_connection()
                return

    def _connection(self) -> Connection:
        """The writer's connection, kept from batch to batch: one taken from the pool for each
        batch would be checked with a round trip to the database first."""
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # gone with the database: nothing to give back
                pass

    def _store(self, batch: list[tuple[Storable, Future[None] | None]]) -> None:
        writes = [write for write, _ in batch]
        kept = self._conn is not None
        try:
            conn = self._connection()
        except Exception as exc:  # the database is away: every post of the batch is refused
            log.error("could not store %d post(s): %s", len(batch), exc)
            for _, done in batch:
                if done is not None:
                    done.set_exception(exc)
            return
        try:
            with conn.begin():
                self.store_batch(conn, writes)
        except Exception as exc:
            lost = _lost(exc, conn)
            if not getattr(exc, "expected", False):
                self._drop_connection()
            if kept and lost:
                # The connection kept had gone (the database restarted since the last batch):
                # the batch again, on a new one.
                self._store(batch)
                return
            if len(batch) == 1:
                if getattr(exc, "expected", False):
                    log.info("not stored: %s", exc)
                else:
                    log.error("could not store a post: %s", exc)
                if batch[0][1] is not None:
                    batch[0][1].set_exception(exc)
                return
            # Someone in the batch failed it: each again on its own, so only theirs fails.
            for item in batch:
                self._store([item])
            return
        self.batches += 1
        self.stored += len(batch)
        if self.after_commit is not None:
            try:
                self.after_commit(conn, writes)
            except Exception as exc:  # stored all the same: the posts are answered as such
                log.warning("stored %d post(s), but what follows failed: %s", len(batch), exc)
                self._drop_connection()
        for _, done in batch:
            if done is not None:
                done.set_result(None)


def _lost(exc: Exception, conn: Connection) -> bool:
    """Whether ``exc`` says the database connection ``conn`` was lost: as SQLAlchemy says it,
    or the driver's connection found broken (a batch stored through the driver itself)."""
    if isinstance(exc, DBAPIError):
        return exc.connection_invalidated
    if conn.invalidated:
        return True
    return not conn.closed and bool(getattr(conn.connection.driver_connection, "broken", False))


def _each(conn: Connection, writes: Sequence[Storable]) -> None:
    for write in writes:
        write.run(conn)


def _started(item: _Item) -> tuple[Storable, Future[None] | None]:
    """The write, and its future unless whoever waited on it has given up. The write is
    stored either way: the game in memory already holds it."""
    write, done = item
    return write, done if done.set_running_or_notify_cancel() else None
