"""The table tracker as the dashboard's move source: sensors in, moves out.

Sensors (a camera, NFC readers, the camera-simulated demo table) run in their own threads and
put observations on a queue; a worker thread of the app feeds them to the
:class:`~companion.tracker.Tracker` and posts what it decides: moves
(:class:`~companion.dashboard.messages.MoveProposed`), questions for the table
(:class:`TrackerSource.Asks`), hints and desync reports (notes), sensor status
(:class:`TrackerSource.StatusChanged`). Corrections typed at the dashboard go down to the
tracker (:meth:`submit`, :meth:`undone`), which stays the one judge of the table.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from textual.message import Message

from companion.dashboard.messages import MoveProposed, SourceNote
from companion.dashboard.sources import ManualSource
from companion.engine.game import GameState, IllegalMoveError
from companion.engine.moves import DrawFate, Move
from companion.observations import DrawAnnounced, Observation, SensorStatus
from companion.tracker import (
    InSync,
    MoveApplied,
    MoveUndone,
    Notice,
    OutOfSync,
    Question,
    RuleHint,
    Tracker,
    TrackerEvent,
    TrackerState,
)

__all__ = ["StartSensors", "TrackerSource"]


class Stoppable(Protocol):
    def stop(self) -> None: ...


class Recorder(Protocol):
    def record(self, obs: Observation) -> None: ...


StartSensors = Callable[[Callable[[Observation], None]], Stoppable]


class TrackerSource(ManualSource):
    """Moves from the sensors, through the tracker; manual entry stays open for corrections."""

    name = "tracker"
    deals_by_hand = False

    class Asks(Message):
        """The tracker needs the table to choose between moves."""

        def __init__(self, question: Question) -> None:
            super().__init__()
            self.question = question

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
        super().__init__(fate_sets={p: list(c) for p, c in tracker.config.fate_decks.items()}, first_dealer=tracker.config.first_dealer)
        self.tracker = tracker
        self.start_sensors = start_sensors
        self.label = label
        self.clock = clock
        """The clock the sensors stamp observations with: the tracker's time passes on it."""
        self.recorder = recorder
        """Where every observation the tracker takes in is also written (an observation log)."""
        self.queue: queue.Queue[Observation | None] = queue.Queue()
        self.sensor_states: dict[str, str] = {}
        self._lock = threading.Lock()
        self._sensors: Stoppable | None = None
        self._stopped = threading.Event()
        self.handled = 0
        """Observations taken in so far (the latency benchmark waits on it)."""

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        assert self.app is not None
        self._sensors = self.start_sensors(self.queue.put)
        self.app.run_worker(self._run, name="tracker", group="source", thread=True, exclusive=True)
        # Moves the rules force at once (the first round when its dealer is known).
        self._publish(self._locked(self.tracker.begin))

    def stop(self) -> None:
        self._stopped.set()
        self.queue.put(None)
        if self._sensors is not None:
            self._sensors.stop()

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                obs = self.queue.get(timeout=0.25)
            except queue.Empty:
                obs = None
            if obs is None:
                events = self._locked(lambda: self.tracker.tick(self.clock()))
            else:
                self._record(obs)
                if isinstance(obs, SensorStatus):
                    self.sensor_states[obs.source] = obs.state.value
                    self.post(TrackerSource.StatusChanged())
                events = self._locked(lambda: self.tracker.tick(obs.at) + self.tracker.observe(obs))
                self.handled += 1
            self._publish(events)

    def _record(self, obs: Observation) -> None:
        if self.recorder is not None:
            try:
                self.recorder.record(obs)
            except OSError as exc:
                # A full disk must not stop the game; the log keeps what it had.
                self.recorder = None
                self.post(SourceNote(f"The observation log stopped: {exc.strerror}", self.name, severity="error"))

    def _locked(self, fn: Callable[[], list[TrackerEvent]]) -> list[TrackerEvent]:
        with self._lock:
            return fn()

    # ------------------------------------------------------------------ tracker -> dashboard

    def _publish(self, events: list[TrackerEvent]) -> None:
        for e in events:
            if isinstance(e, MoveApplied):
                self.post(MoveProposed(e.move, f"{self.name} ({e.how})"))
            elif isinstance(e, Question):
                self.post(TrackerSource.Asks(e))
            elif isinstance(e, RuleHint):
                self.post(SourceNote(e.message, self.name, severity="warning"))
            elif isinstance(e, OutOfSync):
                self.post(SourceNote("Out of sync with the table: " + "; ".join(e.differences), self.name, severity="error"))
                self.post(TrackerSource.StatusChanged())
            elif isinstance(e, InSync):
                self.post(SourceNote("The table matches the game again", self.name))
                self.post(TrackerSource.StatusChanged())
            elif isinstance(e, Notice):
                self.post(SourceNote(e.message, self.name))
            elif isinstance(e, MoveUndone):
                pass  # the dashboard undid it first

    # ------------------------------------------------------------------ dashboard -> tracker

    def submit(self, move: Move, *, attempt: bool = False) -> None:
        """A correction typed or picked at the dashboard."""
        if isinstance(move, DrawFate):
            draw = DrawAnnounced("dashboard", self.clock(), move.player)
            self._record(draw)
            self._publish(self._locked(lambda: self.tracker.observe(draw)))
            return
        try:
            events = self._locked(lambda: self.tracker.apply_manual(move))
        except IllegalMoveError:
            # The dashboard checks it again and flags it with its rule.
            self.post(MoveProposed(move, self.name, attempt=True))
            return
        self._publish(events)

    def rewound(self, game: GameState) -> None:
        """The dashboard undid events: so does the tracker, back to the same point."""

        def undo() -> list[TrackerEvent]:
            events: list[TrackerEvent] = []
            while len(self.tracker.game.move_stack) > len(game.move_stack):
                events += self.tracker.undo()
            return events

        self._publish(self._locked(undo))

    def reapplied(self, move: Move) -> None:
        """The dashboard re-applied ``move``: the tracker too, and what the rules force after
        it is sent up (the move itself is already there)."""
        try:
            events = self._locked(lambda: self.tracker.apply_manual(move))
        except IllegalMoveError as exc:
            self.post(SourceNote(f"The tracker could not follow the redo: {exc}", self.name, severity="error"))
            return
        self._publish(events[1:])

    def answer(self, index: int | None) -> None:
        if index is None:
            return
        self._publish(self._locked(lambda: self.tracker.answer(index)))

    # ------------------------------------------------------------------ reading

    @property
    def status(self) -> str:
        sensors = ", ".join(f"{name} {state}" for name, state in sorted(self.sensor_states.items())) or f"{self.label}: waiting"
        state = self.tracker.state
        sync = {
            TrackerState.SYNCED: "in sync",
            TrackerState.WAITING: "move under way",
            TrackerState.ASKING: "question for the table",
            TrackerState.OUT_OF_SYNC: "OUT OF SYNC",
        }[state]
        return f"{sensors}; {sync}"

    def snapshot(self) -> Any:
        """The tracker's game (read under the lock, for tests and the benchmark)."""
        with self._lock:
            return self.tracker.game.copy(keep_history=False)
