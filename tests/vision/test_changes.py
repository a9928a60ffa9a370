"""A camera's frames are decoded only where the picture changed: a still table costs no
decoding, a hand laying a card costs its region, and whatever a change settles into is read,
so the cards read are those a full decode of every frame reads."""

from __future__ import annotations

import random

import numpy as np

from companion.observations import CardGone, CardSeen
from vision.changes import ChangeGate
from vision.detect import MarkerDetector
from vision.reader import TableReader
from vision.render import Effects, Hand, VirtualCamera, draw_hands, render_frame
from vision.stabiliser import Stabiliser

from tests.vision.test_detect import spread_cards

FX = dict(blur=0.6, noise=3.0, gradient=0.2)


def cards_read(view) -> list[tuple[str, str | None, str | None]]:
    return [(c.card.id, c.owner, c.zone) for c in view.cards]


def readers(layout, owners) -> tuple[TableReader, TableReader]:
    """A reader decoding every frame whole, and one decoding only what changed."""
    return TableReader(layout=layout, owners=owners), TableReader(layout=layout, owners=owners, changes_only=True)


def laying_a_card(layout, owners, seed: int = 5):
    """A still table, a hand coming in from the right, laying a sixth card, leaving, and the
    table still again (each still frame drawn with its own sensor noise); with the card laid."""
    rng = random.Random(seed)
    cards = spread_cards(layout, rng, 6)
    camera = VirtualCamera.overhead(layout.mat_mm)
    before = [render_frame(cards[:5], layout, camera=camera, owners=owners, effects=Effects(**FX, seed=i)).image for i in range(4)]
    after = [render_frame(cards, layout, camera=camera, owners=owners, effects=Effects(**FX, seed=10 + i)).image for i in range(4)]
    target = cards[5].position_mm
    entry = (layout.mat_mm[0] + 150, target[1])
    frames = before[:3]
    for k in range(1, 4):  # arriving
        f = k / 3
        frames.append(draw_hands(before[3], (Hand((entry[0] + (target[0] - entry[0]) * f, target[1]), 270),), camera))
    held = (target[0] + 4, target[1] + 3)  # a hand trembles while it lays the card
    frames += [draw_hands(before[3], (Hand(held, 270),), camera), draw_hands(after[0], (Hand(target, 270),), camera)]
    for k in range(1, 4):  # leaving
        f = k / 4
        frames.append(draw_hands(after[0], (Hand((target[0] + (entry[0] - target[0]) * f, target[1]), 270),), camera))
    frames += after[1:]
    return frames, cards[5]


def test_a_still_table_is_not_decoded_and_a_laid_card_is_read_where_it_changed(compact, owners):
    frames, laid = laying_a_card(compact, owners)
    every, changes = readers(compact, owners)
    kinds = []
    for image in frames:
        assert cards_read(changes.read(image)) == cards_read(every.read(image))
        assert changes.changes is not None and changes.changes.last is not None
        kinds.append(changes.changes.last.kind)
    # The first frame whole; the still table (new sensor noise each frame) not at all; the
    # hand and the card where they are; the tenth frame after the first whole (the refresh);
    # the table once the hand has left (the picture the change settled into); then nothing.
    assert kinds == ["whole", "still", "still"] + ["regions"] * 7 + ["whole", "regions", "still", "still"], kinds
    work = changes.changes.work
    assert work.total == len(frames) and work.frames["whole"] == 2
    assert work.decoded_px < 2 + 0.5 * work.frames["regions"]  # a hand's region, not the table
    assert laid.card.id in {c.card.id for c in changes.read(frames[-1]).cards}


def test_the_stabiliser_sees_the_same_cards_laid_and_taken(compact, owners):
    frames, _ = laying_a_card(compact, owners, seed=8)
    taken = frames[::-1]  # the same card taken back: the hand comes, the card goes, the hand leaves
    every, changes = readers(compact, owners)
    seen: dict[str, list] = {"every": [], "changes": []}
    stabilisers = {"every": Stabiliser(layout=compact), "changes": Stabiliser(layout=compact)}
    for i, image in enumerate(frames + [frames[-1]] * 10 + taken + [taken[-1]] * 10):
        for name, reader in (("every", every), ("changes", changes)):
            for obs in stabilisers[name].update(reader.read(image), image, i / 10):
                assert isinstance(obs, (CardSeen, CardGone))
                seen[name].append((type(obs).__name__, obs.card.id, obs.owner, obs.zone, obs.at))
    assert seen["changes"] == seen["every"]
    assert sum(kind == "CardGone" for kind, *_ in seen["every"]) == 1  # the laid card, taken back


def test_a_change_too_small_to_see_in_one_frame_is_read_once_it_adds_up(compact, owners):
    # The card fades in over 40 frames: each frame differs from the one before by less than
    # the gate's level, but the comparison is with the picture last decoded, so the change is
    # read once it shows, and the settled picture is read like any other.
    frames, laid = laying_a_card(compact, owners, seed=11)
    start, end = frames[0].astype(np.float32), frames[-1].astype(np.float32)
    gate = ChangeGate()
    steps = 40
    assert np.abs(end - start).max() / steps < gate.level
    every, changes = readers(compact, owners)
    kinds = []
    for k in range(steps + 1):
        image = np.clip(start + (end - start) * k / steps + 0.5, 0, 255).astype(np.uint8)
        view = changes.read(image)
        assert changes.changes is not None and changes.changes.last is not None
        kinds.append(changes.changes.last.kind)
    assert cards_read(view) == cards_read(every.read(image))
    assert laid.card.id in {c.card.id for c in view.cards}
    # Read because the change added up, before the whole frame was decoded again (the refresh).
    assert kinds[0] == "whole" and kinds.index("regions") < 10


def test_a_change_over_much_of_the_picture_is_decoded_whole(compact, owners):
    frames, _ = laying_a_card(compact, owners)
    every, changes = readers(compact, owners)
    changes.read(frames[0])
    darker = (frames[0] * 0.7).astype(np.uint8)  # the light dimmed
    assert cards_read(changes.read(darker)) == cards_read(every.read(darker))
    assert changes.changes is not None and changes.changes.last is not None and changes.changes.last.kind == "whole"


def test_markers_read_in_a_window_are_those_of_the_whole_image(compact, owners):
    frames, _ = laying_a_card(compact, owners)
    image = frames[-1]
    detector = MarkerDetector()
    whole = detector.detect(image)
    h, w = image.shape[:2]
    window = (w // 4, h // 4, 3 * w // 4, 3 * h // 4)
    inside = [d for d in whole if (d.corners >= window[:2]).all() and (d.corners < window[2:]).all()]
    assert inside, "the window holds some markers"
    found = detector.detect_in(image, [window])
    assert sorted(d.tag_id for d in found) == sorted(d.tag_id for d in inside)
    for d in found:
        same = next(e for e in inside if e.tag_id == d.tag_id)
        assert np.abs(d.corners - same.corners).max() < 0.05


def test_a_still_table_is_decoded_whole_once_every_ten_frames(compact, owners):
    # A seal at the edge of legibility that one decode missed gets its next chance: a camera
    # decoding every frame would read it in the next frame; a still picture is read again
    # once a second at 10 frames a second.
    frames, _ = laying_a_card(compact, owners)
    _, changes = readers(compact, owners)
    kinds = []
    for image in [frames[-1]] * 25:
        changes.read(image)
        assert changes.changes is not None and changes.changes.last is not None
        kinds.append(changes.changes.last.kind)
    assert kinds == (["whole"] + ["still"] * 9) * 2 + ["whole"] + ["still"] * 4
