"""A simulated game written out, as every game's ``rop simulate`` ends: its record to a file or
to standard output, and, for a file, a line on standard error saying what was written."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from companion.contract import Move, Setup
from companion.observations.outfiles import OutputError
from companion.records.format import save_record

__all__ = ["write_simulated"]


def write_simulated(output: str, setup: Setup, moves: Sequence[Move], played: Callable[[Any], str]) -> int:
    """Write the record of ``setup`` and ``moves`` to ``output`` (``-``: standard output). For
    a file, say on standard error what it holds: ``played(state)`` of the game's final state
    ("3 seasons") and how it ended. The exit status: 2 with a one-line reason when the record
    cannot be written."""
    try:
        save_record(output, setup, moves)
    except OutputError as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        raise  # a reader that stopped reading (rop simulate | head): rop ends quietly
    except OSError as exc:
        return _fail(f"cannot write {output}: {exc.strerror or exc}")
    if output != "-":
        state = setup.game.new_state(setup, keep_history=False)
        for move in moves:
            state.push(move, check=False)
        outcome = state.outcome()
        result = outcome.explain() if outcome else "unfinished"
        print(f"wrote {output}: {played(state)}; {result}", file=sys.stderr)
    return 0


def _fail(message: str) -> int:
    print(f"rop simulate: {message}", file=sys.stderr)
    return 2
