"""A tournament on several club server processes over one PostgreSQL archive
(``./run bench club -- --tournament``).

    ./run bench club -- --tournament                       2,000 tables, a move every 5 s, P = 1, 2, 4
    ./run bench club -- --tournament --tables 600 --pace 3 --processes 1,2 --spectators 8 --seconds 40
    ./run bench club -- --tournament --spread any          each post to the next process in turn

For each number of processes P, a throw-away PostgreSQL cluster is started on this machine and
P ``rop club serve`` processes on one archive in it. N tables play at a natural pace (a move
every ``--pace`` seconds each, spread evenly over the pace); each table keeps its connection
to one process, as behind a reverse proxy with keep-alive (``--spread sticky``), or sends each
post to the next process in turn (``--spread any``: a proxy without affinity). S spectators
follow ``/events``, spread over the processes: every spectator must see every table's every
move, whichever process took it.

Reported per P: posts per second; the delay from sending a post to each spectator receiving
it (p50, p95, max, over every post and every spectator); refusals; events lost or stored
twice (the archive's count of each game against what its table had acknowledged) and updates
a spectator missed or saw twice (all must be none); and the processor time of the server
processes per post, from which the figure per process is worked out: the posts a second one
process takes on one core of this machine, and the tables it carries at the pace given.
"""

from __future__ import annotations

import asyncio
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bench_club import Postgres, Records, _Connection, free_port

_EVENT = re.compile(rb'"events":(\d+)')
_GAME = re.compile(rb'"game_id":"([^"]+)"')


@dataclass
class Outcome:
    processes: int
    tables: int
    seconds: float
    posts: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    delays: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)  # from sending a post to its answer
    missed: int = 0
    seen_twice: int = 0
    lost: int = 0
    doubled: int = 0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    per_process_cpu: list[float] = field(default_factory=list)


