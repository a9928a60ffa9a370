"""A tournament on several club server processes over one PostgreSQL archive
(``./run bench club -- --tournament``).

    ./run bench club -- --tournament                       2,000 tables, a move every 5 s, P = 1, 2, 4
    ./run bench club -- --tournament --tables 600 --pace 3 --processes 1,2 --spectators 8 --seconds 40
    ./run bench club -- --tournament --spread any          each post to the next process in turn
    ./run bench club -- --tournament --spread first        every post to the first process, the others following

For each number of processes P, a throw-away PostgreSQL cluster is started on this machine and
P ``rop club serve`` processes on one archive in it. N tables play at a natural pace (a move
every ``--pace`` seconds each, spread evenly over the pace); each table keeps its connection
to one process, as behind a reverse proxy with keep-alive (``--spread sticky``), or sends each
post to the next process in turn (``--spread any``: a proxy without affinity), or every table
posts to the first process and the others only follow (``--spread first``: what following
costs a process, apart from taking a share of the posts, printed per post followed). S spectators
follow ``/events``, spread over the processes: every spectator must see every table's every
move, whichever process took it.

Reported per P: posts per second; the delay from sending a post to each spectator receiving
it (p50, p95, max, over every post and every spectator); refusals; events lost or stored
twice (the archive's count of each game against what its table had acknowledged) and updates
a spectator missed or saw twice (all must be none); and the processor time (user and system,
from /proc) of every server process, summed, per post, with its ratio to one process's, and
PostgreSQL's beside it. The processor time is measured around the load: from when every table
has made its first move (its game's header: each process starts the game, and the first one
of a kind loads its game's rules) until every spectator has every update; the posts counted
are those sent in that time. Last, how many posts a transaction stored, on average over the
whole run (each process says so in its log as it stops).

How many posts one process takes is the cores' affair, but the sum is not: it is what the
processes spend together, whatever cores they run on. It grows with P by what each process
spends following the others' posts (reading their announcements, sending them to its own
spectators) and waking for its own share of the posts, which it takes in smaller bursts than
one process taking them all; the table says whether it grows by at most
:data:`BOUND` from one process to the most, and from it the figure per process is worked out:
the posts a second one process takes on one core of this machine, the tables it carries at the
pace given, and what P processes on a core each would take.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

from bench.bench_club import Postgres, Records, _Connection, free_port

#: How much more processor the server processes may spend together per post on the most
#: processes than on one.
BOUND = 0.25

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
    measured: int = 0  # the posts sent while the processor time was measured
    server_cpu: float = 0.0
    database_cpu: float = 0.0
    client_cpu: float = 0.0
    per_process_cpu: list[float] = field(default_factory=list)
    wakeups: int = 0  # the server processes' context switches (every thread) while measured
    commits: int = 0  # the server processes' transactions storing posts, over the whole run
    committed: int = 0  # the posts they stored

    def per_post(self) -> float:
        """The server processes' processor seconds a post, all of them together."""
        return self.server_cpu / self.measured if self.measured else float("nan")


_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int, children: bool = False) -> float:
    """Processor seconds a process has used (user and system), and with ``children`` those of
    its children it has waited for."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0  # gone meanwhile
    ticks = sum(int(f) for f in fields[11:15 if children else 13])  # utime, stime, cutime, cstime
    return ticks / _TICKS


def _switches(pid: int) -> int:
    """How many times the threads of a process have been switched out (waiting, or their
    time slice over): each is a wake-up to come, which costs processor of its own."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except FileNotFoundError:
        return 0
    for task in tasks:
        try:
            for line in (task / "status").read_text().splitlines():
                if "ctxt_switches:" in line:  # voluntary_ and nonvoluntary_
                    total += int(line.split(":")[1])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread gone meanwhile
    return total


def _cluster_cpu(postmaster: int) -> float:
    """Processor seconds of a PostgreSQL cluster: its postmaster, the backends it has waited
    for, and those running now."""
    try:
        kids = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
    except FileNotFoundError:
        return 0.0
    return _cpu(postmaster, True) + sum(_cpu(int(k), True) for k in kids)


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


async def _run(
    ports: list[int], tokens: dict[str, str], pool: Records, args: Any, cpu: Callable[[], tuple[list[float], float, int]]
) -> Outcome:
    """The load on the processes at ``ports``; ``cpu()`` tells the processor seconds each
    server process, and PostgreSQL, has used so far, and the server processes' context
    switches."""
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
    if moves < 2:
        raise SystemExit(f"--seconds {args.seconds:g} at --pace {args.pace:g}: every table must make two moves at least")
    measured_from: list[tuple[list[float], float, int]] = []

    async def warmed_up() -> None:
        # Every table has sent its first move (its game's header) by then: measured from here.
        await asyncio.sleep(max(0.0, begin + args.pace - time.perf_counter()))
        measured_from.append(cpu())

    async def table(i: int, name: str) -> None:
        headers = [("Authorization", f"Bearer {tokens[name]}"), ("Content-Type", "application/json")]
        conns: dict[int, _Connection] = {}
        gid, lines, n = f"tour{name}", pool[i % len(pool)], 0
        try:
            for k in range(moves):
                due = begin + (k + i / len(tokens)) * args.pace
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                which = {"sticky": i % len(ports), "any": (i + k) % len(ports), "first": 0}[args.spread]
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
                        out.measured += k > 0
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

    await asyncio.gather(warmed_up(), *(table(i, name) for i, name in enumerate(tokens)))
    # Every spectator should now see the last posts; wait for them, a little.
    deadline = time.perf_counter() + 15
    while time.perf_counter() < deadline and any(len(w) < len(sent) for w in watchers):
        await asyncio.sleep(0.01)
    (start, db_start, sw_start), (end, db_end, sw_end) = measured_from[0], cpu()
    out.wakeups = sw_end - sw_start
    out.per_process_cpu = [b - a for a, b in zip(start, end)]
    out.server_cpu = sum(out.per_process_cpu)
    out.database_cpu = db_end - db_start
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
    pg = Postgres()
    with pg as url:
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
            postmaster = int((pg.base / "data" / "postmaster.pid").read_text().split()[0])
            mine = resource.getrusage(resource.RUSAGE_SELF)
            out = asyncio.run(_run(
                [port for _, port in servers], tokens, pool, args,
                lambda: ([_cpu(p.pid) for p, _ in servers], _cluster_cpu(postmaster), sum(_switches(p.pid) for p, _ in servers)),
            ))
            done = resource.getrusage(resource.RUSAGE_SELF)
            out.client_cpu = (done.ru_utime + done.ru_stime) - (mine.ru_utime + mine.ru_stime)
        finally:
            for proc, _ in servers:
                proc.terminate()
            for proc, _ in servers:
                proc.wait(60)
            for log in logs:
                log.close()
    # Each process says, as it stops, how many posts it stored in how many transactions.
    for k in range(processes):
        for m in _COMMITS.finditer((work / f"server-{processes}-{k}.log").read_text(encoding="utf-8", errors="replace")):
            out.committed += int(m.group(1))
            out.commits += int(m.group(2))
    return out


