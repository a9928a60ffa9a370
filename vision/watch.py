"""The live loop behind ``rop vision watch``: frames in, observations out.

:func:`watch` is the one path from a camera or a video file to table observations; the
command line, the tests (on a rendered video) and the companion use it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

import logging

from companion.observations import Observation, SensorState, SensorStatus, behind_words
from companion.observations.log import observation_fields
from vision.camera import FrameSource
from vision.detect import to_gray
from vision.reader import TableReader, TableView
from vision.stabiliser import Stabiliser

__all__ = ["watch", "read_frame", "observation_json", "Lag"]

log = logging.getLogger(__name__)


def watch(
    source: FrameSource,
    reader: TableReader,
    stabiliser: Stabiliser,
    *,
    on_frame: Callable[[np.ndarray, TableView], bool] | None = None,
    max_frames: int | None = None,
) -> Iterator[Observation]:
    """Observations from ``source`` until it ends (or ``max_frames`` frames, or ``on_frame``
    returns False). Camera status changes are passed through as
    :class:`~companion.observations.SensorStatus`. An image the reader chokes on is skipped,
    not fatal: the next frame may be fine. A video played at its pace that the reading trails
    by a second or more says so (:class:`Lag`)."""
    frames = 0
    failing = False
    lag = Lag()
    for item in source.frames():
        if isinstance(item, SensorStatus):
            yield item
            continue
        if source.is_file and source.speed > 0:
            behind = source.behind()
            said = lag.update(behind)
            if said is not None:
                log.info("%s: %s", source.name, said)
                yield SensorStatus(source.name, item.at, SensorState.CONNECTED, said, behind=round(behind, 1))
        try:
            view, seen = read_frame(reader, stabiliser, item.image, item.at)
        except Exception as exc:  # noqa: BLE001 - one bad frame must not end the camera
            log.exception("frame %d could not be read", item.index)
            if not failing:  # said once for a run of bad frames
                detail = f"frame {item.index} could not be read ({type(exc).__name__}: {exc}); skipped"
                yield SensorStatus(source.name, item.at, SensorState.CONNECTED, detail)
            failing = True
            continue
        failing = False
        yield from seen
        frames += 1
        if on_frame is not None and on_frame(item.image, view) is False:
            break
        if max_frames is not None and frames >= max_frames:
            break


def read_frame(reader: TableReader, stabiliser: Stabiliser, image: np.ndarray, at: float) -> tuple[TableView, list[Observation]]:
    """One camera frame through the reader and the stabiliser: what it shows, and the
    observations it decides. The frame is turned grey once, for both."""
    gray = to_gray(image)
    view = reader.read(gray)
    return view, stabiliser.update(view, gray, at)


class Lag:
    """When to say how far a video's reading trails its clock: once it is a second behind,
    again whenever the gap has grown or shrunk by a quarter (and at least a second) since it
    was last said, and once when the reading has caught up (under half a second)."""

    def __init__(self) -> None:
        self.said: float | None = None

    def update(self, behind: float) -> str | None:
        """The words to say now that the reading is ``behind`` seconds behind, or ``None``."""
        if self.said is None:
            if behind < 1.0:
                return None
        elif behind < 0.5:
            self.said = None
            return "caught up with the video"
        elif abs(behind - self.said) < max(1.0, 0.25 * self.said):
            return None
        self.said = behind
        return behind_words(behind)


def observation_json(obs: Observation) -> dict:
    """An observation as ``rop vision watch`` prints it: the observation log's fields
    (:func:`~companion.observations.log.observation_fields`), its kind as ``type``, and the
    time it was seen as ``at`` (seconds on the camera's clock)."""
    fields = observation_fields(obs)
    return {"type": fields.pop("kind"), **fields, "source": obs.source, "at": round(obs.at, 3)}
