"""Reading a camera's frames only where the picture changed.

A table is still most of the time: between two actions nothing on it moves, and an action
changes the picture only where the hand and the cards are. Decoding every marker of every
frame wastes most of a core on pictures already read. :class:`ChangeGate` compares each
frame, shrunk to ``width`` pixels across (averaging away sensor noise), with the picture the
current detections were decoded from, and plans the frame's work:

- **still**: nothing differs by more than ``level`` grey levels: the detections stand as
  they are and no marker is decoded;
- **regions**: what changed (grown by one small pixel) is decoded again, each changed area
  within a window padded by ``pad`` (a marker touching the change lies wholly inside it); the
  detections touching a changed area are replaced by what is read there now, the others
  stand;
- **whole**: the first frame, a frame of another size, more than ``whole`` of the picture
  in windows (a camera bumped, the light switched on), or every ``refresh``-th frame: the
  whole frame is decoded.

The refresh is there because a seal at the edge of legibility (2.5 pixels per module, a
little blur) is read in most frames but not all: a camera decoding every frame reads it in
the next one, while a still picture would never be decoded again. Decoding the whole frame
now and then (once a second at 10 frames a second) gives such a seal its next chance.

The comparison is always with the picture as last decoded, never with the previous frame: a
hand that moves slowly, or a card laid and then held still, adds up to a difference that is
decoded once it shows, so the picture a change settles into is always read and the
stabiliser sees every card laid and taken. Only what was decoded is taken as the new
reference, so change too small to see in one frame still adds up until it is read.

:class:`ChangedDetector` puts the gate in front of a :class:`~vision.detect.MarkerDetector`
with the same ``detect`` call; :class:`~vision.reader.TableReader` uses it for a camera's
successive frames (``changes_only=True``), and it counts the work done and its CPU time
(:class:`Work`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.detect import Detection, MarkerDetector, to_gray

__all__ = ["Plan", "ChangeGate", "ChangedDetector", "Work"]

Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 in pixels (x1, y1 excluded)."""


@dataclass(frozen=True)
class Plan:
    """One frame's work: ``kind`` is ``"still"``, ``"regions"`` or ``"whole"``; ``windows``
    the frame's boxes to decode (for ``regions``); ``changed`` where the shrunk picture
    differs from the reference (grown by one small pixel); ``small`` the shrunk picture;
    ``scale`` frame pixels per small pixel (x, y)."""

    kind: str
    windows: list[Box]
    changed: np.ndarray | None
    small: np.ndarray
    scale: tuple[float, float]

    def touches(self, corners: np.ndarray) -> bool:
        """Whether a marker (its corners in frame pixels, grown by a quarter of its side)
        overlaps what changed."""
        if self.kind == "whole":
            return True
        if self.changed is None:
            return False
        x0, y0 = corners.min(axis=0)
        x1, y1 = corners.max(axis=0)
        grow = 0.25 * max(x1 - x0, y1 - y0)
        h, w = self.changed.shape
        a0, a1 = max(0, int((x0 - grow) / self.scale[0])), min(w, int((x1 + grow) / self.scale[0]) + 1)
        b0, b1 = max(0, int((y0 - grow) / self.scale[1])), min(h, int((y1 + grow) / self.scale[1]) + 1)
        return a0 < a1 and b0 < b1 and bool(self.changed[b0:b1, a0:a1].any())


