"""Several club server processes over one PostgreSQL archive: a spectator of any of them sees
every table, whichever process took its posts; a post is stored once however often and
wherever it is sent; a process killed with kill -9 loses no accepted post, its tables carry
on through another and its spectators reconnect to another; PostgreSQL restarted under load
makes posts wait (503, send again) and loses or doubles nothing.

Servers run in this process (:class:`ClubServer`, each with its own engine, as a process of
its own would) or as real ``rop club serve`` processes behind a small round-robin proxy, as
a club would run them behind nginx or HAProxy."""

from __future__ import annotations

import fcntl
import json
import select as io_select  # beside SQLAlchemy's select
import socket
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest
from sqlalchemy import Engine, func, select

from companion.club.archive import Archive
from companion.club.database import open_archive
from companion.club.feed import ClubFeed
from companion.club.identity import canonical
from companion.club.schema import games, live_events
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.records.format import load_game
from tests.club.conftest import PgCluster, events_of, free_port, new_pg_database, record_lines

#: How long a condition may take before the test fails (it is polled, never slept on).
PATIENCE = 60.0


def wait_for(condition: Callable[[], bool], what: str, cond: threading.Condition | None = None) -> None:
    """Wait until ``condition`` holds: on ``cond`` when given (woken by whoever changes the
    state), else by polling it; fails the test after :data:`PATIENCE` seconds."""
    done = threading.Event()
    if cond is not None:
        with cond:
            if cond.wait_for(condition, PATIENCE):
                return
    else:
        for _ in range(int(PATIENCE / 0.01)):
            if condition():
                return
            done.wait(0.01)
    pytest.fail(f"timed out waiting for {what}")


class Proxy:
    """A round-robin TCP proxy, as a reverse proxy spreads connections over backends: each
    new connection goes to the next backend that accepts it (one that is down is skipped)."""

    def __init__(self, backends: list[int]) -> None:
        self.backends = backends
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._next = 0
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        for _ in range(len(self.backends)):
            port = self.backends[self._next % len(self.backends)]
            self._next += 1
            try:
                backend = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                continue
        else:
            client.close()
            return
        threading.Thread(target=self._pump, args=(backend, client), daemon=True).start()
        self._pump(client, backend)

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self.sock.close()


