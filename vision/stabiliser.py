"""The stabiliser: from per-frame card sightings to table observations (card appeared in a
zone, card left a zone) that are worth telling the game.

Single frames lie in both directions: a hand passing over the table hides markers, glare
washes one out for a moment, a card lying across a zone line may be read in either zone. The
rules, in order:

- **Appear**: a card is reported (:class:`~companion.observations.CardSeen`) once it has been
  read in ``confirm`` of the last ``window`` frames, in the zone most of those reads agree on.
- **Move**: a reported card changes zone only when read ``confirm`` times in a row inside the
  new zone by at least ``zone_margin_mm`` (hysteresis across zone lines); the old zone gets a
  :class:`~companion.observations.CardGone`, the new one a ``CardSeen``.
- **Leave**: a reported card that is no longer read is kept while its place is hidden. With
  camera images the stabiliser looks at that place: while anything moves over the seal or
  the card's footprint (a hand, trembling even when held still) the card stays; while the seal still looks as it did when last read (blur, a passing
  reflection) or is washed out by glare, the card stays; while something larger than a card
  lies over it (a hand resting on it, an arm: the change reaches from the card's footprint
  into the ring of table around it) the card stays. Otherwise, once the place has been calm
  for ``calm_s`` and the card unread as long, it is reported gone: the card was taken,
  turned over or covered by another card. This is fast on purpose: in natural play the next
  player's hand comes within a second, and a capture whose cards are still reported on the
  table when the next card is laid would be explained as the wrong play. Change in the ring
  that does not reach into the card's footprint (a hand laying the next card beside it)
  does not keep the card, and the ring is compared with a picture taken only while it was
  calm and unchanged, so a hand that held still beside the card is not taken for the table.
  After ``max_hidden_s`` without a read a card is gone anyway. Without images
  (``update(view, None, t)``) a card leaves after ``gone_after_s`` without a read.

Backs (face-down cards of decks whose backs carry seals, :class:`~vision.reader.BackSighting`)
follow the same rules, reported as :class:`~companion.observations.BackSeen` and
:class:`~companion.observations.BackGone`. The backs of one copy all show the same seal, so a
back is told from the others by where it lies: a back read near where a back of the same deck
and copy was read before (within ``back_reach`` seal sides, in the image) is that card; any
other is a new one, with a new ``mark``.

Seals that show but do not read (:class:`~vision.reader.UnreadSighting`) follow the same rules
too, told apart by where they lie as backs are: one seen in ``confirm`` of the last ``window``
frames is a card laid that cannot be named yet (:class:`~companion.observations.CardLaid`,
with a new ``mark``), unless a card already known lies there (its seal blurred for a moment).
The card first read where it lies is that card: its :class:`~companion.observations.CardSeen`
carries the mark. One that leaves unnamed is reported gone
(:class:`~companion.observations.LaidGone`).
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.contract import Card
from companion.observations import BackGone, BackSeen, CardGone, CardLaid, CardSeen, LaidGone, Observation
from vision.layout import Layout
from vision.markers import CARD_MM, MARKER_MM, SealBack
from vision.reader import BackSighting, CardSighting, TableView, UnreadSighting, card_centre

__all__ = ["Stabiliser", "TrackedCard"]

Key = tuple[str, "int | None"]
"""A card by id and owner slot; a back by ``"back"`` and its mark; a seal that does not read
by ``"laid"`` and its mark."""
_PATCH = 24  # side of the grey thumbnails compared to tell "still there" from "changed"


@dataclass
class TrackedCard:
    """What the stabiliser believes about one card (by id and owner slot), or about one back
    (``back``, with ``card`` ``None``: by its ``mark``), or about a card laid whose seal does
    not read (neither ``card`` nor ``back``: by its ``mark``). ``laid``: the mark and zone of
    the card laid unread that this card, read since, is."""

    card: Card | None
    slot: int | None
    owner: str | None
    back: SealBack | None = None
    mark: int = 0
    laid: tuple[int, str | None] | None = None
    px: tuple[float, float] | None = None  # the seal's centre in the image, last read
    reads: deque = field(default_factory=lambda: deque(maxlen=8))  # recent frames: zone read, or False
    reported: bool = False
    zone: str | None = None
    table_mm: tuple[float, float] | None = None
    last_read: float = 0.0
    last_motion: float = 0.0
    pending_zone: str | None = None
    pending_count: int = 0
    box: tuple[int, int, int, int] | None = None  # image area around the seal, last read
    area: tuple[int, int, int, int] | None = None  # image area around the whole card, last read
    area_reference: np.ndarray | None = None  # how that looked, last time it was still
    area_previous: np.ndarray | None = None  # how it looked at the last read
    still_since: float = 0.0  # since when the area has looked the same at every read
    area_reference_at: float = 0.0  # when area_reference was taken
    area_last: np.ndarray | None = None  # how the area looked in the previous frame
    reference: np.ndarray | None = None  # how that area looked when last read
    previous: np.ndarray | None = None  # how it looked in the previous frame


class Stabiliser:
    """Turns :class:`~vision.reader.TableView` frames into observations.

    Keyword arguments (defaults in brackets): ``source`` ["camera"], the observations'
    source; ``layout`` [None] for zone hysteresis; ``confirm`` [3] and ``window`` [5] frames
    to accept a card or a zone change; ``calm_s`` [0.3] seconds without a read and without
    movement over its place before a card whose place no longer shows it is reported gone
    (with images); ``gone_after_s`` [1.0] seconds without a read before a card is reported
    gone when no images are given; ``zone_margin_mm`` [10] hysteresis;
    ``motion_level`` [6.0] grey levels of change that count as movement; ``same_level`` [0.8]
    correlation above which an unread seal still counts as there (unless another card is
    read in its place); ``max_hidden_s`` [20] longest a covered card is kept;
    ``change_level`` [25] grey levels and ``ring_level`` [0.15] fraction of the ring around
    a card that must have changed for it to count as covered by something larger.
    """

    def __init__(
        self,
        *,
        source: str = "camera",
        layout: Layout | None = None,
        confirm: int = 3,
        window: int = 5,
        gone_after_s: float = 1.0,
        calm_s: float = 0.3,
        zone_margin_mm: float = 10.0,
        motion_level: float = 6.0,
        same_level: float = 0.8,
        max_hidden_s: float = 20.0,
        change_level: float = 25.0,
        ring_level: float = 0.15,
        back_reach: float = 2.5,
    ) -> None:
        if not 1 <= confirm <= window:
            raise ValueError(f"confirm ({confirm}) must be between 1 and window ({window})")
        self.source = source
        self.layout = layout
        self.confirm = confirm
        self.window = window
        self.gone_after_s = gone_after_s
        self.calm_s = calm_s
        self.zone_margin_mm = zone_margin_mm
        self.motion_level = motion_level
        self.same_level = same_level
        self.max_hidden_s = max_hidden_s
        self.change_level = change_level
        self.ring_level = ring_level
        self.back_reach = back_reach
        self.tracks: dict[Key, TrackedCard] = {}
        self._marks = 0
        self._gone_areas: deque[tuple[float, tuple[int, int, int, int]]] = deque(maxlen=64)

    @property
    def cards(self) -> list[TrackedCard]:
        """The cards currently reported as lying on the table."""
        return [t for t in self.tracks.values() if t.reported]

    def update(self, view: TableView, image: np.ndarray | None, at: float) -> list[Observation]:
        """Feed one frame (its reading, the image it came from, its time in seconds); returns
        the observations this frame decides, oldest first."""
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image is not None and image.ndim == 3 else image
        out: list[Observation] = []
        read_now: set[Key] = set()
        for s in view.cards:
            key = (s.card.id, s.slot)
            read_now.add(key)
            track = self.tracks.get(key)
            if track is None:
                track = self.tracks[key] = TrackedCard(s.card, s.slot, s.owner)
            out += self._read(track, s, gray, at)
        for b in view.backs:
            track = self._back_track(b, read_now)
            read_now.add(("back", track.mark))
            out += self._read(track, b, gray, at)
        for s in view.cards:
            out += self._named(self.tracks[(s.card.id, s.slot)], s, read_now, at)
        for u in view.unread:
            unread = self._unread_track(u, read_now)
            if unread is not None:
                read_now.add(("laid", unread.mark))
                out += self._read(unread, u, gray, at)
        centres = [s.px for s in view.cards] + [b.px for b in view.backs]
        for key, track in list(self.tracks.items()):
            if key not in read_now:
                out += self._missed(key, track, gray, at, centres)
        return out

    def _back_track(self, b: BackSighting, taken: set[Key]) -> TrackedCard:
        """The back ``b`` is: the nearest back of its copy read before within reach (and not
        already matched in this frame), else a new one."""
        near = self._near(b.px, b.corners_px, lambda key, t: t.back == b.back and key not in taken)
        if near:
            return near[0][2]
        self._marks += 1
        track = self.tracks[("back", self._marks)] = TrackedCard(None, None, b.owner, b.back, self._marks)
        return track

    def _near(self, px: tuple[float, float], corners: np.ndarray, keep: Callable[[Key, TrackedCard], bool]) -> list[tuple[float, Key, TrackedCard]]:
        """The tracks ``keep`` accepts whose seal was last read within reach of ``px``,
        nearest first."""
        reach = self.back_reach * float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).mean())
        near = [(math.dist(t.px, px), key, t) for key, t in self.tracks.items() if t.px is not None and math.dist(t.px, px) <= reach and keep(key, t)]
        return sorted(near, key=lambda e: e[0])

    def _unread_track(self, u: UnreadSighting, taken: set[Key]) -> TrackedCard | None:
        """The card laid unread that ``u`` shows: the one seen there before, or a new one;
        ``None`` where a card or a back already known lies (its seal blurred for a moment)."""
        near = self._near(u.px, u.corners_px, lambda key, t: key not in taken)
        if near and (near[0][2].card is not None or near[0][2].back is not None):
            return None
        if near:
            return near[0][2]
        self._marks += 1
        track = self.tracks[("laid", self._marks)] = TrackedCard(None, None, None, None, self._marks)
        return track

    def _named(self, t: TrackedCard, s: CardSighting, taken: set[Key], at: float) -> list[Observation]:
        """A card read where a card laid unread lies is that card: a new card takes its mark
        (its ``CardSeen`` carries it); a card already known read there again ends it."""
        out: list[Observation] = []
        for _, key, laid in self._near(s.px, s.corners_px, lambda key, u: key[0] == "laid" and key not in taken):
            del self.tracks[key]
            if not laid.reported:
                continue
            if t.reported or t.laid is not None:
                out.append(LaidGone(self.source, at, laid.zone, laid.mark))
            else:
                t.laid = (laid.mark, laid.zone)
        return out

    # --- one card read in this frame ---

    def _read(self, t: TrackedCard, s: CardSighting | BackSighting | UnreadSighting, gray: np.ndarray | None, at: float) -> list[Observation]:
        t.reads.append(s.zone if s.zone is not None else "")
        t.last_read = at
        t.px = s.px
        t.table_mm = s.table_mm
        t.owner = s.owner
        if gray is not None:
            t.box = _box(s.corners_px, gray.shape)
            t.reference = _patch(gray, t.box)
            t.previous = t.reference
            area = _area(s.corners_px, gray.shape)
            now = _patch(gray, area, _AREA)
            # Remember the card's surroundings only while they are still and bare of hands, so
            # that a hand reaching for the card, or holding still beside it while laying or
            # taking its neighbours, is not taken for part of the table: the first picture is
            # taken once the area has been calm for calm_s, and it is taken again only when
            # the ring looks as before, or after a whole second of calm.
            moved = t.area is None or max(abs(a - b) for a, b in zip(area, t.area)) > 0.1 * (area[2] - area[0])
            still = not moved and t.area_previous is not None and float(np.abs(now - t.area_previous).mean()) < self.motion_level
            if not still:
                t.still_since = at
            if moved:
                t.area_reference = None
            t.area, t.area_previous, t.area_last = area, now, now
            calm = at - t.still_since
            if still and (
                calm >= _REFRESH_S
                or (t.area_reference is None and calm >= self.calm_s)
                or (t.area_reference is not None and self._ring_change(t, now) <= self.ring_level / 2)
            ):
                t.area_reference, t.area_reference_at = now, at
        recent = list(t.reads)[-self.window :]
        if not t.reported:
            hits = [z for z in recent if z is not False]
            if len(hits) >= self.confirm:
                zone = Counter(hits).most_common(1)[0][0] or None
                t.reported, t.zone, t.pending_zone, t.pending_count = True, zone, None, 0
                return [self._seen(t, at)]
            return []
        new = s.zone
        if new == t.zone or s.table_mm is None:  # without a calibrated mat, nothing says it moved
            t.pending_zone, t.pending_count = None, 0
            return []
        if not self._clearly_in(new, s.table_mm, t.zone):
            t.pending_zone, t.pending_count = None, 0
            return []
        if new == t.pending_zone:
            t.pending_count += 1
        else:
            t.pending_zone, t.pending_count = new, 1
        if t.pending_count < self.confirm:
            return []
        gone = self._gone(t, at)
        t.zone, t.pending_zone, t.pending_count = new, None, 0
        return [gone, self._seen(t, at)]

    def _clearly_in(self, zone: str | None, point: tuple[float, float] | None, old: str | None) -> bool:
        # Past the margin inside the new zone, or, leaving for no zone, past it outside the old one.
        if self.layout is None or point is None:
            return True
        names = {z.name: z for z in self.layout.zones}
        if zone is not None and zone in names:
            return names[zone].signed_distance(point) >= self.zone_margin_mm
        if old is not None and old in names:
            return names[old].signed_distance(point) <= -self.zone_margin_mm
        return True

    # --- one card not read in this frame ---

    def _missed(self, key: Key, t: TrackedCard, gray: np.ndarray | None, at: float, centres: list) -> list[Observation]:
        t.reads.append(False)
        t.pending_zone, t.pending_count = None, 0
        if not t.reported:
            if not any(z is not False for z in t.reads):
                del self.tracks[key]
                if t.laid is not None:
                    # Read for a moment where a card laid unread lies, and never again.
                    return [LaidGone(self.source, at, t.laid[1], t.laid[0])]
            return []
        if gray is not None and t.box is not None and t.reference is not None:
            now = _patch(gray, t.box)
            if t.previous is not None and float(np.abs(now - t.previous).mean()) > self.motion_level:
                t.last_motion = at
            t.previous = now
            if t.area is not None:
                # A hand held over the card trembles: its edges move over the card's place.
                # (Hands passing beside it do not count: they would hold up a taken card.)
                around = _patch(gray, t.area, _AREA)
                if t.area_last is not None and float((np.abs(around - t.area_last) > self.change_level)[~_RING].mean()) > 0.01:
                    t.last_motion = at
                t.area_last = around
            if float((now >= 245).mean()) > 0.25 and at - t.last_read < self.max_hidden_s:
                return []  # washed out by glare: the camera cannot tell, so nothing changes
            replaced = any(t.box[0] <= x < t.box[2] and t.box[1] <= y < t.box[3] for x, y in centres)
            if not replaced and _correlation(now, t.reference) >= self.same_level:
                # The seal still looks as it did: glare or blur cost a read, not the card.
                t.last_read = at
                return []
            if at - t.last_motion < self.calm_s:
                return []  # something is moving over the card: wait until it has passed
            covered = self._covered(t, gray)
            if at - t.last_read < self.max_hidden_s and covered:
                return []  # something bigger than the card lies over it: a hand resting
            if covered is None and at - t.last_read < self.gone_after_s:
                return []  # among other cards nothing tells a still hand from a capture: wait
            # The place is calm, bare of hands and no longer shows the card: it was taken.
            # Waiting longer would only let the next player's hand arrive and hide the
            # place again, and a capture would stay open while the next card is laid.
            if at - t.last_read < self.calm_s:
                return []
        elif at - t.last_read < self.gone_after_s:
            return []  # without images, only time tells a missed read from a taken card
        del self.tracks[key]
        if t.area is not None:
            self._gone_areas.append((at, t.area))
        return [self._gone(t, at)]

    def _covered(self, t: TrackedCard, gray: np.ndarray) -> bool | None:
        # Compare the area around the card with how it looked when the card was last read: a
        # taken card changes only its footprint, a hand or an arm over it the ring around it
        # too. Only change that reaches into the footprint counts: a hand laying the next card
        # beside this one changes the ring but is not over the card's place. Where other cards
        # lie it proves nothing (a capture takes neighbours together), so they are left out.
        if t.area is None or t.area_reference is None:
            return None  # no calm picture of the surroundings yet: nothing to compare with
        now = _patch(gray, t.area, _AREA)
        others = self._others_mask(t)
        ring = _RING & ~others
        if ring.sum() < 0.2 * _RING.sum():
            return None  # surrounded by cards: the ring cannot tell a hand from a capture
        changed = (np.abs(now - t.area_reference) > self.change_level) & ~others
        count, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        if count <= 1:
            return False
        over_card = np.unique(labels[changed & ~_RING])
        touching = np.isin(labels, over_card[over_card > 0])
        return float((touching & ring).sum()) > self.ring_level * float(ring.sum())

    def _ring_change(self, t: TrackedCard, now: np.ndarray) -> float:
        """The fraction of the bare ring around ``t`` that differs from its remembered picture."""
        assert t.area_reference is not None
        ring = _RING & ~self._others_mask(t)
        if not ring.any():
            return 0.0
        return float((np.abs(now - t.area_reference) > self.change_level)[ring].mean())

    def _others_mask(self, t: TrackedCard) -> np.ndarray:
        """Where, in ``t``'s area patch, the other tracked cards lie (as last read)."""
        assert t.area is not None
        x0, y0, x1, y1 = t.area
        sx, sy = _AREA / max(1, x1 - x0), _AREA / max(1, y1 - y0)
        mask = np.zeros((_AREA, _AREA), bool)
        # Cards still tracked, and cards taken since the area around this one was pictured.
        areas = [o.area for o in self.tracks.values() if o is not t and o.area is not None]
        areas += [area for when, area in self._gone_areas if when >= t.area_reference_at]
        for a0, b0, a1, b1 in areas:
            # The card itself fills about the middle of its area (the area is padded).
            pad_x, pad_y = (a1 - a0) * 0.18, (b1 - b0) * 0.18
            c0, c1 = int((a0 + pad_x - x0) * sx), int((a1 - pad_x - x0) * sx)
            d0, d1 = int((b0 + pad_y - y0) * sy), int((b1 - pad_y - y0) * sy)
            if c1 <= 0 or d1 <= 0 or c0 >= _AREA or d0 >= _AREA:
                continue
            mask[max(0, d0) : min(_AREA, d1), max(0, c0) : min(_AREA, c1)] = True
        return mask

    def _seen(self, t: TrackedCard, at: float) -> CardSeen | BackSeen | CardLaid:
        if t.card is None and t.back is None:
            return CardLaid(self.source, at, t.zone, t.table_mm, t.mark)
        if t.card is None:
            assert t.back is not None
            return BackSeen(self.source, at, t.back.deck, t.owner, t.zone, t.table_mm, t.mark)
        mark = None if t.laid is None else t.laid[0]
        return CardSeen(source=self.source, at=at, card=t.card, owner=t.owner, zone=t.zone, table_mm=t.table_mm, mark=mark)

    def _gone(self, t: TrackedCard, at: float) -> CardGone | BackGone | LaidGone:
        if t.card is None and t.back is None:
            return LaidGone(self.source, at, t.zone, t.mark)
        if t.card is None:
            assert t.back is not None
            return BackGone(self.source, at, t.back.deck, t.owner, t.zone, t.mark)
        return CardGone(source=self.source, at=at, card=t.card, owner=t.owner, zone=t.zone)


