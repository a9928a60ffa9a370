"""The table tracker as the dashboard's move source: sensors in, moves out.

Sensors (a camera, NFC readers, the camera-simulated demo table) run in their own threads and
put observations on a queue; a worker thread of the app feeds them to the
:class:`~companion.tracker.Tracker`, which proposes the moves it finds to the game session
(the dashboard hears them from the session, like any move) and says what else it decided:
questions for the table (:class:`TrackerSource.Asks`), hints and desync reports (notes),
sensor status (:class:`TrackerSource.StatusChanged`). Moves typed at the dashboard go to the
session too; the tracker hears of them there, and a typed move no sensor sees (a card drawn
face down) is announced to the tracker instead, as the game's kit words it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.message import Message

from typing import Any

from companion.dashboard.messages import SourceNote
from companion.dashboard.sources import ManualSource
from companion.contract import Move
from companion.observations import behind_words
from companion.session import GameSession
from companion.tracker import (
    Failure,
    InSync,
    Notice,
    OutOfSync,
    Question,
    RuleHint,
    Tracker,
    TrackerEvent,
    TrackerState,
)
from companion.tracker.runner import Recorder, StartSensors, TrackerRunner

__all__ = ["StartSensors", "TrackerSource"]


class TrackerSource(ManualSource):
    """Moves from the sensors, through the tracker; manual entry stays open for corrections."""

    name = "tracker"
    deals_by_hand = False
    live = True

    class Asks(Message):
        """The tracker needs the table to choose between moves."""

        def __init__(self, question: Question) -> None:
            super().__init__()
            self.question = question

    class QuestionClosed(Message):
        """The open question was resolved without the keyboard (a tap named the target, the
        table changed): its dialog closes."""

    class StatusChanged(Message):
        """A sensor's state or the tracker's state changed: the status line is redrawn."""

    def __init__(
        self,
        tracker: Tracker,
        start_sensors: StartSensors,
        *,
        label: str = "sensors",
        clock: Callable[[], float] = time.monotonic,
        recorder: Recorder | None = None,
    ) -> None:
        super().__init__(first_dealer=tracker.config.first_dealer, facts=tracker.config.facts)
        self.tracker = tracker
        self.label = label
        self._asking = False
        self.runner = TrackerRunner(tracker, start_sensors, self._publish, clock=clock, recorder=recorder, on_status=lambda _: self.post(TrackerSource.StatusChanged()))

    def new_session(self) -> GameSession:
        return self.tracker.session

    @property
    def clock(self) -> Callable[[], float]:
        """The clock the sensors stamp observations with: the tracker's time passes on it."""
        return self.runner.clock

    @property
    def handled(self) -> int:
        """Observations taken in so far (the latency benchmark waits on it)."""
        return self.runner.handled

    @property
    def sensor_states(self) -> dict[str, str]:
        return self.runner.sensor_states

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        assert self.app is not None
        self.app.run_worker(self.runner.run, name="tracker", group="source", thread=True, exclusive=True)
        self.runner.start()

    def stop(self) -> None:
        self.runner.stop()

    # ------------------------------------------------------------------ tracker -> dashboard

    def _publish(self, events: list[TrackerEvent]) -> None:
        # The moves themselves reach the dashboard from the session.
        if self._asking and self.tracker.question is None:
            self.post(TrackerSource.QuestionClosed())
        self._asking = self.tracker.question is not None
        for e in events:
            if isinstance(e, Question):
                self.post(TrackerSource.Asks(e))
            elif isinstance(e, RuleHint):
                self.post(SourceNote(e.message, self.name, severity="warning"))
            elif isinstance(e, OutOfSync):
                self.post(SourceNote("Out of sync with the table: " + "; ".join(e.differences), self.name, severity="error"))
                self.post(TrackerSource.StatusChanged())
            elif isinstance(e, InSync):
                self.post(SourceNote("The table matches the game again", self.name))
                self.post(TrackerSource.StatusChanged())
            elif isinstance(e, Failure):
                # A fault of the companion's: shown as one, while the game goes on.
                self.post(SourceNote(e.message, self.name, severity="error"))
            elif isinstance(e, Notice):
                self.post(SourceNote(e.message, self.name))

    # ------------------------------------------------------------------ dashboard -> tracker

    def submit(self, move: Move) -> None:
        """A move typed or picked at the dashboard goes to the session (the tracker hears of
        it there); one that no sensor sees (a Fate card drawn) is announced to the tracker."""
        assert self.kit is not None
        announced = self.kit.announcement(move, source="dashboard", at=self.clock())
        if announced is not None:
            self.runner.observe(announced)
            return
        super().submit(move)

    def answer(self, index: int | None) -> None:
        if index is None:
            return
        self._publish(self.runner.locked(lambda: self.tracker.answer(index)))

    # ------------------------------------------------------------------ reading

    @property
    def status(self) -> str:
        behind = self.runner.sensor_behind
        sensors = ", ".join(
            f"{name} {state}" + (f", {behind_words(behind[name])}" if name in behind else "") for name, state in sorted(self.sensor_states.items())
        ) or f"{self.label}: waiting"
        state = self.tracker.state
        sync = {
            TrackerState.SYNCED: "in sync",
            TrackerState.WAITING: "move under way",
            TrackerState.ASKING: "question for the table",
            TrackerState.OUT_OF_SYNC: "OUT OF SYNC",
        }[state]
        return f"{sensors}; {sync}"

    def snapshot(self) -> Any:
        """The session's game (read under its lock, for tests and the benchmark)."""
        return self.tracker.session.snapshot()
