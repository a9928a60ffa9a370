"""Fixtures for the club tests: game records made by the virtual table, archives on SQLite
and on a real PostgreSQL server that the test run starts itself (a throw-away cluster made
with initdb and pg_ctl in a temporary directory, on a port the OS chose free)."""

from __future__ import annotations

import glob
import importlib
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

import httpx
import pytest
from sqlalchemy import Engine

from companion.club.database import open_archive
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
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


def sample_lines(game: str, name: str, gid: str) -> list[str]:
    """A game's shipped sample record, its header given the id ``gid``."""
    module = importlib.import_module(f"companion.games.{game.replace('-', '_')}.samples")
    lines = Path(module.sample_path(name)).read_text().splitlines()
    header = json.loads(lines[0])
    header["id"] = gid
    return [json.dumps(header), *lines[1:]]


def post_lines(server: ClubServer, tmp_path: Path, table: str, lines: list[str], upto: int) -> list[str]:
    """Table ``table`` (its token issued into ``tmp_path``) sends the first ``upto`` events of
    ``lines``, each taken; returns them."""
    token = issue_token(tmp_path / "tokens.txt", table)
    gid = json.loads(lines[0])["id"]
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as client:
        for n in range(1, upto + 1):
            assert client.post(f"/api/games/{gid}/events/{n}", content=lines[n - 1]).status_code == 201
    return lines[:upto]


def keep_shots(tmp_path: Path, pattern: str) -> None:
    """The screenshots ``pattern`` names copied into the folder ``CLUB_PAGE_SHOTS`` names, when
    it is set (to look at them: CLUB_PAGE_SHOTS=DIR)."""
    shots = os.environ.get("CLUB_PAGE_SHOTS")
    if shots:
        for png in tmp_path.glob(pattern):
            shutil.copy(png, Path(shots) / png.name)


def write_record(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or ([shutil.which(name)] if shutil.which(name) else [])
    if not found:
        # The test command installs it (packaging/apt-test.txt): missing means a broken set-up.
        pytest.fail(f"PostgreSQL's {name} is missing: install the postgresql package (packaging/apt-test.txt)")
    return str(found[-1])


class PgCluster:
    """A throw-away PostgreSQL cluster (initdb and pg_ctl in a temporary directory) on a
    port the OS chose free; it can be stopped and started again on the same port."""

    def __init__(self) -> None:
        self.initdb, self.pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        self.base = Path(tempfile.mkdtemp(prefix="rop-club-pg-"))
        self.data, self.sock = self.base / "data", self.base / "sock"
        self.sock.mkdir()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
            shutil.chown(self.base, "postgres")
            shutil.chown(self.sock, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        subprocess.run(
            self.prefix + [self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True,
        )
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}"

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        started = subprocess.run(
            self.prefix + [self.pg_ctl, "-D", str(self.data), "-l", str(self.base / "server.log"), "-w", "-t", "120", "-o", opts, "start"],
            capture_output=True, text=True,
        )
        if started.returncode:
            log = (self.base / "server.log").read_text(errors="replace") if (self.base / "server.log").exists() else ""
            pytest.fail(f"PostgreSQL did not start: {started.stderr}\n{log}")

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(self.prefix + [self.pg_ctl, "-D", str(self.data), "-w", "-m", mode, "stop"], capture_output=True)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for this test run; yields its URL prefix (without a database)."""
    cluster = PgCluster()
    cluster.start()
    try:
        yield cluster.url
    finally:
        cluster.remove()


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


# The live page in a real browser: Debian's Chromium, headless, driven by Playwright.
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]



@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        # The test command installs it (packaging/apt-test.txt): missing means a broken set-up.
        pytest.fail("Chromium is missing: install the chromium package (packaging/apt-test.txt)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[ClubServer, str, Engine]]:
    engine = open_archive(f"sqlite:///{tmp_path / 'club.sqlite'}")
    token = issue_token(tmp_path / "tokens.txt", "oak")
    server = ClubServer(engine, TokenFile(tmp_path / "tokens.txt")).start()
    yield server, token, engine
    server.stop()
    engine.dispose()
