"""Finding markers in a camera image.

:class:`MarkerDetector` wraps two detectors behind one call: OpenCV's ArUco detector reading
the AprilTag 36h11 dictionary (the default) and AprilTag 3 (the ``pupil-apriltags`` package).
Both return :class:`Detection` values with the same corner order. ArUco is the default because
on the benchmark's frames it finds as many seals at 3 pixels per module and more at 4 and up,
faster.

A wrong id must be essentially impossible. Codes of the 36h11 family differ in at least 11 of
their 36 bits (in all four rotations); the detector corrects at most 2 (``max_hamming=2``, as
the AprilTag library does for this family) and refuses decodes without a clear black/white
difference (``min_margin``). A misread then needs 9 bits flipped the same wrong way, and a
random marker-like pattern (clutter on a card's artwork, another game's token) passes for
some id with a chance of about 1 in 44,000 (4 rotations x 587 codes x 667 patterns within two
bits, out of 2^36), against 1 in 17 for a 4x4 ArUco dictionary: see ``bench/bench_vision.py``.
:mod:`vision.reader` then refuses whatever does not measure as a seal lying on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.images import MIN_SIDE_PX, check_image_size
from vision.markers import FAMILY

__all__ = ["Detection", "MarkerDetector", "to_gray"]


@dataclass(frozen=True, slots=True)
class Detection:
    """One marker found in an image.

    - ``tag_id``: the id in the detector's family.
    - ``corners``: ``(4, 2)`` float array of image pixels, the black square's corners in the
      order **top-left, top-right, bottom-right, bottom-left of the marker as printed** (so
      ``corners[1] - corners[0]`` points along the marker's "right", whatever way it lies).
    - ``centre``: the marker's centre in pixels (where the diagonals cross).
    - ``hamming``: bits corrected to decode it (AprilTag; ArUco does not say, and reports 0).
    - ``margin``: the decoder's confidence; AprilTag's decision margin (mean difference between
      a data bit's intensity and the black/white threshold), or, for ArUco, the same measured on
      the marker's bits. Higher is surer.
    """

    tag_id: int
    corners: np.ndarray
    centre: tuple[float, float]
    hamming: int = 0
    margin: float = 0.0

    @property
    def side_px(self) -> float:
        """Mean side of the black square, in pixels."""
        return float(np.linalg.norm(self.corners - np.roll(self.corners, -1, axis=0), axis=1).mean())


def to_gray(image: np.ndarray) -> np.ndarray:
    """A contiguous 8-bit grey image from a BGR, BGRA or grey array."""
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    return np.ascontiguousarray(image, dtype=np.uint8)


class MarkerDetector:
    """Detects the markers of one family in grey or colour images.

    Keyword arguments (defaults in brackets):

    - ``backend`` [``"aruco"``]: ``"aruco"`` (OpenCV's ArUco detector) or ``"apriltag"``
      (AprilTag 3 via pupil-apriltags).
    - ``family`` [``"tag36h11"``]: AprilTag family name, or for ArUco an OpenCV dictionary name
      without ``DICT_`` (``"APRILTAG_36h11"``, ``"5X5_1000"``), ``"seals"``, the first
      generation of the seal dictionary (:data:`vision.markers.SEALS`), or a selection of the
      seal dictionary (``"seals:532-535,1024-1279"``, :func:`vision.markers.selection`), whose
      detections carry their seal ids; ``"tag36h11"`` works for both.
    - ``decimate`` [1.0]: AprilTag's quad decimation (AprilTag only). 1 finds markers down to
      about 2 pixels per module; 2 is about five times faster but needs some 3 pixels per
      module. (1.5 crashed the library while measuring: use 1 or 2.)
    - ``threshold_window`` [5]: ArUco's adaptive threshold window in pixels (ArUco only). One
      small window keeps the module edges of small markers and costs one pass.
    - ``max_hamming`` [2]: bit errors corrected when decoding. Every corrected bit makes a
      random pattern 10-20 times likelier to pass for a marker; 2 finds 99.6 % of seals at 3
      pixels per module where 1 finds 99.2 % and 0 finds 97 %.
    - ``min_margin`` [20.0]: refuse decodes whose decision margin is lower (ambiguous bits).
    - ``threads`` [1]: AprilTag worker threads.
    """

    def __init__(
        self,
        *,
        backend: str = "aruco",
        family: str = FAMILY,
        decimate: float = 1.0,
        max_hamming: int = 2,
        min_margin: float = 20.0,
        threads: int = 1,
        sharpening: float = 0.25,
        threshold_window: int = 5,
    ) -> None:
        self.backend = backend
        self.family = family
        self.max_hamming = max_hamming
        self.min_margin = min_margin
        if backend == "apriltag":
            from pupil_apriltags import Detector as _AprilTag

            try:
                self._april = _AprilTag(
                    families=family,
                    nthreads=threads,
                    quad_decimate=decimate,
                    refine_edges=1,
                    decode_sharpening=sharpening,
                )
            except Exception as exc:  # the C library names no family it does not know
                raise ValueError(f"AprilTag cannot detect family {family!r}: {exc}") from exc
            # The binding frees its families before the detector that still points at them
            # (a use after free that corrupts the heap when a detector is collected); keep the
            # families alive so the detector is destroyed first. They are a few hundred bytes.
            self._families = dict(self._april.tag_families)
            self._april.tag_families.clear()
        elif backend == "aruco":
            from vision.markers import aruco_dictionary, selected_ids

            dictionary = aruco_dictionary(family)
            # A selection of the seal dictionary reads its rows; they stand for these seal ids.
            self._seal_ids = selected_ids(family)
            params = cv2.aruco.DetectorParameters()
            params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
            # Small markers: allow short perimeters (default 3 % of the image side is ~60 px).
            params.minMarkerPerimeterRate = _MIN_PERIMETER
            params.maxMarkerPerimeterRate = _MAX_PERIMETER
            params.perspectiveRemovePixelPerCell = 8
            params.adaptiveThreshWinSizeMin = threshold_window
            params.adaptiveThreshWinSizeMax = threshold_window
            params.errorCorrectionRate = min(1.0, max_hamming / max(1, dictionary.maxCorrectionBits))
            self._aruco = cv2.aruco.ArucoDetector(dictionary, params)
            self._bits = dictionary.markerSize
        else:
            raise ValueError(f"unknown detector backend {backend!r}: expected 'apriltag' or 'aruco'")

    def detect(self, image: np.ndarray) -> list[Detection]:
        """All markers decoded in ``image`` (grey or BGR ``uint8``). An image too small to
        hold a marker has none (the AprilTag library crashes the process on one or two
        pixels); one too large to be a camera's is an :class:`~vision.images.ImageError`."""
        return self.detect_with_outlines(image)[0]

    def detect_with_outlines(self, image: np.ndarray) -> tuple[list[Detection], list[np.ndarray]]:
        """The markers decoded in ``image`` (:meth:`detect`), and the outlines of the dark
        squares found that did not decode (``(4, 2)`` pixel corners, in no particular order):
        a seal blurred, washed out or still moving shows its square before its bits read.
        Only ArUco's detector reports them; with AprilTag there are none."""
        if image.ndim >= 2 and min(image.shape[:2]) < MIN_SIDE_PX:
            return [], []
        check_image_size(image)
        gray = to_gray(image)
        if self.backend == "apriltag":
            return self._detect_apriltag(gray), []
        return self._detect_aruco(gray)

    def detect_in(self, image: np.ndarray, windows: list[tuple[int, int, int, int]]) -> list[Detection]:
        """The markers decoded inside each of ``windows`` (x0, y0, x1, y1 in pixels, not
        overlapping) of ``image``, in the image's coordinates; a marker cut by a window's edge
        is not read. The size limits stay those of the whole image (ArUco's are fractions of
        the image's side), so a window reads what the whole image would there."""
        return self.detect_in_with_outlines(image, windows)[0]

    def detect_in_with_outlines(self, image: np.ndarray, windows: list[tuple[int, int, int, int]]) -> tuple[list[Detection], list[np.ndarray]]:
        """:meth:`detect_in`, and the outlines of the squares found there that did not decode
        (as :meth:`detect_with_outlines`), in the image's coordinates."""
        check_image_size(image)
        gray = to_gray(image)
        side = max(gray.shape[:2])
        out: list[Detection] = []
        outlines: list[np.ndarray] = []
        for x0, y0, x1, y1 in windows:
            crop = gray[y0:y1, x0:x1]
            if min(crop.shape[:2]) < MIN_SIDE_PX:
                continue
            unread: list[np.ndarray] = []
            if self.backend == "apriltag":
                found = self._detect_apriltag(np.ascontiguousarray(crop))
            else:
                found, unread = self._detect_aruco(crop, side / max(crop.shape[:2]))
            shift = np.array([x0, y0], np.float64)
            out += [Detection(d.tag_id, d.corners + shift, (d.centre[0] + x0, d.centre[1] + y0), d.hamming, d.margin) for d in found]
            outlines += [quad + shift for quad in unread]
        return out, outlines

    def _detect_apriltag(self, gray: np.ndarray) -> list[Detection]:
        out = []
        for d in self._april.detect(gray):
            if d.hamming > self.max_hamming or d.decision_margin < self.min_margin:
                continue
            # AprilTag lists corners counter-clockwise from the printed bottom-right... as seen in
            # an image with y down: TR, TL, BL, BR of the printed marker. Reorder to TL, TR, BR, BL.
            corners = np.asarray(d.corners, np.float64)[[1, 0, 3, 2]]
            out.append(Detection(int(d.tag_id), corners, (float(d.center[0]), float(d.center[1])), int(d.hamming), float(d.decision_margin)))
        return out

    def _detect_aruco(self, gray: np.ndarray, zoom: float = 1.0) -> tuple[list[Detection], list[np.ndarray]]:
        if zoom != 1.0:  # a window of a larger image: its perimeter limits, in the image's terms
            params = self._aruco.getDetectorParameters()
            params.minMarkerPerimeterRate = _MIN_PERIMETER * zoom
            params.maxMarkerPerimeterRate = _MAX_PERIMETER * zoom
            self._aruco.setDetectorParameters(params)
        try:
            corners, ids, rejected = self._aruco.detectMarkers(gray)
        finally:
            if zoom != 1.0:
                params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate = _MIN_PERIMETER, _MAX_PERIMETER
                self._aruco.setDetectorParameters(params)
        outlines: list[np.ndarray] = [quad.reshape(4, 2).astype(np.float64) for quad in rejected]
        if ids is None:
            return [], outlines
        out = []
        for quad, tag_id in zip(corners, ids.ravel()):
            quad = quad.reshape(4, 2).astype(np.float64)
            margin = _bit_margin(gray, quad, self._bits + 2)
            if margin < self.min_margin:
                outlines.append(quad)  # a square whose bits do not read clearly
                continue
            seal = int(tag_id) if self._seal_ids is None else self._seal_ids[int(tag_id)]
            out.append(Detection(seal, quad, _diagonal_centre(quad), 0, margin))
        return out, outlines


_MIN_PERIMETER = 0.01
_MAX_PERIMETER = 4.0  # OpenCV's default


def _diagonal_centre(q: np.ndarray) -> tuple[float, float]:
    # Where the diagonals cross: the true centre under perspective, unlike the corners' mean.
    p, r = q[0], q[2] - q[0]
    s, t = q[1], q[3] - q[1]
    denom = r[0] * t[1] - r[1] * t[0]
    if abs(denom) < 1e-9:
        c = q.mean(axis=0)
        return float(c[0]), float(c[1])
    u = ((s[0] - p[0]) * t[1] - (s[1] - p[1]) * t[0]) / denom
    c = p + u * r
    return float(c[0]), float(c[1])


def _bit_margin(gray: np.ndarray, quad: np.ndarray, cells: int) -> float:
    # Sample each cell's centre on the marker's grid; the margin is the mean distance of the
    # samples from the midpoint between the darkest and brightest, like AprilTag's.
    px = 4 * cells
    dst = np.array([[0, 0], [px, 0], [px, px], [0, px]], dtype=np.float32)
    warp = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(quad.astype(np.float32), dst), (px, px), flags=cv2.INTER_LINEAR)
    centres = warp[2::4, 2::4].astype(np.float32)
    lo, hi = np.percentile(centres, 5), np.percentile(centres, 95)
    return float(np.abs(centres - (lo + hi) / 2).mean())
