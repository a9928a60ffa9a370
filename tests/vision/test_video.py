"""A recorded video is a table: played at its own clock, paced or as fast as it decodes, and
its end is reported."""

from __future__ import annotations

import threading

import cv2
import pytest

from companion.cli import build_parser
from companion.commands.play import table_config
from companion.observations import CardSeen, SensorState, SensorStatus
from companion.sensors.table import TableConfig, TableConfigError, TableSensors
from vision.camera import Frame, FrameSource
from vision.reader import TableReader
from vision.render import CardPlacement, Effects, render_frame
from vision.stabiliser import Stabiliser
from vision.watch import Lag, watch

FPS = 10


class FakeClock:
    """A monotonic clock that moves only when the source sleeps."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def write_video(path, layout, owners, frames: int, *, size=(640, 360)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, size)
    assert writer.isOpened()
    card = CardPlacement("W021", "ann", (250, 180), 0)
    for i in range(frames):
        image = render_frame([card] if i >= 3 else [], layout, owners=owners, effects=Effects(noise=2, seed=i)).image
        writer.write(cv2.resize(image, size, interpolation=cv2.INTER_AREA) if size != image.shape[1::-1] else image)
    writer.release()


def test_a_video_plays_at_its_own_pace_and_says_when_it_ends(tmp_path, compact, owners):
    video = tmp_path / "table.avi"
    write_video(video, compact, owners, 20)
    clock = FakeClock()
    items = list(FrameSource(str(video), speed=1, clock=clock, sleep=clock.sleep).frames())
    frames = [i for i in items if isinstance(i, Frame)]
    assert [round(f.at - 100.0, 3) for f in frames] == [round(i / FPS, 3) for i in range(20)]
    # Each frame waited for its moment: the clock stood at the frame's time when it came.
    assert sum(clock.slept) == pytest.approx(19 / FPS)
    end = items[-1]
    assert isinstance(end, SensorStatus) and end.state is SensorState.ENDED
    assert "table.avi ended after 20 frames, 2.0 s" in end.detail
    assert end.source == "video:table.avi"


def test_a_faster_video_keeps_its_clock_and_an_unpaced_one_never_waits(tmp_path, compact, owners):
    video = tmp_path / "table.avi"
    write_video(video, compact, owners, 10)
    clock = FakeClock()
    double = [i.at for i in FrameSource(str(video), speed=2, clock=clock, sleep=clock.sleep).frames() if isinstance(i, Frame)]
    assert double[-1] - double[0] == pytest.approx(9 / FPS / 2)

    clock = FakeClock()
    source = FrameSource(str(video), speed=0, clock=clock, sleep=clock.sleep)
    seen = []
    for item in source.frames():
        if isinstance(item, Frame):
            seen.append(item.at)
            assert source.now() == item.at  # the video's clock is the latest frame's time
    assert clock.slept == []
    assert seen[-1] - seen[0] == pytest.approx(0.9)
    clock.now += 5  # after the end the video's clock runs on with real time
    assert source.now() == pytest.approx(seen[-1] + 5)


def test_rop_play_video_speed_option(tmp_path):
    def parse(*extra: str):
        args = build_parser().parse_args(["play", "--players", "ann,bob", "--video", str(tmp_path / "x.avi"), *extra])
        return args, table_config(args)

    for extra, want in (((), 1.0), (("--video-speed", "0"), 0.0), (("--video-speed", "2"), 2.0)):
        assert parse(*extra)[1].video_speed == want
    with pytest.raises(TableConfigError, match="--video-speed -1"):
        parse("--video-speed", "-1")
    bad = tmp_path / "table.json"
    bad.write_text('{"video": "x.avi", "video_speed": "fast"}')
    with pytest.raises(TableConfigError, match="video_speed: expected a number"):
        TableConfig.load(bad)


def test_the_table_plays_a_video_on_its_clock_and_reports_its_end(tmp_path, compact, compact_file, calibration_dir, owners):
    video = tmp_path / "table.avi"
    write_video(video, compact, owners, 25, size=(1920, 1080))
    config = TableConfig(video=str(video), video_speed=0, layout=str(compact_file), calibration=str(calibration_dir))
    got: list = []
    ended = threading.Event()
    sensors = TableSensors(config)

    def emit(obs) -> None:
        got.append((obs, sensors.clock()))
        if isinstance(obs, SensorStatus) and obs.state in (SensorState.ENDED, SensorState.FAILED):
            ended.set()

    sensors.start(emit)
    for thread in sensors._threads:
        thread.join()
    sensors.stop()
    assert ended.is_set(), got
    seen = [(o, now) for o, now in got if isinstance(o, CardSeen)]
    assert [(o.card.id, o.owner, o.zone) for o, _ in seen] == [("W021", "ann", "centre")]
    obs, now = seen[0]
    # Stamped on the video's clock, not the wall clock: the card lies from frame 3 and is
    # confirmed by its third read (frame 5), and the table's clock stood at that frame.
    assert now == obs.at
    status = got[-1][0]
    assert isinstance(status, SensorStatus) and status.state is SensorState.ENDED and "25 frames" in status.detail
    assert status.at - obs.at == pytest.approx((24 - 5) / FPS, abs=0.05)


def test_a_fault_downstream_of_the_camera_ends_no_camera(tmp_path, compact, compact_file, calibration_dir, owners):
    """Whoever takes the camera's observations fails on the first one it is handed (a fault of
    ours): the camera's thread goes on reading the video to its end, so the card laid later is
    still reported, and nothing dies with a traceback (the thread used to end there)."""
    video = tmp_path / "table.avi"
    write_video(video, compact, owners, 25, size=(1920, 1080))
    config = TableConfig(video=str(video), video_speed=0, layout=str(compact_file), calibration=str(calibration_dir))
    got: list = []
    sensors = TableSensors(config)

    def emit(obs) -> None:
        got.append(obs)
        if len(got) == 1:
            raise RuntimeError("the tracker's queue broke")

    sensors.start(emit)
    for thread in sensors._threads:
        thread.join()
    sensors.stop()
    assert any(isinstance(o, CardSeen) and o.card.id == "W021" for o in got), got
    assert isinstance(got[-1], SensorStatus) and got[-1].state is SensorState.ENDED


def test_a_video_read_slower_than_it_plays_says_how_far_behind_it_is(tmp_path, compact, owners):
    # Reading each frame takes half a second of the (injected) clock while the video shows
    # one every tenth: the reading falls 0.4 s further behind at every frame, and says so
    # once it is a second behind and again as the gap grows, never for every frame.
    video = tmp_path / "table.avi"
    write_video(video, compact, owners, 30)
    clock = FakeClock()
    source = FrameSource(str(video), speed=1, clock=clock, sleep=clock.sleep)
    reader = TableReader(layout=compact, owners=owners, changes_only=True)

    def slow(image, view) -> bool:
        clock.now += 0.5
        return True

    said = [(o.at, o.detail) for o in watch(source, reader, Stabiliser(layout=compact), on_frame=slow)
            if isinstance(o, SensorStatus) and "behind the video" in o.detail]
    assert 2 <= len(said) <= 8, said
    behind = [float(detail.split(" s ")[0]) for _, detail in said]
    assert 1.0 <= behind[0] < 1.5 and behind == sorted(behind)
    assert behind[-1] > 0.75 * 29 * 0.4  # the last frame came 29 x 0.4 s late


def test_a_video_read_in_time_says_nothing_of_lag(tmp_path, compact, owners):
    video = tmp_path / "table.avi"
    write_video(video, compact, owners, 20)
    clock = FakeClock()
    source = FrameSource(str(video), speed=1, clock=clock, sleep=clock.sleep)
    reader = TableReader(layout=compact, owners=owners, changes_only=True)

    def quick(image, view) -> bool:
        clock.now += 0.05  # half a frame's time
        return True

    items = list(watch(source, reader, Stabiliser(layout=compact), on_frame=quick))
    assert not [o for o in items if isinstance(o, SensorStatus) and "behind" in o.detail]
    assert source.behind() == pytest.approx(0.05)  # no more than reading the last frame took


def test_the_lag_is_said_when_it_changes_by_a_quarter_and_when_it_is_caught_up() -> None:
    lag = Lag()
    said = [lag.update(s) for s in (0.2, 0.9, 1.1, 1.5, 2.2, 2.6, 3.0, 10.0, 11.0, 13.0, 0.3, 0.2, 1.0)]
    assert said == [None, None, "1.1 s behind the video", None, "2.2 s behind the video", None, None,
                    "10.0 s behind the video", None, "13.0 s behind the video", "caught up with the video", None,
                    "1.0 s behind the video"]
