"""A virtual overhead table: draws camera frames of the mat and cards with their seal markers,
with the troubles a real table has (blur, sensor noise, uneven light, glare, hands).

It drives the whole camera path without a camera: the tests and the benchmark feed its frames
to the detector, and the demo table can film a game with it. Usage::

    from vision.render import CardPlacement, Effects, VirtualCamera, render_frame
    layout = load_layout(4)
    cards = [CardPlacement("W007", "ann", (400, 400), 15), CardPlacement("F002", "bob", (560, 700), 90)]
    frame = render_frame(cards, layout, owners=["ann", "bob"], effects=Effects(noise=3, blur=0.8))
    frame.image          # BGR uint8, 1080x1920 by default
    frame.markers        # ground truth: id, corners and visibility of every marker drawn

Positions are card centres in table mm; angles are degrees clockwise as the camera sees the
table (0 = upright, seal corner at the bottom left).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence, cast

import cv2
import numpy as np

from companion.contract import Card, Deck
from companion.contract.registry import game
from vision.layout import Layout
from vision.markers import (
    CARD_MM,
    MARKER_MM,
    MODULES,
    QUIET_MODULES,
    SEAL_CENTRE_ON_CARD_MM,
    SEALS,
    STICKER_MM,
    MatCorner,
    SealBack,
    SealMarker,
    module_grid,
)
from vision.owners import OwnerRegistry

__all__ = [
    "CardPlacement",
    "Hand",
    "Glare",
    "Effects",
    "VirtualCamera",
    "MarkerTruth",
    "RenderedFrame",
    "render_frame",
    "card_pose_mm",
    "draw_hands",
]

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class CardPlacement:
    """One card on the table: ``owner`` is a player name (looked up in ``owners``), an owner
    slot number, a colour of a deck whose copies are the box's colours, or ``None`` (a card
    whose seal names no owner); ``position_mm`` is the card's centre. A card lying face down
    shows its back, with the back's seal where its deck's backs carry one."""

    card: str | Card
    owner: str | int | None
    position_mm: Point
    angle_deg: float = 0.0
    face_up: bool = True


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand held flat over the table: palm centre in table mm, fingers pointing ``angle_deg``
    clockwise from the top of the image; ``scale`` 1 is an adult hand (palm about 85 mm wide)."""

    position_mm: Point
    angle_deg: float = 0.0
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class Glare:
    """A specular highlight: centre in image pixels, radius in pixels, peak brightness added (0-255)."""

    centre_px: Point
    radius_px: float
    strength: float = 200.0


@dataclass(frozen=True, slots=True)
class Effects:
    """What the camera and the room do to the picture. Defaults are a clean frame.

    - ``blur``: Gaussian blur sigma in pixels (focus, motion);
    - ``noise``: sensor noise, standard deviation in grey levels;
    - ``gradient``: uneven light, the darkest side gets ``1 - gradient`` of the light, at
      ``gradient_angle_deg``;
    - ``glare``: highlights; ``hands``: hands over the table (drawn above the cards, with a shadow);
    - ``seed``: noise pattern.
    """

    blur: float = 0.0
    noise: float = 0.0
    gradient: float = 0.0
    gradient_angle_deg: float = 0.0
    glare: tuple[Glare, ...] = ()
    hands: tuple[Hand, ...] = ()
    seed: int = 0


