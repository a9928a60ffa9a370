"""From the mat's corner markers to the camera-to-table homography, every frame.

The mat carries four large markers (ids 532-535) at positions the layout gives in table mm.
Each detected corner marker contributes its four corners, so two markers already fix the
homography (eight points); with three or four a bad point is voted out (RANSAC). Because it is
recomputed from every frame, a camera that is bumped recovers on the next frame showing two
corner markers; :class:`Calibrator` keeps the last good homography for frames where hands hide
the corners, and drops it when a corner marker it can see no longer lies where it should.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import Detection
from vision.layout import Layout
from vision.markers import MatCorner, decode

__all__ = ["TableCalibration", "Calibrator", "calibrate"]

#: Largest mean distance (mm) between detected mat-marker corners and where the layout puts
#: them, after fitting: more means a marker is misplaced or the wrong layout is in use.
MAX_ERROR_MM = 6.0


@dataclass(frozen=True)
class TableCalibration:
    """The homography between image pixels and table mm, and how well it fits.

    ``corners_used`` lists the mat corners that were seen; ``error_mm`` is the mean distance
    between the detected corner points (mapped to the table) and the layout's.
    """

    to_table: np.ndarray
    to_image: np.ndarray
    corners_used: tuple[MatCorner, ...]
    error_mm: float

    def table_points(self, points_px: np.ndarray) -> np.ndarray:
        """Image pixels ``(n, 2)`` to table mm ``(n, 2)``."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_table).reshape(-1, 2)

    def image_points(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm ``(n, 2)`` to image pixels ``(n, 2)``."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_image).reshape(-1, 2)


def calibrate(detections: list[Detection], layout: Layout) -> TableCalibration | None:
    """The calibration from one frame's detections, or ``None`` when fewer than two of the
    layout's corner markers are seen or they do not fit the layout."""
    places = {m.corner: m for m in layout.mat_markers}
    src: list[np.ndarray] = []
    dst: list[tuple[float, float]] = []
    used: list[MatCorner] = []
    for det in detections:
        corner = decode(det.tag_id)
        if isinstance(corner, MatCorner) and corner in places and corner not in used:
            src.extend(det.corners)
            dst.extend(places[corner].corners_mm())
            used.append(corner)
    if len(used) < 2:
        return None
    src_a, dst_a = np.array(src, dtype=np.float64), np.array(dst, dtype=np.float64)
    method = cv2.RANSAC if len(used) >= 3 else 0
    to_table, _ = cv2.findHomography(src_a, dst_a, method, 4.0)
    if to_table is None or abs(np.linalg.det(to_table)) < 1e-12:
        return None
    mapped = cv2.perspectiveTransform(src_a.reshape(-1, 1, 2), to_table).reshape(-1, 2)
    error = float(np.linalg.norm(mapped - dst_a, axis=1).mean())
    if error > MAX_ERROR_MM:
        return None
    return TableCalibration(to_table, np.linalg.inv(to_table), tuple(sorted(used)), error)


class Calibrator:
    """Keeps a table calibration across frames.

    - A frame showing two or more corner markers gives a fresh calibration (a bumped camera
      recovers at once).
    - A frame showing fewer keeps the last one, unless a corner marker it does see lies more
      than ``moved_mm`` [15] from where the old calibration expects it: then the camera moved
      and zones are unknown (``None``) until two corners are seen again.
    """

    def __init__(self, layout: Layout, *, moved_mm: float = 15.0) -> None:
        self.layout = layout
        self.moved_mm = moved_mm
        self.current: TableCalibration | None = None
        self.fresh = False

    def update(self, detections: list[Detection]) -> TableCalibration | None:
        new = calibrate(detections, self.layout)
        self.fresh = new is not None
        if new is not None:
            self.current = new
        elif self.current is not None and self._moved(detections):
            self.current = None
        return self.current

    def _moved(self, detections: list[Detection]) -> bool:
        assert self.current is not None  # update() asks only while it holds a calibration
        places = {m.corner: m for m in self.layout.mat_markers}
        for det in detections:
            corner = decode(det.tag_id)
            if isinstance(corner, MatCorner) and corner in places:
                seen = self.current.table_points(det.corners)
                if np.linalg.norm(seen - np.array(places[corner].corners_mm(), dtype=np.float64), axis=1).mean() > self.moved_mm:
                    return True
        return False
