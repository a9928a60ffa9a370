"""Reading cards from rendered camera frames: right ids, owners, zones and positions, and no
invented cards whatever the frame looks like."""

import math
import random

import numpy as np
import pytest

from vision.detect import MarkerDetector
from vision.layout import load_layout
from vision.markers import SealMarker
from vision.reader import TableReader
from vision.render import CardPlacement, Effects, Glare, Hand, VirtualCamera, render_frame


FAST = MarkerDetector()


def spread_cards(layout, rng: random.Random, count: int) -> list[CardPlacement]:
    """Cards lying well inside zones, not touching each other."""
    from companion.games.rule_of_power.engine.cards import ALL_CARDS

    pool = list(ALL_CARDS)
    rng.shuffle(pool)
    placed: list[CardPlacement] = []
    zones = [z for z in layout.zones]
    while len(placed) < count:
        zone = rng.choice(zones)
        xs, ys = zip(*zone.polygon_mm)
        pos = (rng.uniform(min(xs) + 40, max(xs) - 40), rng.uniform(min(ys) + 40, max(ys) - 40))
        if min(xs) + 40 > max(xs) - 40 or min(ys) + 40 > max(ys) - 40:
            continue
        if any(math.dist(pos, p.position_mm) < 115 for p in placed):
            continue
        card = pool.pop()
        owner = rng.choice(["ann", "bob"]) if card.id.startswith("F") else rng.choice(["ann", "bob", None])
        placed.append(CardPlacement(card, owner, pos, rng.uniform(-180, 180)))
    return placed


def truth_by_card(frame):
    return {(m.marker.card.id, m.owner): m for m in frame.readable() if isinstance(m.marker, SealMarker)}


def test_every_card_read_with_owner_zone_position_and_angle(compact, owners):
    rng = random.Random(3)
    cards = spread_cards(compact, rng, 6)
    camera = VirtualCamera.overhead(compact.mat_mm, rotation_deg=4, keystone=0.04, shift_px=(12, -8))
    frame = render_frame(cards, compact, camera=camera, owners=owners, effects=Effects(blur=0.7, noise=3, gradient=0.3, seed=1))
    view = TableReader(layout=compact, owners=owners, players=["ann", "bob"], detector=FAST).read(frame.image)
    assert view.calibration is not None and view.calibration.error_mm < 1.5
    assert len(view.mat_corners) == 4
    by_card = {(c.card.id, c.owner): c for c in view.cards}
    assert len(by_card) == len(view.cards) == len(cards)
    for placement in cards:
        owner = placement.owner
        seen = by_card[(placement.card.id, owner)]
        assert math.dist(seen.table_mm, placement.position_mm) < 3.0
        expected_zone = compact.seated(["ann", "bob"]).zone_at(placement.position_mm)
        assert seen.zone == expected_zone
        diff = (seen.angle_deg - placement.angle_deg + 180) % 360 - 180
        assert abs(diff) < 2.0


def test_corner_order_is_printed_top_left_first_for_both_detectors(compact, owners):
    cards = [CardPlacement("W007", "ann", (200, 180), a) for a in (0,)] + [CardPlacement("W011", "bob", (420, 180), 135)]
    frame = render_frame(cards, compact, owners=owners, effects=Effects(noise=1))
    truth = {m.tag_id: m for m in frame.markers}
    for detector in (FAST, MarkerDetector(backend="apriltag", decimate=2.0)):
        found = detector.detect(frame.image)
        assert {d.tag_id for d in found} == set(truth)
        for d in found:
            assert np.abs(d.corners - truth[d.tag_id].corners_px).max() < 1.5, detector.backend


def test_no_mat_in_view_gives_no_zone_or_position(owners):
    layout = load_layout(4)
    cards = [CardPlacement("W007", "ann", (500, 400), 30), CardPlacement("W040", None, (620, 420), -70)]
    camera = VirtualCamera.looking_at((560, 420), 2.6)  # a close-up of the middle of the mat
    frame = render_frame(cards, layout, camera=camera, owners=owners)
    assert all(m.tag_id < 532 for m in frame.readable())
    view = TableReader(layout=layout, owners=owners, detector=FAST).read(frame.image)
    assert view.calibration is None
    out = [c.to_json() for c in view.cards]
    assert {(c["card"], c["owner"]) for c in out} == {("W007", "ann"), ("W040", None)}
    assert all(c["zone"] is None and c["table_mm"] is None for c in out)


