"""Ruse and Bruise's table as the sensors meet it: its decks (25 influence cards in each of the
box's six colours, B1; the 36 goal cards, B5), the seal ids and tags its allocator claims, the
stickers ``rop markers`` prints for them, their NFC enrolment on the reader board, and the
standard mats of 2-6 players, a goal stack and a column for each player (B7), as the camera
reads them: a card placed face down seen as a back of its colour, never as the card (B29)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.contract.allocation import installed
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.cards import COLOURS, GOALS, INFLUENCE, Goal, Influence
from companion.games.ruse_and_bruise.table import GOAL_DECK, INFLUENCE_DECK, SEAL_BLOCKS, TABLE, column_of_zone, mat
from hardware.emulator import BoardEmulator, FirmwareBuild
from vision.detect import MarkerDetector
from vision.layout import load_layout, standard_layout
from vision.markers import SealBack, family_for
from vision.reader import TableReader
from vision.render import CardPlacement, Effects, render_frame

from tests.hardware.test_cli import LIFT_SEEN, until

BLOCK = 64
"""Seal ids a block of the seal dictionary holds."""


def test_the_decks_are_each_colours_25_cards_and_the_36_goal_cards() -> None:
    assert TABLE.decks == (INFLUENCE_DECK, GOAL_DECK)
    assert len(INFLUENCE_DECK.cards) == 25 and INFLUENCE_DECK.colours == COLOURS and len(COLOURS) == 6
    assert len(GOAL_DECK.cards) == 36 and GOAL_DECK.unowned and not GOAL_DECK.colours
    assert all(TABLE.deck_of(c) is INFLUENCE_DECK for c in INFLUENCE) and all(TABLE.deck_of(g) is GOAL_DECK for g in GOALS)


def test_its_seal_ids_are_its_own_blocks_one_for_each_face_and_back() -> None:
    seals = TABLE.seals
    assert seals is not None
    fronts = {(c, colour): seals.encode(c, k) for k, colour in enumerate(COLOURS) for c in INFLUENCE}
    goals = {g: seals.encode(g, None) for g in GOALS}
    backs = [seals.back(INFLUENCE_DECK, colour) for colour in COLOURS] + [seals.back(GOAL_DECK, None)]
    ids = [*fronts.values(), *goals.values(), *backs]
    assert len(ids) == len(set(ids)) == 6 * 25 + 6 + 36 + 1
    claimed = range(SEAL_BLOCKS[0] * BLOCK, (SEAL_BLOCKS[-1] + 1) * BLOCK)
    assert all(i in claimed for i in ids) and set(seals.ids()) == set(ids)
    # Each id decodes to what it was given for: a colour's card, a goal card, a colour's back.
    for (card, colour), i in fronts.items():
        face = seals.meaning(i)
        assert face is not None and (face.card, face.copy) == (card, colour)
    for colour in COLOURS:
        face = seals.meaning(seals.back(INFLUENCE_DECK, colour))
        assert face is not None and face.card is None and face.copy == colour
    # No other installed game claims any of it (the allocator refuses a clash, naming both).
    allocation = installed()
    assert {allocation.owner(i) for i in ids} == {GAME.name}
    assert GAME.cards.markers is seals and TABLE.claim.nfc_record_type == GAME.cards.nfc_record_type


def test_every_card_has_a_tag_byte_of_its_game() -> None:
    tags = TABLE.tags
    kinds = {tags.tag_byte(c)[1] for c in [*INFLUENCE, *GOALS]}
    lows = [tags.tag_byte(c)[0] for c in [*INFLUENCE, *GOALS]]
    assert kinds == {0xAB} and len(set(lows)) == 25 + 36


def test_rop_markers_prints_a_colours_stickers_and_the_sheet_reads_back(tmp_path: Path) -> None:
    def markers(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion.cli", "markers", "--game", "ruse-and-bruise", *args, "--out", str(tmp_path / "out"), "--calibration", str(tmp_path / "cal")],
            capture_output=True, text=True, timeout=300,
        )

    done = markers("--owner", "red", "--deck", "influence")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "out" / "ruse-and-bruise" / "red"
    assert sorted(p.stem for p in folder.glob("*.png") if not p.stem.startswith("sheet")) == sorted([c.id for c in INFLUENCE] + ["back-influence"])
    detector = MarkerDetector(family=family_for(GAME.cards))
    found: list[int] = []
    for sheet in sorted(folder.glob("sheet-*.png")):
        found += [d.tag_id for d in detector.detect(np.array(Image.open(sheet)))]
    seals = TABLE.seals
    assert seals is not None
    red = COLOURS.index("red")
    fronts = sorted(seals.encode(c, red) for c in INFLUENCE)
    assert sorted(i for i in found if i in fronts) == fronts
    assert found.count(SealBack(GAME.name, "influence", "red").tag_id) == 25
    # A player's name is no colour of the box: refused, the colours named.
    wrong = markers("--owner", "ann", "--deck", "influence")
    assert wrong.returncode == 2 and "blue, white, red, yellow, green, black" in wrong.stderr


@pytest.mark.slow
def test_a_colours_cards_are_enrolled_over_the_board(firmware: FirmwareBuild, tmp_path: Path) -> None:
    cal = tmp_path / "cal"
    with BoardEmulator(firmware, chips="0", link=tmp_path / "board") as emu:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "tags", "enrol", "--game", "ruse-and-bruise", "--owner", "green",
             "--card", "KING,beggar", "--serial", emu.port, "--calibration", str(cal)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        watchdog = threading.Timer(120, proc.kill)
        watchdog.start()
        transcript: list[str] = []
        assert "KING" in until(proc, transcript, "[1/2] tap the")
        emu.tag(0, "04D0000000000B")
        assert "KING" in until(proc, transcript, "✓")
        assert "BEGGAR" in until(proc, transcript, "[2/2] tap the")
        emu.lift(0)
        emu.wait_polled(0, LIFT_SEEN)
        emu.tag(0, "04D0000000000C")
        assert "BEGGAR" in until(proc, transcript, "✓")
        assert "done: 2 enrolled" in until(proc, transcript, "done:")
        assert proc.wait(60) == 0
        watchdog.cancel()
    saved = [json.loads(line) for line in (cal / "tags" / "green.jsonl").read_text().splitlines()]
    assert sorted((s["card"], s["owner"], s["game"]) for s in saved) == [("BEGGAR", "green", "ruse-and-bruise"), ("KING", "green", "ruse-and-bruise")]


def test_enrolment_names_the_colours_for_an_owner_that_is_none() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "tags", "enrol", "--game", "ruse-and-bruise", "--owner", "ann", "--deck", "influence"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--owner ann: the copies of these cards are the colours blue, white, red, yellow, green, black" in done.stderr


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_standard_mats_have_a_goal_stack_and_a_column_for_each_player(players: int) -> None:
    plan = mat(players)
    names = [z.name for z in plan.zones]
    assert [n for n in names if column_of_zone(n) is not None] == [f"column-{k}" for k in range(1, players + 1)]
    assert [n for n in names if column_of_zone(n, "goal") is not None] == [f"goal-{k}" for k in range(1, players + 1)]
    assert {f"{kind}:{s}" for kind in ("stack", "discard", "won", "hand") for s in range(players)} <= set(names)
    w, h = plan.size_mm
    boxes = {z.name: _box(z.polygon_mm) for z in plan.zones}
    for name, (x0, y0, x1, y1) in boxes.items():
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, name
        short, long = sorted((x1 - x0, y1 - y0))
        assert short >= 63 and long >= 88, name  # a card fits (63 x 88 mm), upright or sideways
    for (a, p), (b, q) in combinations(boxes.items(), 2):
        assert p[2] <= q[0] or q[2] <= p[0] or p[3] <= q[1] or q[3] <= p[1], (a, b)
    # The shipped files are these mats, and a table loads them by its number of players.
    assert load_layout(players, game=GAME.name).to_json() == standard_layout(players, game=GAME.name).to_json()


def _box(polygon: tuple[tuple[float, float], ...]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _centre(layout: object, zone: str) -> tuple[float, float]:
    shape = next(z for z in layout.zones if z.name == zone)  # type: ignore[attr-defined]
    x0, y0, x1, y1 = _box(shape.polygon_mm)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def test_the_camera_sees_a_card_placed_as_its_colours_back_and_a_card_turned_over_by_name() -> None:
    from companion.games.ruse_and_bruise.simulation.camera import MODULE_PX
    from vision.scenes import camera_over

    players = ["ann", "bob", "cy", "dee"]
    layout = standard_layout(4, game=GAME.name).seated(players)
    goal, king, witch = Goal.from_id("music-5"), Influence.from_id("KING"), Influence.from_id("WITCH")
    x, y = _centre(layout, "column-3")
    cards = [
        CardPlacement(goal, None, _centre(layout, "goal-3"), 2),
        CardPlacement(king, "yellow", (x, y - 50), -3),  # turned over
        CardPlacement(witch, "white", (x, y + 50), 4, face_up=False),  # placed below it, face down
    ]
    frame = render_frame(cards, layout, owners=[], camera=camera_over(layout, MODULE_PX), effects=Effects(noise=2, blur=0.5))
    view = TableReader(layout=layout, players=players, cards=GAME.cards).read(frame.image)
    assert sorted((c.card.id, c.owner, c.zone) for c in view.cards) == [("KING", "yellow", "column-3"), ("music-5", None, "goal-3")]
    assert [(b.back, b.zone) for b in view.backs] == [(SealBack(GAME.name, "influence", "white"), "column-3")]


def test_a_layout_without_a_column_for_each_player_is_refused(tmp_path: Path) -> None:
    from vision.layout import LayoutError

    data = standard_layout(5, game=GAME.name).to_json()
    data["zones"] = [z for z in data["zones"] if z["name"] != "column-4"]
    path = tmp_path / "five.json"
    path.write_text(json.dumps(data))
    with pytest.raises(LayoutError, match=rf"{path}: no zone column-4 for a 5-player table"):
        load_layout(path, game=GAME.name)
