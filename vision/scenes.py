"""Laying out a game's scenes on the mat, for the virtual camera.

A game's staging (its ``simulation.staging``) says which cards lie face up in which zone after
each step of a game; :class:`SceneLayout` decides where exactly each one lies, the way players
spread cards so every seal corner shows: in rows (later ones overlapping the right part of a
card below it, so every seal corner shows), zone by zone.
A card keeps its place for as long as it lies there, turned face up or not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from companion.observations.scene import Scene, TableCard
from vision.layout import Layout
from vision.markers import CARD_MM, MODULE_MM, SEAL_CENTRE_ON_CARD_MM, STICKER_MM
from vision.render import CardPlacement, Effects, Hand, VirtualCamera, draw_hands, render_frame

if TYPE_CHECKING:
    from companion.observations import Observation
    from vision.reader import TableReader
    from vision.stabiliser import Stabiliser

__all__ = ["SceneLayout", "render_scene_frames", "PlayFrame", "Action", "natural_play", "Filmed", "camera_over", "filmed_play"]

CARD_W, CARD_H = CARD_MM
#: How far below a card's centre its seal sticker begins.
SEAL_TOP_BELOW_CENTRE_MM = SEAL_CENTRE_ON_CARD_MM[1] - STICKER_MM[0] / 2 - CARD_H / 2


@dataclass(frozen=True, slots=True)
class _Box:
    x0: float
    y0: float
    x1: float
    y1: float


def _box(layout: Layout, zone: str) -> _Box:
    pts = layout.zone(zone).polygon_mm
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return _Box(min(xs), min(ys), max(xs), max(ys))


class SceneLayout:
    """Positions for the cards of successive scenes on a seated layout (zones named after the
    players). ``jitter_mm`` and ``jitter_deg`` make the spread look hand-laid."""

    def __init__(self, layout: Layout, *, seed: int = 0, jitter_mm: float = 2.0, jitter_deg: float = 3.0) -> None:
        self.layout = layout
        self.rng = random.Random(seed)
        self.jitter_mm = jitter_mm
        self.jitter_deg = jitter_deg
        self._where: dict[tuple[str, str | None], tuple[str, int, tuple[float, float], float, tuple[int, float]]] = {}
        self._freed: dict[tuple[str, int], int] = {}
        self._clock = 0

    def _slots(self, zone: str) -> list[tuple[float, float, int, int]]:
        """Places for cards in a zone, as (x, y, layer, tier), taken tier by tier: first a
        row of cards side by side; then places half-way between them; then the same again
        in a row raised above the first, where the zone has room for it. Cards are drawn layer by layer and left to right
        (:meth:`placements`), so a card only ever covers the right part of its left
        neighbour, or the top of the card below it, and every seal (at the bottom left of its
        card) stays in view."""
        b = _box(self.layout, zone)
        step_x, step_y = CARD_W + 8, CARD_H + 10
        cols = max(1, int((b.x1 - b.x0 + 8) // step_x))
        rows = max(1, int((b.y1 - b.y0 + 10) // step_y))
        x0 = b.x0 + (b.x1 - b.x0 - (cols * step_x - 8)) / 2 + CARD_W / 2
        y0 = b.y0 + (b.y1 - b.y0 - (rows * step_y - 10)) / 2 + CARD_H / 2
        grid = [(x0 + c * step_x, y0 + r * step_y) for r in range(rows) for c in range(cols)]
        between = [(x + step_x / 2, y) for x, y in grid if x + step_x / 2 + CARD_W / 2 <= b.x1 + 10]
        # Raised far enough that its bottom edge stays clear of the seal of the card below.
        raise_mm = CARD_H / 2 - SEAL_TOP_BELOW_CENTRE_MM + 8
        lower = [(x, y, 0, 0) for x, y in grid] + [(x, y, 0, 1) for x, y in between]
        raised = [(x, y - raise_mm, 1, tier + 2) for x, y, _, tier in lower if y - raise_mm - CARD_H / 2 >= b.y0 - 10]
        return lower + raised

    def placements(self, scene: Scene) -> list[CardPlacement]:
        """Where each card of ``scene`` lies; cards that stay keep their place."""
        present = {(t.card.id, t.owner): t for t in scene.cards}
        self._clock += 1
        for key in [k for k, (zone, _, _, _, _) in self._where.items() if k not in present or present[k].zone != zone]:
            zone, slot, _, _, _ = self._where.pop(key)
            self._freed[(zone, slot)] = self._clock
        out = []
        for t in scene.cards:
            key = (t.card.id, t.owner)
            if key not in self._where:
                self._where[key] = self._place(t)
            _, _, pos, angle, order = self._where[key]
            out.append((order, CardPlacement(t.card, t.owner, pos, angle, face_up=t.face_up)))
        # Drawn layer by layer, left to right, so a card only ever covers the part of its
        # neighbour away from the seal.
        return [p for _, p in sorted(out, key=lambda e: e[0])]

    def _place(self, t: TableCard) -> tuple[str, int, tuple[float, float], float, tuple[int, float]]:
        used = {slot for zone, slot, _, _, _ in self._where.values() if zone == t.zone}
        slots = self._slots(t.zone)
        free_slots = [i for i in range(len(slots)) if i not in used]
        # Like players, spread cards before overlapping them, and do not drop a card exactly
        # where one was just picked up: of the free places of the first tier with room, the
        # one left empty longest.
        free = min(free_slots, key=lambda i: (slots[i][3], self._freed.get((t.zone, i), -1)), default=len(slots) - 1)
        self._freed[(t.zone, free)] = self._clock
        x, y, layer, _ = slots[free]
        j = self.jitter_mm
        return (
            t.zone,
            free,
            (x + self.rng.uniform(-j, j), y + self.rng.uniform(-j, j)),
            self.rng.uniform(-self.jitter_deg, self.jitter_deg),
            (layer, x),
        )


def render_scene_frames(
    scenes: Sequence[Scene] | Iterator[Scene],
    layout: Layout,
    owners: Sequence[str],
    *,
    frames_per_scene: int = 6,
    camera: VirtualCamera | None = None,
    effects: Effects = Effects(noise=2.0, blur=0.6, gradient=0.15),
    hand_every: int = 0,
    fresh_noise: bool = True,
    seed: int = 0,
) -> Iterator[tuple[Scene, int, object]]:
    """Camera frames of a game's scenes: ``frames_per_scene`` frames each, with a hand moving
    over the table during the first frames of every ``hand_every``-th scene (0: never).
    With ``fresh_noise`` off, a still table is drawn once and its frame repeated (much faster,
    for long games). Yields (scene, frame number within the scene, image)."""
    spread = SceneLayout(layout, seed=seed)
    rng = random.Random(seed)
    w, h = layout.mat_mm
    for k, scene in enumerate(scenes):
        cards = spread.placements(scene)
        still = None
        for i in range(frames_per_scene):
            hands: tuple[Hand, ...] = ()
            if hand_every and k % hand_every == 0 and i < frames_per_scene // 2:
                f = i / max(1, frames_per_scene // 2)
                start = (rng.uniform(0, w), h + 60)
                hands = (Hand((start[0] + (w / 2 - start[0]) * f, start[1] - (h / 2 + 60) * f), rng.uniform(-30, 30)),)
            if not hands and not fresh_noise and still is not None:
                yield scene, i, still
                continue
            fx = Effects(
                blur=effects.blur,
                noise=effects.noise,
                gradient=effects.gradient,
                gradient_angle_deg=effects.gradient_angle_deg,
                glare=effects.glare,
                hands=hands,
                seed=seed * 100_000 + k * 100 + i,
            )
            image = render_frame(cards, layout, camera=camera, effects=fx, owners=list(owners)).image
            if not hands:
                still = image
            yield scene, i, image


@dataclass
class Action:
    """One physical step of play as the camera films it: a hand arrives (``start``), lays or
    takes cards (``change``: the frame the table changes under the hand), and has left the
    table at ``hand_gone``. ``laid`` and ``taken`` are the cards as (card id, owner)."""

    scene_index: int
    scene: Scene
    start: float
    change: float
    hand_gone: float
    laid: list[tuple[str, str | None]] = field(default_factory=list)
    taken: list[tuple[str, str | None]] = field(default_factory=list)


@dataclass(frozen=True)
class PlayFrame:
    """One camera frame of :func:`natural_play`: its time on the video's clock (frame ``n``
    at ``n / fps``), the scene on the table, whether a hand is in the picture, and the action
    this frame belongs to (``None`` while the table rests)."""

    index: int
    at: float
    scene_index: int
    scene: Scene
    image: np.ndarray
    hand: bool
    action: Action | None


def natural_play(
    scenes: Sequence[Scene] | Iterator[Scene],
    layout: Layout,
    owners: Sequence[str],
    *,
    camera: VirtualCamera | None = None,
    fps: float = 10.0,
    arrive_s: float = 0.3,
    hold_s: float = 0.4,
    leave_s: float = 0.3,
    rest_s: float = 0.3,
    tail_s: float = 2.0,
    effects: Effects = Effects(noise=2.0, blur=0.6, gradient=0.15),
    seed: int = 0,
) -> Iterator[PlayFrame]:
    """A game filmed as it is played at a natural pace, about a second per step: for every
    scene that changes the table a hand comes in from the nearest edge of the mat
    (``arrive_s``), lays or takes the cards while it covers their place (``hold_s``, the
    table changes half-way), and leaves (``leave_s``); then the table rests (``rest_s``)
    before the next player's hand arrives. Scenes that change nothing (a card drawn unseen) rest only.
