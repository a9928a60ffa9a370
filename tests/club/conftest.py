"""Fixtures for the club tests: game records made by the virtual table, archives on SQLite
and on a real PostgreSQL server that the test run starts itself (a throw-away cluster made
with initdb and pg_ctl in a temporary directory, on a port the OS chose free)."""

from __future__ import annotations

import glob
import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from companion.club.database import open_archive
from companion.records.format import dumps_event, game_event, move_event
from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def record_lines(
    seed: int,
    players: int = 2,
    teams: int = 0,
    *,
    names: tuple[str, ...] | None = None,
    header: dict[str, Any] | None = None,
    stop_after: int | None = None,
) -> list[str]:
    """The record of a random legal game (``stop_after`` moves: an unfinished game)."""
    setup = make_setup(players, teams)
    _, moves = simulate_game(setup, seed=seed)
    head = game_event(setup)
    head.update(header or {})
    lines = [dumps_event(head)] + [dumps_event(move_event(m, setup)) for m in moves]
    if stop_after is not None:
        lines = lines[: 1 + stop_after]
    text = "\n".join(lines) + "\n"
    if names:
        for old, new in zip(("ann", "bob", "cy", "dee", "eve", "fay"), names):
            text = text.replace(f'"{old}"', f'"{new}"').replace(f'"{old}+', f'"{new}+').replace(f'+{old}"', f'+{new}"')
    return text.splitlines(keepends=True)


def cop_record_lines(
    seed: int,
    players: int = 3,
    variant: str = "basic",
    *,
    header: dict[str, Any] | None = None,
    stop_after: int | None = None,
) -> list[str]:
    """The ``cop-record/1`` record of a whole Circle of Power game played by rule-of-thumb
    players (``stop_after`` moves: an unfinished game)."""
    from companion.games.circle_of_power import GAME as CIRCLE
    from companion.games.circle_of_power.policies import simulate

    setup, moves = simulate(("ann", "bob", "cy", "dee")[:players], variant, seed=seed)
    head = CIRCLE.codec.setup_event(setup)
    head.update(header or {})
    lines = [dumps_event(head)] + [dumps_event(CIRCLE.codec.move_event(m, setup)) for m in moves]
    if stop_after is not None:
        lines = lines[: 1 + stop_after]
    return [line + "\n" for line in lines]


def write_record(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or ([shutil.which(name)] if shutil.which(name) else [])
    if not found:
        # The test command installs it (packaging/apt-test.txt): missing means a broken set-up.
        pytest.fail(f"PostgreSQL's {name} is missing: install the postgresql package (packaging/apt-test.txt)")
    return str(found[-1])


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for this test run; yields its URL prefix (without a database)."""
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    base = Path(tempfile.mkdtemp(prefix="rop-club-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        # PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
        shutil.chown(base, "postgres")
        shutil.chown(sock, "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        prefix + [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True, capture_output=True,
    )
    port = free_port()
    opts = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    started = subprocess.run(
        prefix + [pg_ctl, "-D", str(data), "-l", str(base / "server.log"), "-w", "-t", "120", "-o", opts, "start"],
        capture_output=True, text=True,
    )
    if started.returncode:
        log = (base / "server.log").read_text(errors="replace") if (base / "server.log").exists() else ""
        pytest.fail(f"PostgreSQL did not start: {started.stderr}\n{log}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(prefix + [pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


_db_numbers = itertools.count(1)


def new_pg_database(server: str) -> str:
    import psycopg

    name = f"club_{os.getpid()}_{next(_db_numbers)}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty archive URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'club.sqlite'}"
    return new_pg_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def archive_engine(db_url: str) -> Iterator[Engine]:
    engine = open_archive(db_url)
    yield engine
    engine.dispose()


def events_of(lines: list[str]) -> list[dict[str, Any]]:
    return [json.loads(t) for t in lines if t.strip()]
