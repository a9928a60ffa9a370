"""Drawing what the camera understood over its image: zones, mat corners, cards.

Used for ``rop calibrate``'s annotated image and the preview windows.
"""

from __future__ import annotations

import os

import cv2
import numpy as np

from vision.layout import Layout
from vision.reader import TableView

__all__ = ["annotate", "Preview"]

_FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(image: np.ndarray, view: TableView, layout: Layout | None, *, status: str = "") -> np.ndarray:
    """A copy of ``image`` with the layout's zones (when calibrated), every card read (outline
    and ``W007 ann``), every back read (``back blue``, in another colour) and a status line."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = max(0.5, out.shape[1] / 1920)
    cal = view.calibration
    if cal is not None and layout is not None:
        for zone in layout.zones:
            pts = cal.image_points(np.array(zone.polygon_mm, dtype=np.float64))
            cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (0, 220, 255), max(1, int(2 * scale)), cv2.LINE_AA)
            x, y = pts.min(axis=0)
            cv2.putText(out, zone.name, (int(x) + 6, int(y) + int(22 * scale)), _FONT, 0.6 * scale, (0, 220, 255), max(1, int(2 * scale)), cv2.LINE_AA)
        w, h = layout.mat_mm
        mat = cal.image_points(np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=np.float64))
        cv2.polylines(out, [np.round(mat).astype(np.int32)], True, (255, 160, 0), max(1, int(2 * scale)), cv2.LINE_AA)
    seen = [(s.corners_px, s.px, f"{s.card.id} {s.owner or ''}", (0, 255, 0)) for s in view.cards]
    seen += [(b.corners_px, b.px, f"back {b.owner or ''}", (255, 200, 0)) for b in view.backs]
    for outline, px, text, colour in seen:
        quad = np.round(outline).astype(np.int32)
        cv2.polylines(out, [quad], True, colour, max(1, int(2 * scale)), cv2.LINE_AA)
        cv2.circle(out, tuple(quad[0]), max(2, int(3 * scale)), (0, 0, 255), -1)  # the printed top-left
        label = text.strip()
        x, y = int(px[0]), int(px[1] - 20 * scale)
        cv2.putText(out, label, (x, y), _FONT, 0.6 * scale, (0, 0, 0), max(2, int(4 * scale)), cv2.LINE_AA)
        cv2.putText(out, label, (x, y), _FONT, 0.6 * scale, colour, max(1, int(2 * scale)), cv2.LINE_AA)
    for det, _ in view.rejected:
        cv2.polylines(out, [np.round(det.corners).astype(np.int32)], True, (0, 0, 255), max(1, int(2 * scale)), cv2.LINE_AA)
    if not status:
        corners = ", ".join(c.label for c in view.mat_corners) or "none"
        status = f"mat corners: {corners}; cards: {len(view.cards)}" + (f"; backs: {len(view.backs)}" if view.backs else "")
        if cal is not None:
            status += f"; calibration error {cal.error_mm:.1f} mm"
    cv2.rectangle(out, (0, 0), (out.shape[1], int(36 * scale)), (0, 0, 0), -1)
    cv2.putText(out, status, (10, int(26 * scale)), _FONT, 0.7 * scale, (255, 255, 255), max(1, int(2 * scale)), cv2.LINE_AA)
    return out


class Preview:
    """An OpenCV window, when there is a display and this OpenCV build can open windows
    (``opencv-python-headless`` cannot); otherwise :attr:`available` is False and
    :attr:`reason` says why."""

    def __init__(self, title: str = "rop camera") -> None:
        self.title = title
        self.available = False
        self.reason = ""
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.name == "nt"):
            self.reason = "no display"
            return
        try:
            cv2.namedWindow(title, cv2.WINDOW_NORMAL)
            self.available = True
        except cv2.error:
            self.reason = "this OpenCV build has no window support (install opencv-python instead of opencv-python-headless)"

    def show(self, image: np.ndarray) -> bool:
        """Show a frame; False once the user pressed q or Esc or closed the window."""
        if not self.available:
            return True
        cv2.imshow(self.title, image)
        key = cv2.waitKey(1) & 0xFF
        return key not in (ord("q"), 27)

    def close(self) -> None:
        if self.available:
            cv2.destroyWindow(self.title)
