"""Seal-marker detection on synthetic overhead frames: recall, wrong ids and speed.

Every frame is 1920x1080, drawn by the virtual table (``vision.render``) with cards at random
positions and angles under a camera set for a given seal size in pixels per module, with
blur, sensor noise, a lighting gradient, glare and, on some frames, a hand over a card.
Each detector then reads every frame on one core.

- recall: markers found / markers fully visible (in view, nothing over them or their margin);
- wrong ids per 1,000 frames: detections naming a marker that is not in the frame at that
  place (a misread id, or a marker invented from clutter);
- ms/frame: detector time per 1080p frame, one thread.

A third part runs the **stabiliser** (``vision.stabiliser.Stabiliser``) over short rendered clips
at 3 pixels per module and 10 frames per second: cards lie still while a hand sweeps over
them, rests on one, and glare flickers; every card reported gone or seen again after its first
sighting is a false observation.

A second table counts **decoys read as markers**: frames of a bare table strewn with 60
marker-like squares each (a black border and random bits inside, the family's grid size),
the kind of pattern other games' tokens, QR codes or card artwork present. Every id read from
them is wrong.

Circle of Power's seals (:data:`vision.markers.SEALS`: 36h11 followed by 432 codes of 36h10)
are measured on frames holding Rule of Power's and Circle of Power's cards alike, read by the
detector a Circle of Power table uses; AprilTag's tagStandard41h12, the family considered
instead, is drawn at the same sticker size (its 9 modules across fill the 10 that a 36h11
marker and its white margin take, so its modules are 11 % larger) and read by AprilTag 3,
which alone knows it. ``px/mod`` is always the 1.61 mm module of the standard seal.

The blocks of the seal dictionary (ids 1024-8191, :mod:`vision.seal_codes`) are measured as the
next games' tables read them: a table of seven blocks (448 card faces, the most a game of 400
cards needs) reading its own codes and the mat's corners in one pass (``seals:...``, the
cards drawn with codes of those blocks), and, for the worst case, a table reading the whole
dictionary (8,187 codes).

The **camera path** comes first: frames a second per core at 720p, 1080p and 4K, reading
frames as ``rop play --camera`` does (marker decoding, the reader and the stabiliser), on
Circle of Power's mat in the middle of a four-player season (some 20 cards on the table):

- *still table*: the table as it rests between actions, with fresh sensor noise in every frame;
- *one card moves*: a hand comes in, lays a card, leaves, and the table rests 0.3 s: every
  frame but the last few has a hand moving in it, the busiest a table gets.

Each is read decoding every frame whole (``every frame``: how the camera read before) and
decoding only where the picture changed (``changes only``: :mod:`vision.changes`, what the
camera does now). Times are CPU seconds of the process on one thread (``time.process_time``,
so other work on the machine does not count), split into change detection (shrinking and
comparing pictures), marker decoding, and the rest (reading the table and the stabiliser);
frames are rendered beforehand and the video's own decoding is not counted.

``python -m bench vision [-- --quick | --full] [--frames N] [--sizes 2,3,4] [--seed S] [--camera]``
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field

#: (label, backend, family, detector options)
DETECTORS = [
    ("ArUco, rop default (2-bit correction)", "aruco", "APRILTAG_36h11", {}),
    ("ArUco, 1-bit correction", "aruco", "APRILTAG_36h11", {"max_hamming": 1}),
    ("ArUco, no correction", "aruco", "APRILTAG_36h11", {"max_hamming": 0}),
    ("AprilTag 3, decimate 1", "apriltag", "tag36h11", {"decimate": 1.0}),
    ("AprilTag 3, decimate 2", "apriltag", "tag36h11", {"decimate": 2.0}),
    ("AprilTag 3, decimate 1", "apriltag", "tag25h9", {"decimate": 1.0}),
    ("ArUco, 2-bit correction", "aruco", "5X5_1000", {}),
    ("ArUco, full correction", "aruco", "4X4_1000", {"max_hamming": 99, "min_margin": 0.0}),
    ("ArUco, a Circle of Power table", "aruco", "seals", {}),
    ("AprilTag 3, decimate 1", "apriltag", "tagStandard41h12", {"decimate": 1.0}),
    ("AprilTag 3, decimate 2", "apriltag", "tagStandard41h12", {"decimate": 2.0}),
    ("ArUco, a table of 7 blocks (448 faces)", "aruco", "seals:532-535,1024-1471", {}),
    ("ArUco, the whole seal dictionary", "aruco", "seals:0-1018,1024-8191", {}),
]
FAMILY_IDS = {"tag36h11": 587, "APRILTAG_36h11": 587, "tag25h9": 35, "5X5_1000": 1000, "4X4_1000": 1000, "seals": 1019, "tagStandard41h12": 2115}


def _drawn_ids(family: str) -> list[int] | None:
    """The seal ids a selection family's cards are drawn with (the mat's corners left out)."""
    from vision.markers import selected_ids

    ids = selected_ids(family)
    return None if ids is None else [i for i in ids if not 532 <= i < 536]


@dataclass
class Tally:
    frames: int = 0
    visible: int = 0
    found: int = 0
    wrong: int = 0
    covered: int = 0
    covered_found: int = 0
    seconds: float = 0.0
    examples: list = field(default_factory=list)


def make_scene(rng: random.Random, module_px: float, family: str, seed: int):
    """One random frame: cards spread over what a camera at ``module_px`` sees (for the seal
    dictionary, Rule of Power's cards and Circle of Power's mixed)."""
    from companion.games.circle_of_power.cards import ALL_CARDS as STANDARD_DECK
    from companion.games.rule_of_power.engine.cards import ALL_CARDS
    from vision.markers import MODULE_MM, SealMarker
    from vision.render import CardPlacement, Effects, Glare, Hand, VirtualCamera, render_frame

    px_per_mm = module_px / MODULE_MM
    centre = (rng.uniform(300, 700), rng.uniform(300, 500))
    camera = VirtualCamera.looking_at(centre, px_per_mm, rotation_deg=rng.uniform(-8, 8), keystone=rng.uniform(0, 0.05))
    view_w, view_h = 1920 / px_per_mm, 1080 / px_per_mm
    count = max(2, min(24, int(view_w * view_h / (63 * 88 * 2.5))))
    drawn = _drawn_ids(family)
    size = FAMILY_IDS[family] if drawn is None else len(drawn)
    cards, used = [], set()
    pool = [c for c in ALL_CARDS] + (list(STANDARD_DECK) if family == "seals" else [])
    rng.shuffle(pool)
    for card in pool:
        if len(cards) >= count:
            break
        slot = rng.randrange(8) if (card.game != "rule-of-power" or card.id.startswith("F") or rng.random() < 0.8) else None
        fid = SealMarker(card, slot).tag_id % size
        if drawn is not None:  # the card stands for a face of the blocks measured
            fid = drawn[(SealMarker(card, slot).tag_id * 7919) % size]
        if fid in used:
            continue
        used.add(fid)
        pos = (centre[0] + rng.uniform(-0.45, 0.45) * view_w, centre[1] + rng.uniform(-0.42, 0.42) * view_h)
        cards.append(CardPlacement(card, slot, pos, rng.uniform(-180, 180)))
    id_map = {SealMarker(c.card, c.owner).tag_id: SealMarker(c.card, c.owner).tag_id % size for c in cards}
    if drawn is not None:
        id_map = {SealMarker(c.card, c.owner).tag_id: drawn[(SealMarker(c.card, c.owner).tag_id * 7919) % size] for c in cards}
    glare = ()
    if rng.random() < 0.35:
        glare = (Glare((rng.uniform(0, 1920), rng.uniform(0, 1080)), rng.uniform(60, 220), rng.uniform(80, 230)),)
    hands = ()
    if rng.random() < 0.3 and cards:
        target = rng.choice(cards).position_mm
        hands = (Hand((target[0] + rng.uniform(-60, 60), target[1] + rng.uniform(-60, 60)), rng.uniform(0, 360), rng.uniform(0.9, 1.2)),)
    effects = Effects(
        blur=rng.uniform(0.3, 1.0),
        noise=rng.uniform(1.0, 5.0),
        gradient=rng.uniform(0.0, 0.5),
        gradient_angle_deg=rng.uniform(0, 360),
        glare=glare,
        hands=hands,
        seed=seed,
    )
    frame = render_frame(cards, None, camera=camera, effects=effects, family=_render_family(family), id_map=id_map)
    return frame, id_map


def decoy_frame(rng: random.Random, module_px: float, bits: int, count: int = 60):
    """A bare, unevenly lit table with ``count`` random marker-like squares of ``bits`` x
    ``bits`` data cells inside a black border and a white margin."""
    import cv2
    import numpy as np

    h, w = 1080, 1920
    image = np.empty((h, w), np.float32)
    image[:] = 125.0
    cells = bits + 4  # data, black border, white margin
    side = cells * module_px
    step = side * 1.6
    spots = [(x, y) for y in np.arange(side + 4, h - side - 4, step) for x in np.arange(side + 4, w - side - 4, step)]
    rng.shuffle(spots)
    for x, y in spots[:count]:
        grid = np.full((cells, cells), 255, np.uint8)
        grid[1:-1, 1:-1] = 0
        grid[2:-2, 2:-2] = np.array([rng.choice((0, 255)) for _ in range(bits * bits)], np.uint8).reshape(bits, bits)
        big = cv2.resize(grid, (cells * 8, cells * 8), interpolation=cv2.INTER_NEAREST)
        a = rng.uniform(0, 360)
        r = int(side) + 2  # warp into a small window around the spot only
        x0, y0 = int(x) - r, int(y) - r
        m = cv2.getRotationMatrix2D((cells * 4, cells * 4), a, module_px / 8)
        m[:, 2] += (x - x0 - cells * 4, y - y0 - cells * 4)
        mask = cv2.warpAffine(np.full_like(big, 255), m, (2 * r, 2 * r)).astype(np.float32) / 255
        patch = cv2.warpAffine(big, m, (2 * r, 2 * r)).astype(np.float32)
        roi = image[y0 : y0 + 2 * r, x0 : x0 + 2 * r]
        roi[:] = roi * (1 - mask) + patch * mask
    ys, xs = np.mgrid[0:h, 0:w]
    image *= 1 - 0.4 * xs / w
    image = cv2.GaussianBlur(image, (0, 0), 0.6)
    image += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


_BITS = {"tag36h11": 6, "APRILTAG_36h11": 6, "tag25h9": 5, "5X5_1000": 5, "4X4_1000": 4, "seals": 6, "tagStandard41h12": 3}


def _bits(family: str) -> int:
    return 6 if family.startswith("seals:") else _BITS[family]


def stabiliser_trial(rng: random.Random, frames: int = 40) -> tuple[int, int, int]:
    """One clip of still cards with a hand passing, resting and leaving, and glare flickering.
    Returns (cards on the table, cards reported, false observations)."""
    from companion.games.rule_of_power.engine.cards import ALL_CARDS
    from companion.observations import CardGone
    from vision.markers import MODULE_MM
    from vision.reader import TableReader
    from vision.render import CardPlacement, Effects, Glare, Hand, VirtualCamera, render_frame
    from vision.stabiliser import Stabiliser

    px_per_mm = 3.0 / MODULE_MM
    centre = (500.0, 400.0)
    camera = VirtualCamera.looking_at(centre, px_per_mm, rotation_deg=rng.uniform(-5, 5))
    view_w, view_h = 1920 / px_per_mm, 1080 / px_per_mm
    pool = list(ALL_CARDS)
    rng.shuffle(pool)
    cards: list[CardPlacement] = []
    for card in pool:
        pos = (centre[0] + rng.uniform(-0.4, 0.4) * view_w, centre[1] + rng.uniform(-0.38, 0.38) * view_h)
        if all(math.dist(pos, c.position_mm) > 110 for c in cards):
            cards.append(CardPlacement(card, rng.randrange(8), pos, rng.uniform(-180, 180)))
        if len(cards) == 8:
            break
    rest = rng.choice(cards).position_mm
    start = (centre[0] - view_w / 2, centre[1] + rng.uniform(-0.3, 0.3) * view_h)
    reader = TableReader()
    stab = Stabiliser()
    false = 0
    reported = set()
    for i in range(frames):
        hands = ()
        if 8 <= i < 20:  # sweeping in
            f = (i - 8) / 11
            hands = (Hand((start[0] + (rest[0] - start[0]) * f, start[1] + (rest[1] - start[1]) * f), 70),)
        elif 20 <= i < 30:  # resting on a card, trembling a little
            hands = (Hand((rest[0] + rng.uniform(-2, 2), rest[1] + rng.uniform(-2, 2)), 70),)
        elif 30 <= i < 34:  # leaving
            hands = (Hand((rest[0] + (i - 29) * 60, rest[1] - (i - 29) * 40), 70),)
        glare = ()
        if rng.random() < 0.3:
            glare = (Glare((rng.uniform(0, 1920), rng.uniform(0, 1080)), rng.uniform(60, 160), rng.uniform(120, 255)),)
        fx = Effects(blur=rng.uniform(0.3, 0.9), noise=rng.uniform(1, 4), gradient=0.3, glare=glare, hands=hands, seed=i)
        image = render_frame(cards, None, camera=camera, effects=fx).image
        for obs in stab.update(reader.read(image), image, i / 10):
            key = (obs.card.id, obs.owner)
            if isinstance(obs, CardGone) or key in reported:
                false += 1
            reported.add(key)
    return len(cards), len(reported), false


def _render_family(family: str) -> str:
    return {"tag36h11": "tag36h11", "APRILTAG_36h11": "tag36h11", "tag25h9": "tag25h9"}.get(family, family)


def score(frame, id_map, detections, tally: Tally) -> None:
    import numpy as np

    truth = {id_map[m.tag_id]: m for m in frame.markers}
    matched = set()
    for d in detections:
        m = truth.get(d.tag_id)
        if m is None or np.linalg.norm(np.subtract(d.centre, m.centre_px)) > m.module_px * 4:
            tally.wrong += 1
            if len(tally.examples) < 3:
                tally.examples.append((d.tag_id, [round(v) for v in d.centre]))
        else:
            matched.add(d.tag_id)
    for fid, m in truth.items():
        if not m.in_view:
            continue
        if m.visible >= 1.0:
            tally.visible += 1
            tally.found += fid in matched
        else:
            tally.covered += 1
            tally.covered_found += fid in matched


#: The camera path's frame sizes.
CAMERA_SIZES = (("720p", (1280, 720)), ("1080p", (1920, 1080)), ("4K", (3840, 2160)))


def timed_detector(family: str):
    """A marker detector that counts the CPU time its decoding takes (``seconds``)."""
    from vision.detect import MarkerDetector

    class TimedDetector(MarkerDetector):
        seconds = 0.0

        # Every decoding goes through these two (detect and detect_in call them).
        def detect_with_outlines(self, image):
            began = time.process_time()
            try:
                return super().detect_with_outlines(image)
            finally:
                self.seconds += time.process_time() - began

        def detect_in_with_outlines(self, image, windows):
            began = time.process_time()
            try:
                return super().detect_in_with_outlines(image, windows)
            finally:
                self.seconds += time.process_time() - began

    return TimedDetector(family=family)


def camera_clips(size: tuple[int, int], seed: int, still_frames: int):
    """The Circle of Power table of the camera path at ``size``: (its layout, the frames
    that set the table up, a still table's frames, the frames of one card laid)."""
    import numpy as np

    from companion.games.circle_of_power.policies import simulate
    from companion.games.circle_of_power.simulation.camera import circle_layout
    from companion.games.circle_of_power.simulation.staging import stage
    from vision.render import VirtualCamera
    from vision.scenes import natural_play

    setup, moves = simulate(("ann", "bob", "cy", "dee"), "basic", seed=20)
    layout = circle_layout()
    scenes = list(stage(setup, moves, "ann"))
    # The fullest table among the first season's steps whose next step lays or takes a card.
    counts = [len([c for c in s.cards if c.face_up]) for s in scenes[:80]]
    k = max(range(1, len(counts) - 1), key=lambda i: (counts[i], counts[i + 1] != counts[i]))
    camera = VirtualCamera.overhead(layout.mat_mm, size=size, margin_mm=25)
    frames = list(natural_play([scenes[k], scenes[k + 1]], layout, ["ann"], camera=camera, tail_s=0.0, seed=seed))
    setting = [f.image for f in frames if f.scene_index == 0]
    moving = [f.image for f in frames if f.scene_index == 1]
    rng = np.random.default_rng(seed)
    still = [np.clip(setting[-1] + rng.normal(0, 2.0, setting[-1].shape), 0, 255).astype(np.uint8) for _ in range(still_frames)]
    return layout, setting, still, moving


def camera_path(seed: int, still_frames: int, repeats: int) -> None:
    """Print the camera path's table (see the module docstring)."""
    from vision.markers import family_for
    from vision.owners import OwnerRegistry
    from vision.reader import TableReader
    from vision.stabiliser import Stabiliser
    from vision.watch import read_frame
    from companion.contract.registry import game

    cards = game("circle-of-power").cards
    print("camera path: Circle of Power's mat, a four-player season's table, CPU time of one thread per frame")
    print(f"{'size':6} {'table':15} {'reading':13} {'changes ms':>10} {'decode ms':>9} {'rest ms':>8} {'total ms':>9} {'frames/s/core':>13} {'decoded':>8}")
    for label, size in CAMERA_SIZES:
        layout, setting, still, moving = camera_clips(size, seed, still_frames)
        for clip, frames in (("still table", still), ("one card moves", moving * repeats)):
            for changes in (False, True):
                timed = timed_detector(family_for(cards))
                reader = TableReader(layout=layout, owners=OwnerRegistry(["ann"] + [None] * 7), cards=cards, detector=timed, changes_only=changes)
                stabiliser = Stabiliser(layout=layout)
                t = 0.0
                for image in setting + still[:1]:  # the table as it was before: not counted
                    read_frame(reader, stabiliser, image, t)
                    t += 0.1
                timed.seconds = 0.0
                if reader.changes is not None:
                    reader.changes.work = type(reader.changes.work)()
                began = time.process_time()
                for image in frames:
                    read_frame(reader, stabiliser, image, t)
                    t += 0.1
                total = (time.process_time() - began) / len(frames)
                decode = timed.seconds / len(frames)
                work = reader.changes.work if reader.changes is not None else None
                change = work.changes_s / len(frames) if work is not None else 0.0
                decoded = f"{100 * work.decoded_px / len(frames):7.0f}%" if work is not None else f"{100:7.0f}%"
                print(f"{label:6} {clip:15} {'changes only' if changes else 'every frame':13} {1000 * change:10.1f} {1000 * decode:9.1f} "
                      f"{1000 * (total - change - decode):8.1f} {1000 * total:9.1f} {1 / total:13.1f} {decoded}", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench vision", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few frames per size: a smoke run")
    parser.add_argument("--full", action="store_true", help="many frames and sizes (tens of minutes)")
    parser.add_argument("--frames", type=int, help="frames per module size and family")
    parser.add_argument("--sizes", help="pixels per module, comma separated")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", help="run only detectors whose family contains this text")
    parser.add_argument("--camera", action="store_true", help="only the camera path's frames a second")
    args = parser.parse_args(argv)

    import cv2

    from vision.detect import MarkerDetector

    cv2.setNumThreads(1)  # one core, as promised in the report
    camera_path(args.seed, still_frames=10 if args.quick else 20, repeats=1 if args.quick else 3)
    if args.camera:
        return 0
    print()
    frames = args.frames or (4 if args.quick else 60 if args.full else 15)
    sizes = [float(s) for s in args.sizes.split(",")] if args.sizes else ([2.0, 3.0, 4.0] if args.quick else [2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0] if args.full else [2.0, 2.5, 3.0, 4.0, 6.0, 8.0])
    detectors = [d for d in DETECTORS if not args.only or args.only in d[2]]
    families = list(dict.fromkeys(_render_family(d[2]) for d in detectors))
    results: dict[tuple[int, float], Tally] = {}
    instances = [MarkerDetector(backend=b, family=f, threads=1, **o) if b == "apriltag" else MarkerDetector(backend=b, family=f, **o)
                 for _, b, f, o in detectors]
    print(f"{frames} frames per size, sizes {', '.join(f'{s:g}' for s in sizes)} px/module, 1920x1080, one thread")
    for family in families:
        for size in sizes:
            rng = random.Random(f"{args.seed}-{family}-{size}")
            for i in range(frames):
                frame, id_map = make_scene(rng, size, family, seed=i)
                gray = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
                for k, (_, _, f, _) in enumerate(detectors):
                    if _render_family(f) != family:
                        continue
                    tally = results.setdefault((k, size), Tally())
                    start = time.perf_counter()
                    found = instances[k].detect(gray)
                    tally.seconds += time.perf_counter() - start
                    tally.frames += 1
                    score(frame, id_map, found, tally)
    decoys: dict[int, Tally] = {}
    decoy_px = 4.0
    for family in families:
        rng = random.Random(f"{args.seed}-decoys-{family}")
        for i in range(frames):
            gray = decoy_frame(rng, decoy_px, _bits(family))
            for k, (_, _, f, _) in enumerate(detectors):
                if _render_family(f) != family:
                    continue
                tally = decoys.setdefault(k, Tally())
                tally.frames += 1
                tally.wrong += len(instances[k].detect(gray))
    print()
    print(f"{'detector':46} {'family':15} {'px/mod':>6} {'recall':>8} {'wrong/1000 fr':>13} {'ms/frame':>9} {'covered found':>13}")
    for k, (label, _, family, _) in enumerate(detectors):
        for size in sizes:
            t = results.get((k, size))
            if not t:
                continue
            recall = t.found / t.visible if t.visible else math.nan
            wrong = 1000 * t.wrong / t.frames
            covered = f"{t.covered_found}/{t.covered}"
            print(f"{label:46} {family:15} {size:6g} {100 * recall:7.2f}% {wrong:13.1f} {1000 * t.seconds / t.frames:9.1f} {covered:>13}"
                  + (f"  e.g. {t.examples}" if t.examples else ""))
    clips = 2 if args.quick else 12 if args.full else 6
    on_table = seen = false = 0
    for i in range(clips):
        a, b, c = stabiliser_trial(random.Random(f"{args.seed}-track-{i}"))
        on_table, seen, false = on_table + a, seen + b, false + c
    print()
    print(f"stabiliser: {clips} clips of 40 frames at 3 px/module, a hand sweeping in, resting on a card for 1 s and leaving, glare")
    print(f"cards reported {seen}/{on_table}, false observations (a card reported gone or seen twice): {false}")
    print()
    print(f"decoys: {frames} frames of 60 random marker-like squares at {decoy_px:g} px/module; every id read is wrong")
    print(f"{'detector':46} {'family':15} {'wrong/1000 fr':>13} {'per decoy':>10}")
    for k, (label, _, family, _) in enumerate(detectors):
        t = decoys[k]
        print(f"{label:46} {family:15} {1000 * t.wrong / t.frames:13.1f} {t.wrong / (60 * t.frames):10.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
