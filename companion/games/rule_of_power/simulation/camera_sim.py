"""The demo table seen through the camera path: a virtual table plays a game, each step is
rendered as camera frames, and the frames go through marker detection and the stabiliser
exactly as a real camera's would."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.engine.moves import NewRound
from companion.observations import DrawAnnounced, Observation, SensorState, SensorStatus

__all__ = ["CameraSimulation", "demo_layout"]

Emit = Callable[[Observation], None]

log = logging.getLogger(__name__)


def demo_layout(players: Sequence[str]) -> Any:
    """The demo table's mat (:func:`vision.layout.demo_layout`), which seats two players."""
    from vision.layout import demo_layout as mat

    if len(players) != 2:
        raise ValueError("the camera demo table seats two players")
    return mat()


class CameraSimulation:
    """The demo table seen through the camera path: a virtual table plays a game, each step
    is rendered as camera frames, and the frames go through marker detection and the
    stabiliser exactly as a real camera's would. Fate draws, which no camera sees, are
    announced as the players would (:class:`~companion.observations.DrawAnnounced`).

    ``step_s`` is the time each step of the game stays on the table; ``fps`` the frames per
    second rendered (a still table is drawn once and its frame repeated)."""

    def __init__(self, setup: GameSetup, *, seed: int = 7, fate: bool = True, step_s: float = 1.5, fps: float = 8.0) -> None:
        from companion.games.rule_of_power.engine.game import GameState
        from companion.games.rule_of_power.simulation.virtual_table import VirtualTable

        self.setup = setup
        self.seed = seed
        self.fate = fate
        self.step_s = step_s
        self.fps = fps
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.table = VirtualTable(setup, seed=seed, fate=fate)
        # The game the virtual table plays is decided up front, like a shuffled deck.
        self.moves = list(self.table.moves(GameState(setup, keep_history=False)))
        self.emit: Emit = lambda obs: None

    @property
    def fate_decks(self) -> dict[str, tuple[Card, ...]]:
        return {p: tuple(c) for p, c in self.table.fate_sets.items()}

    @property
    def first_dealer(self) -> str:
        first = self.moves[0]
        assert isinstance(first, NewRound)
        return first.dealer

    def start(self, emit: Emit) -> CameraSimulation:
        self.emit = emit
        self._thread = threading.Thread(target=self._run, name="camera-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def frames(self) -> Iterator[tuple[Any, Any]]:
        from companion.games.rule_of_power.simulation.staging import stage
        from vision.scenes import render_scene_frames

        players = list(self.setup.players)
        layout = demo_layout(players).seated(players)
        per_scene = max(1, round(self.step_s * self.fps))
        for scene, i, image in render_scene_frames(stage(self.setup, self.moves), layout, players, frames_per_scene=per_scene, fresh_noise=False, seed=self.seed):
            yield scene if i == 0 else None, image

    def _run(self) -> None:
        try:
            for obs in self.observations():
                if self._stop.is_set():
                    return
                self.emit(obs)
        except Exception as exc:  # noqa: BLE001 - the demo's camera fails, the game shown stays
            log.exception("the demo table's camera failed")
            self.emit(SensorStatus("camera-sim", time.monotonic(), SensorState.FAILED, f"the demo table's camera failed ({type(exc).__name__}: {exc})"))

    def observations(self, *, paced: bool = True) -> Iterator[Observation]:
        """What the camera path reports of the game, frame after frame. ``paced``: frames come
        at ``fps`` on the monotonic clock, as a camera's would; otherwise as fast as they are
        read, timed on a clock of their own (frame ``n`` at ``n / fps`` seconds), which
        records a game's observations in a fraction of its time at the table."""
        from companion.games.rule_of_power.engine.moves import DrawFate
        from vision.owners import OwnerRegistry
        from vision.reader import TableReader
        from vision.stabiliser import Stabiliser

        players = list(self.setup.players)
        mat = demo_layout(players)
        reader = TableReader(layout=mat, owners=OwnerRegistry(players + [None] * (8 - len(players))), players=players)
        stabiliser = Stabiliser(source="camera-sim", layout=mat.seated(players), gone_after_s=0.5, calm_s=0.5)
        period = 1.0 / self.fps
        began = time.monotonic()
        now = began if paced else 0.0
        yield SensorStatus("camera-sim", now, SensorState.CONNECTED, "the demo table's virtual camera")
        for n, (scene, image) in enumerate(self.frames()):
            if paced:
                delay = began + n * period - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return
                now = time.monotonic()
            else:
                now = n * period
            if scene is not None and isinstance(scene.move, DrawFate):
                yield DrawAnnounced("camera-sim", now, scene.move.player)
            yield from stabiliser.update(reader.read(image), image, now)