After the last scene the table rests ``tail_s`` more, as a table does once the game is over.

    Each distinct table is drawn once (with ``effects``, sensor noise included) and hands are
    drawn over that picture, so a long game costs one full render per scene."""
    spread = SceneLayout(layout, seed=seed)
    rng = random.Random(seed)
    if camera is None:
        camera = VirtualCamera.overhead(layout.mat_mm)
    n = 0
    before: list[CardPlacement] = []
    # The game begins on a bare mat: the first cards are laid by a hand like any others.
    bare = Effects(blur=effects.blur, noise=effects.noise, gradient=effects.gradient,
                   gradient_angle_deg=effects.gradient_angle_deg, glare=effects.glare, seed=seed * 100_000 + 99_999)
    still_before: np.ndarray = render_frame([], layout, camera=camera, effects=bare, owners=list(owners)).image
    final: tuple[int, Scene, np.ndarray] | None = None

    def frames(count: float) -> int:
        return max(1, round(count * fps))

    for k, scene in enumerate(scenes):
        cards = spread.placements(scene)
        fx = Effects(
            blur=effects.blur,
            noise=effects.noise,
            gradient=effects.gradient,
            gradient_angle_deg=effects.gradient_angle_deg,
            glare=effects.glare,
            seed=seed * 100_000 + k,
        )
        still = render_frame(cards, layout, camera=camera, effects=fx, owners=list(owners)).image
        old = {_key(p): p for p in before}
        new = {_key(p): p for p in cards}
        laid = [new[key] for key in new if key not in old]
        taken = [old[key] for key in old if key not in new]
        if laid or taken:
            places = [p.position_mm for p in laid + taken]
            target = (sum(x for x, _ in places) / len(places), sum(y for _, y in places) / len(places))
            entry, angle = _entry(layout, target)
            action = Action(k, scene, n / fps, 0.0, 0.0, [_owned(p) for p in laid], [_owned(p) for p in taken])
            arrive, hold, leave = frames(arrive_s), frames(hold_s), frames(leave_s)
            for i in range(arrive + hold + leave):
                if i < arrive:
                    f = (i + 1) / arrive
                    palm = (entry[0] + (target[0] - entry[0]) * f, entry[1] + (target[1] - entry[1]) * f)
                elif i < arrive + hold:
                    palm = (target[0] + rng.uniform(-2, 2), target[1] + rng.uniform(-2, 2))
                else:
                    f = (i - arrive - hold + 1) / (leave + 1)
                    palm = (target[0] + (entry[0] - target[0]) * f, target[1] + (entry[1] - target[1]) * f)
                changed = i >= arrive + hold // 2
                if changed and not action.change:
                    action.change = n / fps
                base = still if changed else still_before
                image = draw_hands(base, (Hand(palm, angle),), camera)
                yield PlayFrame(n, n / fps, k, scene, image, True, action)
                n += 1
            action.hand_gone = n / fps
        for _ in range(frames(rest_s)):
            yield PlayFrame(n, n / fps, k, scene, still, False, None)
            n += 1
        before, still_before = cards, still
        final = (k, scene, still)
    if final is not None:
        for _ in range(frames(tail_s)):
            yield PlayFrame(n, n / fps, final[0], final[1], final[2], False, None)
            n += 1


def _key(p: CardPlacement) -> tuple[str, object, tuple[float, float], bool]:
    # A card turned over where it lies is a change of the table too: a hand turns it.
    card = p.card if isinstance(p.card, str) else p.card.id
    x, y = p.position_mm
    return card, p.owner, (x, y), p.face_up


def _owned(p: CardPlacement) -> tuple[str, str | None]:
    card = p.card if isinstance(p.card, str) else p.card.id
    return card, p.owner if isinstance(p.owner, str) or p.owner is None else str(p.owner)


def _entry(layout: Layout, target: tuple[float, float]) -> tuple[tuple[float, float], float]:
    """Where a hand reaching for ``target`` comes from (beyond the nearest mat edge) and which
    way its fingers point (degrees clockwise from the top of the image)."""
    w, h = layout.mat_mm
    x, y = target
    edges = [(h - y, (x, h + 120), 0.0), (y, (x, -120.0), 180.0), (x, (-120.0, y), 90.0), (w - x, (w + 120, y), 270.0)]
    _, entry, angle = min(edges, key=lambda e: e[0])
    return entry, angle


@dataclass(frozen=True)
class Filmed:
    """One camera frame of :func:`filmed_play`, read: its time on the video's clock, what the
    camera path reported in it, the scene on the table and the hand's action it belongs to
    (``None`` while the table rests), and how long reading it took (seconds)."""

    at: float
    observations: list[Observation]
    scene: Scene
    action: Action | None
    read_s: float


def camera_over(layout: Layout, module_px: float) -> VirtualCamera:
    """An overhead camera that sees the whole mat with 25 mm to spare, seals at ``module_px``
    pixels per module (what ``rop calibrate`` reports of a real camera: a 1080p camera over a
    standard mat reads them at 2.6-2.8)."""
    ppm = module_px / MODULE_MM
    w, h = layout.mat_mm
    size = (int((w + 50) * ppm) // 2 * 2, int((h + 50) * ppm) // 2 * 2)
    return VirtualCamera.looking_at((w / 2, h / 2), ppm, size=size)


def filmed_play(
    scenes: Sequence[Scene],
    layout: Layout,
    owners: Sequence[str],
    reader: TableReader,
    stabiliser: Stabiliser,
    *,
    module_px: float,
    fps: float = 10.0,
    seed: int = 0,
) -> Iterator[Filmed]:
    """A game's ``scenes`` played at a natural pace on ``layout`` (:func:`natural_play`), filmed
    by an overhead camera at ``module_px`` pixels per module and ``fps`` frames a second, each
    frame read back by ``reader`` and ``stabiliser`` exactly as a real camera's frames are."""
    from vision.watch import read_frame

    for frame in natural_play(scenes, layout, owners, camera=camera_over(layout, module_px), fps=fps, seed=seed):
        began = time.perf_counter()
        _, observed = read_frame(reader, stabiliser, frame.image, frame.at)
        yield Filmed(frame.at, observed, frame.scene, frame.action, time.perf_counter() - began)
