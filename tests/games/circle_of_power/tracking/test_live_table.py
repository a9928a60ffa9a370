"""A Circle of Power table as ``rop play`` and ``rop track`` start it: its configuration file
(the game, the first emperors by seat, the readers of the tap protocol), and its camera, here a
video of a season's set-up filmed over the standard mat, whose observations go through the
table's sensors (the layout and cards of its game, the seats' zones numbered) to the tracker."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import cv2
import pytest

from companion.games.circle_of_power.moves import Season
from vision.scenes import camera_over
from companion.games.circle_of_power.simulation.staging import stage
from companion.observations import CardSeen, SensorState, SensorStatus
from companion.observations.facts import facts_of
from companion.sensors.table import TableConfig, TableConfigError, TableSensors
from companion.session import GameSession
from companion.tracker import MoveApplied, Tracker, TrackerConfig
from companion.games.circle_of_power.simulation.camera import circle_layout as circle_of_power_layout
from vision.owners import OwnerRegistry
from vision.scenes import natural_play

from tests.games.circle_of_power.tracking.harness import OWNER, CopRun, same_move

FPS = 10


def config_file(tmp_path: Path, **changes: object) -> Path:
    data = {
        "game": "circle-of-power", "players": ["ann", "bob"], "variant": "lonely-tyrant", "target": 6,
        "first_dealer": "ann", "seats": ["ann", "@1", "bob", "@2"],
        "serial": ["loop://"], "readers": {"board:0": "play", "board:1": "city", "board:2": "line"},
        **changes,
    }
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    return path


def test_a_circle_of_power_table_is_configured_with_its_seats_and_readers(tmp_path: Path) -> None:
    config = TableConfig.load(config_file(tmp_path))
    assert config.setup.game.name == "circle-of-power" and config.players == ("ann", "bob")
    assert config.facts == {"seats": ("ann", "@1", "bob", "@2")}
    assert config.readers == {"board:0": "play", "board:1": "city", "board:2": "line"}
    with pytest.raises(TableConfigError, match=r"readers: board:0 is mapped to 'centre' is not a Circle of Power reader: play, city, line"):
        TableConfig.load(config_file(tmp_path, readers={"board:0": "centre"}))
    with pytest.raises(TableConfigError, match='"seats" must seat the players ann, bob and the dummies @1, @2'):
        TableConfig.load(config_file(tmp_path, seats=["ann", "bob", "cy", "@1"]))
    # A Rule of Power table's readers are still its own.
    rop = tmp_path / "rop.json"
    rop.write_text(json.dumps({"players": ["ann", "bob"], "readers": {"board:0": "centre", "board:1": "fate:ann", "board:2": "play"}}))
    with pytest.raises(TableConfigError, match=r"board:2 is mapped to 'play' names no player"):
        TableConfig.load(rop)


@pytest.mark.slow
def test_the_camera_of_a_circle_of_power_table_follows_a_season_set_up(tmp_path: Path) -> None:
    run = CopRun(2, "lonely-tyrant", seed=197)
    season = run.moves[0]
    assert type(season) is Season
    layout = circle_of_power_layout()
    scenes = [s for s in stage(run.setup, run.moves[:3], OWNER) if s.move is season]
    video = tmp_path / "table.avi"
    camera = camera_over(layout, 3.0)
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), FPS, camera.size)
    for frame in natural_play(scenes, layout, [OWNER], camera=camera, fps=FPS):
        writer.write(frame.image)
    writer.release()
    calibration = tmp_path / "cal"
    OwnerRegistry([OWNER] + [None] * 7).save(calibration / "owners.json")

    config = TableConfig.load(config_file(tmp_path, serial=[], readers={}, video=str(video), video_speed=0, calibration=str(calibration)))
    got: list = []
    ended = threading.Event()
    sensors = TableSensors(config)

    def emit(obs) -> None:
        got.append(obs)
        if isinstance(obs, SensorStatus) and obs.state in (SensorState.ENDED, SensorState.FAILED):
            ended.set()

    sensors.start(emit)
    for thread in sensors._threads:
        thread.join()
    sensors.stop()
    assert ended.is_set() and got[-1].state is SensorState.ENDED, got[-3:]
    seen = {(o.card.id, o.owner, o.zone) for o in got if isinstance(o, CardSeen)}
    cities = dict(season.cities)
    assert {(cities[name].id, OWNER, f"city:{seat}") for seat, name in enumerate(season.seats)} <= seen

    tracker = Tracker(GameSession(run.setup), TrackerConfig(first_dealer=config.first_dealer, facts=facts_of(run.setup.game).equip(config.facts, nfc=False)))
    events = []
    for obs in got:
        events += tracker.tick(obs.at)
        events += tracker.observe(obs)
    events += tracker.tick(got[-1].at + 5.0)
    (applied,) = [e.move for e in events if isinstance(e, MoveApplied)]
    assert same_move(applied, season)  # (the hands are never seen)


@pytest.mark.asyncio
async def test_rop_play_keeps_a_circle_of_power_table_its_sensors_follow(tmp_path: Path) -> None:
    from companion.cli import build_parser
    from companion.commands.play import sensor_app

    argv = ["play", "--config", str(config_file(tmp_path)), "--games-dir", str(tmp_path / "games")]
    app = sensor_app(build_parser(argv).parse_args(argv), tmp_path / "games")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.session is not None and app.session.setup.game.name == "circle-of-power"
        assert app.session.setup.players == ("ann", "bob")
        assert app.title == "Circle of Power" and app.source.status.startswith("NFC")