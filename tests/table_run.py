"""What a table that plays a known game in front of the tracker does the same for every game:
it passes each observation to the tracker on the test's clock, checks every move the tracker
applies against the true game, and answers each question with the truth, counting them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.observations import Observation
from companion.tracker import MoveApplied, OutOfSync, Question, RuleHint, Tracker


class TrackedTable:
    """``moves``, the true game, played on a table watched by ``tracker``; a game's run sets
    ``same_move``: whether a tracked move is the true one as far as its sensors can tell."""

    same_move: Callable[[Any, Any], bool]
    truth: Any

    def __init__(self, tracker: Tracker, moves: Sequence[Any]) -> None:
        self.tracker = tracker
        self.moves = moves
        self.applied: list[Any] = []
        self.events: list[object] = []
        self.questions = 0
        self.now = 0.0

    def handle(self, events: Sequence[object]) -> None:
        for e in events:
            self.events.append(e)
            if isinstance(e, MoveApplied):
                self.applied.append(e.move)
                true = self.moves[len(self.applied) - 1]
                assert self.same_move(e.move, true), f"tracked {e.move} ({e.how}) but the table played {true}"
            elif isinstance(e, Question):
                self.questions += 1
                n = len(self.applied)
                for i, choice in enumerate(e.choices):
                    if all(self.same_move(a, b) for a, b in zip(choice.moves, self.moves[n : n + len(choice.moves)])):
                        self.handle(self.tracker.answer(i))
                        break
                else:
                    raise AssertionError(f"none of the choices is what happened: {e}")

    def feed(self, observations: Sequence[Observation]) -> None:
        for obs in observations:
            self.handle(self.tracker.tick(obs.at))
            self.handle(self.tracker.observe(obs))

    def wait(self, seconds: float) -> list[object]:
        """The clock moved on ``seconds``: what the tracker said meanwhile."""
        self.now += seconds
        before = len(self.events)
        self.handle(self.tracker.tick(self.now))
        return self.events[before:]

    def problems(self) -> list[object]:
        """What the tracker said was wrong: the table out of step, a rule hint."""
        return [e for e in self.events if isinstance(e, (OutOfSync, RuleHint))]

    def assert_kept(self, *, keys: int = 0) -> None:
        """The true game (``truth``, played out: a game's run sets it) was kept exactly: nothing
        said wrong, ``keys`` questions answered, every move applied, the same results and the
        same outcome."""
        assert not self.problems(), self.problems()[:3]
        assert self.questions == keys, [e for e in self.events if isinstance(e, Question)][:2]
        assert len(self.applied) == len(self.moves), (len(self.applied), len(self.moves))
        game = self.tracker.game
        assert game.is_game_over()
        assert [r.to_json() for r in game.results] == [r.to_json() for r in self.truth.results]
        assert game.outcome() == self.truth.outcome()
