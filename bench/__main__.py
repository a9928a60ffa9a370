"""Run the benchmarks: ``python -m bench [NAME ...] [-- ARGS]``; NAME is ``engine`` for
``bench/bench_engine.py``. With no NAME every benchmark runs, one after the other, but those
run only when named: a research bench that measures no target of the companion (its module
sets ``ON_REQUEST = True``)."""

from __future__ import annotations

import importlib
import pkgutil
import signal
import sys
import time
from pathlib import Path


def available() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))


def by_default() -> list[str]:
    """The benchmarks run when none is named: every one but those run only on request."""
    return [n for n in available() if not getattr(importlib.import_module(f"bench.bench_{n}"), "ON_REQUEST", False)]


def stop_on_term() -> None:
    """A benchmark stopped by SIGTERM (a ``timeout``, a CI job cancelled) unwinds as one
    interrupted by Ctrl-C does: what it started is stopped and removed on the way out (its
    throw-away PostgreSQL cluster, its server processes, its files)."""
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))


def main(argv: list[str]) -> int:
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    names = argv or by_default()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}", file=sys.stderr)
        return 2
    status = 0
    for name in names:
        print(f"== {name} ==", flush=True)
        start = time.perf_counter()
        module = importlib.import_module(f"bench.bench_{name}")
        status |= int(module.main(extra) or 0)
        print(f"({name}: {time.perf_counter() - start:.1f} s)\n", flush=True)
    return status


if __name__ == "__main__":
    stop_on_term()
    sys.exit(main(sys.argv[1:]))
