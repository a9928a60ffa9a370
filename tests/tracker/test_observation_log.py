"""Observation logs: written as the sensors report, read back exactly, bad lines named by file
and line, played back on their own clock; and the recorded camera log of the demo table's
game, played through the tracker, ends with the game that was played."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest

from companion.contract import registry
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.observations.log import (
    LogPlayback,
    ObservationLog,
    ObservationLogError,
    ObservationRecorder,
    read_observation_log,
)
from companion.observations import (
    BackGone,
    BackSeen,
    CardGone,
    CardLaid,
    CardLifted,
    CardSeen,
    CardTapped,
    DrawAnnounced,
    LaidGone,
    Observation,
    SensorState,
    SensorStatus,
    UnknownTag,
)
from companion.games.rule_of_power.simulation.virtual_table import make_setup
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig, TrackerState
from tests.tracker.harness import same_move

CAMERA_LOG = Path(__file__).parents[2] / "bench" / "data" / "camera-sim-2p.jsonl"

W016, F003 = Card.from_id("W016"), Card.from_id("F003")

EVERY_KIND: list[Observation] = [
    SensorStatus("serial:/dev/ttyACM0", 100.0, SensorState.CONNECTED, "board v1", ("board:0", "board:1")),
    CardSeen("camera", 100.5, W016, None, "centre", (120.5, 80.3)),
    CardSeen("camera", 100.5, F003, "ann", "fate:ann", None),
    CardGone("camera", 101.0, W016, None, "centre"),
    BackSeen("camera", 101.0, "world", None, "centre", (90.0, 40.5), 7),
    BackSeen("camera", 101.0, "fate", "ann", None, None, 8),
    BackGone("camera", 101.25, "world", None, "centre", 7),
    CardLaid("camera", 101.25, "centre", (140.0, 80.5), 9),
    CardSeen("camera", 101.25, W016, None, "centre", (120.5, 80.3), 9),
    CardLaid("camera", 101.25, "centre", None, 10),
    LaidGone("camera", 101.25, "centre", 10),
    CardTapped("serial:/dev/ttyACM0", 101.25, W016, None, "board:0", "04A1B2C3"),
    CardLifted("serial:/dev/ttyACM0", 101.5, W016, None, "board:0", "04A1B2C3"),
    UnknownTag("usb", 102.0, "usb", "04FFFF", "not enrolled"),
    DrawAnnounced("dashboard", 102.5, "bob"),
    SensorStatus("serial:/dev/ttyACM0", 103.0, SensorState.LOST, "unplugged"),
    SensorStatus("game.mp4", 104.0, SensorState.CONNECTED, "3.2 s behind the video", behind=3.2),
]

TABLE = ObservationLog(
    GameSetup(("ann", "bob", "cy", "dee"), (("ann", "cy"), ("bob", "dee")), 16, expansion=True),
    first_dealer="dee",
    readers={"board:0": "centre", "board:1": "fate:ann"},
    hands_unseen=False,
    facts={"fate_decks": {"ann": tuple(Card.from_id(f"F00{n}") for n in range(1, 8))}, "draws_visible": True},
)


def record(path: Path, observations: list[Observation], began: float = 100.0) -> None:
    recorder = ObservationRecorder(path, TABLE, clock=lambda: began)
    for obs in observations:
        recorder.record(obs)
    recorder.close()


def test_every_kind_of_observation_is_read_back_as_it_was_recorded(tmp_path: Path) -> None:
    path = tmp_path / "table.jsonl"
    record(path, EVERY_KIND)
    log = read_observation_log(path)
    assert log.setup == TABLE.setup and TrackerConfig.from_log(log) == TrackerConfig.from_log(TABLE)
    # Times are kept from the start of the recording.
    assert [o.at for o in log.observations] == [o.at - 100.0 for o in EVERY_KIND]
    assert log.observations == [dataclasses.replace(o, at=o.at - 100.0) for o in EVERY_KIND]


def test_a_circle_of_power_table_is_read_back_as_it_was_recorded(tmp_path: Path) -> None:
    """The log's own format line does not stand in the way of the game's set-up (a Circle of
    Power log was refused as "unknown record format")."""
    from companion.games.circle_of_power.cards import Card as CircleCard
    from companion.games.circle_of_power.setup import CircleSetup

    table = ObservationLog(CircleSetup(("ann", "bob", "cy"), "coloured-cities", 1), first_dealer="bob", facts={"seats": ("ann", "bob", "cy", "@1")})
    seen = CardSeen("camera", 100.5, CircleCard.from_id("7H"), "ann", "battle:1", (300.0, 200.0))
    recorder = ObservationRecorder(tmp_path / "circle.jsonl", table, clock=lambda: 100.0)
    recorder.record(seen)
    recorder.close()
    log = read_observation_log(tmp_path / "circle.jsonl")
    assert log.setup == table.setup and log.first_dealer == "bob" and log.facts["seats"] == ("ann", "bob", "cy", "@1")
    assert log.observations == [dataclasses.replace(seen, at=0.5)]


@pytest.mark.parametrize("name", [g.name for g in registry.games() if g.tracking() is not None])
def test_every_followed_games_table_is_read_back_from_a_logs_header(name: str, tmp_path: Path) -> None:
    """The log's header carries the log's format, not the game's record format: every game
    the companion follows has its set-up read from it as from its record's ``game`` event."""
    played = registry.game(name)
    table = ObservationLog(played.make_setup(("ann", "bob")))
    path = tmp_path / "table.jsonl"
    ObservationRecorder(path, table).close()
    assert read_observation_log(path).setup == table.setup


