"""Love, Money, Power, Death's table: its deck's stickers (fronts naming the card and whose deck
it is, backs naming only whose deck, since a committed card lies face down, L6), printed by
``rop markers`` and read back by the camera in the zones of its standard mats (each seat's pile,
commit place and court, the nobles in the middle), every mat read at 1080p; its tags enrolled
by ``rop tags enrol``."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main as rop
from companion.contract import Face, Turns
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import ALL_CARDS, DEALT, NOBLES, Card
from companion.games.love_money_power_death.setup import FIVES, deck_nobles
from companion.games.love_money_power_death.table import TABLE, mat
from hardware.emulator import BoardEmulator, FirmwareBuild
from vision.detect import MarkerDetector
from vision.layout import load_layout, standard_layout
from vision.markers import SealBack, SealMarker, family_for
from vision.owners import OwnerRegistry
from vision.reader import TableReader
from vision.render import CardPlacement, Effects, VirtualCamera, render_frame

from tests.hardware.conftest import firmware  # noqa: F401 - the fixture, built once per run
from tests.hardware.test_cli import LIFT_SEEN, until

c = Card.from_id


def test_the_table_is_one_shared_deck_with_backs_played_at_once() -> None:
    (deck,) = TABLE.decks
    assert deck.cards == ALL_CARDS and deck.faces == (Face.FRONT, Face.BACK) and deck.copies == (*range(8), None)
    assert TABLE.turns is Turns.AT_ONCE and TABLE.claim.seal_blocks == tuple(range(16, 24))
    # L1: a deck holds ten of the twelve nobles; each pair of rank-5 suits is a deck of 52 of its own.
    for pair in FIVES:
        cards = TABLE.choices(expansions_apart=True)[pair]
        assert len(cards) == 52 and set(cards) == set(deck_nobles(pair)) | set(DEALT)
    assert [k.name for k in TABLE.seat_zones] == ["pile", "commit", "court"]
    assert [k.name for k in TABLE.table_zones] == ["nobles", "noble", "discards"]
    assert TABLE.reader_zones(["ann", "bob"]) == ["commit:ann", "commit:bob", "centre"]


def test_rop_markers_prints_a_decks_52_fronts_and_its_backs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, cal = tmp_path / "out", tmp_path / "cal"
    args = ["markers", "--game", "love-money-power-death", "--owner", "ann", "--deck", "love-power", "--out", str(out), "--calibration", str(cal)]
    assert rop(args) == 0
    text = capsys.readouterr().out
    assert "ann is owner slot 0" in text and "104 stickers" in text and "stickers marked 'back' go on the backs" in text
    folder = out / "love-money-power-death" / "ann"
    singles = sorted(p.stem for p in folder.glob("*.png") if not p.stem.startswith("sheet"))
    assert singles == sorted([*(x.id for x in deck_nobles("love-power")), *(x.id for x in DEALT), "back-deck"])
    detector = MarkerDetector(family=family_for(GAME.cards))
    read = [d.tag_id for sheet in sorted(folder.glob("sheet-*.png")) for d in detector.detect(np.array(Image.open(sheet)))]
    back = SealBack(GAME.name, "deck", 0).tag_id
    fronts = {SealMarker(x, 0).tag_id for x in [*deck_nobles("love-power"), *DEALT]}
    assert set(read) == fronts | {back} and read.count(back) == 52 and len(read) == 104
    # The club's deck, every card the companion knows: its stickers name no owner.
    assert rop(["markers", "--game", "love-money-power-death", "--out", str(out), "--calibration", str(cal)]) == 0
    assert "108 stickers" in capsys.readouterr().out
    assert (out / "love-money-power-death" / "nobody" / "N5M.png").is_file()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_shipped_layouts_are_the_standard_mats_and_make_sense(players: int) -> None:
    """Both copies of each mat's layout (the checkout's and the package's) are what the table
    spec draws (``python -m vision.layout`` writes them); no zone overlaps another or a corner
    marker's white margin, and each holds a card (63 x 88 mm) upright."""
    root = Path(__file__).resolve().parents[3]
    name = f"love-money-power-death-{players}-players.json"
    canonical, packaged = root / "calibration" / "layouts" / name, root / "vision" / "data" / f"layout-{name}"
    assert canonical.read_text() == packaged.read_text(), "package copy differs: run python -m vision.layout"
    layout = load_layout(canonical, game=GAME.name)
    assert layout.to_json() == standard_layout(players, game=GAME.name).to_json()
    for zone in layout.zones:
        xs, ys = zip(*zone.polygon_mm)
        assert max(xs) - min(xs) >= 63 and max(ys) - min(ys) >= 88, zone.name
        for other in layout.zones:
            if other is not zone:
                assert all(other.signed_distance(p) <= 0 for p in zone.polygon_mm), (zone.name, other.name)
        for marker in layout.mat_markers:
            assert all(zone.signed_distance(p) < -5 for p in marker.corners_mm()), (zone.name, marker.corner)


