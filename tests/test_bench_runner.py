"""The benchmarks' runner (`./run bench`): a benchmark stopped by SIGTERM unwinds, so that what
it started (a throw-away PostgreSQL cluster, server processes) is stopped on the way out."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A benchmark's shape: something started, work, and the stopping of it in a `finally`. The
# process sends itself SIGTERM in the middle of the work, as `timeout` would.
SCRIPT = """
import os, signal
from bench.__main__ import stop_on_term
stop_on_term()
try:
    os.kill(os.getpid(), signal.SIGTERM)
    while True:
        pass
finally:
    print("stopped what it started", flush=True)
"""


def test_a_benchmark_stopped_by_sigterm_runs_its_cleanup() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "stopped what it started", done.stderr
    assert done.returncode == 128 + signal.SIGTERM