_COMMITS = re.compile(r"stored (\d+) post\(s\) in (\d+) transaction\(s\)")


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
          f"PostgreSQL and the load on this machine ({os.cpu_count() or 1} cores)", flush=True)
    print("| processes | posts/s | post answered: p50 / p95 | post to every spectator: p50 / p95 / max | refused | lost / doubled | "
          "updates missed / twice | server processor a post, all processes | to 1 process | PostgreSQL a post | "
          "wake-ups a post | each process busy | tables and spectators busy | posts a commit |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    results: list[Outcome] = []
    for r in range(args.rounds):
        this_round: list[Outcome] = []
        for p in counts:
            out = _one(p, args, pool, work)
            results.append(out)
            this_round.append(out)
            lat = sorted(out.delays)
            refused = ", ".join(f"{n} x {s}" for s, n in sorted(out.refused.items())) or "0"
            busy = " / ".join(f"{c / out.seconds * 100:.0f}%" for c in out.per_process_cpu)
            answers = sorted(out.answers)
            print(f"| {p} | {out.posts / out.seconds:.0f} | {_q(answers, 0.5):.1f} / {_q(answers, 0.95):.1f} ms | {_q(lat, 0.5):.1f} / {_q(lat, 0.95):.1f} / {_q(lat, 1.0):.0f} ms | "
                  f"{refused} | {out.lost} / {out.doubled} | {out.missed} / {out.seen_twice} | {out.per_post() * 1e3:.2f} ms | "
                  f"{_ratio(out, this_round)} | {out.database_cpu / max(out.measured, 1) * 1e3:.2f} ms | {out.wakeups / max(out.measured, 1):.1f} | {busy} | {out.client_cpu / out.seconds * 100:.0f}% | "
                  f"{out.committed / out.commits if out.commits else float('nan'):.2f} |", flush=True)
            if args.spread == "first" and p > 1 and out.measured:
                # Every post goes to the first process: what each other one spends is following.
                following = statistics.mean(out.per_process_cpu[1:]) / out.measured
                print(f"  P={p}: each process that only follows spent {following * 1e3:.3f} ms a post followed "
                      "(reading the announcements, sending its spectators their updates)", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    # Each number of processes by the median of its rounds: the machine's other work moves a
    # single run by a fifth or more, and the rounds take turns so that it moves all alike.
    sums = {p: statistics.median(o.per_post() for o in results if o.processes == p and o.measured)
            for p in counts if any(o.processes == p and o.measured for o in results)}
    if args.rounds > 1:
        print(f"  medians of {args.rounds} rounds: " + ", ".join(f"P={p}: {v * 1e3:.2f} ms" for p, v in sums.items()), flush=True)
    print(_verdict(sums), flush=True)
    for p, per_post in sums.items():
        rate = p / per_post  # each process on a core of its own, the posts spread evenly
        said = (f"one process on a core of its own takes about {rate:.0f} posts/s" if p == 1 else
                f"{p} processes on a core each take about {rate:.0f} posts/s together"
                + (f", {p * sums[1] / per_post:.1f} times what one takes" if 1 in sums else ""))
        print(f"  P={p}: the server processes spent {per_post * 1e3:.2f} ms of processor a post (all of them together): "
              f"{said}, {rate * args.pace:.0f} tables at a move every {args.pace:g} s (PostgreSQL on cores of its own)", flush=True)
    return 0


def _ratio(out: Outcome, results: list[Outcome]) -> str:
    one = next((o for o in results if o.processes == 1 and o.measured), None)
    return f"x{out.per_post() / one.per_post():.2f}" if one and out.measured else "-"


def _verdict(sums: dict[int, float]) -> str:
    """Whether the sum of the server processes' processor a post (``sums``: by the number of
    processes) grows by at most :data:`BOUND` from one process to the most run."""
    most = max(sums, default=1)
    if 1 not in sums or most == 1:
        return "  (run with --processes 1 and more to compare the sums)"
    growth = sums[most] / sums[1] - 1
    holds = "holds" if growth <= BOUND else "does NOT hold"
    return (f"  the server processes' processor a post, summed, grows by {growth * 100:+.0f} % from 1 to {most} processes "
            f"({sums[1] * 1e3:.2f} to {sums[most] * 1e3:.2f} ms): the bound of {BOUND * 100:.0f} % {holds}")