class Watcher:
    """A spectator's page: follows ``/events`` and keeps each table's latest state; when its
    stream ends it connects again, as the browser does, and takes the tables it is sent."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cond = threading.Condition()
        self.tables: dict[str, dict[str, Any]] = {}
        self.seen: list[tuple[str, int]] = []  # (game, events) of each table update, in order
        self.connections = 0
        self._stop = False
        self._client = httpx.Client(base_url=url, timeout=httpx.Timeout(10, read=None))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                with self._client.stream("GET", "/events") as resp:
                    kind = None
                    for line in resp.iter_lines():
                        if line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: "):
                            self._frame(kind, json.loads(line[6:]))
            except httpx.HTTPError:
                pass
            with self.cond:
                self.cond.wait(0.05)  # as a browser waits before it reconnects

    def _frame(self, kind: str | None, data: Any) -> None:
        with self.cond:
            if kind == "tables":
                self.connections += 1
                self.tables = {t["table"]: t for t in data}
            elif kind == "table":
                self.tables[data["table"]] = data
                self.seen.append((data["game_id"], data["events"]))
            self.cond.notify_all()

    def events(self, table: str) -> int:
        return int(self.tables.get(table, {}).get("events", 0))

    def close(self) -> None:
        self._stop = True
        self._client.close()


def stored(engine: Engine, gid: str) -> list[str]:
    archived = Archive(engine).events(gid)
    if archived:
        return archived
    with engine.connect() as conn:
        return list(conn.execute(select(live_events.c.body).where(live_events.c.game_id == gid).order_by(live_events.c.number)).scalars())


def _post(c: httpx.Client, gid: str, n: int, line: str, **params: str) -> httpx.Response:
    return c.post(f"/api/games/{gid}/events/{n}", content=line.encode(), params=params or None)


@pytest.fixture
def pg_url(postgres_server: str) -> str:
    return new_pg_database(postgres_server)


@pytest.fixture
def tokens(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    path = tmp_path / "tokens.txt"
    return path, {t: issue_token(path, t) for t in ("t1", "t2", "t3", "t4")}


class Processes:
    """Several server processes' worth (two by default): servers, each on an engine of its own.
    ``loop``: "asyncio" for a test that counts what the event loop is asked by wrapping its
    methods (uvloop's, the servers' own otherwise, cannot be wrapped)."""

    def __init__(self, url: str, tokens_path: Path, count: int = 2, loop: Literal["auto", "asyncio"] = "auto") -> None:
        self.engines = [open_archive(url) for _ in range(count)]
        self.servers = [ClubServer(e, TokenFile(tokens_path), loop=loop).start() for e in self.engines]

    def close(self, watchers: Iterable[Watcher] = ()) -> None:
        """Stop the servers (and close ``watchers``, the spectators following them, first)."""
        for w in watchers:
            w.close()
        for server in self.servers:
            server.stop()
        for engine in self.engines:
            engine.dispose()


@pytest.fixture
def pair(pg_url: str, tokens: tuple[Path, dict[str, str]]) -> Iterator[Processes]:
    p = Processes(pg_url, tokens[0])
    try:
        yield p
    finally:
        p.close()


def test_a_server_process_runs_on_uvloop_and_httptools(pair: Processes) -> None:
    """The club's processes run on uvloop's event loop and httptools' HTTP parser, which
    uvicorn takes when they are installed: following the other processes wakes a process at
    every tick, and on them four processes spend a sixth less processor a post (docs/club.md)."""
    for server in pair.servers:
        assert type(server.loop).__module__ == "uvloop"
        assert server.server.config.http_protocol_class.__module__ == "uvicorn.protocols.http.httptools_impl"


def test_a_spectator_of_either_process_sees_every_post_in_order(pair: Processes, tokens: tuple[Path, dict[str, str]]) -> None:
    """A table's posts go to either process in turn (a proxy without stickiness): the
    spectators of both see every event of the table in order, once, and the archive holds
    the game once."""
    gid = "b1b2c3d4e5f60718293a4b5c6d7e8f90"
    lines = record_lines(41, players=3, header={"id": gid})
    a, b = pair.servers
    watchers = [Watcher(a.url), Watcher(b.url)]
    try:
        for w in watchers:
            wait_for(lambda w=w: w.connections == 1, "the spectators' first frame", w.cond)
        clients = [httpx.Client(base_url=s.url, headers={"Authorization": f"Bearer {tokens[1]['t1']}"}) for s in (a, b)]
        for n, line in enumerate(lines, 1):
            r = _post(clients[n % 2], gid, n, line)
            assert r.status_code == 201, (n, r.text)
            # A repeat to the other process is acknowledged, not stored again.
            assert _post(clients[(n + 1) % 2], gid, n, line).status_code == 200
        for c in clients:
            c.close()
        for w in watchers:
            wait_for(lambda w=w: w.events("t1") == len(lines), "every event on both pages", w.cond)
            assert w.seen == [(gid, n) for n in range(1, len(lines) + 1)], str([n for _, n in w.seen])
    finally:
        for w in watchers:
            w.close()
    assert stored(pair.engines[0], gid) == [canonical(e) for e in events_of(lines)]
    with pair.engines[0].connect() as conn:
        assert conn.execute(select(func.count()).select_from(games).where(games.c.id == gid)).scalar_one() == 1
        assert conn.execute(select(func.count()).select_from(live_events)).scalar_one() == 0
    for s in (a, b):
        assert [(t["game_id"], t["events"]) for t in httpx.get(f"{s.url}/api/tables").json()] == [(gid, len(lines))]


def test_a_post_sent_to_both_processes_at_once_is_stored_once(pair: Processes, tokens: tuple[Path, dict[str, str]]) -> None:
    """A table that retries on another process while its first try is still on its way:
    both tries of each event race; one stores it (201), the other acknowledges it (200)."""
    gid = "c1b2c3d4e5f60718293a4b5c6d7e8f90"
    lines = record_lines(42, header={"id": gid}, stop_after=60)
    headers = {"Authorization": f"Bearer {tokens[1]['t2']}"}
    clients = [httpx.Client(base_url=s.url, headers=headers, timeout=30) for s in pair.servers]
    try:
        for n, line in enumerate(lines, 1):
            start = threading.Barrier(2)
            answers: list[int] = []

            def send(c: httpx.Client, n: int = n, line: str = line, start: threading.Barrier = start) -> None:
                start.wait()
                answers.append(_post(c, gid, n, line).status_code)

            threads = [threading.Thread(target=send, args=(c,)) for c in clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(answers) == [200, 201], (n, answers)
    finally:
        for c in clients:
            c.close()
    assert stored(pair.engines[0], gid) == [canonical(e) for e in events_of(lines)]


def test_a_move_taken_back_through_one_process_is_followed_by_the_other(pair: Processes, tokens: tuple[Path, dict[str, str]]) -> None:
    """A table takes a move back through one process and plays on through the other: the
    other follows the replacement (its page too), and takes the next move on from it, even
    sent before the replacement's announcement has reached it. Here the next move is the very
    event the replacement dropped: the other process, holding it still, must not answer
    "already stored" from memory (the post would be lost) but read the archive first."""
    from tests.club.test_feed import _other_move

    gid = "d1b2c3d4e5f60718293a4b5c6d7e8f90"
    lines = record_lines(43, header={"id": gid})
    n, other = _other_move(lines, 12)
    a, b = pair.servers
    watcher = Watcher(b.url)
    headers = {"Authorization": f"Bearer {tokens[1]['t3']}"}
    try:
        wait_for(lambda: watcher.connections == 1, "the spectator's first frame", watcher.cond)
        with httpx.Client(base_url=a.url, headers=headers) as ca, httpx.Client(base_url=b.url, headers=headers) as cb:
            for i in range(1, n + 3):
                assert _post(cb, gid, i, lines[i - 1]).status_code == 201
            # The page first shows every post (its updates go out together, a little later).
            wait_for(lambda: watcher.events("t3") == n + 2, "every post on the page", watcher.cond)
            from companion.records.format import dumps_event, load_game, move_event

            game = load_game([*lines[: n - 1], other], keep_history=True)
            following = dumps_event(move_event(next(iter(game.legal_moves)), game.setup))
            assert json.loads(following) == json.loads(lines[n]), "the data no longer sends the dropped event again"
            assert _post(ca, gid, n, other, replace="1").status_code == 201
            # At once, through the other process: whether it has heard of the take-back or not.
            assert _post(cb, gid, n + 1, following).status_code == 201
            wait_for(lambda: watcher.events("t3") == n + 1, "the page of the other process to follow", watcher.cond)
            assert cb.get(f"/api/games/{gid}/progress").json()["stored"] == n + 1
            assert ca.get(f"/api/games/{gid}/progress").json()["stored"] == n + 1
    finally:
        watcher.close()
    assert stored(pair.engines[0], gid) == [canonical(json.loads(t)) for t in [*lines[: n - 1], other, following]]


def test_moves_taken_back_through_one_process_leave_the_others_page_at_once(pair: Processes, tokens: tuple[Path, dict[str, str]]) -> None:
    """Moves taken back at a table through one process leave the other process's page at
    once, said there as taken back; the table plays on through either."""
    gid = "e1b2c3d4e5f60718293a4b5c6d7e8f90"
    lines = record_lines(44, header={"id": gid})
    a, b = pair.servers
    watcher = Watcher(b.url)
    headers = {"Authorization": f"Bearer {tokens[1]['t4']}"}
    try:
        wait_for(lambda: watcher.connections == 1, "the spectator's first frame", watcher.cond)
        with httpx.Client(base_url=a.url, headers=headers) as ca, httpx.Client(base_url=b.url, headers=headers) as cb:
            for i in range(1, 16):
                assert _post(cb, gid, i, lines[i - 1]).status_code == 201
            wait_for(lambda: watcher.events("t4") == 15, "every post on the page", watcher.cond)
            r = ca.delete(f"/api/games/{gid}/events/13")
            assert (r.status_code, r.json()["stored"]) == (200, 12)
            wait_for(lambda: watcher.events("t4") == 12, "the page of the other process to drop the moves taken back", watcher.cond)
            assert watcher.tables["t4"]["taken_back"] == 3
            # The table plays on through the other process, which follows on from the take-back.
            assert _post(cb, gid, 13, lines[12]).status_code == 201
            wait_for(lambda: watcher.events("t4") == 13, "the next move on the page", watcher.cond)
            assert watcher.tables["t4"]["taken_back"] == 0
            assert ca.get(f"/api/games/{gid}/progress").json()["stored"] == 13
    finally:
        watcher.close()
    assert stored(pair.engines[0], gid) == [canonical(json.loads(t)) for t in lines[:13]]


def test_following_another_process_costs_each_process_the_same_per_post_whatever_its_spectators(
    pg_url: str, tokens: tuple[Path, dict[str, str]]
) -> None:
    """Three processes; one takes a table's posts. Each of the two others follows every post
    with the same bounded work, one spectator or three: it reads the post's announcement once,
    hands nothing from one thread to another, reads nothing from the archive, and sends its
    spectators the table's state as announced. The storing process passes its own
    announcements over unread, and reads the archive a bounded number of times per post."""
    from sqlalchemy import event

    gid = "a9b2c3d4e5f60718293a4b5c6d7e8f90"
    lines = record_lines(45, players=4, header={"id": gid}, stop_after=30)
    processes = Processes(pg_url, tokens[0], 3, loop="asyncio")
    engines, servers = processes.engines, processes.servers
    a, b, c = servers
    watchers = [Watcher(a.url), Watcher(b.url), *(Watcher(c.url) for _ in range(3))]
    statements = [0, 0, 0]
    handed = [0, 0, 0]

    def count_statements(k: int) -> Callable[..., None]:
        def counted(*args: object) -> None:
            statements[k] += 1
        return counted

    def count_hand_offs(k: int, loop: Any) -> None:
        plain = loop.call_soon_threadsafe

        def counted(*args: Any, **kw: Any) -> Any:
            handed[k] += 1
            return plain(*args, **kw)
        loop.call_soon_threadsafe = counted

    try:
        for w in watchers:
            wait_for(lambda w=w: w.connections == 1, "the spectators' first frame", w.cond)
        for k, (server, engine) in enumerate(zip(servers, engines)):
            event.listen(engine, "before_cursor_execute", count_statements(k))
            count_hand_offs(k, server.loop)
        with httpx.Client(base_url=a.url, headers={"Authorization": f"Bearer {tokens[1]['t1']}"}) as client:
            for n, line in enumerate(lines, 1):
                assert _post(client, gid, n, line).status_code == 201, n
        for w in watchers:
            wait_for(lambda w=w: w.events("t1") == len(lines), "every post on every page", w.cond)
            assert w.seen == [(gid, n) for n in range(1, len(lines) + 1)]
        listeners = [s.app.state.others.listener for s in servers]
        wait_for(lambda: all(li.announcements == len(lines) for li in listeners), "every process to read every announcement")
        # Each post was announced once, and each process read the announcement once.
        assert [li.followed for li in listeners] == [0, len(lines), len(lines)]
        assert all(li.reads <= li.announcements for li in listeners)
        # Following: no archive read and no hand-over between threads, one spectator or three.
        assert statements[1:] == [0, 0] and handed[1:] == [0, 0]
        # Storing: the game's lock, the check of what the archive holds, the insert (and, for
        # the header, the check that the game is new).
        assert statements[0] <= 3 * len(lines) + 1
        for server in (b, c):
            assert server.app.state.live.games[gid].ahead is not None  # not played: the state as announced was sent
    finally:
        processes.close(watchers)


def test_a_process_following_another_is_woken_once_a_tick_to_read_its_posts_and_send_them(
    pg_url: str, tokens: tuple[Path, dict[str, str]]
) -> None:
    """A process with three spectators follows a burst of another process's posts: it reads
    the announcements and sends its spectators their updates at the same ticks, one timer a
    tick, rather than a timer for each read and one more for each spectator's sending; and
    once the posts stop, nothing wakes it."""
    from companion.club.ticks import EVERY

    gids = [f"c{k}b2c3d4e5f60718293a4b5c6d7e8f90" for k in range(3)]
    records = [record_lines(46 + k, players=3, header={"id": gid}, stop_after=25) for k, gid in enumerate(gids)]
    processes = Processes(pg_url, tokens[0], loop="asyncio")
    a, b = processes.servers
    watchers = [Watcher(b.url) for _ in range(3)]
    timers: list[float] = []

    def count_ticking_timers(loop: Any) -> None:
        plain = loop.call_at

        def counted(when: float, *args: Any, **kw: Any) -> Any:
            if abs(when - loop.time() - EVERY) < 0.005:  # work gathered for a moment: not uvicorn's own
                timers.append(when)
            return plain(when, *args, **kw)
        loop.call_at = counted

    try:
        for w in watchers:
            wait_for(lambda w=w: w.connections == 1, "the spectators' first frame", w.cond)
        listener, ticks = b.app.state.others.listener, b.app.state.others.stream.ticks
        wait_for(lambda: not ticks.waiting, "the ticks of the spectators' start to end")
        reads, ticked = listener.reads, ticks.ticks
        count_ticking_timers(b.loop)
        clients = [httpx.Client(base_url=a.url, headers={"Authorization": f"Bearer {tokens[1][t]}"}) for t in ("t1", "t2", "t3")]
        try:
            # Three tables post at once, a move each in turn, through the first process.
            for n in range(1, len(records[0]) + 1):
                for client, gid, lines in zip(clients, gids, records):
                    if n <= len(lines):
                        assert _post(client, gid, n, lines[n - 1]).status_code == 201
        finally:
            for client in clients:
                client.close()
        total = sum(len(lines) for lines in records)
        for w in watchers:
            wait_for(lambda w=w: sum(w.events(t) for t in ("t1", "t2", "t3")) == total, "every post on every page", w.cond)
        wait_for(lambda: listener.followed == total, "every announcement followed")
        # Once nothing comes, no tick is waited for.
        wait_for(lambda: not ticks.waiting, "the ticks to stop")
        reads, ticked = listener.reads - reads, ticks.ticks - ticked
        assert reads >= 2
        # One timer for each tick, which both read the announcements and sent the updates.
        assert len(timers) == ticked <= reads + 3
    finally:
        processes.close(watchers)


class Table:
    """A table writing its record line by line and telling its feed, as the session does."""

    def __init__(self, gid: str, path: Path, lines: list[str], feed: ClubFeed) -> None:
        self.gid, self.path, self.lines, self.feed, self.saved = gid, path, lines, feed, 0
        path.write_text("")

    def play(self, upto: int) -> None:
        with self.path.open("a") as fp:
            while self.saved < min(upto, len(self.lines)):
                line = self.lines[self.saved]
                fp.write(line)
                fp.flush()
                self.saved += 1
                self.feed.event(self.gid, self.saved, line.strip())


def _serve(url: str, tokens_path: Path) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "club", "serve", "--db", url, "--port", str(port), "--tokens", str(tokens_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("club page on"), proc.stderr.read() if proc.stderr else ""
    return proc, port


def test_a_process_killed_mid_tournament_loses_no_accepted_post(pg_url: str, tokens: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """Two ``rop club serve`` processes behind a proxy; four tables play through it. One
    process is killed with kill -9 while they play: the tables carry on through the other,
    every event the tables saved is stored once, in order, and the spectator that watched
    the killed process reconnects to the other and is sent the tables as they now stand."""
    procs = [_serve(pg_url, tokens[0]) for _ in range(2)]
    proxy = Proxy([port for _, port in procs])
    engine = open_archive(pg_url)
    feeds: list[ClubFeed] = []
    watcher: Watcher | None = None
    try:
        watcher = Watcher(proxy.url)  # the proxy's first connection: the first process
        wait_for(lambda: watcher.connections == 1, "the spectator's first frame", watcher.cond)
        tables = []
        for i, name in enumerate(("t1", "t2", "t3", "t4")):
            gid = f"e{i}b2c3d4e5f60718293a4b5c6d7e8f90"
            feed = ClubFeed(proxy.url, tokens[1][name], tmp_path / f"{name}.jsonl", min_retry=0.02, max_retry=0.1)
            feeds.append(feed)
            tables.append(Table(gid, tmp_path / f"{name}.jsonl", record_lines(50 + i, players=2 + i, header={"id": gid}), feed))
        for t in tables:
            t.play(25)
        for f in feeds:
            assert f.wait_sent(PATIENCE), f.status()
        wait_for(lambda: all(watcher.events(n) == 25 for n in ("t1", "t2", "t3", "t4")), "the page before the kill", watcher.cond)
        acked = {t.gid: stored(engine, t.gid) for t in tables}
        procs[0][0].kill()  # kill -9: no goodbye, no flush
        procs[0][0].wait(30)
        for t in tables:
            t.play(len(t.lines))
        for f in feeds:
            assert f.wait_sent(PATIENCE), f.status()
        for t in tables:
            assert stored(engine, t.gid)[:25] == acked[t.gid]
            assert stored(engine, t.gid) == [canonical(e) for e in events_of(t.lines)], t.gid
        wait_for(lambda: watcher.connections >= 2, "the spectator to reconnect", watcher.cond)
        wait_for(lambda: all(watcher.events(n) == len(t.lines) for n, t in zip(("t1", "t2", "t3", "t4"), tables)),
                 "the reconnected page to show every table as it stands", watcher.cond)
        for f in feeds:
            assert f.status()["last_error"] is None or "refused" not in f.status()["last_error"]
    finally:
        if watcher is not None:
            watcher.close()
        for f in feeds:
            f.close()
        proxy.close()
        for proc, _ in procs:
            proc.kill()
            proc.wait(30)
        engine.dispose()
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(games)).scalar_one() == 4
        assert conn.execute(select(func.count()).select_from(live_events)).scalar_one() == 0


@pytest.fixture
def cluster() -> Iterator[PgCluster]:
    c = PgCluster()
    c.start()
    try:
        yield c
    finally:
        c.remove()


def test_postgresql_restarted_under_load_loses_and_doubles_nothing(cluster: PgCluster, tokens: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """Tables post through two processes while PostgreSQL stops and starts again: while it
    is away a post is answered 503 with the reason (send again later), and nothing of it is
    stored; the tables' feeds send again; in the end every event is stored once, in order,
    and each process's spectators follow the posts the other took since."""
    url = new_pg_database(cluster.url)
    pair = Processes(url, tokens[0])
    a, b = pair.servers
    watcher = Watcher(b.url)
    feeds = []
    try:
        wait_for(lambda: watcher.connections == 1, "the spectator's first frame", watcher.cond)
        tables = []
        for i, name in enumerate(("t1", "t2", "t3", "t4")):
            gid = f"f{i}b2c3d4e5f60718293a4b5c6d7e8f90"
            feed = ClubFeed((a, b)[i % 2].url, tokens[1][name], tmp_path / f"{name}.jsonl", min_retry=0.02, max_retry=0.2)
            feeds.append(feed)
            tables.append(Table(gid, tmp_path / f"{name}.jsonl", record_lines(60 + i, players=2 + i % 3, header={"id": gid}), feed))
        for t in tables:
            t.play(20)
        cluster.stop("fast")
        for t in tables:
            t.play(40)  # the tables play on while the archive is away
        probe = tables[0]
        with httpx.Client(base_url=a.url, headers={"Authorization": f"Bearer {tokens[1]['t1']}"}) as c:
            r = _post(c, "0a0b0c0d0e0f", 1, record_lines(99)[0])
        assert r.status_code == 503 and "the archive is unavailable; send again later" in r.json()["reason"]
        assert r.headers["Retry-After"] == "1"
        cluster.start()
        for t in tables:
            t.play(len(t.lines))
        for f in feeds:
            f.retry_now()
            assert f.wait_sent(PATIENCE), f.status()
        check = open_archive(url)
        try:
            for t in tables:
                assert stored(check, t.gid) == [canonical(e) for e in events_of(t.lines)], t.gid
            assert Archive(check).events("0a0b0c0d0e0f") == []
        finally:
            check.dispose()
        # The spectator of the second process saw the first process's tables to their end.
        wait_for(lambda: all(watcher.events(n) == len(t.lines) for n, t in zip(("t1", "t2", "t3", "t4"), tables)),
                 "the page to show every table's end", watcher.cond)
        assert probe.saved == len(probe.lines)
    finally:
        watcher.close()
        for f in feeds:
            f.close()
        pair.close()


