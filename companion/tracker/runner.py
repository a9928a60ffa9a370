"""Running the tracker on live sensors, with or without a screen.

Sensors (a camera, NFC readers, the camera-simulated demo table, a played-back observation
log) run in their own threads and put observations on a queue; :meth:`TrackerRunner.run`
takes them one at a time, in one thread, and feeds them to the tracker with the session
locked, letting time pass on the sensors' clock between observations. What the tracker says
(questions, hints, desyncs, notices) goes to ``on_events``; the moves it finds go to the session,
whose listeners hear them. The dashboard runs it in a worker thread; ``rop track`` runs it in
the main thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Protocol

from companion.observations import Observation, SensorState, SensorStatus
from companion.tracker.events import Failure, Notice, TrackerEvent
from companion.tracker.tracker import Tracker

__all__ = ["TrackerRunner", "StartSensors", "Stoppable", "Recorder"]

log = logging.getLogger(__name__)


class Stoppable(Protocol):
    def stop(self) -> None: ...


class Recorder(Protocol):
    def record(self, obs: Observation) -> None: ...


StartSensors = Callable[[Callable[[Observation], None]], Stoppable]
"""Starts the table's sensors, each observation going to the callable given; returns them."""

_END = object()
"""Put on the queue by :meth:`TrackerRunner.finish`: the sensors have nothing more to say."""

TICK = 0.25
"""Seconds between two looks at the clock when no observation comes (the tracker's waits)."""


class TrackerRunner:
    """Feeds the observations of ``start_sensors`` to ``tracker``. ``clock`` is the clock the
    sensors stamp observations with; ``recorder`` also writes every observation to an
    observation log; ``on_status`` hears each sensor's connection state."""

    def __init__(
        self,
        tracker: Tracker,
        start_sensors: StartSensors,
        on_events: Callable[[list[TrackerEvent]], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        recorder: Recorder | None = None,
        on_status: Callable[[SensorStatus], None] | None = None,
    ) -> None:
        self.tracker = tracker
        self.start_sensors = start_sensors
        self.on_events = on_events
        self.clock = clock
        self.recorder = recorder
        self.on_status = on_status
        self.queue: queue.Queue[Observation | object | None] = queue.Queue()
        self.sensor_states: dict[str, str] = {}
        self.sensor_behind: dict[str, float] = {}
        """How far each video's reading trails its clock, while it trails (a second or more)."""
        self.handled = 0
        """Observations taken in so far (the latency benchmark waits on it)."""
        self._sensors: Stoppable | None = None
        self._stopped = threading.Event()

    def start(self) -> None:
        """Start the sensors, and apply what the rules force before anything is seen. Sensors
        that fail to start are reported (the game goes on, entered by hand)."""
        try:
            self._sensors = self.start_sensors(self.queue.put)
        except Exception as exc:  # noqa: BLE001 - reported; the game can still be kept by hand
            log.exception("the sensors failed to start")
            self._tell([Failure(f"The sensors failed to start ({type(exc).__name__}: {exc}); enter the moves by hand")])
        self._tell(self.locked(self.tracker.begin))

    @property
    def sensors(self) -> Stoppable | None:
        """What :attr:`start_sensors` started."""
        return self._sensors

    def stop(self) -> None:
        self._stopped.set()
        self.queue.put(None)
        if self._sensors is not None:
            self._sensors.stop()
        self.tracker.close()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def finish(self) -> None:
        """The sensors have ended (a played-back log): :meth:`run` returns once it has taken
        in everything they said."""
        self.queue.put(_END)

    def locked(self, fn: Callable[[], list[TrackerEvent]]) -> list[TrackerEvent]:
        """``fn`` run with the session locked (the tracker reads and changes it). A fault
        inside the tracker ends no game: it is reported, and the record and the sensors go on."""
        with self.tracker.session.lock:
            try:
                return fn()
            except Exception as exc:  # noqa: BLE001 - any fault of ours, reported, never fatal
                log.exception("the tracker failed")
                return [Failure(f"The tracker failed and goes on ({type(exc).__name__}: {exc}); the record is kept")]

    def observe(self, obs: Observation) -> None:
        """An observation from outside the sensors (a draw announced at the keyboard)."""
        self.record(obs)
        self._tell(self.locked(lambda: self.tracker.observe(obs)))

    def run(self) -> None:
        """Take observations until :meth:`stop` (or, after :meth:`finish`, until every one
        has been taken). A fault while taking one ends no game: it is reported (a
        :class:`Failure`) and the next observation is taken."""
        while not self._stopped.is_set():
            try:
                if not self._step():
                    return
            except Exception as exc:  # noqa: BLE001 - any fault of ours, reported, never fatal
                log.exception("the tracker's loop failed")
                self._tell([Failure(f"The tracker failed and goes on ({type(exc).__name__}: {exc}); the record is kept")])

    def _step(self) -> bool:
        """Take the next observation (or let time pass when none comes); ``False`` once the
        sensors have finished."""
        try:
            obs = self.queue.get(timeout=TICK)
        except queue.Empty:
            obs = None
        if obs is _END:
            return False
        if obs is None:
            events = self.locked(lambda: self.tracker.tick(self.clock()))
        elif not isinstance(obs, Observation):
            events = [Failure(f"A sensor reported {type(obs).__name__}, which is no observation; it is ignored")]
        else:
            self.record(obs)
            if isinstance(obs, SensorStatus):
                self.sensor_states[obs.source] = obs.state.value
                if obs.behind is not None and obs.behind >= 0.5:
                    self.sensor_behind[obs.source] = obs.behind
                elif obs.behind is not None or obs.state is not SensorState.CONNECTED:
                    self.sensor_behind.pop(obs.source, None)
                if self.on_status is not None:
                    self.on_status(obs)
            events = self.locked(partial(self._take, obs))
            self.handled += 1
        self._tell(events)
        return True

    def _tell(self, events: list[TrackerEvent]) -> None:
        """What the tracker said, to whoever listens; a listener's fault ends no game either."""
        try:
            self.on_events(events)
        except Exception:  # noqa: BLE001 - logged; the sensors and the record go on
            log.exception("a listener of the tracker failed")

    def _take(self, obs: Observation) -> list[TrackerEvent]:
        # Time passes to the observation's own moment first (the tracker's waits).
        return self.tracker.tick(obs.at) + self.tracker.observe(obs)

    def record(self, obs: Observation) -> None:
        if self.recorder is not None:
            try:
                self.recorder.record(obs)
            except OSError as exc:
                # A full disk must not stop the game; the log keeps what it had.
                self.recorder = None
                self._tell([Notice(f"The observation log stopped: {exc.strerror}")])
            except Exception as exc:  # noqa: BLE001 - a fault of the log's, reported, never fatal
                log.exception("the observation log failed")
                self.recorder = None
                self._tell([Failure(f"The observation log stopped ({type(exc).__name__}: {exc}); the game goes on")])