def _rect_centre(layout: object, name: str) -> tuple[float, float]:
    pts = layout.zone(name).polygon_mm  # type: ignore[attr-defined]
    return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_mat_is_read_at_1080p(players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each standard mat filmed by a 1080p camera: ``rop calibrate`` finds it at 2.8 pixels per
    module, and every card lying in a zone is read there, face up by its front, face down by
    its back."""
    names = ["ann", "bob", "cy", "dee", "eve", "fay"][:players]
    layout = load_layout(players, game=GAME.name)
    assert layout.mat_mm == (1000.0, 550.0) and {z.name for z in layout.zones} == {z.name for z in mat(players).zones}
    seated = layout.seated(names)
    cards = [CardPlacement(NOBLES[0], None, _rect_centre(seated, "noble"), 3)]
    for k, name in enumerate(names):
        cards += [
            CardPlacement(DEALT[k], None, _rect_centre(seated, f"commit:{name}"), -2),
            CardPlacement(DEALT[10 + k], None, _rect_centre(seated, f"pile:{name}"), 2, face_up=False),
            CardPlacement(NOBLES[1 + k], None, np.add(_rect_centre(seated, f"court:{name}"), (-60, 0)), 1),
        ]
    image = render_frame(cards, layout, camera=VirtualCamera.overhead(layout.mat_mm, size=(1920, 1080)), effects=Effects(noise=2, blur=0.6)).image
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    args = ["calibrate", "--game", GAME.name, "--players", str(players), "--image", str(path), "--out", str(tmp_path / "check.png"), "--no-window", "--names", ",".join(names), "--calibration", str(tmp_path)]
    assert rop(args) == 0
    said = capsys.readouterr().out
    assert "seal markers will be 2.8 pixels per module" in said, said
    view = TableReader(layout=layout, players=names, owners=OwnerRegistry(), cards=GAME.cards).read(image)
    expected = [("N2L", "noble")] + [(DEALT[k].id, f"commit:{n}") for k, n in enumerate(names)] + [(NOBLES[1 + k].id, f"court:{n}") for k, n in enumerate(names)]
    assert sorted((s.card.id, s.zone) for s in view.cards) == sorted(expected)
    assert sorted(b.zone or "" for b in view.backs) == sorted(f"pile:{n}" for n in names)
    assert all(b.back == SealBack(GAME.name, "deck", None) for b in view.backs)


@pytest.mark.slow
def test_rop_tags_enrol_walks_a_deck_of_52(firmware: FirmwareBuild, tmp_path: Path) -> None:
    cal = tmp_path / "cal"
    with BoardEmulator(firmware, chips="0", link=tmp_path / "board") as emu:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "tags", "enrol", "--game", GAME.name, "--owner", "club",
             "--deck", "money-death", "--serial", emu.port, "--calibration", str(cal)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        watchdog = threading.Timer(120, proc.kill)
        watchdog.start()
        transcript: list[str] = []
        assert "Enrolling 52 card(s) for club" in until(proc, transcript, "Enrolling")
        assert "[1/52] tap the Love noble, 2 crowns, N2L" in until(proc, transcript, "[1/52]")
        emu.tag(0, "044C0000000001")
        assert "N2L" in until(proc, transcript, "✓")
        line = until(proc, transcript, "[2/52]")
        assert "Money noble, 2 crowns, N2M" in line
        emu.lift(0)
        emu.wait_polled(0, LIFT_SEEN)
        assert proc.stdin is not None
        proc.stdin.write("\n")  # skip N2M
        assert "skipped N2M" in until(proc, transcript, "skipped")
        emu.tag(0, "044C0000000003")
        assert "[3/52]" in transcript[-1] or until(proc, transcript, "✓")
        proc.stdin.write("q\n")
        assert "2 card(s) enrolled and saved" in until(proc, transcript, "stopped")
        proc.wait(60)
        watchdog.cancel()
    saved = [json.loads(line) for line in (cal / "tags" / "club.jsonl").read_text().splitlines()]
    assert [(s["card"], s["game"]) for s in saved] == [("N2L", GAME.name), ("N2P", GAME.name)]
