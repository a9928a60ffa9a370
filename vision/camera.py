"""Camera frames through OpenCV: a live camera (index or stream URL) or a video file.

:class:`FrameSource` yields :class:`Frame` values and, for live cameras,
:class:`~companion.observations.SensorStatus` changes: a camera that stops delivering is
reported ``LOST``, reopened every ``retry_s`` seconds (``RECONNECTING``) and ``CONNECTED``
again when it answers; after ``max_retries`` failed attempts it is ``FAILED`` and the source
ends.

A video file is a table filmed earlier, played at its own clock: each frame is stamped with
its position in the video (frame index / the video's frame rate, or the position OpenCV
reports when the file names no rate) after the moment playback began. At ``speed`` 1 (what
``rop play --video`` does) each frame is delivered when that moment comes on the monotonic
clock, so a recording unfolds as it was played and what people type meanwhile lands between
the right frames; ``speed`` 2 plays it twice as fast. At ``speed`` 0 (the default here, for
``rop vision watch`` and tests) frames come as fast as they decode, still stamped by their
position: then :meth:`FrameSource.now` is the clock to stamp anything else with (the time of
the latest frame). When the video has played to
its end the source says so (``ENDED``) and stops. A video is read whole, frame after frame,
however long reading takes; :meth:`FrameSource.behind` says how far the reading trails the
video's clock.

A live camera does not wait for its reader: frames are read from it in a thread of their
own, and when the reader is slower than the camera only the newest frame waits for it, the
older ones are dropped (:func:`newest`), so what is read is never older than one frame and
the time to read it. Each frame is stamped when it came from the camera, so the stabiliser's
timing stays that of the table; its ``index`` counts the camera's frames, dropped ones too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.observations import SensorState, SensorStatus

__all__ = ["Frame", "FrameSource", "CameraError", "parse_source", "newest"]


class CameraError(RuntimeError):
    """A camera or video that cannot be opened; the message names it."""


@dataclass(frozen=True, slots=True)
class Frame:
    image: np.ndarray  # BGR uint8
    at: float  # seconds, monotonic clock (see module docstring)
    index: int  # frames read from the source before this one (a live camera's dropped ones too)


def _quiet_opencv() -> None:
    # OpenCV prints backend warnings for every failed open (and every reconnection attempt);
    # our own error says which camera failed, in words.
    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    except AttributeError:
        pass


def parse_source(camera: str | int | None = None, video: str | None = None) -> int | str:
    """The ``--camera``/``--video`` options as one OpenCV source: an index, a URL or a file path."""
    if video is not None:
        path = Path(video)
        if not path.is_file():
            raise CameraError(f"video file {video} does not exist")
        return str(path)
    if camera is None:
        return 0
    if isinstance(camera, int) or str(camera).isdigit():
        return int(camera)
    return str(camera)


class FrameSource:
    """Frames from ``source``: an int (camera index), a URL (``rtsp://``, ``http://``) or a
    video file path.

    Keyword arguments: ``live`` [None = a file path is a recording, anything else live] treat
    the source as a live camera (reconnect when it stops) or as a recording (stop at its end);
    ``size`` [None] requested (width, height) for live cameras;
    ``retry_s`` [2.0] between reconnection attempts; ``max_retries`` [None = forever];
    ``name`` [derived], the observation source name; ``clock`` [time.monotonic];
    ``speed`` [0] how fast a video file plays: 1 at the pace it was filmed, 0 as fast as it
    decodes (see the module docstring); ``sleep`` [time.sleep] how the source waits (pacing, reconnecting);
    ``newest_only`` [True] a live camera's frames are read in a thread and only the newest
    waits for the reader (False: every frame, in turn, as for a recording).
    """

    def __init__(
        self,
        source: int | str,
        *,
        live: bool | None = None,
        size: tuple[int, int] | None = None,
        retry_s: float = 2.0,
        max_retries: int | None = None,
        name: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
        speed: float = 0.0,
        newest_only: bool = True,
    ) -> None:
        if speed < 0:
            raise ValueError(f"video speed must be 0 (as fast as possible) or more, not {speed}")
        self.source = source
        self.is_file = (isinstance(source, str) and "://" not in source) if live is None else not live
        self.size = size
        self.retry_s = retry_s
        self.max_retries = max_retries
        self.name = name or (f"video:{Path(str(source)).name}" if self.is_file else f"camera:{source}")
        self._clock = clock
        self._sleep = sleep
        self.speed = speed
        self._cap: cv2.VideoCapture | None = None
        self._video_now: float | None = None
        self._ended: float | None = None  # when (monotonic) the video ended
        self.newest_only = newest_only
        self.dropped = 0
        """Frames of a live camera dropped because a newer one came before they were read."""
        self._last_at: float | None = None  # the latest frame's time on the video's clock
        self._reading = threading.Lock()

    def now(self) -> float:
        """The source's clock: for a video played unpaced (``speed`` 0), the time of the latest
        frame (the video's clock); otherwise the monotonic clock frames are stamped with."""
        if self.is_file and self.speed == 0 and self._video_now is not None:
            if self._ended is not None:  # after the end, the video's clock runs on in real time
                return self._video_now + self._clock() - self._ended
            return self._video_now
        return self._clock()

    def behind(self) -> float:
        """How many seconds the reading trails the clock frames are stamped with: for a video
        played at its pace, how far behind the video's clock it is (0 when it keeps up); 0
        for a video read as fast as it decodes, whose clock is its frames'."""
        if self._last_at is None or (self.is_file and self.speed == 0):
            return 0.0
        return max(0.0, self._clock() - self._last_at)

    def describe(self) -> str:
        if isinstance(self.source, str) and "://" not in self.source:
            return f"video file {self.source}"
        return f"camera {self.source}"

    def open(self) -> None:
        """Open the source, or raise :class:`CameraError` saying which one failed."""
        if isinstance(self.source, str) and "://" not in self.source and not Path(self.source).is_file():
            raise CameraError(f"video file {self.source} does not exist")
        _quiet_opencv()
        cap = cv2.VideoCapture(self.source)
        if not cap.isOpened():
            cap.release()
            hint = "not a video OpenCV can read" if self.is_file else "is it connected, and not in use by another program?"
            raise CameraError(f"{self.describe()} could not be opened ({hint})")
        if self.size and not self.is_file:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def close(self) -> None:
        # A live camera is read in a thread of its own: never release it in the middle of a read.
        with self._reading:
            if self._cap is not None:
                self._cap.release()
                self._cap = None

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def frames(self) -> Iterator[Frame | SensorStatus]:
        """Frames until the video ends, the camera fails for good, or the caller stops; a live
        camera's newest only (see the module docstring)."""
        items = self._frames()
        if self.is_file or not self.newest_only:
            return self._stamped(items)
        return self._stamped(newest(items, self._dropped))

    def _dropped(self, count: int) -> None:
        self.dropped += count

    def _stamped(self, items: Iterator[Frame | SensorStatus]) -> Iterator[Frame | SensorStatus]:
        for item in items:
            if isinstance(item, Frame):
                self._last_at = item.at
            yield item

    def _frames(self) -> Iterator[Frame | SensorStatus]:
        if self._cap is None:
            self.open()
        index = 0
        start = self._clock()
        assert self._cap is not None  # open() raises otherwise
        fps = self._cap.get(cv2.CAP_PROP_FPS) if self.is_file else 0.0
        fps = fps if 0 < fps < 1000 else 0.0  # some containers name no rate, or a nonsense one
        if not self.is_file:
            yield self._status(SensorState.CONNECTED, f"{self.describe()} opened")
        try:
            while True:
                with self._reading:
                    if self._cap is None:  # closed by its reader meanwhile
                        return
                    ok, image = self._cap.read()
                if ok and image is not None:
                    if self.is_file:
                        position = index / fps if fps else self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                        at = self._pace(start, position)
                    else:
                        at = self._clock()
                    yield Frame(image, at, index)
                    index += 1
                    continue
                if self.is_file:
                    if index == 0:
                        raise CameraError(f"video file {self.source} has no readable frames")
                    length = f", {index / fps:.1f} s" if fps else ""
                    self._ended = self._clock()
                    yield self._status(SensorState.ENDED, f"{self.describe()} ended after {index} frames{length}")
                    return
                yield self._status(SensorState.LOST, f"{self.describe()} stopped delivering frames")
                if not (yield from self._reconnect()):
                    return
        finally:
            self.close()

    def _pace(self, start: float, position: float) -> float:
        """The time of a video frame ``position`` seconds into the file; at ``speed`` > 0,
        wait until that time comes."""
        if self.speed == 0:
            at = start + position
            self._video_now = at
            return at
        at = start + position / self.speed
        delay = at - self._clock()
        if delay > 0:
            self._sleep(delay)
        return at

    def _reconnect(self) -> Generator[SensorStatus, None, bool]:
        attempt = 0
        while self.max_retries is None or attempt < self.max_retries:
            attempt += 1
            self.close()
            self._sleep(self.retry_s)
            yield self._status(SensorState.RECONNECTING, f"reopening {self.describe()} (attempt {attempt})")
            try:
                self.open()
            except CameraError:
                continue
            assert self._cap is not None  # open() returned, so the capture is set
            ok, _ = self._cap.read()
            if ok:
                yield self._status(SensorState.CONNECTED, f"{self.describe()} is back")
                return True
        yield self._status(SensorState.FAILED, f"{self.describe()} did not come back after {attempt} attempts")
        return False

    def _status(self, state: SensorState, detail: str) -> SensorStatus:
        return SensorStatus(source=self.name, at=self.now(), state=state, detail=detail)


_END = object()


def newest(items: Iterator[Frame | SensorStatus], dropped: Callable[[int], object] = lambda n: None) -> Iterator[Frame | SensorStatus]:
    """``items`` (a camera's frames and status changes) read in a thread of their own, handed
    on as fast as they are taken: every status change in turn, but of the frames only the
    newest; a frame not taken before the next one came is dropped (``dropped`` hears how many
    each time). Closing this iterator stops the thread after the item it is reading."""
    ready = threading.Condition()
    pending: list[object] = []  # status changes in order, and at most one frame, the newest
    stop = threading.Event()
    failure: list[BaseException] = []

    def pump() -> None:
        try:
            for item in items:
                with ready:
                    if isinstance(item, Frame) and pending and isinstance(pending[-1], Frame):
                        pending[-1] = item
                        dropped(1)
                    else:
                        pending.append(item)
                    ready.notify()
                if stop.is_set():
                    break
        except BaseException as exc:  # noqa: BLE001 - handed to the reader, raised there
            failure.append(exc)
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()
            with ready:
                pending.append(_END)
                ready.notify()

    thread = threading.Thread(target=pump, name="camera frames", daemon=True)
    thread.start()
    try:
        while True:
            with ready:
                while not pending:
                    ready.wait()
                item = pending.pop(0)
            if item is _END:
                if failure:
                    raise failure[0]
                return
            assert isinstance(item, (Frame, SensorStatus))
            yield item
    finally:
        stop.set()
