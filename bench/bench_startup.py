"""How quickly ``rop`` answers: each command run in a fresh interpreter on the smallest piece of
work it has (one sample for the coach; for the review, the first lines of a sample, a decision
or two), best of several runs, next to Python starting and doing nothing. The import time is what ``python -X importtime`` counts for the command; the target
is that ``rop hint`` and ``rop review`` answer within 250 ms on a quiet machine.

    ./run bench startup              (python -m bench startup)
    ./run bench startup -- --runs 20
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.contract import registry

TARGET_S = 0.25
"""``rop hint`` and ``rop review`` answer within this, on a quiet machine."""


def _deciding_line(path: Path, player: str) -> int:
    """The first line of a record after which ``player`` decides."""
    from companion.records.format import Replayer, read_record, record_file

    class Find(Replayer):
        found = 0

        def visit_move(self, move: object, line: int) -> None:
            super().visit_move(move, line)  # type: ignore[arg-type]
            if not self.found and self.game is not None and player in self.game.deciding:
                self.found = line

    finder = Find()
    with record_file(path) as lines:
        read_record(lines, finder, path=str(path))
    return finder.found


def _best(argv: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def _import_ms(words: list[str]) -> float:
    """What ``python -X importtime`` counts for ``rop words``: the top-level imports' sum."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion.cli", *words], capture_output=True, text=True, check=False)
    total = 0
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S)", line)
        if m:
            total += int(m.group(1))
    return total / 1000


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench startup")
    parser.add_argument("--runs", type=int, default=10, help="runs of each command; the best counts (default 10)")
    args = parser.parse_args(argv)
    game = registry.game()
    sample = registry.samples_of(game)[0].path
    player = game.default_players(game.min_players)[0]
    line = _deciding_line(sample, player)
    short = Path(tempfile.mkdtemp()) / "short.jsonl"
    short.write_text("".join(sample.read_text(encoding="utf-8").splitlines(keepends=True)[: line + 4]), encoding="utf-8")
    commands = {
        "hint": ["hint", str(sample), "--player", player, "--line", str(line), "--samples", "1"],
        "review": ["review", str(short), "--player", player, "--samples", "1"],
        "replay": ["replay", str(sample)],
        "--help": ["--help"],
    }
    rop = [sys.executable, "-m", "companion.cli"]
    nothing = _best([sys.executable, "-c", "pass"], args.runs)
    print(f"python doing nothing: {nothing * 1000:6.0f} ms")
    status = 0
    for name, words in commands.items():
        took = _best([*rop, *words], args.runs)
        note = ""
        if name in ("hint", "review"):
            over = took > TARGET_S
            note = f"  (target {TARGET_S * 1000:.0f} ms{': OVER' if over else ''})"
        print(f"rop {name:<8} {took * 1000:6.0f} ms, of which imports {_import_ms(words):5.0f} ms{note}")
    short.unlink()
    short.parent.rmdir()
    return status