@dataclass(frozen=True)
class VirtualCamera:
    """Image size and the homography from table mm to image pixels."""

    size: tuple[int, int] = (1920, 1080)
    homography: np.ndarray = field(default_factory=lambda: np.eye(3))

    @classmethod
    def overhead(
        cls,
        mat_mm: Point,
        *,
        size: tuple[int, int] = (1920, 1080),
        margin_mm: float = 40.0,
        rotation_deg: float = 0.0,
        keystone: float = 0.0,
        shift_px: Point = (0.0, 0.0),
    ) -> "VirtualCamera":
        """A camera above the mat's centre that fits the whole mat (plus ``margin_mm``) in view.

        ``rotation_deg`` turns the camera about its axis; ``keystone`` (0-0.2) tilts it, making the
        far (top) edge of the mat that fraction narrower; ``shift_px`` moves the picture.
        """
        w, h = mat_mm
        scale = min(size[0] / (w + 2 * margin_mm), size[1] / (h + 2 * margin_mm))
        return cls.looking_at((w / 2, h / 2), scale, size=size, rotation_deg=rotation_deg, keystone=keystone, shift_px=shift_px)

    @classmethod
    def looking_at(
        cls,
        centre_mm: Point,
        px_per_mm: float,
        *,
        size: tuple[int, int] = (1920, 1080),
        rotation_deg: float = 0.0,
        keystone: float = 0.0,
        shift_px: Point = (0.0, 0.0),
    ) -> "VirtualCamera":
        """A camera whose image centre sees ``centre_mm`` at ``px_per_mm`` pixels per mm."""
        cx, cy = centre_mm
        hw, hh = size[0] / (2 * px_per_mm), size[1] / (2 * px_per_mm)
        table = np.array([[cx - hw, cy - hh], [cx + hw, cy - hh], [cx + hw, cy + hh], [cx - hw, cy + hh]], dtype=np.float32)
        k = keystone * size[0] / 2
        img: np.ndarray = np.array([[k, 0], [size[0] - k, 0], [size[0], size[1]], [0, size[1]]], dtype=np.float32)
        a = math.radians(rotation_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], dtype=np.float32)
        centre = np.array([size[0] / 2, size[1] / 2], dtype=np.float32)
        img = (img - centre) @ rot.T + centre + np.array(shift_px, dtype=np.float32)
        return cls(size, cv2.getPerspectiveTransform(table, img.astype(np.float32)).astype(np.float64))

    def project(self, points_mm: np.ndarray | Sequence[Point]) -> np.ndarray:
        """Table mm to image pixels, ``(n, 2)`` float64."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def px_per_mm(self, point_mm: Point) -> float:
        """The image scale at a table point (pixels per mm, geometric mean of both axes)."""
        x, y = point_mm
        p = self.project([(x, y), (x + 1, y), (x, y + 1)])
        a, b = p[1] - p[0], p[2] - p[0]
        return math.sqrt(abs(a[0] * b[1] - a[1] * b[0]))


@dataclass(frozen=True, slots=True)
class MarkerTruth:
    """One marker drawn in the frame.

    ``corners_px`` are the black square's corners in the order TL, TR, BR, BL of the printed
    marker; ``visible`` is the fraction of the marker and its white margin that nothing covers
    (hands, other cards); ``in_view`` says the whole marker lies inside the image.
    """

    tag_id: int
    marker: SealMarker | SealBack | MatCorner
    owner: str | None
    corners_px: np.ndarray
    visible: float
    in_view: bool
    zone: str | None
    position_mm: Point | None

    @property
    def centre_px(self) -> Point:
        c = self.corners_px.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def module_px(self) -> float:
        """Side of one module in pixels (mean over the four sides)."""
        sides = np.linalg.norm(self.corners_px - np.roll(self.corners_px, -1, axis=0), axis=1)
        return float(sides.mean() / MODULES)


@dataclass(frozen=True)
class RenderedFrame:
    image: np.ndarray
    markers: list[MarkerTruth]
    camera: VirtualCamera

    def readable(self, *, min_visible: float = 1.0) -> list[MarkerTruth]:
        """Markers a detector can be expected to find: fully in view and uncovered."""
        return [m for m in self.markers if m.in_view and m.visible >= min_visible]


# Texel i covers texture coordinates i..i+1, and OpenCV samples texel i at i: shift by half.
_TEXEL_CENTRE = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])


def card_pose_mm(position_mm: Point, angle_deg: float) -> np.ndarray:
    """3x3 transform from card mm (origin at the card's top-left corner, upright) to table mm."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    to_centre = np.array([[1, 0, -CARD_MM[0] / 2], [0, 1, -CARD_MM[1] / 2], [0, 0, 1]])
    # Clockwise on the image is a positive angle in a y-down frame.
    rot = np.array([[c, -s, position_mm[0]], [s, c, position_mm[1]], [0, 0, 1]])
    return rot @ to_centre


def render_frame(
    cards: Sequence[CardPlacement],
    layout: Layout | None,
    *,
    camera: VirtualCamera | None = None,
    effects: Effects = Effects(),
    owners: OwnerRegistry | Sequence[str] | None = None,
    family: str = SEALS,
    id_map: dict[int, int] | None = None,
) -> RenderedFrame:
    """Draw one camera frame of the table.

    - ``layout``: the mat (corner markers and zone outlines); ``None`` draws cards on a bare table.
    - ``camera``: defaults to :meth:`VirtualCamera.overhead` over the layout's mat (1920x1080).
    - ``owners``: the owner registry, or player names in slot order, to turn names into slots.
    - ``family``/``id_map``: draw markers of another family (for the benchmark); ``id_map`` maps
      scheme ids to that family's ids. By default every marker is drawn from the seal
      dictionary (:data:`vision.markers.SEALS`), whatever the card's game.

    Raises ``ValueError`` (naming the card) for an owner name that has no slot, or a card
    that cannot go without an owner; the catalogue's :class:`~companion.contract.errors.
    UnknownCardError` for a bad card id.
    """
    if camera is None:
        camera = VirtualCamera.overhead(layout.mat_mm if layout else (1000.0, 700.0))
    registry = owners if isinstance(owners, OwnerRegistry) else OwnerRegistry(list(owners or []) + [None] * (8 - len(owners or [])))
    w, h = camera.size
    image = np.empty((h, w, 3), np.uint8)
    image[:] = (88, 120, 150)  # a wooden table
    labels = np.full((h, w), -1, np.int16)  # which drawn layer owns each pixel, for occlusion truth
    pending: list[tuple[int, SealMarker | SealBack | MatCorner, str | None, np.ndarray, np.ndarray, Point | None]] = []

    if layout is not None:
        _draw_mat(image, layout, camera)
        for place in layout.mat_markers:
            quad_mm = np.array(place.corners_mm())
            tex, scale = _marker_texture(place.corner.tag_id, family, id_map, place.size_mm, camera.px_per_mm(place.centre_mm))
            q = place.size_mm * (MODULES + 2 * QUIET_MODULES) / MODULES / 2
            cx, cy = place.centre_mm
            to_table = np.array([[1 / scale, 0, cx - q], [0, 1 / scale, cy - q], [0, 0, 1]]) @ _TEXEL_CENTRE
            _paste(image, labels, tex, camera.homography @ to_table, layer=len(pending))
            pending.append((place.corner.tag_id, place.corner, None, camera.project(quad_mm), _quiet_quad(quad_mm, camera), None))

    for placement in cards:
        card = game().cards.from_id(placement.card) if isinstance(placement.card, str) else placement.card
        slot, owner_name = _slot(placement, card, registry)
        front = SealMarker(card, slot)
        shown: SealMarker | SealBack | None = front if placement.face_up else _back(card, slot)
        scale = _texture_scale(camera.px_per_mm(placement.position_mm))
        pose = card_pose_mm(placement.position_mm, placement.angle_deg)
        seal = None if shown is None else _family_id(shown.tag_id, id_map)
        tex = _card_texture(card, slot, scale, family, seal, placement.face_up)
        to_table = pose @ np.diag([1 / scale, 1 / scale, 1.0]) @ _TEXEL_CENTRE
        _paste(image, labels, tex, camera.homography @ to_table, layer=len(pending))
        if shown is not None:
            sx, sy = SEAL_CENTRE_ON_CARD_MM
            half = MARKER_MM / 2
            local = np.array([[sx - half, sy - half, 1], [sx + half, sy - half, 1], [sx + half, sy + half, 1], [sx - half, sy + half, 1]])
            quad_mm = (pose @ local.T).T[:, :2]
            pending.append((shown.tag_id, shown, owner_name, camera.project(quad_mm), _quiet_quad(quad_mm, camera), cast(Point, tuple(placement.position_mm))))
        else:
            pending.append((-1, front, owner_name, np.zeros((4, 2)), np.zeros((4, 2)), None))

    for hand in effects.hands:
        _draw_hand(image, labels, hand, camera)

    truths = []
    for layer, (tag_id, marker, owner_name, corners, quiet, pos) in enumerate(pending):
        if tag_id < 0:
            continue
        truths.append(
            MarkerTruth(
                tag_id=tag_id,
                marker=marker,
                owner=owner_name,
                corners_px=corners,
                visible=_visible_fraction(labels, quiet, layer),
                in_view=bool((quiet >= 0).all() and (quiet[:, 0] < w).all() and (quiet[:, 1] < h).all()),
                zone=layout.zone_at(pos) if (layout is not None and pos is not None) else None,
                position_mm=pos,
            )
        )
    image = _apply_effects(image, effects)
    return RenderedFrame(image, truths, camera)


# --- drawing ------------------------------------------------------------------------------------


def _slot(placement: CardPlacement, card: Card, registry: OwnerRegistry) -> tuple[int | None, str | None]:
    owner = placement.owner
    if owner is None:
        return None, None
    deck = _deck(card) if isinstance(owner, str) else None
    if isinstance(owner, str) and deck is not None and owner in deck.colours:
        return deck.colours.index(owner), owner
    if isinstance(owner, int):
        return owner, registry.name_of(owner)
    slot = registry.slot_of(owner)
    if slot is None:
        raise ValueError(f"{card.id}: owner {owner!r} has no owner slot (known: {', '.join(s for s in registry.slots if s) or 'none'})")
    return slot, registry.slots[slot]


def _deck(card: Card) -> Deck | None:
    spec = getattr(game(card.game), "table", None)
    return spec.deck_of(card) if spec is not None else None


def _back(card: Card, slot: int | None) -> SealBack | None:
    """The seal on ``card``'s back, where its deck's backs carry one."""
    deck = _deck(card)
    if deck is None or not deck.backs:
        return None
    copy = deck.colours[slot] if deck.colours and slot is not None else slot
    return SealBack(card.game, deck.name, copy)


def _texture_scale(px_per_mm: float) -> float:
    # Twice the camera's resolution, in steps, so bilinear warping averages like a lens does.
    return float(min(24, max(4, 2 * math.ceil(px_per_mm))))


def _family_id(tag_id: int, id_map: dict[int, int] | None) -> int:
    return id_map.get(tag_id, tag_id) if id_map is not None else tag_id


def _marker_image(tag_id: int, family: str, px: int) -> np.ndarray:
    grid = module_grid(tag_id, family=family)
    return cv2.resize(grid, (px, px), interpolation=cv2.INTER_NEAREST)


@lru_cache(maxsize=64)
def _art_numbers(card_id: str) -> tuple[int, bool]:
    """A number and a flag that fix a card's colours and artwork: the digits of its id and
    whether it begins with F (a second family of cards, drawn in other colours), or a
    checksum of the id where it has no digits."""
    digits = "".join(ch for ch in card_id if ch.isdigit())
    number = int(digits) if digits else zlib.crc32(card_id.encode("utf-8")) % 997
    return number, card_id.startswith("F")


def _card_texture(card: Card, slot: int | None, scale: float, family: str, tag_id: int | None, face_up: bool) -> np.ndarray:
    """The card's face, or its back (with the back's seal ``tag_id`` where there is one)."""
    w, h = round(CARD_MM[0] * scale), round(CARD_MM[1] * scale)
    tex = np.empty((h, w, 4), np.uint8)
    tex[..., 3] = 255
    if not face_up:
        tex[..., :3] = (60, 30, 110)
        cv2.rectangle(tex, (int(4 * scale), int(4 * scale)), (w - int(4 * scale), h - int(4 * scale)), (40, 170, 210, 255), max(1, int(scale)))
        if tag_id is not None:
            _seal_sticker(tex, scale, family, tag_id, "" if slot is None else f"#{slot}")
        return _round_corners(tex, scale)
    number, other = _art_numbers(card.id)
    hue = (number * 37 + (90 if other else 0)) % 180
    colour = cv2.cvtColor(np.array([[[hue, 90, 200]]], dtype=np.uint8), cv2.COLOR_HSV2BGR)[0, 0].tolist()
    tex[..., :3] = (235, 240, 242)
    m = int(3 * scale)
    cv2.rectangle(tex, (m, m), (w - m, h - m), colour + [255], -1)
    art = (int(8 * scale), int(14 * scale), w - int(8 * scale), int(52 * scale))
    cv2.rectangle(tex, art[:2], art[2:], (np.array(colour) * 0.6).astype(int).tolist() + [255], -1)
    # Busy artwork, the same for every copy of a card: edges, corners and dark squares are
    # what a detector mistakes for markers, so the frames must have plenty of them.
    art_rng = np.random.default_rng(number + (100 if other else 0))
    for _ in range(28):
        x, y = art_rng.uniform(art[0], art[2]), art_rng.uniform(art[1], art[3])
        size = art_rng.uniform(1.5, 9) * scale
        shade = [int(v) for v in art_rng.integers(0, 256, 3)] + [255]
        if art_rng.random() < 0.5:
            cv2.rectangle(tex, (int(x), int(y)), (int(min(x + size, art[2])), int(min(y + size * art_rng.uniform(0.5, 1.5), art[3]))), shade, -1)
        else:
            cv2.circle(tex, (int(x), int(y)), int(size / 2), shade, -1, cv2.LINE_AA)
    cv2.circle(tex, ((art[0] + art[2]) // 2, (art[1] + art[3]) // 2), int(12 * scale), (250, 250, 250, 255), max(1, int(scale)))
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(tex, card.title[:22], (int(6 * scale), int(10 * scale)), font, 0.09 * scale, (20, 20, 20, 255), max(1, int(scale / 4)), cv2.LINE_AA)
    value = getattr(card, "value", None)  # a big number where the card has one
    if value is not None:
        cv2.putText(tex, str(value), (int(40 * scale), int(66 * scale)), font, 0.35 * scale, (30, 30, 30, 255), max(1, int(scale / 2)), cv2.LINE_AA)
    assert tag_id is not None  # a face always carries its seal
    _seal_sticker(tex, scale, family, tag_id, SealMarker(card, slot).label)
    return _round_corners(tex, scale)


def _seal_sticker(tex: np.ndarray, scale: float, family: str, tag_id: int, label: str) -> None:
    """The seal sticker in the card's seal corner: white paper, the marker, its label underneath."""
    sx, sy = SEAL_CENTRE_ON_CARD_MM
    sw, sh = STICKER_MM
    x0, y0 = sx - sw / 2, sy - sw / 2
    cv2.rectangle(tex, (round(x0 * scale), round(y0 * scale)), (round((x0 + sw) * scale), round((y0 + sh) * scale)), (255, 255, 255, 255), -1)
    q = MARKER_MM * (MODULES + 2 * QUIET_MODULES) / MODULES
    px = round(q * scale)
    mx, my = round((sx - q / 2) * scale), round((sy - q / 2) * scale)
    tex[my : my + px, mx : mx + px, :3] = _marker_image(tag_id, family, px)[..., None]
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(tex, label, (round((x0 + 1.5) * scale), round((y0 + sh - 1.0) * scale)), font, 0.075 * scale, (0, 0, 0, 255), max(1, int(scale / 6)), cv2.LINE_AA)


def _round_corners(tex: np.ndarray, scale: float) -> np.ndarray:
    r = int(3 * scale)
    h, w = tex.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(mask, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    tex[..., 3] = mask
    tex.setflags(write=False)
    return tex


def _marker_texture(tag_id: int, family: str, id_map: dict[int, int] | None, size_mm: float, px_per_mm: float) -> tuple[np.ndarray, float]:
    scale = _texture_scale(px_per_mm)
    q = size_mm * (MODULES + 2 * QUIET_MODULES) / MODULES
    px = round(q * scale)
    tex = np.full((px, px, 4), 255, np.uint8)
    tex[..., :3] = _marker_image(_family_id(tag_id, id_map), family, px)[..., None]
    return tex, px / q


def _paste(image: np.ndarray, labels: np.ndarray, tex: np.ndarray, tex_to_image: np.ndarray, *, layer: int) -> None:
    """Warp an RGBA texture into the image (alpha blended) and claim its pixels for ``layer``."""
    th, tw = tex.shape[:2]
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[tw, 0]], [[tw, th]], [[0, th]]], dtype=np.float64), tex_to_image).reshape(-1, 2)
    h, w = image.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    patch = cv2.warpPerspective(tex, shift @ tex_to_image, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = patch[..., 3:4].astype(np.float32) / 255.0
    roi = image[y0:y1, x0:x1]
    roi[:] = (patch[..., :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
    labels[y0:y1, x0:x1][patch[..., 3] > 127] = layer


def _draw_mat(image: np.ndarray, layout: Layout, camera: VirtualCamera) -> None:
    w, h = layout.mat_mm
    outline = camera.project([(0, 0), (w, 0), (w, h), (0, h)])
    cv2.fillConvexPoly(image, np.round(outline * 16).astype(np.int32), (70, 110, 45), cv2.LINE_AA, shift=4)
    for zone in layout.zones:
        pts = camera.project(zone.polygon_mm)
        cv2.polylines(image, [np.round(pts * 16).astype(np.int32)], True, (150, 185, 130), 2, cv2.LINE_AA, shift=4)


def _quiet_quad(quad_mm: np.ndarray, camera: VirtualCamera) -> np.ndarray:
    # The marker plus its white margin: a detector needs all of it.
    centre = quad_mm.mean(axis=0)
    grow = (MODULES + 2 * QUIET_MODULES) / MODULES
    return camera.project(centre + (quad_mm - centre) * grow)


def _visible_fraction(labels: np.ndarray, quad: np.ndarray, layer: int) -> float:
    h, w = labels.shape
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int) + 1, 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - [x0, y0]).astype(np.int32), 1)
    inside = mask.astype(bool)
    if not inside.any():
        return 0.0
    # Covered means owned by something drawn later (a card on top, a hand); edge pixels that
    # rounding gave to layers below do not count.
    owner = labels[y0:y1, x0:x1][inside]
    return float(1.0 - ((owner > layer) | (owner == -2)).mean())


