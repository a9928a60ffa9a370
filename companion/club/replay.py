"""A stored game move by move, for the page: after each event the centre, the totals, the
round's running score, and at the end of each round its settlement with the reasons."""

from __future__ import annotations

import json
from typing import Any

from companion.games.rule_of_power.club.describe import card_label, describe_event
from companion.games.rule_of_power.engine.game import Phase
from companion.games.rule_of_power.engine.moves import Move
from companion.records.format import Replayer, read_record

__all__ = ["replay_steps"]


class _Steps(Replayer):
    def __init__(self, events: list[dict[str, Any]]) -> None:
        super().__init__()
        self.events = events
        self.steps: list[dict[str, Any]] = []
        self._rounds = 0

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        game = self.game
        assert game is not None
        step: dict[str, Any] = {
            "number": line,
            "text": describe_event(self.events[line - 1]),
            "centre": [card_label(c.id) for c in game.centre],
            "totals": game.totals,
        }
        if game.phase in (Phase.DEAL, Phase.TURN):
            step["running"] = {s: p.total for s, p in game.provisional_score().sides.items()}
        if len(game.results) > self._rounds:
            self._rounds = len(game.results)
            result = game.results[-1]
            step["settlement"] = {
                "round": result.number,
                "points": {s: p.to_json() for s, p in result.score.sides.items()},
                "reasons": result.score.reasons(),
            }
        self.steps.append(step)


def replay_steps(lines: list[str]) -> list[dict[str, Any]]:
    """Every event of a stored (canonical, valid) record as a step."""
    events = [json.loads(t) for t in lines]
    visitor = _Steps(events)
    read_record(lines, visitor)
    header = events[0]
    return [{"number": 1, "text": describe_event(header), "centre": [], "totals": {}}] + visitor.steps
