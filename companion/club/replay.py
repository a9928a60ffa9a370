"""A stored game move by move, for the page: after each event its words, the totals and what
its game shows of it (:meth:`companion.club.parts.ClubPart.steps`; for Rule of Power the
centre, the round's running score, and at the end of each round its settlement with the
reasons)."""

from __future__ import annotations

import json
from typing import Any

from companion.club.parts import ClubPart, Steps, require_part
from companion.contract import Move, Setup
from companion.records.format import Replayer, read_record

__all__ = ["replay_steps"]


class _Steps(Replayer):
    def __init__(self, events: list[dict[str, Any]]) -> None:
        super().__init__()
        self.events = events
        self.steps: list[dict[str, Any]] = []
        self.part: ClubPart | None = None
        self.view: Steps | None = None

    def begin_game(self, setup: Setup, line: int) -> None:
        super().begin_game(setup, line)
        self.part = require_part(setup.game)
        self.view = self.part.steps()

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        assert self.part is not None and self.view is not None
        step = {"number": line, "text": self.part.describe(self.events[line - 1])}
        step.update(self.view.after(self.game))
        self.steps.append(step)


def replay_steps(lines: list[str]) -> list[dict[str, Any]]:
    """Every event of a stored (canonical, valid) record as a step."""
    events = [json.loads(t) for t in lines]
    visitor = _Steps(events)
    read_record(lines, visitor)
    assert visitor.part is not None and visitor.view is not None
    header = events[0]
    first = {"number": 1, "text": visitor.part.describe(header)}
    first.update(visitor.view.first(header))
    return [first] + visitor.steps