def test_a_second_server_on_a_sqlite_archive_is_refused(tmp_path: Path, tokens: tuple[Path, dict[str, str]]) -> None:
    """SQLite is one server process: a second ``rop club serve`` on the same file says so,
    and what to do instead, rather than show its spectators only its own tables."""
    db = str(tmp_path / "club.sqlite")
    first, _ = _serve(db, tokens[0])
    try:
        second = subprocess.run(
            [sys.executable, "-m", "companion.cli", "club", "serve", "--db", db, "--port", str(free_port()), "--tokens", str(tokens[0])],
            capture_output=True, text=True, timeout=120,
        )
        assert second.returncode == 2
        assert "another rop club serve already serves" in second.stderr and "PostgreSQL" in second.stderr
    finally:
        first.terminate()
        first.wait(30)
    again, _ = _serve(db, tokens[0])  # the first one gone, its archive may be served again
    again.terminate()
    again.wait(30)


def test_an_announcement_fits_a_notification() -> None:
    """PostgreSQL takes notifications under 8,000 bytes: a larger announcement leaves out the
    table's state (the other processes work it out), then the event too (they read the game
    from the archive); what it keeps reads back as it was."""
    from companion.club.fanout import MAX_PAYLOAD, Change

    small = Change("p1", "g1", "t1", 7, "append", False, "2026-01-01T00:00:00+00:00", '{"event":"play"}', '{"events":7}')
    assert Change.decode(small.encode()) == small
    big_state = Change("p1", "g1", "t1", 7, "fill", False, "2026-01-01T00:00:00+00:00", '{"event":"deal"}', "x" * 8000)
    assert Change.decode(big_state.encode()) == Change("p1", "g1", "t1", 7, "fill", False, big_state.at, big_state.line, None)
    big_line = Change("p1", "g1", "t1", 7, "append", True, "2026-01-01T00:00:00+00:00", '"' + "é" * 5000 + '"', None)
    payload = big_line.encode()
    assert len(payload.encode("utf-8")) <= MAX_PAYLOAD
    assert Change.decode(payload) == Change("p1", "g1", "t1", 7, "append", True, big_line.at, None, None)