def test_observations_recorded_from_several_threads_make_whole_lines(tmp_path: Path) -> None:
    recorder = ObservationRecorder(tmp_path / "t.jsonl", TABLE, clock=lambda: 100.0)
    threads = [threading.Thread(target=recorder.record, args=(o,)) for o in EVERY_KIND * 20]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    recorder.close()
    read = read_observation_log(tmp_path / "t.jsonl").observations
    assert sorted(map(repr, read)) == sorted(repr(dataclasses.replace(o, at=o.at - 100.0)) for o in EVERY_KIND * 20)


def test_a_last_line_cut_short_by_a_crash_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    record(path, EVERY_KIND[:3])
    path.write_text(path.read_text() + '{"t": 4.0, "source": "cam', encoding="utf-8")
    assert len(read_observation_log(path).observations) == 3


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"t": 1.0, "source": "camera", "kind": "seen", "card": "W099", "owner": null, "zone": "centre"}', "t.jsonl:3: unknown card id 'W099'"),
        ('{"t": 1.0, "source": "camera", "kind": "sighted"}', "t.jsonl:3: unknown kind 'sighted'"),
        ('{"t": 1.0, "source": "camera", "kind": "back", "deck": "world", "zone": "centre", "mark": "a"}', "t.jsonl:3: \"mark\" must be a whole number, not \"a\""),
        ('{"t": 1.0, "source": "camera", "kind": "back-gone", "zone": "centre", "mark": 1}', "t.jsonl:3: missing 'deck'"),
        ('{"t": 1.0, "source": "camera", "kind": "laid", "zone": "centre", "mark": 1.5}', "t.jsonl:3: \"mark\" must be a whole number, not 1.5"),
        ('{"t": 1.0, "source": "camera", "kind": "seen", "card": "W016", "owner": null, "zone": "centre", "mark": null}', "t.jsonl:3: \"mark\" must be a whole number, not null"),
        ('{"source": "camera", "kind": "draw", "player": "ann"}', "t.jsonl:3: missing 't'"),
        ('{"t": 1.0, "source": "camera", "kind": "status", "state": "asleep"}', "t.jsonl:3: \"state\" must be one of connected, lost, reconnecting, failed, ended, not \"asleep\""),
        ('{"t": 1.0, "source": "camera", "kind": "status", "state": "connected", "behind": "late"}', "t.jsonl:3: \"behind\" must be a number of seconds, not \"late\""),
        ("[1, 2]", "t.jsonl:3: an observation is a JSON object"),
        ("{not json", "t.jsonl:3: not valid JSON"),
    ],
)
def test_a_bad_line_is_named_by_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "t.jsonl"
    record(path, EVERY_KIND[:1])
    path.write_text(path.read_text() + line + "\n" + '{"t": 5.0, "source": "dashboard", "kind": "draw", "player": "ann"}\n', encoding="utf-8")
    with pytest.raises(ObservationLogError) as info:
        read_observation_log(path)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "header, message",
    [
        ("", "t.jsonl:1: empty"),
        ('{"format": "rop-record/1"}', "t.jsonl:1: not an observation log"),
        ('{"format": "rop-observations/1"}', "t.jsonl:1: header: missing 'players'"),
        ('{"format": "rop-observations/1", "players": ["ann"], "fate_decks": {"ann": ["F042"]}}', "t.jsonl:1: header: unknown card id 'F042'"),
    ],
)
def test_a_bad_header_is_named(tmp_path: Path, header: str, message: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(header + "\n", encoding="utf-8")
    with pytest.raises(ObservationLogError) as info:
        read_observation_log(path)
    assert message in str(info.value)


def test_a_missing_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(ObservationLogError, match="cannot read the observation log"):
        read_observation_log(tmp_path / "nowhere.jsonl")


def test_playback_keeps_the_order_and_the_pace_of_the_log() -> None:
    """2 s of the log at ten times the speed take 0.2 s of the playback's clock, one
    observation every 0.05 s, in order (an injected clock: the test never waits on time)."""

    class Clock:
        t = 100.0

        def now(self) -> float:
            return self.t

        def sleep(self, seconds: float) -> bool:
            self.t += seconds
            return False

    clock = Clock()
    observations = [DrawAnnounced("dashboard", 10.0 + k * 0.5, "ann") for k in range(5)]
    got: list[tuple[float, Observation]] = []
    playback = LogPlayback(observations, speed=10.0, now=clock.now, sleep=clock.sleep)
    playback.start(lambda obs: got.append((clock.now(), obs)))
    playback.wait()
    assert [o for _, o in got] == observations
    assert [round(t - got[0][0], 6) for t, _ in got] == [0.0, 0.05, 0.1, 0.15, 0.2]
    assert playback.clock() == pytest.approx(12.0)


def test_playback_at_speed_zero_emits_everything_at_once() -> None:
    got: list[Observation] = []
    playback = LogPlayback(EVERY_KIND, speed=0).start(got.append)
    playback.stop()
    assert got == EVERY_KIND
    assert playback.clock() == EVERY_KIND[-1].at


def test_the_recorded_camera_log_of_the_demo_game_is_followed_to_the_end() -> None:
    """The demo table's whole game (two players, Fate decks) as the camera path reported it:
    rendered frames, seal detection and the stabiliser, crowded centres included. Played
    through the tracker it gives the game the virtual table played, to its last move and
    final scores. (Recorded with ``python -m bench.record_observations``; if the virtual
    table's game changes, record it again.)"""
    from companion.games.rule_of_power.simulation.camera_sim import CameraSimulation

    log = read_observation_log(CAMERA_LOG)
    truth = CameraSimulation(make_setup(2), seed=7, fate=True)
    tracker = Tracker(GameSession(log.setup), TrackerConfig.from_log(log))
    events = tracker.begin()
    for obs in log.observations:
        events += tracker.tick(obs.at) + tracker.observe(obs)
    moves = list(tracker.game.move_stack)
    assert len(moves) == len(truth.moves)
    assert all(same_move(a, b) for a, b in zip(moves, truth.moves))
    assert tracker.state is TrackerState.SYNCED
    played = GameState(truth.setup)
    for move in truth.moves:
        played.push(move)
    assert tracker.game.totals == played.totals and tracker.game.outcome() == played.outcome()
    assert tracker.game.outcome() is not None


def test_a_log_already_there_is_never_written_over(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    record(path, EVERY_KIND)
    with pytest.raises(ObservationLogError, match="exists already"):
        ObservationRecorder(path, TABLE)
    assert len(read_observation_log(path).observations) == len(EVERY_KIND)
    with pytest.raises(ObservationLogError, match="cannot write the observation log"):
        ObservationRecorder(tmp_path / "no" / "such" / "dir.jsonl", TABLE)
