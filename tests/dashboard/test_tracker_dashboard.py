"""The dashboard fed by the table tracker: the camera-simulated demo table (rendered frames,
seal detection, the stabiliser, the tracker), questions answered with one key, corrections
going down to the tracker."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.question import QuestionScreen
from companion.dashboard.tracker_source import TrackerSource
from companion.games.rule_of_power.engine.game import GameSetup
from companion.session import GameSession
from companion.games.rule_of_power.engine.moves import Play
from companion.observations import CardSeen
from companion.tracker import Tracker, TrackerConfig
from tests.dashboard.driving import until
from tests.dashboard.screen_words import screen_rows
from tests.tracker.harness import same_move


class ObservationFeed:
    """Sensors that are a list of observations put on the tracker's queue when asked."""

    def __init__(self) -> None:
        self.emit = None

    def __call__(self, emit):
        self.emit = emit
        return self

    def stop(self) -> None:
        pass


class UnpacedCamera:
    """The demo table's camera path (rendered frames, seal detection, the stabiliser) as
    fast as the frames are read, each stamped on the simulation's own clock (frame n at
    n / fps seconds). The tracker's time is that clock too (:attr:`clock`: the time of the
    latest frame), so what it decides does not depend on how loaded the machine is."""

    def __init__(self, sim) -> None:  # type: ignore[no-untyped-def]
        import threading

        self.sim = sim
        self.now = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def clock(self) -> float:
        return self.now

    def __call__(self, emit):  # type: ignore[no-untyped-def]
        import threading

        def run() -> None:
            for obs in self.sim.observations(paced=False):
                if self._stop.is_set():
                    return
                self.now = obs.at
                emit(obs)

        self._thread = threading.Thread(target=run, name="camera-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


@pytest.mark.asyncio
async def test_camera_sim_demo_follows_the_virtual_table() -> None:
    from companion.observations.log import ObservationLog
    from companion.games.rule_of_power.simulation.camera_sim import CameraSimulation
    from companion.games.rule_of_power.simulation.virtual_table import make_setup

    # As camera_sim_app builds it, with the camera unpaced and the tracker on its clock.
    setup = make_setup(2)
    sim = CameraSimulation(setup, seed=11, fate=True, step_s=1.2)
    camera = UnpacedCamera(sim)
    table = ObservationLog(setup, first_dealer=sim.first_dealer, facts={"fate_decks": sim.fate_decks, "draws_visible": True})
    source = TrackerSource(Tracker(GameSession(setup), TrackerConfig.from_log(table)), camera, label="camera-sim", clock=camera.clock)
    app = DashboardApp(source, teaching=True, setup=setup, games_dir=False)
    async with app.run_test(size=(160, 48)):
        # The bound only ends a test that is already failing; the camera path needs a few seconds.
        await until(lambda: app.game is not None and len(app.game.move_stack) >= 12, "twelve moves", limit=900)
        moves = list(app.game.move_stack)
        truth = sim.moves  # the virtual table's own game
        assert all(same_move(a, b) for a, b in zip(moves, truth)), (moves[:6], truth[:6])
        assert "camera-sim connected" in source.status
        assert source.tracker.game.move_stack[: len(moves)] == moves


@pytest.mark.asyncio
async def test_questions_corrections_and_undo_reach_the_tracker() -> None:
    setup = GameSetup(("ann", "bob"))
    feed = ObservationFeed()
    tracker = Tracker(GameSession(setup), TrackerConfig(first_dealer="bob", facts={"draws_visible": False}))
    source = TrackerSource(tracker, feed, label="test camera")
    app = DashboardApp(source, setup=setup, games_dir=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: feed.emit is not None and app.game is not None and app.game.round_number == 1)
        t = 1.0
        for cid in ("W002", "W014", "W035", "W029"):
            feed.emit(CardSeen("camera", t, Card.from_id(cid), None, "centre"))
        await until(lambda: app.game.deal_number == 1)
        assert app.game.turn == "ann"
        # Correction typed at the dashboard: ann drew a Fate card... she holds no Fate deck,
        # so the tracker refuses and the dashboard flags it with its rule.
        feed.emit(CardSeen("camera", 2.0, Card.from_id("W013"), None, "centre"))
        await until(lambda: len(app.game.move_stack) == 3)
        assert app.game.move_stack[-1] == Play("ann", Card.from_id("W013"))
        # Undo at the dashboard: the tracker takes the move back too.
        await pilot.press("ctrl+z")
        await until(lambda: len(source.tracker.game.move_stack) == 2)
        assert len(app.game.move_stack) == 2
        await pilot.press("ctrl+y")
        await until(lambda: len(source.tracker.game.move_stack) == 3)
        assert source.tracker.game.move_stack == app.game.move_stack
        # A Fate draw the camera cannot see would be a question without announcements: here
        # bob has no Fate deck, so the play is bob's and nothing is asked.
        handled = source.handled
        feed.emit(CardSeen("camera", 3.0, Card.from_id("W016"), None, "centre"))
        await until(lambda: source.handled > handled, "the tracker taking the card in")
        await pilot.pause()
        assert source.tracker.question is None and not isinstance(app.screen, QuestionScreen)


@pytest.mark.asyncio
async def test_rop_play_plays_an_observation_log_back_and_records_it_again(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``rop play --observations LOG --speed 0 --record-observations OUT``: the recorded camera
    log of the demo game is followed to its end in the dashboard, the game is saved as it goes,
    and the observations are written out again as they reach the tracker."""
    from companion.cli import build_parser
    from companion.commands.play import sensor_app
    from companion.records.store import load_for_resume
    from companion.observations.log import read_observation_log

    log_path = Path(__file__).parents[2] / "bench" / "data" / "camera-sim-2p.jsonl"
    out = tmp_path / "again.jsonl"
    games = tmp_path / "games"
    args = build_parser().parse_args(
        ["play", "--observations", str(log_path), "--speed", "0", "--record-observations", str(out), "--games-dir", str(games)]
    )
    log = read_observation_log(log_path)
    app = sensor_app(args, games)
    source = app.source
    assert isinstance(source, TrackerSource)
    async with app.run_test(size=(120, 40)):
        def finished() -> bool:
            if app.screen is not app.screen_stack[0]:
                app.pop_screen()  # a round's settlement
            # The log goes on after the winning move (the table cleared): all of it must be
            # taken in, and so written out again, before the app closes.
            over = app.game is not None and app.game.outcome() is not None
            return over and source.handled >= len(log.observations)

        await until(finished, "the end of the logged game and of its log")
        moves = list(app.game.move_stack)
    again = read_observation_log(out)
    assert again.setup == log.setup and TrackerConfig.from_log(again) == TrackerConfig.from_log(log)
    assert [dataclasses.replace(o, at=0.0) for o in again.observations] == [dataclasses.replace(o, at=0.0) for o in log.observations]
    saved, _ = load_for_resume(next(games.glob("*.jsonl")))
    assert len(saved.move_stack) == len(moves) and saved.outcome() == app.game.outcome()


@pytest.mark.asyncio
async def test_a_draw_announced_at_the_dashboard_goes_into_the_observation_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No camera sees a Fate draw: the table announces it by typing ``fate``. A log of the
    table must hold it too, or its playback would miss the draw."""
    from companion.observations.log import (
        ObservationLog,
        ObservationRecorder,
        read_observation_log,
    )

    setup = GameSetup(("ann", "bob"))
    decks = {p: tuple(Card.from_id(f"F00{n}") for n in range(1, 8)) for p in setup.players}
    table = ObservationLog(setup, first_dealer="bob", facts={"fate_decks": decks})
    recorder = ObservationRecorder(tmp_path / "table.jsonl", table)
    feed = ObservationFeed()
    source = TrackerSource(Tracker(GameSession(setup), TrackerConfig.from_log(table)), feed, label="test camera", recorder=recorder)
    app = DashboardApp(source, setup=setup, games_dir=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: feed.emit is not None and app.game is not None and app.game.round_number == 1)
        for cid in ("W002", "W014", "W035", "W029"):
            feed.emit(CardSeen("camera", source.clock(), Card.from_id(cid), None, "centre"))
        await until(lambda: app.game.deal_number == 1)
        await pilot.press(*"fate", "enter")
        await until(lambda: app.game.has_drawn_fate("ann"))
    recorder.close()
    kinds = [type(o).__name__ for o in read_observation_log(tmp_path / "table.jsonl").observations]
    assert kinds == ["CardSeen"] * 4 + ["DrawAnnounced"]


@pytest.mark.asyncio
async def test_the_status_line_says_how_far_a_video_trails_its_clock() -> None:
    """A video played at its pace that the reading trails by a second or more: the status line
    says by how much, next to the camera's state, until the reading has caught up."""
    from companion.observations import SensorState, SensorStatus

    setup = GameSetup(("ann", "bob"))
    feed = ObservationFeed()
    tracker = Tracker(GameSession(setup), TrackerConfig(first_dealer="bob", facts={"draws_visible": False}))
    source = TrackerSource(tracker, feed, label="camera")
    app = DashboardApp(source, setup=setup, games_dir=False)

    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: feed.emit is not None)
        feed.emit(SensorStatus("game.mp4", 0.0, SensorState.CONNECTED, "game.mp4 opened"))
        await until(lambda: "game.mp4 connected" in source.status, "the camera connected")
        assert "behind" not in source.status
        feed.emit(SensorStatus("game.mp4", 5.0, SensorState.CONNECTED, "3.2 s behind the video", behind=3.2))
        await until(lambda: "game.mp4 connected, 3.2 s behind the video" in source.status, "the lag said")
        await pilot.pause()
        assert "3.2 s behind the video" in screen_rows(app.export_screenshot())[0]
        feed.emit(SensorStatus("game.mp4", 9.0, SensorState.CONNECTED, "caught up with the video", behind=0.2))
        await until(lambda: "behind" not in source.status, "the lag gone once caught up")
        assert "game.mp4 connected" in source.status