def test_one_read_of_the_announcements_takes_every_one_that_arrived(pg_url: str) -> None:
    """A burst of another process's announcements larger than libpq's buffer (16 kB) is
    handed on whole by one read: a read that took only what fits the buffer left the rest
    for the next tick, so that a busy process fell further behind at every tick (2 s behind
    at 100 posts a second on 100 ms ticks)."""
    import psycopg

    from companion.club.fanout import CHANNEL, Change, Listener

    engine = open_archive(pg_url)
    batches: list[list[Change]] = []

    async def listening() -> None:
        pass

    listener = Listener(engine, "mine", batches.append, listening)
    changes = [
        Change("theirs", f"g{k}", f"t{k}", 1, "append", False, "2026-01-01T00:00:00+00:00", '{"event":"play"}', '{"s":"' + "x" * 1000 + '"}')
        for k in range(60)
    ]
    payloads = [c.encode() for c in changes]
    with psycopg.connect(listener.dsn, autocommit=True) as conn, psycopg.connect(listener.dsn, autocommit=True) as other:
        conn.execute(f"LISTEN {CHANNEL}")
        other.execute("SELECT count(pg_notify(%s, p)) FROM unnest(%s::text[]) AS p", (CHANNEL, payloads))
        # Every announcement's bytes in the socket before the read (a NotificationResponse
        # message: its type, length, the sender's pid, the channel and the payload).
        expected = sum(1 + 4 + 4 + len(CHANNEL) + 1 + len(p.encode()) + 1 for p in payloads)
        fd = conn.pgconn.socket
        waited = 0
        while _unread(fd) < expected and waited < 200:
            io_select.select([fd], [], [], 0.05)
            waited += 1
        assert _unread(fd) == expected > 16_384
        assert listener._read(conn.pgconn)
    engine.dispose()
    assert [len(b) for b in batches] == [60]
    assert batches[0] == changes
    assert listener.reads == 1