def draw_hands(image: np.ndarray, hands: Sequence[Hand], camera: VirtualCamera) -> np.ndarray:
    """A copy of a finished frame with ``hands`` drawn over it (with their shadows): a hand
    moving over a still table without drawing the whole table again for every frame."""
    out = image.copy()
    for hand in hands:
        _draw_hand(out, None, hand, camera)
    return out


def _draw_hand(image: np.ndarray, labels: np.ndarray | None, hand: Hand, camera: VirtualCamera) -> None:
    a = math.radians(hand.angle_deg)
    c, s = math.cos(a), math.sin(a)
    k = hand.scale

    def place(points: list[Point]) -> np.ndarray:
        # Hand mm (fingers towards -y) to table mm, then to the image.
        pts = [(hand.position_mm[0] + (x * c - y * s) * k, hand.position_mm[1] + (x * s + y * c) * k) for x, y in points]
        return camera.project(pts)

    shapes: list[Any] = [cv2.ellipse2Poly((0, 0), (45, 52), 0, 0, 360, 10)]  # OpenCV int points, made float tuples below
    shapes[0] = [tuple(map(float, p)) for p in shapes[0]]
    for dx, length in ((-30, 70), (-10, 82), (10, 78), (30, 62)):
        shapes.append([(dx - 8, -30), (dx + 8, -30), (dx + 8, -30 - length), (dx - 8, -30 - length)])
    shapes.append([(40, 0), (52, -8), (85, -45), (72, -55), (38, -25)])  # thumb
    off = np.array([12.0, 16.0]) * camera.px_per_mm(hand.position_mm)
    outlines = [place(shape) + off for shape in shapes]
    # Only the window around the shadow is touched: whole-frame arithmetic is slow at 4K.
    h, w = image.shape[:2]
    allpts = np.concatenate(outlines)
    x0, y0 = np.clip(np.floor(allpts.min(axis=0)).astype(int) - 20, 0, [w, h])
    x1, y1 = np.clip(np.ceil(allpts.max(axis=0)).astype(int) + 20, 0, [w, h])
    if x1 > x0 and y1 > y0:
        shadow = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for pts in outlines:
            cv2.fillPoly(shadow, [np.round(pts - [x0, y0]).astype(np.int32)], 255)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 6).astype(np.float32)
        roi = image[y0:y1, x0:x1]
        roi[:] = (roi * (1 - shadow[..., None] / 255.0 * 0.45)).astype(np.uint8)
    for shape in shapes:
        pts = np.round(place(shape)).astype(np.int32)
        cv2.fillPoly(image, [pts], (120, 150, 205), cv2.LINE_AA)
        if labels is not None:
            cv2.fillPoly(labels, [pts], -2)