def test_bumped_camera_recalibrates_from_the_next_frame(compact, owners):
    cards = [CardPlacement("F004", "bob", (200, 300), 10)]
    reader = TableReader(layout=compact, owners=owners, detector=FAST)
    for camera in (VirtualCamera.overhead(compact.mat_mm), VirtualCamera.overhead(compact.mat_mm, rotation_deg=-7, shift_px=(60, 25), keystone=0.05)):
        view = reader.read(render_frame(cards, compact, camera=camera, owners=owners).image)
        (card,) = view.cards
        assert math.dist(card.table_mm, (200, 300)) < 3 and card.zone == "fate:0"


def test_calibration_is_dropped_when_a_visible_corner_shows_the_camera_moved(compact, owners):
    reader = TableReader(layout=compact, owners=owners, detector=FAST)
    cards = [CardPlacement("W003", "ann", (300, 180), 0)]
    assert reader.read(render_frame(cards, compact, owners=owners).image).calibration is not None
    # The camera is knocked, and hands hide all corners but the bottom-right one.
    moved = VirtualCamera.overhead(compact.mat_mm, rotation_deg=6, shift_px=(-70, -30))
    hands = (Hand((40, 40), 0, 1.3), Hand((600, 40), 0, 1.3), Hand((40, 320), 180, 1.3))
    view = reader.read(render_frame(cards, compact, camera=moved, owners=owners, effects=Effects(hands=hands)).image)
    assert view.mat_corners == [view.mat_corners[0]] and view.calibration is None
    assert [c.zone for c in view.cards] == [None]


@pytest.mark.parametrize("seed", range(6))
def test_hands_glare_and_clutter_never_invent_a_card(compact, owners, seed):
    rng = random.Random(seed)
    cards = spread_cards(compact, rng, 6)
    # Cards also dropped at random on top of each other, covering seals.
    cards += [CardPlacement(c, "ann", (rng.uniform(100, 540), rng.uniform(100, 260)), rng.uniform(0, 360)) for c in ("W020", "W021", "F001")]
    hands = tuple(Hand((rng.uniform(80, 560), rng.uniform(60, 300)), rng.uniform(0, 360), rng.uniform(0.8, 1.3)) for _ in range(2))
    glare = (Glare((rng.uniform(200, 1700), rng.uniform(200, 900)), rng.uniform(80, 200), rng.uniform(150, 255)),)
    fx = Effects(blur=rng.uniform(0.4, 1.2), noise=rng.uniform(2, 6), gradient=rng.uniform(0.2, 0.6), gradient_angle_deg=rng.uniform(0, 360), glare=glare, hands=hands, seed=seed)
    frame = render_frame(cards, compact, owners=owners, effects=fx)
    view = TableReader(layout=compact, owners=owners, detector=FAST).read(frame.image)
    present = {(m.marker.card.id, m.owner) for m in frame.markers if isinstance(m.marker, SealMarker)}
    for c in view.cards:
        assert (c.card.id, c.owner) in present
        truth = next(m for m in frame.markers if isinstance(m.marker, SealMarker) and (m.marker.card.id, m.owner) == (c.card.id, c.owner))
        assert math.dist(c.px, truth.centre_px) < 3
    # And the uncovered ones away from the glare are still read.
    readable = {k for k, m in truth_by_card(frame).items()}
    assert len({(c.card.id, c.owner) for c in view.cards} & readable) >= len(readable) - 2


def test_unplausible_markers_are_refused(compact, owners):
    # A seal marker printed at mat-corner size is not a card lying on the table: draw W009's
    # marker (60 mm wide) where the top-left corner marker belongs.
    from vision.markers import MatCorner

    big = SealMarker.of("W009", 0).tag_id
    frame = render_frame([], compact, owners=owners, id_map={MatCorner.TOP_LEFT.tag_id: big})
    view = TableReader(layout=compact, owners=owners, detector=FAST).read(frame.image)
    assert view.cards == []
    assert [(d.tag_id, reason) for d, reason in view.rejected] == [(big, "marker is 60 mm, a seal is 12.9 mm")]
    assert MatCorner.TOP_LEFT not in view.mat_corners and view.calibration is not None