class ChangeGate:
    """Plans each frame's decoding from what changed since the picture last decoded (see the
    module docstring).

    Keyword arguments: ``width`` [480] pixels across of the shrunk picture compared (a 1080p
    frame is shrunk 4 times, a 4K frame 8 times: a seal still spans several small pixels);
    ``level`` [10] grey levels a small pixel must change by; ``pad`` [1/24 of the frame's
    width] frame pixels added around each changed area (larger than any seal in view);
    ``whole`` [0.5] fraction of the frame in windows above which the whole frame is decoded;
    ``refresh`` [10] frames after which the whole frame is decoded again whatever changed.
    """

    def __init__(self, *, width: int = 480, level: float = 10.0, pad: int | None = None, whole: float = 0.5, refresh: int = 10) -> None:
        self.width = width
        self.level = level
        self.pad = pad
        self.whole = whole
        self.refresh = refresh
        self.reference: np.ndarray | None = None
        self._since_whole = 0  # frames planned since the last whole one

    def plan(self, gray: np.ndarray) -> Plan:
        plan = self._plan(gray)
        if plan.kind != "whole" and self._since_whole + 1 >= self.refresh:
            h, w = gray.shape[:2]
            plan = Plan("whole", [(0, 0, w, h)], plan.changed, plan.small, plan.scale)
        self._since_whole = 0 if plan.kind == "whole" else self._since_whole + 1
        return plan

    def _plan(self, gray: np.ndarray) -> Plan:
        h, w = gray.shape[:2]
        sw = min(self.width, w)
        sh = max(1, round(h * sw / w))
        small = cv2.resize(gray, (sw, sh), interpolation=cv2.INTER_AREA)
        scale = (w / sw, h / sh)
        ref = self.reference
        if ref is None or ref.shape != small.shape:
            return Plan("whole", [(0, 0, w, h)], None, small, scale)
        changed = cv2.absdiff(small, ref) > self.level
        if not changed.any():
            return Plan("still", [], None, small, scale)
        changed = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        pad = self.pad if self.pad is not None else max(16, w // 24)
        count, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        boxes: list[Box] = []
        for x, y, bw, bh, _ in stats[1:count]:
            boxes.append((max(0, int(x * scale[0]) - pad), max(0, int(y * scale[1]) - pad),
                          min(w, int((x + bw) * scale[0]) + 1 + pad), min(h, int((y + bh) * scale[1]) + 1 + pad)))
        windows = _disjoint(boxes)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in windows) > self.whole * w * h:
            return Plan("whole", [(0, 0, w, h)], changed, small, scale)
        return Plan("regions", windows, changed, small, scale)

    def decoded(self, plan: Plan) -> None:
        """Take what ``plan`` decoded as the picture the detections now describe: all of it
        for a whole frame, only the changed small pixels for regions."""
        if plan.kind == "whole" or self.reference is None or self.reference.shape != plan.small.shape:
            self.reference = plan.small.copy()
        elif plan.kind == "regions" and plan.changed is not None:
            self.reference[plan.changed] = plan.small[plan.changed]

    def reset(self) -> None:
        """Forget the reference: the next frame is decoded whole."""
        self.reference = None


def _disjoint(boxes: list[Box]) -> list[Box]:
    """``boxes`` merged until no two overlap (a marker is then read in one window only)."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


@dataclass
class Work:
    """What a :class:`ChangedDetector` has done: frames by plan (``still``, ``regions``,
    ``whole``), the fraction of frame pixels decoded, and the CPU seconds of its thread spent
    comparing pictures (``changes_s``) and decoding markers (``decode_s``)."""

    frames: dict[str, int] = field(default_factory=lambda: {"still": 0, "regions": 0, "whole": 0})
    decoded_px: float = 0.0
    changes_s: float = 0.0
    decode_s: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.frames.values())


class ChangedDetector:
    """A :class:`~vision.detect.MarkerDetector` that decodes only where the picture changed
    since it last decoded (:class:`ChangeGate`); for one camera's successive frames. Its
    ``detect`` returns what a full decode of the frame would, as far as the change shows."""

    def __init__(self, detector: MarkerDetector, gate: ChangeGate | None = None) -> None:
        self.detector = detector
        self.gate = gate or ChangeGate()
        self.detections: list[Detection] = []
        self.outlines: list[np.ndarray] = []
        self.work = Work()
        self.last: Plan | None = None

    def detect(self, image: np.ndarray) -> list[Detection]:
        return self.detect_with_outlines(image)[0]

    def detect_with_outlines(self, image: np.ndarray) -> tuple[list[Detection], list[np.ndarray]]:
        """:meth:`detect`, and the outlines of squares that did not decode
        (:meth:`~vision.detect.MarkerDetector.detect_with_outlines`), kept and replaced where
        the picture changed as the markers are."""
        began = time.thread_time()
        gray = to_gray(image)
        plan = self.gate.plan(gray)
        planned = time.thread_time()
        if plan.kind == "whole":
            found, outlines = self.detector.detect_with_outlines(gray)
        elif plan.kind == "regions":
            fresh, unread = self.detector.detect_in_with_outlines(gray, plan.windows)
            found = [d for d in self.detections if not plan.touches(d.corners)] + [d for d in fresh if plan.touches(d.corners)]
            outlines = [q for q in self.outlines if not plan.touches(q)] + [q for q in unread if plan.touches(q)]
        else:
            found, outlines = list(self.detections), list(self.outlines)
        done = time.thread_time()
        self.gate.decoded(plan)
        self.detections, self.outlines, self.last = found, outlines, plan
        h, w = gray.shape[:2]
        self.work.frames[plan.kind] += 1
        self.work.decoded_px += sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in plan.windows) / (w * h)
        self.work.changes_s += planned - began
        self.work.decode_s += done - planned
        return found, outlines
