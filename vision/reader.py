"""Reading the table from one image: which cards lie face up, whose, where and in which zone.

:class:`TableReader` runs the marker detector, calibrates from the mat (when a layout is given)
and turns seal markers into :class:`CardSighting` values. Besides the detector's own checks it
refuses anything that is not plausibly a seal marker lying on the table, because a missed card
costs one frame while an invented one corrupts the game:

- the id must be a face of the table's game's cards (ids it never prints are misreads; a seal
  of another game's card is named as such and refused);
- the quadrilateral must be convex and nearly square (on the table, after calibration);
- on a calibrated table its size must be a seal's (13 mm, within ``size_tolerance``);
- an id seen twice in one frame is dropped altogether (each card exists once), unless it is a
  back's: every card of a copy whose backs carry seals shows the same one, so a face-down card
  is seen as a back of that copy (:class:`BackSighting`), never as the card it is.

A seal whose square shows but whose bits do not read (blurred, washed out, a card still
settling) is a card laid that cannot be named yet (:class:`UnreadSighting`): on a calibrated
table only, where a square can be measured as a seal lying on the mat, and never where a seal
was read in the same frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from companion.contract import Card, Catalogue
from companion.contract.registry import game
from vision.calibration import Calibrator, TableCalibration
from vision.changes import ChangedDetector
from vision.detect import Detection, MarkerDetector, to_gray
from vision.layout import Layout
from vision.markers import CARD_MM, MARKER_MM, MODULES, QUIET_MODULES, SEAL_CENTRE_ON_CARD_MM, MatCorner, SealBack, SealMarker, decode, family_for, foreign_game
from vision.owners import OwnerRegistry

__all__ = ["CardSighting", "BackSighting", "UnreadSighting", "TableView", "TableReader", "card_centre"]


@dataclass(frozen=True, slots=True)
class CardSighting:
    """One face-up card in one image.

    - ``owner``: player name from the owner registry (``"#n"`` for a slot with no name), the
      colour of a deck whose copies are the box's colours, or ``None`` for a card whose marker
      names no owner.
    - ``px``: the marker's centre in image pixels; ``corners_px`` its corners (TL, TR, BR, BL
      of the printed marker).
    - ``table_mm``: the card's centre on the table (from the marker's pose), ``None`` without a
      calibrated mat; ``zone`` the layout zone containing that centre, or ``None``.
    - ``angle_deg``: the card's rotation, clockwise, 0 = upright as the camera sees the table
      (in table coordinates when calibrated).
    - ``margin``: the detector's decision margin.
    """

    card: Card
    slot: int | None
    owner: str | None
    px: tuple[float, float]
    corners_px: np.ndarray
    table_mm: tuple[float, float] | None
    zone: str | None
    angle_deg: float
    margin: float

    def to_json(self) -> dict:
        return {
            "card": self.card.id,
            "owner": self.owner,
            "zone": self.zone,
            "table_mm": None if self.table_mm is None else [round(self.table_mm[0], 1), round(self.table_mm[1], 1)],
            "px": [round(self.px[0], 1), round(self.px[1], 1)],
            "angle_deg": round(self.angle_deg, 1),
        }


@dataclass(frozen=True, slots=True)
class BackSighting:
    """One face-down card in one image, whose back carries a seal: which deck and copy it
    belongs to (``owner`` as for :class:`CardSighting`), and where it lies; never which card."""

    back: SealBack
    owner: str | None
    px: tuple[float, float]
    corners_px: np.ndarray
    table_mm: tuple[float, float] | None
    zone: str | None
    angle_deg: float
    margin: float

    def to_json(self) -> dict:
        return {
            "back": self.back.deck,
            "owner": self.owner,
            "zone": self.zone,
            "table_mm": None if self.table_mm is None else [round(self.table_mm[0], 1), round(self.table_mm[1], 1)],
            "px": [round(self.px[0], 1), round(self.px[1], 1)],
            "angle_deg": round(self.angle_deg, 1),
        }


@dataclass(frozen=True, slots=True)
class UnreadSighting:
    """A seal in one image whose square measures as a seal lying on the table but whose bits
    do not read: a card lies there, not yet which. ``px`` and ``corners_px`` as for
    :class:`CardSighting`; ``table_mm`` is where the seal lies (its card's orientation, and so
    its centre, is not known), ``zone`` the zone there."""

    px: tuple[float, float]
    corners_px: np.ndarray
    table_mm: tuple[float, float]
    zone: str | None
    owner: None = None


@dataclass
class TableView:
    """Everything read from one image: the cards, the calibration used (``None`` without a mat
    in view), the mat corners seen, the detections refused, each with its reason, the backs
    seen (face-down cards of decks whose backs carry seals), and the seals seen that do not
    read (cards laid, not yet named)."""

    cards: list[CardSighting]
    calibration: TableCalibration | None
    mat_corners: list[MatCorner]
    rejected: list[tuple[Detection, str]] = field(default_factory=list)
    backs: list[BackSighting] = field(default_factory=list)
    unread: list[UnreadSighting] = field(default_factory=list)


class TableReader:
    """Reads cards from images, frame after frame.

    - ``layout`` [None]: the table layout; without it no zones or table positions are reported.
    - ``owners`` [empty registry]: turns owner slots into player names.
    - ``players`` [None]: names in seat order, to name zones ``capture:<name>`` instead of
      ``capture:<seat>``.
    - ``cards`` [the default game's]: the catalogue of the game the table plays, whose seals it
      reads.
    - ``detector`` [``MarkerDetector()`` for the codes of ``cards``' game]: the marker detector.
    - ``size_tolerance`` [0.25]: how far (as a fraction) a marker may differ from 13 mm on a
      calibrated table.
    - ``max_skew`` [1.3]: largest ratio between a marker's longest and shortest side (on the
      table when calibrated; twice that in the image without calibration).
    - ``changes_only`` [False]: the images are one camera's successive frames: decode markers
      only where the picture changed since it was last decoded (:mod:`vision.changes`), and
      take the rest as read before; ``work`` then counts what was decoded.

    Keeps the last calibration between calls (see :class:`vision.calibration.Calibrator`);
    use a new reader for unrelated images.
    """

    def __init__(
        self,
        *,
        layout: Layout | None = None,
        owners: OwnerRegistry | None = None,
        players: Sequence[str] | None = None,
        cards: Catalogue | None = None,
        detector: MarkerDetector | None = None,
        size_tolerance: float = 0.25,
        max_skew: float = 1.3,
        changes_only: bool = False,
    ) -> None:
        if layout is not None and players:
            layout = layout.seated(players)
        self.layout = layout
        self.owners = owners or OwnerRegistry()
        self.cards = cards
        self.detector = detector or MarkerDetector(family=family_for(cards))
        self.changes = ChangedDetector(self.detector) if changes_only else None
        self.size_tolerance = size_tolerance
        self.max_skew = max_skew
        self.calibrator = Calibrator(layout) if layout is not None else None

    def read(self, image: np.ndarray) -> TableView:
        detections, outlines = (self.changes or self.detector).detect_with_outlines(image)
        calibration = self.calibrator.update(detections) if self.calibrator else None
        counts: dict[int, int] = {}
        for d in detections:
            counts[d.tag_id] = counts.get(d.tag_id, 0) + 1
        cards, backs, corners, rejected = [], [], [], []
        for det in detections:
            meaning = decode(det.tag_id, self.cards)
            if meaning is None:
                other = foreign_game(det.tag_id, self.cards)
                why = f"a {other} card's seal: this table plays another game" if other else "not a seal or mat marker"
                rejected.append((det, f"id {det.tag_id} is {why}"))
            elif counts[det.tag_id] > 1 and not isinstance(meaning, SealBack):
                rejected.append((det, f"id {det.tag_id} seen {counts[det.tag_id]} times in one frame"))
            elif isinstance(meaning, MatCorner):
                corners.append(meaning)
            else:
                place, reason = self._place(det, calibration)
                if place is None:
                    rejected.append((det, reason))
                elif isinstance(meaning, SealBack):
                    backs.append(BackSighting(meaning, self._copy_name(meaning.copy), det.centre, det.corners, *place, det.margin))
                else:
                    owner = self._owner(meaning)
                    cards.append(CardSighting(meaning.card, meaning.slot, owner, det.centre, det.corners, *place, det.margin))
        cards.sort(key=lambda s: (s.card.id, -1 if s.slot is None else s.slot))
        backs.sort(key=lambda b: (b.back.deck, str(b.back.copy), b.px))
        unread = self._unread(outlines, detections, calibration, image)
        return TableView(cards, calibration, sorted(corners), rejected, backs, unread)

    def _unread(self, outlines: list[np.ndarray], detections: list[Detection], cal: TableCalibration | None, image: np.ndarray) -> list[UnreadSighting]:
        """The squares that did not decode and measure as a seal lying on the table, look like
        one (:func:`_seal_like`), and lie away from every marker read (a seal's square is
        found more than once, in and around it)."""
        if cal is None or self.layout is None or not outlines:
            return []
        gray = to_gray(image)
        out: list[UnreadSighting] = []
        for quad in outlines:
            if not _convex(quad):
                continue
            quad_mm = cal.table_points(quad)
            sides = _sides(quad_mm)
            if sides.max() / max(sides.min(), 1e-9) > self.max_skew or abs(sides.mean() / MARKER_MM - 1) > self.size_tolerance:
                continue
            centre = quad.mean(axis=0)
            side = float(_sides(quad).mean())
            if not _seal_like(gray, quad):
                continue
            if any(math.dist(centre, d.centre) < side for d in detections) or any(math.dist(centre, u.px) < side for u in out):
                continue
            at = quad_mm.mean(axis=0)
            table_mm = (float(at[0]), float(at[1]))
            out.append(UnreadSighting((float(centre[0]), float(centre[1])), quad, table_mm, self.layout.zone_at(table_mm)))
        return out

    def _owner(self, marker: SealMarker) -> str | None:
        """Who a front's copy is: the owner registry's name of its slot, or its colour."""
        spec = getattr(game(marker.card.game), "table", None)
        colours = spec.deck_of(marker.card).colours if spec is not None else ()
        if colours and marker.slot is not None:
            return colours[marker.slot]
        return self.owners.name_of(marker.slot)

    def _copy_name(self, copy: int | str | None) -> str | None:
        return copy if isinstance(copy, str) else self.owners.name_of(copy)

    def _place(self, det: Detection, cal: TableCalibration | None) -> tuple[tuple[tuple[float, float] | None, str | None, float] | None, str]:
        """Where the card whose seal ``det`` is lies, ``(table_mm, zone, angle_deg)``, or
        ``None`` and why the detection is no seal lying on the table."""
        quad = det.corners
        if not _convex(quad):
            return None, "marker outline is not convex"
        if cal is not None:
            quad_mm = cal.table_points(quad)
            sides = _sides(quad_mm)
            if sides.max() / max(sides.min(), 1e-9) > self.max_skew:
                return None, "marker is not square on the table"
            if abs(sides.mean() / MARKER_MM - 1) > self.size_tolerance:
                return None, f"marker is {sides.mean():.0f} mm, a seal is {MARKER_MM:.1f} mm"
            centre, angle = card_centre(quad_mm)
            table_mm = (float(centre[0]), float(centre[1]))
            assert self.layout is not None  # a calibration only comes from the layout's mat
            zone = self.layout.zone_at(table_mm)
        else:
            sides = _sides(quad)
            if sides.max() / max(sides.min(), 1e-9) > 2 * self.max_skew:
                return None, "marker is too skewed to be lying on the table"
            _, angle = card_centre(quad)
            table_mm, zone = None, None
        return (table_mm, zone, angle), ""


def _seal_like(gray: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the square ``quad`` looks like a seal whose bits do not read: a dark border
    module inside the white quiet zone of its sticker, and data no brighter than that paper
    (a dark square of a card's artwork has no white paper around it). Measured on the square
    seen straight, at 5 pixels a module, whatever blur left of it."""
    cell = 5
    side = MODULES * cell
    m = QUIET_MODULES * cell
    target = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    straight = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(quad.astype(np.float32), target), (side + 2 * m, side + 2 * m), flags=cv2.INTER_LINEAR).astype(np.float32)
    ring = np.ones(straight.shape, bool)
    ring[m:-m, m:-m] = False
    quiet = float(np.median(straight[ring]))  # the paper around the square
    inner = straight[m + 1 : -m - 1, m + 1 : -m - 1]
    border = np.ones(inner.shape, bool)
    border[cell - 1 : -cell + 1, cell - 1 : -cell + 1] = False
    data = inner[cell + 1 : -cell - 1, cell + 1 : -cell - 1]
    return quiet - float(inner[border].mean()) >= _SEAL_CONTRAST and quiet >= float(data.mean())


_SEAL_CONTRAST = 25.0
"""Grey levels by which a seal's border is darker than its paper, blurred (measured: 50-85)."""


def _sides(q: np.ndarray) -> np.ndarray:
    return np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)


def _convex(q: np.ndarray) -> bool:
    edges = np.roll(q, -1, axis=0) - q
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    return bool((cross > 0).all() or (cross < 0).all())


def card_centre(quad: np.ndarray) -> tuple[np.ndarray, float]:
    """The card's centre and rotation (degrees clockwise) from its seal marker's corners (TL, TR,
    BR, BL), in the units of the corners (image pixels or table mm)."""
    right = (quad[1] - quad[0] + quad[2] - quad[3]) / 2
    down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2
    side = (np.linalg.norm(right) + np.linalg.norm(down)) / 2
    ex, ey = right / np.linalg.norm(right), down / np.linalg.norm(down)
    unit = side / MARKER_MM  # units (pixels or mm) per card millimetre
    sx, sy = SEAL_CENTRE_ON_CARD_MM
    centre = quad.mean(axis=0) + unit * (ex * (CARD_MM[0] / 2 - sx) + ey * (CARD_MM[1] / 2 - sy))
    return centre, math.degrees(math.atan2(ex[1], ex[0]))
