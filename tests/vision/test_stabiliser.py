"""The stabiliser on rendered frame sequences, and the whole watch path on a recorded video."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main as rop
from companion.observations import CardSeen, SensorState, SensorStatus
from vision.camera import CameraError, FrameSource
from vision.detect import MarkerDetector
from vision.reader import TableReader
from vision.render import CardPlacement, Effects, Glare, Hand, VirtualCamera, render_frame
from vision.stabiliser import Stabiliser

FPS = 10


def lerp(a, b, f):
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def game_clip(i: int) -> tuple[list[CardPlacement], tuple[Hand, ...]]:
    """Frame ``i`` of a short game at 10 frames per second: W007 (ann) in the centre and F002
    (bob) in bob's Fate area; a hand sweeps over W007; W010 (no owner) is played; a hand takes
    F002 away; W007 is moved into ann's capture area."""
    cards = []
    w007 = (200.0, 180.0) if i < 60 else (430.0, 305.0)
    if not 58 <= i < 62:  # in the hand while moving
        cards.append(CardPlacement("W007", "ann", w007, 10 if i < 60 else 0))
    if i < 46:
        cards.append(CardPlacement("F002", "bob", (445.0, 52.0), 90))
    if i >= 25:
        cards.append(CardPlacement("W010", None, (380.0, 190.0), -20))
    hands = []
    if 10 <= i < 30:  # sweeping over W007's seal
        hands.append(Hand(lerp((60.0, 330.0), (330.0, 120.0), (i - 10) / 19), 40))
    if 38 <= i < 56:  # reaching for F002, resting on it, leaving
        f = (i - 38) / 17
        hands.append(Hand(lerp((620.0, 330.0), (440.0, 70.0), min(1.0, 2 * f)) if f < 0.5 else lerp((440.0, 70.0), (640.0, 380.0), 2 * f - 1), -30))
    if 56 <= i < 64:
        hands.append(Hand(lerp((190.0, 200.0), (440.0, 320.0), (i - 56) / 7), 160))
    return cards, tuple(hands)


def render_clip(layout, owners, frames: int, effects: Effects = Effects(noise=2, blur=0.5, gradient=0.2)):
    for i in range(frames):
        cards, hands = game_clip(i)
        fx = Effects(blur=effects.blur, noise=effects.noise, gradient=effects.gradient, hands=hands, seed=i)
        yield render_frame(cards, layout, owners=owners, effects=fx).image


def test_recorded_game_is_tracked_through_rop_vision_watch(tmp_path, compact, compact_file, calibration_dir, owners, capsys):
    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (1920, 1080))
    assert writer.isOpened()
    for image in render_clip(compact, owners, 100):
        writer.write(image)
    writer.release()

    status = rop(["vision", "watch", "--video", str(video), "--json", "--layout", str(compact_file),
                  "--names", "ann,bob", "--calibration", str(calibration_dir)])
    assert status == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    end = events.pop()  # the recording says when it has ended
    assert (end["type"], end["state"]) == ("status", "ended") and "100 frames" in end["detail"]
    got = [(e["type"], e["card"], e["owner"], e["zone"]) for e in events]
    assert got == [  # observations decided by the same frame come in card order
        ("seen", "F002", "bob", "fate:bob"),
        ("seen", "W007", "ann", "centre"),
        ("seen", "W010", None, "centre"),
        ("gone", "F002", "bob", "fate:bob"),
        ("gone", "W007", "ann", "centre"),
        ("seen", "W007", "ann", "capture:ann"),
    ]
    at = {(e["type"], e["card"], e["zone"]): e["at"] - events[0]["at"] for e in events}
    # F002 is taken at frame 46 by a hand that leaves the picture at frame 56; times here
    # count from the first observation (frame 2). It is reported gone once the hand has
    # left its place, not a second or more after the hand has left the picture.
    assert 4.4 + 0.3 <= at[("gone", "F002", "fate:bob")] <= 5.4 + 1.0
    assert at[("seen", "W007", "capture:ann")] < 7.0
    seen = next(e for e in events if e["type"] == "seen" and e["card"] == "W010")
    assert abs(seen["table_mm"][0] - 380) < 3 and abs(seen["table_mm"][1] - 190) < 3


def run_frames(layout, owners, frames, *, images=True, stabiliser=None):
    reader = TableReader(layout=layout, owners=owners, detector=MarkerDetector())
    stab = stabiliser or Stabiliser(layout=layout)
    out = []
    for i, (cards, fx) in enumerate(frames):
        image = render_frame(cards, layout, owners=owners, effects=fx).image
        out += [(i, o) for o in stab.update(reader.read(image), image if images else None, i / FPS)]
    return out, stab


def test_card_on_a_zone_line_does_not_flap(compact, owners):
    # Centre ends at x=470, the deck starts at 490; the card's centre wanders around x=480.
    xs = [480 + (7 if i % 2 else -7) * (1 if i % 3 else 0.5) for i in range(16)]
    frames = [([CardPlacement("W012", "bob", (x, 180), 0)], Effects(noise=2, seed=i)) for i, x in enumerate(xs)]
    events, stab = run_frames(compact, owners, frames)
    assert len(events) == 1 and isinstance(events[0][1], CardSeen)
    assert stab.cards[0].card.id == "W012"


