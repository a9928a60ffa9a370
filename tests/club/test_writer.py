"""The archive writer: posts stored together in one transaction while the last one commits,
each answered once stored; a write that fails fails only its own post."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import IntegrityError

from companion.club.database import open_archive
from companion.club.schema import live_events
from companion.club.writer import ArchiveWriter


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