def _box(corners: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    # The seal and as much again around it: a hand reaching for the card shows up here first.
    c = corners.mean(axis=0)
    r = float(np.linalg.norm(corners - c, axis=1).max()) * 2.0
    h, w = shape[:2]
    x0, y0 = int(max(0, c[0] - r)), int(max(0, c[1] - r))
    x1, y1 = int(min(w, c[0] + r + 1)), int(min(h, c[1] + r + 1))
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def _area(corners: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    # A square around the whole card, 1.6 times its half-diagonal on each side of its centre.
    centre, _ = card_centre(corners)
    side = float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).mean())
    r = 1.6 * side / MARKER_MM * math.hypot(*CARD_MM) / 2
    h, w = shape[:2]
    x0, y0 = int(max(0, centre[0] - r)), int(max(0, centre[1] - r))
    x1, y1 = int(min(w, centre[0] + r + 1)), int(min(h, centre[1] + r + 1))
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def _patch(gray: np.ndarray, box: tuple[int, int, int, int], size: int = _PATCH) -> np.ndarray:
    x0, y0, x1, y1 = box
    return cv2.resize(gray[y0:y1, x0:x1], (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)


def _ring(size: int) -> np.ndarray:
    # Outside the card's footprint (any rotation) but inside the area: beyond 1/1.6 of the radius.
    ys, xs = np.mgrid[0:size, 0:size] + 0.5 - size / 2
    return np.hypot(xs, ys) > size / 2 / 1.6 * 1.1


_AREA = 48
_REFRESH_S = 1.0  # calm long enough for whatever lies beside a card to count as the table
_RING = _ring(_AREA)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    denom = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / denom) if denom > 1e-6 else 0.0