def _unread(fd: int) -> int:
    """How many bytes wait in the socket ``fd``."""
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0])


def _listed(url: str) -> list[tuple[Any, ...]]:
    """The tables a process lists: each table's game, how many events, and how it stands."""
    return [(t["table"], t["game_id"], t["events"], t["finished"], t["winner"]) for t in httpx.get(f"{url}/api/tables", timeout=30).json()]


def test_a_process_restarted_after_kill_9_lists_the_tables_the_other_lists(pg_url: str, tokens: tuple[Path, dict[str, str]]) -> None:
    """One table's game ended before one of two processes was killed with kill -9, another's is
    under way: started again, that process lists both tables as the other one does, the game
    that ended with its result, as a process that ran all along shows it until its table
    begins another."""
    procs = [_serve(pg_url, tokens[0]) for _ in range(2)]
    urls = [f"http://127.0.0.1:{port}" for _, port in procs]
    try:
        done_id, going_id = "a7b2c3d4e5f60718293a4b5c6d7e8f90", "a8b2c3d4e5f60718293a4b5c6d7e8f90"
        done, going = record_lines(71, header={"id": done_id}), record_lines(72, players=3, header={"id": going_id})
        for table, gid, lines, upto in (("t1", done_id, done, len(done)), ("t2", going_id, going, 12)):
            with httpx.Client(base_url=urls[0], headers={"Authorization": f"Bearer {tokens[1][table]}"}) as c:
                for n in range(1, upto + 1):
                    assert _post(c, gid, n, lines[n - 1]).status_code == 201
        winner = load_game(done).outcome().winner
        want = [("t1", done_id, len(done), True, winner), ("t2", going_id, 12, False, None)]
        wait_for(lambda: _listed(urls[1]) == want, "the other process to list both tables")
        assert _listed(urls[0]) == want
        procs[0][0].kill()  # kill -9: no goodbye
        procs[0][0].wait(30)
        procs[0] = _serve(pg_url, tokens[0])
        urls[0] = f"http://127.0.0.1:{procs[0][1]}"
        assert _listed(urls[0]) == _listed(urls[1]) == want
    finally:
        for proc, _ in procs:
            proc.kill()
            proc.wait(30)
