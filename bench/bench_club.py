"""The club's speed: importing games into the archive (SQLite and PostgreSQL), standings over
them, and many tables posting live while a spectator watches the page's event stream.

    ./run bench club                 100,000 games; 200 tables posting for a minute
    ./run bench club -- --quick      2,000 games; 20 tables for 10 seconds
    ./run bench club -- --games N --pool P --tables T --seconds S --no-postgres --live-only

Import: records of random legal games (the virtual table, 2 to 6 players, teams too) are
replayed by the engine and stored one transaction per game, as ``rop club add`` does; the
figures are games and rounds per second. PostgreSQL is a throw-away cluster this benchmark
starts itself (Debian's postgresql package), on a free port.

Live: ``rop club serve`` runs in its own process on localhost; each table posts one event a
second (the tables spread over the second); a spectator follows ``/events``. Latency is from
sending a post to the spectator receiving that table's update; afterwards every table's
count on the server is checked against what it posted (nothing lost, nothing twice).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import io
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.club.archive import Archive, parse_record
from companion.club.database import open_archive
from companion.club.standings import compute_standings
from companion.records.format import RecordWriter
from companion.simulation.virtual_table import make_setup, simulate_game

SEATINGS = [(2, 0), (3, 0), (4, 0), (4, 2), (5, 0), (6, 2), (6, 3)]


def generate(n: int, seed: int = 1, *, pool: int | None = None) -> list[list[str]]:
    """``n`` records of random legal games. With ``pool``, only that many games are
    simulated and the rest are copies under their own game ids (simulating is slower than
    importing; the archive treats each id as its own game, replayed and stored in full)."""
    rng = random.Random(seed)
    records: list[list[str]] = []
    for i in range(n):
        if pool and i >= pool:
            base = records[i % pool]
            head = json.loads(base[0])
            head["id"] = f"bench{i:08d}"
            records.append([json.dumps(head)] + base[1:])
            continue
        players, teams = rng.choice(SEATINGS)
        setup = make_setup(players, teams)
        _, moves = simulate_game(setup, seed=seed * 1_000_003 + i)
        buf = io.StringIO()
        writer = RecordWriter(buf, setup)
        for m in moves:
            writer.write(m)
        records.append(buf.getvalue().splitlines())
    return records


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


def bench_import(label: str, url: str, records: list[list[str]]) -> None:
    engine = open_archive(url)
    archive = Archive(engine)
    rounds = 0
    start = time.perf_counter()
    for lines in records:
        parsed = parse_record(lines)
        rounds += len(parsed.game.results)
        archive.store(parsed)
    elapsed = time.perf_counter() - start
    print(f"  {label}: {len(records)} games ({rounds} rounds) replayed and stored in {elapsed:.1f} s: "
          f"{len(records) / elapsed:.0f} games/s, {rounds / elapsed:.0f} rounds/s")
    again = time.perf_counter()
    dup = sum(archive.add_lines(lines).status == "duplicate" for lines in records[:200])
    print(f"  {label}: {dup} of 200 re-added games recognised as stored, {(time.perf_counter() - again) / 200 * 1e3:.2f} ms each")
    t = time.perf_counter()
    table = compute_standings(engine)
    first = time.perf_counter() - t
    t = time.perf_counter()
    compute_standings(engine)
    again = time.perf_counter() - t
    extra = generate(100, seed=99)
    for lines in extra:
        archive.add_lines(lines)  # dated now: after every game above
    t = time.perf_counter()
    compute_standings(engine)
    more = time.perf_counter() - t
    print(f"  {label}: standings with ratings over {archive.count() - len(extra)} games ({len(table.players)} players, "
          f"{len(table.teams)} teams): {first * 1e3:.0f} ms rating every game, {again * 1e3:.0f} ms again with the "
          f"ratings kept, {more * 1e3:.0f} ms after 100 more games")
    engine.dispose()


async def _live(url: str, tokens: dict[str, str], games: dict[str, list[list[str]]], seconds: float) -> dict[str, object]:
    import httpx

    sent: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    errors: list[str] = []
    posted: dict[str, dict[str, int]] = {t: {} for t in tokens}
    done = asyncio.Event()
    ready = asyncio.Event()

    async def spectator() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(10, read=None)) as c:
            async with c.stream("GET", "/events") as resp:
                kind = None
                async for line in resp.aiter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        if kind == "tables":
                            ready.set()
                        elif kind == "table":
                            state = json.loads(line[6:])
                            t0 = sent.pop((state["game_id"], state["events"]), None)
                            if t0 is not None:
                                latencies.append(time.perf_counter() - t0)
                    if done.is_set() and not sent:
                        return

    limits = httpx.Limits(max_connections=len(tokens) + 10, max_keepalive_connections=len(tokens) + 10)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        watcher = asyncio.create_task(spectator())
        await asyncio.wait_for(ready.wait(), 30)
        begin = time.perf_counter() + 0.5

        async def table(i: int, name: str) -> None:
            headers = {"Authorization": f"Bearer {tokens[name]}"}
            queue = list(games[name])
            gid, lines, n = f"bench{name}g0", queue.pop(0), 0
            for k in range(int(seconds)):
                due = begin + k + i / len(tokens)
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                if n == len(lines):
                    gid, lines, n = f"bench{name}g{k}", queue.pop(0), 0
                n += 1
                sent[(gid, n)] = time.perf_counter()
                try:
                    r = await client.post(f"/api/games/{gid}/events/{n}", content=lines[n - 1], headers=headers)
                    if r.status_code != 201:
                        errors.append(f"{name} {gid} {n}: {r.status_code} {r.text[:100]}")
                        sent.pop((gid, n), None)
                    else:
                        posted[name][gid] = n
                except httpx.HTTPError as exc:
                    errors.append(f"{name} {gid} {n}: {exc!r}")
                    sent.pop((gid, n), None)

        await asyncio.gather(*(table(i, name) for i, name in enumerate(tokens)))
        done.set()
        try:
            await asyncio.wait_for(watcher, 30)
        except TimeoutError:
            watcher.cancel()
        missing_updates = len(sent)
        lost = 0
        for name, by_game in posted.items():
            for gid, n in by_game.items():
                stored = (await client.get(f"/api/games/{gid}/progress")).json()["stored"]
                lost += abs(stored - n)
    return {"latencies": latencies, "errors": errors, "missing_updates": missing_updates, "lost": lost,
            "posts": sum(n for by_game in posted.values() for n in by_game.values())}


def bench_live(tables: int, seconds: float, workdir: Path) -> None:
    from companion.club.tokens import issue_token

    tokens_path = workdir / "tokens.txt"
    tokens = {f"t{i:03d}": issue_token(tokens_path, f"t{i:03d}") for i in range(tables)}
    pool = generate(max(20, tables), seed=7)
    games = {name: [pool[(i + j) % len(pool)] for j in range(int(seconds) // 40 + 3)] for i, name in enumerate(tokens)}
    port = free_port()
    db = f"sqlite:///{workdir / 'live.sqlite'}"
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "club", "serve", "--db", db, "--port", str(port),
                               "--tokens", str(tokens_path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        import httpx

        for _ in range(300):
            try:
                httpx.get(url + "/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        result = asyncio.run(_live(url, tokens, games, seconds))
    finally:
        server.terminate()
        server.wait(30)
    lat = sorted(result["latencies"])  # type: ignore[arg-type]
    def q(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1e3 if lat else float("nan")
    errors = result["errors"]
    print(f"  {tables} tables x 1 event/s for {seconds:.0f} s: {result['posts']} posts, {len(errors)} errors, "  # type: ignore[arg-type]
          f"{result['lost']} lost or doubled, {result['missing_updates']} updates not seen by the spectator")
    print(f"  post -> spectator update: median {q(0.5):.1f} ms, p95 {q(0.95):.1f} ms, p99 {q(0.99):.1f} ms, max {q(1.0):.1f} ms")
    for e in errors[:5]:  # type: ignore[index]
        print(f"    error: {e}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench club")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--pool", type=int, default=2_000, help="games simulated (the rest are copies with their own ids)")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--live-only", action="store_true", help="only the live page part")
    args = parser.parse_args(argv)
    n = args.games or (2_000 if args.quick else 100_000)
    tables = args.tables or (20 if args.quick else 200)
    seconds = args.seconds or (10 if args.quick else 60)
    work = Path(tempfile.mkdtemp(prefix="rop-bench-club-"))
    try:
        if args.live_only:
            print("live page:")
            bench_live(tables, seconds, work)
            return 0
        t = time.perf_counter()
        pool = min(n, args.pool)
        records = generate(n, pool=pool)
        print(f"generated {n} game records ({pool} simulated games, the rest copies under their own ids) in {time.perf_counter() - t:.1f} s")
        print("import (rop club add: replay every rule, store one transaction per game):")
        bench_import("SQLite", f"sqlite:///{work / 'club.sqlite'}", records)
        if not args.no_postgres:
            with Postgres() as pg:
                bench_import("PostgreSQL", pg, records)
        print("live page:")
        bench_live(tables, seconds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
