"""The club's speed: importing games into the archive (SQLite and PostgreSQL), standings over
them, and many tables posting live while a spectator watches the page's event stream.

    ./run bench club                 100,000 games; 200 tables posting for a minute
    ./run bench club -- --quick      2,000 games; 20 tables for 10 seconds
    ./run bench club -- --games N --pool P --batch B --one-by-one --no-postgres
    ./run bench club -- --live-only --tables T --seconds S --live-db sqlite|postgresql|both
    ./run bench club -- --import-only --games N
    ./run bench club -- --tournament [--tables N --pace S --processes 1,2,4 --spectators S --spread sticky|any]

Import: records of random legal games are replayed by their game's rules and stored as
``rop club add`` does, a mixed archive: Rule of Power games (the virtual table, 2 to 6 players,
teams too) and, a quarter of them by default (``--circle F``: the share), Circle of Power games
(2 to 4 players, every variant, played by its rule-of-thumb players); in batches of ``--batch`` games,
one transaction each (``--one-by-one``: one transaction per game, to compare). The
records are made as they are imported (``--pool`` games simulated, the others copies under
their own ids), so 100,000 games need no more memory than a batch. The figures are games and
scoring periods (rounds, seasons) per second, how the time divides between the replay and the
database, and standings of each game.
PostgreSQL is a throw-away cluster this benchmark starts itself (Debian's postgresql package),
on a free port.

Live: ``rop club serve`` runs in its own process on localhost (on SQLite, or with
``--live-db`` on PostgreSQL, or both one after the other); each table posts one event a
second over its own keep-alive connection (the tables spread over the second); a spectator
follows ``/events``. Latency is
from sending a post to the spectator receiving that table's update; afterwards every table's
count on the server is checked against what it posted (nothing lost, nothing twice). The
tables and the spectator speak HTTP/1.1 straight over asyncio streams: a load generator must
cost less than what it measures, and a general-purpose async HTTP client spends several
milliseconds of processor per request, which on the same two cores as the server made the
client, not the server, the bottleneck.

Tournament (``--tournament``, :mod:`bench.club_tournament`): several server processes over
one PostgreSQL archive, the tables at a natural pace.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

from companion.club.archive import Archive, ParsedGame, parse_record
from companion.club.database import open_archive
from companion.club.standings import compute_standings
from companion.records.format import iter_record_lines
from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game

SEATINGS = [(2, 0), (3, 0), (4, 0), (4, 2), (5, 0), (6, 2), (6, 3)]
CIRCLE_TABLES = [(n, v) for n in (2, 3, 4) for v in ("basic", "lonely-tyrant", "coloured-cities")]
GAMES = ("rule-of-power", "circle-of-power")


def circle_lines(players: int, variant: str, seed: int) -> list[str]:
    """The record of a whole Circle of Power game played by its rule-of-thumb players."""
    from companion.games.circle_of_power.policies import simulate

    setup, moves = simulate(("ann", "bob", "cy", "dee")[:players], variant, seed=seed)
    return list(iter_record_lines(setup, moves))


class Records(Sequence[list[str]]):
    """``n`` records of random legal games. Only ``pool`` games are simulated (simulating is
    slower than importing); the rest are copies under their own game ids, made when asked for
    (the archive treats each id as its own game, replayed and stored in full)."""

    def __init__(self, n: int, seed: int = 1, *, pool: int | None = None, circle: float = 0.25) -> None:
        self.n = n
        self.circle = circle
        rng = random.Random(seed)
        self.pool: list[list[str]] = []
        for i in range(min(n, pool or n)):
            if rng.random() < circle:
                self.pool.append(circle_lines(*rng.choice(CIRCLE_TABLES), seed=seed * 1_000_003 + i))
                continue
            players, teams = rng.choice(SEATINGS)
            setup = make_setup(players, teams)
            _, moves = simulate_game(setup, seed=seed * 1_000_003 + i)
            self.pool.append(list(iter_record_lines(setup, moves)))

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> list[str]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[str]]: ...

    def __getitem__(self, i: int | slice) -> list[str] | list[list[str]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.n))]
        if not 0 <= i < self.n:
            raise IndexError(i)
        base = self.pool[i % len(self.pool)]
        if i < len(self.pool):
            return base
        head = json.loads(base[0])
        head["id"] = f"bench{i:08d}"
        return [json.dumps(head)] + base[1:]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Postgres:
    """A throw-away PostgreSQL cluster in a temporary directory."""

    def __init__(self) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bins:
            raise RuntimeError("PostgreSQL is not installed (packaging/apt-test.txt)")
        self.bin = bins[-1]
        self.base = Path(tempfile.mkdtemp(prefix="rop-bench-pg-"))
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()

    def __enter__(self) -> str:
        data = self.base / "data"
        subprocess.run(self.prefix + [f"{self.bin}/initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync"],
                       check=True, capture_output=True)
        opts = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1"
        subprocess.run(self.prefix + [f"{self.bin}/pg_ctl", "-D", str(data), "-l", str(self.base / "log"), "-w", "-o", opts, "start"],
                       check=True, capture_output=True)
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def __exit__(self, *exc: object) -> None:
        subprocess.run(self.prefix + [f"{self.bin}/pg_ctl", "-D", str(self.base / "data"), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(self.base, ignore_errors=True)


def bench_import(label: str, url: str, records: Sequence[list[str]], *, batch: int) -> None:
    engine = open_archive(url)
    archive = Archive(engine)
    rounds = 0
    replay = store = 0.0
    start = time.perf_counter()
    pending: list[ParsedGame] = []
    for i, lines in enumerate(records, 1):
        t = time.perf_counter()
        parsed = parse_record(lines)
        replay += time.perf_counter() - t
        rounds += len(parsed.result.periods)  # the game's scoring periods: rounds, seasons
        pending.append(parsed)
        if len(pending) >= batch or i == len(records):
            t = time.perf_counter()
            archive.store_many(pending)
            store += time.perf_counter() - t
            pending = []
        if i % 10_000 == 0 and i < len(records):
            elapsed = time.perf_counter() - start
            print(f"    {label}: {i} games, {rounds / elapsed:.0f} rounds/s so far", flush=True)
    elapsed = time.perf_counter() - start
    per = "one transaction per game" if batch == 1 else f"batches of {batch} games"
    mix = ", ".join(f"{count} {name}" for name, count in archive.counts().items())
    print(f"  {label}: {len(records)} games ({mix}; {rounds} rounds and seasons) replayed and stored in {elapsed:.1f} s ({per}): "
          f"{len(records) / elapsed:.0f} games/s, {rounds / elapsed:.0f} rounds and seasons/s; "
          f"replay {replay / len(records) * 1e3:.2f} ms a game, storing {store / len(records) * 1e3:.2f} ms a game", flush=True)
    again = time.perf_counter()
    dup = sum(archive.add_lines(lines).status == "duplicate" for lines in records[:200])
    print(f"  {label}: {dup} of 200 re-added games recognised as stored, {(time.perf_counter() - again) / 200 * 1e3:.2f} ms each")
    before = archive.counts()
    tables, first, again = {}, {}, {}
    for game in GAMES:
        t = time.perf_counter()
        tables[game] = compute_standings(engine, game=game)
        first[game] = time.perf_counter() - t
        t = time.perf_counter()
        compute_standings(engine, game=game)
        again[game] = time.perf_counter() - t
    extra = Records(100, seed=99, circle=getattr(records, "circle", 0.25))
    archive.store_many(parse_record(lines) for lines in extra)  # dated now: after every game above
    for game in GAMES:
        t = time.perf_counter()
        compute_standings(engine, game=game)
        more = time.perf_counter() - t
        table = tables[game]
        print(f"  {label}: {game} standings with ratings over {before.get(game, 0)} games ({len(table.players)} players, "
              f"{len(table.teams)} teams): {first[game] * 1e3:.0f} ms rating every game, {again[game] * 1e3:.0f} ms again "
              f"with the ratings kept, {more * 1e3:.0f} ms after 100 more games", flush=True)
    engine.dispose()


class _Connection:
    """One keep-alive HTTP/1.1 connection, as lean as a load generator needs."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, host: str, port: int) -> _Connection:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, host)

    async def request(self, method: str, path: str, body: bytes = b"", headers: Sequence[tuple[str, str]] = ()) -> tuple[int, bytes]:
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(body)}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
        self.writer.write(head.encode("ascii") + body)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status, length = int(status_line.split()[1]), 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def _live(host: str, port: int, tokens: dict[str, str], games: dict[str, list[list[str]]], seconds: float) -> dict[str, Any]:
    sent: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    errors: list[str] = []
    posted: dict[str, dict[str, int]] = {t: {} for t in tokens}
    done, drained, ready = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def spectator() -> None:
        conn = await _Connection.open(host, port)
        conn.writer.write(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode("ascii"))
        kind = None
        try:
            while line := await conn.reader.readline():
                text = line.decode("utf-8").rstrip("\r\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    if kind == "tables":
                        ready.set()
                    elif kind == "table":
                        state = json.loads(text[6:])
                        t0 = sent.pop((state["game_id"], state["events"]), None)
                        if t0 is not None:
                            latencies.append(time.perf_counter() - t0)
                    if done.is_set() and not sent:
                        drained.set()
        finally:
            conn.close()

    watcher = asyncio.create_task(spectator())
    await asyncio.wait_for(ready.wait(), 30)
    begin = time.perf_counter() + 0.5

    async def table(i: int, name: str) -> None:
        conn = await _Connection.open(host, port)
        headers = [("Authorization", f"Bearer {tokens[name]}"), ("Content-Type", "application/json")]
        queue = list(games[name])
        gid, lines, n = f"bench{name}g0", queue.pop(0), 0
        try:
            for k in range(int(seconds)):
                due = begin + k + i / len(tokens)
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                if n == len(lines):
                    gid, lines, n = f"bench{name}g{k}", queue.pop(0), 0
                n += 1
                sent[(gid, n)] = time.perf_counter()
                try:
                    status, body = await conn.request("POST", f"/api/games/{gid}/events/{n}", lines[n - 1].encode(), headers)
                except (OSError, ConnectionError, asyncio.IncompleteReadError) as exc:
                    errors.append(f"{name} {gid} {n}: {exc!r}")
                    sent.pop((gid, n), None)
                    conn = await _Connection.open(host, port)
                    continue
                if status != 201:
                    errors.append(f"{name} {gid} {n}: {status} {body[:100]!r}")
                    sent.pop((gid, n), None)
                else:
                    posted[name][gid] = n
        finally:
            conn.close()

    await asyncio.gather(*(table(i, name) for i, name in enumerate(tokens)))
    done.set()
    if not sent:
        drained.set()
    try:
        await asyncio.wait_for(drained.wait(), 30)
    except TimeoutError:
        pass
    watcher.cancel()
    missing_updates = len(sent)
    lost = 0
    conn = await _Connection.open(host, port)
    try:
        for by_game in posted.values():
            for gid, n in by_game.items():
                _, body = await conn.request("GET", f"/api/games/{gid}/progress")
                lost += abs(json.loads(body)["stored"] - n)
    finally:
        conn.close()
    return {"latencies": latencies, "errors": errors, "missing_updates": missing_updates, "lost": lost,
            "posts": sum(n for by_game in posted.values() for n in by_game.values())}


def bench_live(tables: int, seconds: float, workdir: Path, db: str, label: str, circle: float = 0.25) -> None:
    from companion.club.tokens import issue_token

    tokens_path = workdir / "tokens.txt"
    tokens = {f"t{i:03d}": issue_token(tokens_path, f"t{i:03d}") for i in range(tables)}
    pool = Records(max(20, tables), seed=7, circle=circle)
    games = {name: [pool[(i + j) % len(pool)] for j in range(int(seconds) // 40 + 3)] for i, name in enumerate(tokens)}
    circle_tables = sum(json.loads(g[0][0])["format"] == "cop-record/1" for g in games.values())
    port = free_port()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    log = open(workdir / "server.log", "w+", encoding="utf-8")
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "club", "serve", "--db", db, "--port", str(port),
                               "--tokens", str(tokens_path)], stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        assert server.stdout is not None
        server.stdout.readline()  # the banner: it listens
        ready = resource.getrusage(resource.RUSAGE_SELF)
        result = asyncio.run(_live("127.0.0.1", port, tokens, games, seconds))
        client = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        server.terminate()
        server.wait(60)
        log.seek(0)
        stored = [line.split(" INFO ", 1)[1].strip() for line in log if "post(s) in" in line]
        log.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    client_cpu = (client.ru_utime + client.ru_stime) - (ready.ru_utime + ready.ru_stime)
    lat = sorted(result["latencies"])

    def q(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1e3 if lat else float("nan")

    errors = result["errors"]
    print(f"  {label}, {tables} tables ({tables - circle_tables} starting with Rule of Power, {circle_tables} with Circle of Power) "
          f"x 1 event/s for {seconds:.0f} s: {result['posts']} posts, {len(errors)} errors, "
          f"{result['lost']} lost or doubled, {result['missing_updates']} updates not seen by the spectator")
    print(f"  post -> spectator update: median {q(0.5):.1f} ms, p95 {q(0.95):.1f} ms, p99 {q(0.99):.1f} ms, max {q(1.0):.1f} ms")
    print(f"  processor: server {server_cpu:.1f} s (start-up included), tables and spectator {client_cpu:.1f} s; "
          f"the server {stored[0] if stored else 'did not say how it stored the posts'}", flush=True)
    for e in errors[:5]:
        print(f"    error: {e}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench club")
    parser.add_argument("--quick", action="store_true", help="2,000 games; 20 tables for 10 seconds")
    parser.add_argument("--games", type=int, default=None, help="games to import (default 100,000)")
    parser.add_argument("--pool", type=int, default=2_000, help="games simulated (the rest are copies with their own ids)")
    parser.add_argument("--batch", type=int, default=500, help="games stored per transaction")
    parser.add_argument("--one-by-one", action="store_true", help="one transaction per game (--batch 1)")
    parser.add_argument("--circle", type=float, default=0.25, metavar="F",
                        help="the share of Circle of Power games in the archive and at the live tables (default 0.25; 0: Rule of Power alone)")
    parser.add_argument("--tables", type=int, default=None, help="tables posting live (default 200)")
    parser.add_argument("--seconds", type=float, default=None, help="how long they post (default 60)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--live-db", choices=("sqlite", "postgresql", "both"), default="sqlite",
                        help="the live server's archive (default sqlite, as on a club night)")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--live-only", action="store_true", help="only the live page part")
    only.add_argument("--import-only", action="store_true", help="only the import and standings part")
    only.add_argument("--tournament", action="store_true",
                      help="several server processes on one PostgreSQL archive (default 2,000 tables, a move every 5 s)")
    tour = parser.add_argument_group("tournament")
    tour.add_argument("--pace", type=float, default=5.0, help="seconds between a table's moves (default 5)")
    tour.add_argument("--processes", default="1,2,4", help="server process counts to run in turn (default 1,2,4)")
    tour.add_argument("--spectators", type=int, default=4, help="spectators following /events, spread over the processes")
    tour.add_argument("--rounds", type=int, default=1,
                      help="run every number of processes this many times, in turn, and compare their medians (default 1)")
    tour.add_argument("--spread", choices=("sticky", "any", "first"), default="sticky",
                      help="each table to one process (sticky, default), each post to the next process (any), "
                           "or every table to the first process, the others only following (first)")
    args = parser.parse_args(argv)
    if args.tournament:
        from bench import club_tournament

        args.tables = args.tables or 2000
        args.seconds = args.seconds or 60.0
        return club_tournament.main(args)
    n = args.games or (2_000 if args.quick else 100_000)
    tables = args.tables or (20 if args.quick else 200)
    seconds = args.seconds or (10 if args.quick else 60)
    batch = 1 if args.one_by_one else max(1, args.batch)
    work = Path(tempfile.mkdtemp(prefix="rop-bench-club-"))
    try:
        if not args.live_only:
            t = time.perf_counter()
            pool = min(n, args.pool)
            records = Records(n, pool=pool, circle=args.circle)
            print(f"simulated {pool} games in {time.perf_counter() - t:.1f} s (the other {n - pool} are copies under their own ids)", flush=True)
            print("import (rop club add: replay every rule, then store):", flush=True)
            bench_import("SQLite", f"sqlite:///{work / 'club.sqlite'}", records, batch=batch)
            if not args.no_postgres:
                with Postgres() as pg:
                    bench_import("PostgreSQL", pg, records, batch=batch)
        if not args.import_only:
            print("live page:", flush=True)
            if args.live_db in ("sqlite", "both"):
                bench_live(tables, seconds, work, f"sqlite:///{work / 'live.sqlite'}", "SQLite", args.circle)
            if args.live_db in ("postgresql", "both"):
                with Postgres() as pg:
                    bench_live(tables, seconds, work, pg, "PostgreSQL", args.circle)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