def _cpu(pid: int) -> float:
    """Processor seconds a process has used (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime, stime in clock ticks (100 a second)


async def _spectator(port: int, arrived: dict[tuple[bytes, int], float], ready: asyncio.Event, twice: list[int]) -> None:
    conn = await _Connection.open("127.0.0.1", port)
    conn.writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    kind = b""
    try:
        while line := await conn.reader.readline():
            if line.startswith(b"event: "):
                kind = line[7:].strip()
            elif line.startswith(b"data: "):
                if kind == b"tables":
                    ready.set()
                elif kind == b"table":
                    g, e = _GAME.search(line), _EVENT.search(line)
                    if g and e:
                        key = (g.group(1), int(e.group(1)))
                        if key in arrived:
                            twice[0] += 1
                        else:
                            arrived[key] = time.perf_counter()
    finally:
        conn.close()


async def _run(ports: list[int], tokens: dict[str, str], pool: Records, args: Any) -> Outcome:
    out = Outcome(len(ports), len(tokens), args.seconds)
    watchers = [dict[tuple[bytes, int], float]() for _ in range(args.spectators)]
    twice = [0]
    readies = [asyncio.Event() for _ in watchers]
    tasks = [asyncio.create_task(_spectator(ports[i % len(ports)], watchers[i], readies[i], twice)) for i in range(len(watchers))]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
    sent: dict[tuple[bytes, int], float] = {}
    acked: dict[str, int] = {}
    begin = time.perf_counter() + 1.0
    moves = int(args.seconds / args.pace)

    async def table(i: int, name: str) -> None:
        headers = [("Authorization", f"Bearer {tokens[name]}"), ("Content-Type", "application/json")]
        conns: dict[int, _Connection] = {}
        gid, lines, n = f"tour{name}", pool[i % len(pool)], 0
        try:
            for k in range(moves):
                due = begin + (k + i / len(tokens)) * args.pace
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                which = i % len(ports) if args.spread == "sticky" else (i + k) % len(ports)
                if n == len(lines):
                    break  # the game is over: this table is done
                n += 1
                for _ in range(3):
                    conn = conns.get(which)
                    if conn is None:
                        conn = conns[which] = await _Connection.open("127.0.0.1", ports[which])
                    sent[(gid.encode(), n)] = time.perf_counter()
                    try:
                        status, body = await conn.request("POST", f"/api/games/{gid}/events/{n}", lines[n - 1].encode(), headers)
                    except (OSError, ConnectionError, asyncio.IncompleteReadError):
                        conns.pop(which).close()
                        out.refused["connection lost"] = out.refused.get("connection lost", 0) + 1
                        continue
                    if status in (200, 201):
                        out.answers.append(time.perf_counter() - sent[(gid.encode(), n)])
                        acked[gid] = n
                        out.posts += 1
                        break
                    out.refused[str(status)] = out.refused.get(str(status), 0) + 1
                    if status != 503:
                        break
                else:
                    sent.pop((gid.encode(), n), None)
                    n -= 1
        finally:
            for c in conns.values():
                c.close()

    await asyncio.gather(*(table(i, name) for i, name in enumerate(tokens)))
    # Every spectator should now see the last posts; wait for them, a little.
    deadline = time.perf_counter() + 15
    while time.perf_counter() < deadline and any(len(w) < len(sent) for w in watchers):
        await asyncio.sleep(0.1)
    for t in tasks:
        t.cancel()
    for key, t0 in sent.items():
        for w in watchers:
            t1 = w.get(key)
            if t1 is None:
                out.missed += 1
            else:
                out.delays.append(t1 - t0)
    out.seen_twice = twice[0]
    conn = await _Connection.open("127.0.0.1", ports[0])
    try:
        for gid, n in acked.items():
            _, body = await conn.request("GET", f"/api/games/{gid}/progress")
            stored = json.loads(body)["stored"]
            out.lost += max(0, n - stored)
            out.doubled += max(0, stored - n)
    finally:
        conn.close()
    return out


def _one(processes: int, args: Any, pool: Records, work: Path) -> Outcome:
    from companion.club.tokens import issue_token

    tokens_path = work / f"tokens-{processes}.txt"
    tokens = {f"t{i:04d}": issue_token(tokens_path, f"t{i:04d}") for i in range(args.tables)}
    with Postgres() as url:
        servers = []
        logs = []
        try:
            for k in range(processes):
                port = free_port()
                log = open(work / f"server-{processes}-{k}.log", "w", encoding="utf-8")
                logs.append(log)
                proc = subprocess.Popen(
                    [sys.executable, "-m", "companion.cli", "club", "serve", "--db", url, "--port", str(port), "--tokens", str(tokens_path)],
                    stdout=subprocess.PIPE, stderr=log, text=True,
                )
                assert proc.stdout is not None
                proc.stdout.readline()  # the banner: it listens
                servers.append((proc, port))
            before = [_cpu(p.pid) for p, _ in servers]
            mine = resource.getrusage(resource.RUSAGE_SELF)
            out = asyncio.run(_run([port for _, port in servers], tokens, pool, args))
            out.per_process_cpu = [_cpu(p.pid) - b for (p, _), b in zip(servers, before)]
            out.server_cpu = sum(out.per_process_cpu)
            done = resource.getrusage(resource.RUSAGE_SELF)
            out.client_cpu = (done.ru_utime + done.ru_stime) - (mine.ru_utime + mine.ru_stime)
        finally:
            for proc, _ in servers:
                proc.terminate()
            for proc, _ in servers:
                proc.wait(60)
            for log in logs:
                log.close()
    return out


def _q(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(p * len(values)))] * 1e3 if values else float("nan")


def main(args: Any) -> int:
    # Every table holds a connection, and so does each server process for it.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = Path(tempfile.mkdtemp(prefix="rop-bench-tournament-"))
    counts = [int(p) for p in str(args.processes).split(",")]
    pool = Records(max(50, min(args.tables, 200)), seed=11)
    print(f"tournament: {args.tables} tables, a move every {args.pace:g} s each ({args.tables / args.pace:.0f} posts/s), "
          f"{args.spectators} spectators, {args.seconds:.0f} s per run, tables {args.spread} to a process; "
          f"PostgreSQL and the load on this machine ({_cores()} cores)", flush=True)
    print("| processes | posts/s | post answered: p50 / p95 | post to every spectator: p50 / p95 / max | refused | lost / doubled | "
          "updates missed / twice | server processor a post | each process busy | tables and spectators busy |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    results = []
    for p in counts:
        out = _one(p, args, pool, work)
        results.append(out)
        lat = sorted(out.delays)
        refused = ", ".join(f"{n} x {s}" for s, n in sorted(out.refused.items())) or "0"
        per_post = out.server_cpu / out.posts * 1e3 if out.posts else float("nan")
        busy = " / ".join(f"{c / out.seconds * 100:.0f}%" for c in out.per_process_cpu)
        answers = sorted(out.answers)
        print(f"| {p} | {out.posts / out.seconds:.0f} | {_q(answers, 0.5):.1f} / {_q(answers, 0.95):.1f} ms | {_q(lat, 0.5):.1f} / {_q(lat, 0.95):.1f} / {_q(lat, 1.0):.0f} ms | "
              f"{refused} | {out.lost} / {out.doubled} | {out.missed} / {out.seen_twice} | {per_post:.2f} ms | {busy} | {out.client_cpu / out.seconds * 100:.0f}% |", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    for out in results:
        if not out.posts:
            continue
        per_post = out.server_cpu / out.posts
        rate = 1 / per_post
        print(f"  P={out.processes}: the server processes spent {per_post * 1e3:.2f} ms of processor a post (all of them together): "
              f"one process on a core of its own takes about {rate:.0f} posts/s, {rate * args.pace:.0f} tables at a move every "
              f"{args.pace:g} s", flush=True)
    return 0


def _cores() -> int:
    import os

    return os.cpu_count() or 1
