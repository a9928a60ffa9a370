"""The archive writer: posts stored together in one transaction while the last one commits,
each answered once stored; a write that fails fails only its own post."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event, select, text
from sqlalchemy.exc import IntegrityError

from companion.club.database import open_archive
from companion.club.endpoints.posts import archive_writer
from companion.club.fanout import CHANNEL, Change
from companion.club.identity import canonical
from companion.club.live import Conflict, Write
from companion.club.schema import live_events
from companion.club.writer import ArchiveWriter
from tests.club.conftest import new_pg_database


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    e = open_archive(f"sqlite:///{tmp_path / 'club.sqlite'}")
    yield e
    e.dispose()


class Row:
    """One live event row to insert; ``hold`` keeps its transaction open until set."""

    def __init__(self, number: int, hold: threading.Event | None = None, started: threading.Event | None = None) -> None:
        self.number, self.hold, self.started = number, hold, started

    def run(self, conn: Connection) -> None:
        if self.started is not None:
            self.started.set()
        if self.hold is not None:
            assert self.hold.wait(30)
        conn.execute(
            live_events.insert(),
            {"game_id": "g", "number": self.number, "table_name": "t1", "body": "{}", "received_at": datetime.now(UTC)},
        )


def _numbers(engine: Engine) -> list[int]:
    with engine.connect() as conn:
        return list(conn.execute(select(live_events.c.number).order_by(live_events.c.number)).scalars())


def test_writes_arriving_during_a_commit_go_together_in_the_next(engine: Engine) -> None:
    writer = ArchiveWriter(engine)
    hold, started = threading.Event(), threading.Event()
    first = writer.submit(Row(1, hold, started))
    assert started.wait(30)
    rest = [writer.submit(Row(n)) for n in range(2, 42)]
    hold.set()
    for done in [first, *rest]:
        assert done.result(30) is None
    writer.close()
    assert _numbers(engine) == list(range(1, 42))
    assert (writer.batches, writer.stored) == (2, 41)


def test_a_failing_write_fails_alone(engine: Engine) -> None:
    writer = ArchiveWriter(engine)
    assert writer.submit(Row(1)).result(30) is None
    hold, started = threading.Event(), threading.Event()
    blocker = writer.submit(Row(2, hold, started))
    assert started.wait(30)
    batch = [writer.submit(Row(n)) for n in (3, 1, 4)]  # 1 again: the archive refuses it
    hold.set()
    assert blocker.result(30) is None
    assert batch[0].result(30) is None and batch[2].result(30) is None
    with pytest.raises(IntegrityError):
        batch[1].result(30)
    writer.close()
    assert _numbers(engine) == [1, 2, 3, 4]
    # Once closed, nothing more is taken.
    with pytest.raises(RuntimeError):
        writer.submit(Row(5)).result(30)


def _post(game_id: str, number: int, expect: tuple[int, str | None]) -> Write:
    """A table's post appending event ``number``, announced to the other processes."""
    line = canonical({"event": "note", "n": number})
    write = Write(game_id, f"t-{game_id}", number, line, expect=expect)
    write.notice = Change("here", game_id, write.table, number, "append", False, write.received_at.isoformat(), line, "{}").encode()
    return write


def test_a_batch_of_posts_takes_two_round_trips_to_postgresql(postgres_server: str, tmp_path: Path) -> None:
    """On PostgreSQL a batch of posts is locked, checked, stored, committed and announced
    in two round trips (the protocol's ReadyForQuery, read from libpq's trace of the writer's
    connection), where a statement at a time took six; a check that does not hold stores
    nothing, and the writer's connection serves the next batch."""
    import psycopg

    engine = open_archive(new_pg_database(postgres_server))
    trace = (tmp_path / "trace.txt").open("w")
    engine.dispose()  # every connection from here on is traced

    @event.listens_for(engine, "connect")
    def traced(dbapi_connection: Any, record: object) -> None:
        dbapi_connection.pgconn.trace(trace.fileno())
        dbapi_connection.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)

    def round_trips() -> int:
        trace.flush()
        return (tmp_path / "trace.txt").read_text().count("\tReadyForQuery\t")

    heard = psycopg.connect(postgres_server + "/" + engine.url.database, autocommit=True)
    heard.execute(f"LISTEN {CHANNEL}")
    writer = archive_writer(engine)
    try:
        writer.submit(_post("warm", 1, (0, None))).result(30)  # the writer's connection made
        heads: dict[str, tuple[int, str | None]] = {}
        before, batches = round_trips(), writer.batches
        for batch in ([("g1", 1), ("g2", 1)], [("g1", 2)], [("g1", 3), ("g2", 2)]):
            writes = [_post(gid, n, heads.get(gid, (0, None))) for gid, n in batch]
            for done in [writer.submit(w) for w in writes]:
                done.result(30)
            heads.update({w.game_id: (w.number, w.line) for w in writes})
        # However the writes fell into batches (those submitted together share one, unless
        # the writer began it before the second arrived), each batch took two round trips.
        assert writer.batches - batches >= 3
        assert round_trips() - before == 2 * (writer.batches - batches)
        # A post taken when the archive held otherwise: refused as a conflict, nothing stored.
        with pytest.raises(Conflict):
            writer.submit(_post("g1", 4, (2, heads["g1"][1]))).result(30)
        writer.submit(_post("g2", 3, heads["g2"])).result(30)
    finally:
        writer.close()
    with engine.connect() as conn:
        stored = conn.execute(select(live_events.c.game_id, live_events.c.number).order_by(live_events.c.game_id, live_events.c.number)).all()
    assert [tuple(r) for r in stored] == [("g1", 1), ("g1", 2), ("g1", 3), ("g2", 1), ("g2", 2), ("g2", 3), ("warm", 1)]
    # Each post stored was announced once, in the order stored.
    announced = [Change.decode(n.payload) for n in heard.notifies(timeout=30, stop_after=7)]
    heard.close()
    assert [(c.game_id, c.number) for c in announced] == [("warm", 1), ("g1", 1), ("g2", 1), ("g1", 2), ("g1", 3), ("g2", 2), ("g2", 3)]
    engine.dispose()


def test_a_batch_after_the_writers_connection_was_lost_is_stored_on_a_new_one(postgres_server: str) -> None:
    """The writer keeps its connection from batch to batch; when PostgreSQL ended it
    meanwhile (a restart, an administrator), the next batch is stored on a new one, not
    refused."""
    engine = open_archive(new_pg_database(postgres_server))
    writer = archive_writer(engine)
    try:
        first = _post("g1", 1, (0, None))
        writer.submit(first).result(30)
        with engine.connect() as conn:
            ended = conn.execute(text(
                "SELECT count(pg_terminate_backend(pid, 30000)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            )).scalar_one()
        assert ended >= 1
        writer.submit(_post("g1", 2, (1, first.line))).result(30)
    finally:
        writer.close()
    with engine.connect() as conn:
        assert list(conn.execute(select(live_events.c.number).where(live_events.c.game_id == "g1")).scalars()) == [1, 2]
    engine.dispose()