def _apply_effects(image: np.ndarray, fx: Effects) -> np.ndarray:
    if not (fx.blur or fx.noise or fx.gradient or fx.glare):
        return image
    out: np.ndarray = image.astype(np.float32)
    h, w = out.shape[:2]
    if fx.gradient:
        a = math.radians(fx.gradient_angle_deg)
        ys, xs = np.ogrid[0:h, 0:w]
        t = ((xs - w / 2) * math.cos(a) + (ys - h / 2) * math.sin(a)).astype(np.float32)
        t = (t - t.min()) / max(float(t.max() - t.min()), 1.0)
        out *= (1 - fx.gradient * t)[..., None]
    for g in fx.glare:
        # The highlight, computed only where it is brighter than a grey level.
        r = int(g.radius_px * 2) + 1
        x0, y0 = max(0, int(g.centre_px[0]) - r), max(0, int(g.centre_px[1]) - r)
        x1, y1 = min(w, int(g.centre_px[0]) + r + 1), min(h, int(g.centre_px[1]) + r + 1)
        if x1 > x0 and y1 > y0:
            ys, xs = np.ogrid[y0:y1, x0:x1]
            d2 = (xs - g.centre_px[0]) ** 2 + (ys - g.centre_px[1]) ** 2
            out[y0:y1, x0:x1] += (g.strength * np.exp(-d2 / (2 * (g.radius_px / 2) ** 2))).astype(np.float32)[..., None]
    if fx.blur:
        out = cv2.GaussianBlur(out, (0, 0), fx.blur)
    if fx.noise:
        # One noise field for all three colours: a sensor's noise is mostly in brightness.
        out += (np.random.default_rng(fx.seed).standard_normal((h, w), dtype=np.float32) * fx.noise)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)
