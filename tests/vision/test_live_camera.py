"""A live camera never makes its reader fall behind: when frames come faster than they are
read, the reader gets the newest and the older ones are dropped, while every change of the
camera's state still comes through, in order."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from companion.observations import SensorState, SensorStatus
from vision.camera import Frame, FrameSource, newest
from vision.render import render_frame

FPS = 10


def test_a_slow_reader_gets_the_newest_frame_and_every_state_change(tmp_path, compact, owners):
    # A recording opened as a live camera: frames come as fast as the file decodes. The
    # reader takes a frame and is busy until the camera has delivered all twelve and
    # gone quiet (the file ran out: the camera is lost, and waits to be reopened).
    video = tmp_path / "cam.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (640, 360))
    for i in range(12):
        image = cv2.resize(render_frame([], compact, owners=owners).image, (640, 360))
        cv2.putText(image, str(i), (20, 60), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 0), 3)
        writer.write(image)
    writer.release()
    quiet, go = threading.Event(), threading.Event()
    waits = []

    def wait(seconds: float) -> None:  # the camera's pause before reopening
        waits.append(seconds)
        quiet.set()
        assert go.wait(timeout=60)

    source = FrameSource(str(video), live=True, retry_s=2, sleep=wait)
    items = source.frames()
    assert isinstance(connected := next(items), SensorStatus) and connected.state is SensorState.CONNECTED
    # The first frame the reader takes is the newest when it asks: the file decodes as fast as
    # it can meanwhile, so which one that is depends on the machine (frame 0 on a quiet one).
    first = next(items)
    assert isinstance(first, Frame)
    assert quiet.wait(timeout=60)  # the reader was busy: the camera delivered everything meanwhile
    taken = [first]
    while isinstance(item := next(items), Frame):
        taken.append(item)
    # Then only the newest, not the next in line: at most two frames in all, the last the
    # twelfth, every other one dropped and counted.
    assert len(taken) <= 2 and taken[-1].index == 11 and taken[0].index <= taken[-1].index
    assert source.dropped == 12 - len(taken)
    lost = item
    assert isinstance(lost, SensorStatus) and lost.state is SensorState.LOST
    go.set()
    assert [getattr(next(items), "state", None) for _ in range(2)] == [SensorState.RECONNECTING, SensorState.CONNECTED]
    items.close()  # the reader stops: so does the camera's thread
    assert waits == [2]


def frame(index: int, at: float) -> Frame:
    return Frame(np.zeros((4, 4, 3), np.uint8), at, index)


def test_frames_are_dropped_but_state_changes_never_are() -> None:
    produced, taken = threading.Event(), threading.Event()

    def camera():
        yield frame(0, 0.0)
        assert taken.wait(timeout=60)
        yield frame(1, 0.1)
        yield SensorStatus("camera:0", 0.15, SensorState.LOST, "stopped delivering frames")
        yield SensorStatus("camera:0", 0.16, SensorState.CONNECTED, "is back")
        yield frame(2, 0.2)
        yield frame(3, 0.3)
        yield frame(4, 0.4)
        produced.set()

    counts: list[int] = []
    items = newest(camera(), counts.append)
    assert next(items).index == 0
    taken.set()
    assert produced.wait(timeout=60)
    rest = list(items)
    assert [(type(i).__name__, getattr(i, "index", None) or getattr(i, "state", None)) for i in rest] == [
        ("Frame", 1), ("SensorStatus", SensorState.LOST), ("SensorStatus", SensorState.CONNECTED), ("Frame", 4)]
    assert sum(counts) == 2  # frames 2 and 3, overtaken by 4 before they were read
