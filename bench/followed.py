"""A game followed by the tracker through simulated sensors, timed as ``bench table`` reports
it: filmed frames read one after another on the video's clock, or taps on the emulated
reader board. Shared by the games' table benchmarks (:mod:`bench.bench_table_circle`,
:mod:`bench.bench_table_lmpd`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ["Followed", "follow_film", "follow_taps"]


class Followed:
    """The players' side of a followed game: the true ``moves``, the ``tracker`` following them,
    the moves it ``applied``, the ``problems`` (a move other than the one played, a desync, a
    rule hint, a question no choice of which is the truth) and the ``keys`` pressed to answer
    its questions (always the right choice). ``same`` is the game's "alike as far as sensors
    can tell"; with ``checked`` false, only the questions are held to it."""

    moves: list[Any]
    tracker: Any

    def __init__(self, same: Callable[[Any, Any], bool], *, checked: bool = True) -> None:
        self.same = same
        self.checked = checked
        self.applied: list[Any] = []
        self.problems: list[Any] = []
        self.keys = 0

    def handle(self, events: Sequence[Any]) -> None:
        from companion.tracker import MoveApplied, OutOfSync, Question, RuleHint

        for e in events:
            if isinstance(e, MoveApplied):
                n = len(self.applied)
                self.applied.append(e.move)
                if self.checked and (n >= len(self.moves) or not self.same(e.move, self.moves[n])):
                    self.problems.append(e)
            elif isinstance(e, Question):
                n = len(self.applied)
                for i, choice in enumerate(e.choices):
                    if all(self.same(a, b) for a, b in zip(choice.moves, self.moves[n : n + len(choice.moves)])):
                        self.keys += 1
                        self.handle(self.tracker.answer(i))
                        break
                else:
                    self.problems.append(e)
            elif isinstance(e, (OutOfSync, RuleHint)):
                self.problems.append(e)


def follow_film(
    frames: Iterable[Any], moves: Sequence[Any], tracker: Any, handle: Callable[[Sequence[Any]], None], applied: Sequence[Any], timed: Callable[[Any], bool]
) -> tuple[list[float], float]:
    """Each filmed frame's observations handed to ``tracker`` (its events to ``handle``, which
    appends the moves applied to ``applied``), then five seconds more. Returns, for each move
    whose scenes ``timed`` says to time, how long after the last hand that showed it left the
    table the tracker applied it (seconds); and the mean time to read a frame (ms)."""
    last: dict[int, Any] = {}  # move index -> the last hand's action that showed it
    known: dict[int, float] = {}  # move index -> when the tracker applied it
    seconds, count, t = 0.0, 0, 0.0
    for frame in frames:
        t = frame.at
        action = frame.action
        if action is not None and action.scene.move is not None and timed(action.scene):
            last[next(i for i, m in enumerate(moves) if m is action.scene.move)] = action
        before = len(applied)
        handle(tracker.tick(t))
        for obs in frame.observations:
            handle(tracker.observe(obs))
        for k in range(before, len(applied)):
            known[k] = t
        seconds += frame.read_s
        count += 1
    handle(tracker.tick(t + 5.0))
    # (An action's hand_gone is only set once its hand has left, so delays are read at the end.)
    delays = [known[k] - a.hand_gone for k, a in sorted(last.items()) if k in known]
    return delays, 1000 * seconds / max(1, count)


def follow_taps(board: Any, tracker: Any, handle: Callable[[Sequence[Any]], None], slots: dict[str, str], taps: Iterable[tuple[Any, list[Any]]], owner: str) -> list[float]:
    """Each tap of ``taps`` (a game's moves with the taps that make them) held to its reader of
    the emulated ``board`` (``slots``: the reader's place on it) and lifted again, the host's
    observation handed to ``tracker`` and its events to ``handle``. Returns, for each tap, the
    seconds from the tag held to the reader to the tracker's answer."""
    delays: list[float] = []
    for _, made in taps:
        for tap in made:
            reader = slots[tap.reader]
            began = time.perf_counter()
            events = tracker.observe(board.hold(reader, tap.card, owner))
            delays.append(time.perf_counter() - began)
            board.lift(reader)
            handle(events)
    return delays