def test_glare_over_a_seal_keeps_the_card_and_removal_is_noticed(compact, owners):
    card = CardPlacement("W030", "ann", (250, 180), 0)
    frames = [([card], Effects(noise=2, seed=i)) for i in range(5)]
    seal_px = render_frame([card], compact, owners=owners).markers[-1].centre_px
    glare = (Glare(seal_px, 90, 255),)
    frames += [([card], Effects(noise=2, glare=glare, seed=i)) for i in range(5, 35)]  # 3 s of glare
    frames += [([], Effects(noise=2, seed=i)) for i in range(35, 60)]  # taken away, no hand
    events, _ = run_frames(compact, owners, frames)
    kinds = [(type(o).__name__, i) for i, o in events]
    assert kinds[0] == ("CardSeen", 2)
    assert [k for k, _ in kinds] == ["CardSeen", "CardGone"]
    # Gone once its bare place has been calm for calm_s (0.3 s), within a second.
    assert 35 + 3 <= kinds[1][1] <= 35 + FPS


def test_without_images_a_card_leaves_after_the_timeout(compact, owners):
    card = CardPlacement("F008", "bob", (200, 300), 0)
    frames = [([card], Effects()) for _ in range(4)] + [([], Effects()) for _ in range(14)]
    events, _ = run_frames(compact, owners, frames, images=False)
    assert [(type(o).__name__, o.zone, i) for i, o in events] == [("CardSeen", "fate:0", 2), ("CardGone", "fate:0", 13)]


def test_missing_sources_are_named(tmp_path, capsys):
    with pytest.raises(CameraError, match="nope.avi does not exist"):
        FrameSource(str(tmp_path / "nope.avi")).open()
    assert rop(["vision", "watch", "--video", str(tmp_path / "nope.avi")]) == 2
    assert "nope.avi does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"not a video")
    with pytest.raises(CameraError, match="bad.avi"):
        list(FrameSource(str(bad)).frames())
    with pytest.raises(CameraError, match="camera 57 could not be opened"):
        FrameSource(57).open()


def test_a_lost_camera_is_reported_and_retried(tmp_path, compact, owners):
    # A recording opened as if it were a live camera: when it runs out the source reports the
    # camera lost and reopens it; once the file is gone, reopening fails for good.
    video = tmp_path / "cam.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (640, 360))
    for i in range(3):
        writer.write(cv2.resize(render_frame([], compact, owners=owners).image, (640, 360)))
    writer.release()
    # Every frame in turn (a slow reader's dropped frames: tests/vision/test_live_camera.py).
    source = FrameSource(str(video), live=True, retry_s=0, max_retries=2, sleep=lambda s: None, newest_only=False)
    items = []
    for item in source.frames():
        items.append(item)
        if isinstance(item, SensorStatus) and item.state is SensorState.CONNECTED and len(items) > 1:
            video.unlink()  # the camera is unplugged for good
    states = [i.state for i in items if isinstance(i, SensorStatus)]
    assert states[:4] == [SensorState.CONNECTED, SensorState.LOST, SensorState.RECONNECTING, SensorState.CONNECTED]
    assert states[-1] is SensorState.FAILED
    assert sum(1 for i in items if not isinstance(i, SensorStatus)) >= 3


def test_losing_the_mat_does_not_move_cards(compact, owners):
    # The camera is bumped so far that no corner is in view: cards are still read, without
    # table positions, and must stay in the zones they were reported in.
    card = CardPlacement("W044", "bob", (300, 180), 30)
    close = VirtualCamera.looking_at((300, 180), 3.0, rotation_deg=12)
    frames = [([card], Effects(noise=2, seed=i)) for i in range(5)]
    reader = TableReader(layout=compact, owners=owners)
    stab = Stabiliser(layout=compact)
    events = []
    for i, (cards, fx) in enumerate(frames + frames):
        camera = None if i < 5 else close
        image = render_frame(cards, compact, owners=owners, effects=fx, camera=camera).image
        view = reader.read(image)
        assert (view.calibration is None) == (i >= 5) and len(view.cards) == 1
        events += stab.update(view, image, i / FPS)
    assert [(type(e).__name__, e.zone) for e in events] == [("CardSeen", "centre")]


def test_a_hand_resting_on_a_card_does_not_take_it_away(compact, owners):
    # A hand comes in, rests on W015's seal for 3 s (trembling a millimetre) and leaves; then
    # a hand takes W016 away.
    cards = [CardPlacement("W015", "ann", (200, 180), 0), CardPlacement("W016", "bob", (420, 200), 20)]
    frames = []
    for i in range(75):
        hands: tuple[Hand, ...] = ()
        if 5 <= i < 10:
            hands = (Hand(lerp((20.0, 330.0), (180.0, 235.0), (i - 5) / 4), 30),)
        elif 10 <= i < 40:
            hands = (Hand((180.0 + (i % 3) - 1, 235.0 + (i % 2)), 30),)
        elif 40 <= i < 45:
            hands = (Hand(lerp((180.0, 235.0), (20.0, 360.0), (i - 40) / 4), 30),)
        elif 50 <= i < 56:
            hands = (Hand((420.0, 230.0), 0),)
        on_table = cards if i < 53 else cards[:1]
        frames.append((on_table, Effects(noise=2, blur=0.5, hands=hands, seed=i)))
    events, stab = run_frames(compact, owners, frames)
    assert [(type(o).__name__, o.card.id) for _, o in events] == [
        ("CardSeen", "W015"), ("CardSeen", "W016"), ("CardGone", "W016")]
    # Once the hand has left (frame 56) and the place has been calm for calm_s: within a second.
    assert 56 + 3 <= events[-1][0] <= 56 + FPS
    assert [t.card.id for t in stab.cards] == ["W015"]
