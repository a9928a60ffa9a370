"""The camera commands end to end: printing markers, checking the calibration, detecting cards
in image files."""

from __future__ import annotations

import json
import re

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main as rop
from vision.detect import MarkerDetector
from vision.markers import MARKER_MM, STICKER_MM, SealMarker
from vision.owners import OwnerRegistry
from vision.render import CardPlacement, Effects, VirtualCamera, render_frame


def dots(mm: float) -> int:
    return round(mm * 300 / 25.4)


def test_rop_markers_prints_true_size_stickers_that_read_back(tmp_path, capsys):
    cal = tmp_path / "cal"
    assert rop(["markers", "--owner", "bob", "--deck", "fate", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 0
    assert rop(["markers", "--owner", "ann", "--deck", "world", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 0
    out = capsys.readouterr().out
    assert "bob is owner slot 0" in out and "ann is owner slot 1" in out
    assert OwnerRegistry.load(cal / "owners.json").slots[:2] == ["bob", "ann"]

    ann = tmp_path / "out" / "ann"
    singles = sorted(p.name for p in ann.glob("W*.png"))
    assert singles == [f"W{n:03d}.png" for n in range(1, 41)]
    sticker = Image.open(ann / "W007.png")
    assert sticker.size == (dots(STICKER_MM[0]), dots(STICKER_MM[1]))
    assert round(sticker.info["dpi"][0]) == 300
    image = np.array(sticker)
    # The black square is 8 modules of 19 dots: 12.9 mm.
    rows = np.where((image[: image.shape[1]] < 128).any(axis=1))[0]
    assert rows.max() - rows.min() + 1 == dots(MARKER_MM) == 152
    found = MarkerDetector().detect(cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255))
    assert [d.tag_id for d in found] == [SealMarker.of("W007", 1).tag_id]

    sheet = Image.open(ann / "sheet-01.png")
    assert sheet.size == (2480, 3508)  # A4 at 300 dpi
    pdf = (ann / "markers.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and b"/Count 1" in pdf
    assert len(MarkerDetector().detect(np.array(sheet))) == 40
    assert len(list((tmp_path / "out" / "bob").glob("F*.png"))) == 8


def test_rop_markers_refuses_fate_cards_without_owner_and_prints_the_mat(tmp_path, capsys):
    assert rop(["markers", "--deck", "fate", "--out", str(tmp_path), "--calibration", str(tmp_path)]) == 2
    assert "Fate cards belong to a player" in capsys.readouterr().err
    assert rop(["markers", "--deck", "expansion", "--out", str(tmp_path), "--calibration", str(tmp_path)]) == 0
    assert len(list((tmp_path / "nobody").glob("W0*.png"))) == 12
    assert rop(["markers", "--mat", "--players", "3", "--out", str(tmp_path)]) == 0
    page = cv2.imread(str(tmp_path / "mat" / "top-right.png"), cv2.IMREAD_GRAYSCALE)
    assert [d.tag_id for d in MarkerDetector().detect(page)] == [533]
    pdf = (tmp_path / "mat" / "mat.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and b"/Count 4" in pdf


def test_rop_markers_mat_writes_into_markers_by_default_and_says_what_to_do_next(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert rop(["markers", "--mat"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "markers" / "mat").iterdir()) == [
        "bottom-left.png", "bottom-right.png", "mat.pdf", "top-left.png", "top-right.png"]
    assert out.startswith("wrote 5 files to markers/mat: print at 100 %")
    assert "  1. Print markers/mat/mat.pdf at 100 % (actual size, not 'fit to page')" in out
    assert "  2. Cut each marker out" in out
    # Where each corner goes, from the layout: the same words the corner's own page prints.
    assert "     top-left: its centre 45 mm from the left edge, 45 mm from the top edge" in out
    assert "     bottom-right: its centre 45 mm from the right edge, 45 mm from the bottom edge" in out
    assert out.rstrip().endswith("     (it writes calibration-check.png):\n     ./run rop calibrate --camera 0")
    with pytest.raises(SystemExit):
        rop(["markers", "--help"])
    assert "(default markers, in the current directory)" in " ".join(capsys.readouterr().out.split())


def test_rop_vision_detect_json(tmp_path, compact, compact_file, calibration_dir, owners, capsys):
    cards = [CardPlacement("W007", "ann", (200, 180), 25), CardPlacement("W033", None, (420, 300), 180), CardPlacement("F005", "bob", (200, 300), -90)]
    on_mat = tmp_path / "table.png"
    cv2.imwrite(str(on_mat), render_frame(cards, compact, owners=owners, effects=Effects(noise=2, blur=0.5)).image)
    close_up = tmp_path / "close.jpg"
    cv2.imwrite(str(close_up), render_frame(cards[:1], compact, owners=owners, camera=VirtualCamera.looking_at((200, 180), 4.0)).image)
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG garbage")

    status = rop(["vision", "detect", str(on_mat), str(broken), str(close_up), "--json", "--layout", str(compact_file),
                  "--names", "ann,bob", "--calibration", str(calibration_dir)])
    assert status == 1  # one image could not be read
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(on_mat), str(broken), str(close_up)]
    table = {c["card"]: c for c in lines[0]["cards"]}
    assert set(table) == {"W007", "W033", "F005"}
    assert table["W007"]["owner"] == "ann" and table["W007"]["zone"] == "centre"
    assert table["W033"]["owner"] is None and table["W033"]["zone"] == "capture:ann"
    assert table["F005"]["owner"] == "bob" and table["F005"]["zone"] == "fate:ann"
    assert all(abs(a - b) < 3 for a, b in zip(table["W033"]["table_mm"], (420, 300)))
    assert "cannot read image" in lines[1]["error"] and lines[1]["cards"] == []
    (close,) = lines[2]["cards"]
    assert close["card"] == "W007" and close["zone"] is None and close["table_mm"] is None
    assert 0 <= close["px"][0] < 1920 and 0 <= close["px"][1] < 1080


@pytest.mark.parametrize(
    "options,wanted",
    [
        (["--players", "3"], ["--players", "3"]),
        (["--players", "4"], []),  # the standard table: nothing to repeat
        (["--layout", "{dir}/my table.json"], ["--layout", "{dir}/my table.json"]),
        (["--layout", "{dir}/my table.json", "--players", "5"], ["--layout", "{dir}/my table.json"]),  # the layout wins
        (["--game", "circle-of-power"], ["--game", "circle-of-power"]),
        (["--players", "2", "--calibration", "{dir}/cal"], ["--players", "2", "--calibration", "{dir}/cal"]),
    ],
)
def test_rop_markers_mat_ends_with_the_calibrate_command_of_the_same_table(tmp_path, compact, calibration_dir, capsys, options, wanted):
    """The suggested ``rop calibrate`` repeats the table options given to ``rop markers --mat``:
    copied as it is (the camera swapped for a picture of that mat), it checks the same layout."""
    import shlex

    from vision.layout import load_layout

    (tmp_path / "my table.json").write_text(json.dumps(compact.to_json()))
    options = [o.format(dir=tmp_path) for o in options]
    wanted = [o.format(dir=tmp_path) for o in wanted]
    assert rop(["markers", "--mat", *options, "--out", str(tmp_path / "out")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("     ./run rop calibrate")
    words = shlex.split(last)
    assert words == ["./run", "rop", "calibrate", *wanted, "--camera", "0"]
    game = wanted[wanted.index("--game") + 1] if "--game" in wanted else "rule-of-power"
    calibration = wanted[wanted.index("--calibration") + 1] if "--calibration" in wanted else None
    spec = wanted[wanted.index("--layout") + 1] if "--layout" in wanted else int(wanted[wanted.index("--players") + 1]) if "--players" in wanted else 4
    layout = load_layout(spec, calibration=calibration, game=game)
    image = tmp_path / "mat.png"
    cv2.imwrite(str(image), render_frame([], layout, camera=VirtualCamera.overhead(layout.mat_mm)).image)
    check = ["--image", str(image), "--no-window", "--out", str(tmp_path / "check.png")]
    assert rop([*words[2:-2], *check]) == 0
    assert f"layout: {layout.name} ({layout.source}), mat" in capsys.readouterr().out


def test_rop_calibrate_reports_and_draws_the_zones(tmp_path, compact, compact_file, calibration_dir, owners, capsys):
    frame = render_frame([CardPlacement("W001", "bob", (450, 300), 0)], compact, owners=owners,
                         camera=VirtualCamera.overhead(compact.mat_mm, rotation_deg=-3, keystone=0.03))
    image = tmp_path / "cam.png"
    cv2.imwrite(str(image), frame.image)
    out = tmp_path / "check.png"
    assert rop(["calibrate", "--image", str(image), "--layout", str(compact_file), "--out", str(out),
                "--no-window", "--calibration", str(calibration_dir)]) == 0
    text = capsys.readouterr().out
    assert "mat corners seen: top-left, top-right, bottom-right, bottom-left" in text
    module = float(re.search(r"seal markers will be ([\d.]+) pixels per module", text).group(1))
    assert abs(module - frame.markers[-1].module_px) < 0.3
    assert "W001 bob in capture:0" in text
    drawn = cv2.imread(str(out))
    assert drawn.shape == frame.image.shape and (np.abs(drawn.astype(int) - frame.image).sum(axis=2) > 60).mean() > 0.002

    # A frame without the mat: calibration fails with a reason, exit status 1.
    bare = tmp_path / "bare.png"
    cv2.imwrite(str(bare), render_frame([], None).image)
    assert rop(["calibrate", "--image", str(bare), "--layout", str(compact_file), "--out", str(out), "--no-window"]) == 1
    assert "not calibrated" in capsys.readouterr().out
    assert rop(["calibrate", "--image", str(tmp_path / "none.png"), "--no-window"]) == 2
    assert "cannot read image" in capsys.readouterr().err


def test_rop_markers_for_a_circle_of_power_deck_name_its_game_and_read_back(tmp_path, capsys):
    from companion.games.circle_of_power.cards import ALL_CARDS as STANDARD_DECK
    from companion.contract.registry import game
    from vision.markers import SEALS

    cop = game("circle-of-power").cards
    cal = tmp_path / "cal"
    # ann's Rule of Power stickers first: her owner slot serves both of her decks.
    assert rop(["markers", "--owner", "ann", "--deck", "fate", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 0
    assert rop(["markers", "--game", "circle-of-power", "--owner", "ann", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 0
    out = capsys.readouterr().out
    assert "54 stickers" in out and "bottom left corner of the card's face, the corner" in out
    assert "rop calibrate --game circle-of-power" in out
    assert OwnerRegistry.load(cal / "owners.json").slots[:1] == ["ann"]
    deck = tmp_path / "out" / "circle-of-power" / "ann"
    assert sorted(p.stem for p in deck.glob("*.png") if not p.stem.startswith("sheet")) == sorted(c.id for c in STANDARD_DECK)
    assert len(list((tmp_path / "out" / "ann").glob("F*.png"))) == 8  # Rule of Power's sheets untouched
    single = np.array(Image.open(deck / "QH.png"))
    found = MarkerDetector(backend="aruco", family=SEALS).detect(cv2.copyMakeBorder(single, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255))
    assert [d.tag_id for d in found] == [SealMarker.of("QH", 0, cards=cop).tag_id]
    sheet = np.array(Image.open(deck / "sheet-01.png"))
    ids = sorted(d.tag_id for d in MarkerDetector(backend="aruco", family=SEALS).detect(sheet))
    assert ids == sorted(SealMarker(c, 0).tag_id for c in STANDARD_DECK)

    assert rop(["markers", "--game", "circle-of-power", "--owner", "bob", "--deck", "battle", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 0
    assert len(list((tmp_path / "out" / "circle-of-power" / "bob").glob("[2-9]*.png"))) + len(list((tmp_path / "out" / "circle-of-power" / "bob").glob("10*.png"))) == 36
    capsys.readouterr()
    # What a Circle of Power deck cannot be given is said, naming the option.
    assert rop(["markers", "--game", "circle-of-power", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 2
    assert "seals name the deck's owner: give --owner NAME" in capsys.readouterr().err
    assert rop(["markers", "--game", "circle-of-power", "--owner", "ann", "--deck", "fate", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 2
    assert "--deck fate: Circle of Power's decks are battle, city, all" in capsys.readouterr().err
    assert rop(["markers", "--game", "circle-of-power", "--owner", "ann", "--card", "W007", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 2
    assert "--card" in capsys.readouterr().err
    assert rop(["markers", "--game", "chess", "--owner", "ann", "--out", str(tmp_path / "out"), "--calibration", str(cal)]) == 2
    assert "--game" in capsys.readouterr().err


def test_rop_calibrate_on_a_circle_of_power_table(tmp_path, calibration_dir, capsys):
    from companion.games.circle_of_power.cards import Card as StandardCard
    from vision.scenes import camera_over
    from companion.games.circle_of_power.simulation.camera import circle_layout as circle_of_power_layout

    layout = circle_of_power_layout()
    cards = [CardPlacement(StandardCard.from_id("10H"), "ann", (705, 405)), CardPlacement(StandardCard.from_id("KS"), "ann", (705, 535)),
             CardPlacement(StandardCard.from_id("X1"), "ann", (460, 310), 90), CardPlacement("W007", "ann", (460, 450))]
    frame = render_frame(cards, layout, owners=["ann"], camera=camera_over(layout, 3.2), effects=Effects(noise=2, blur=0.5))
    image = tmp_path / "cam.png"
    cv2.imwrite(str(image), frame.image)
    assert rop(["calibrate", "--game", "circle-of-power", "--image", str(image), "--out", str(tmp_path / "check.png"),
                "--no-window", "--calibration", str(calibration_dir)]) == 0
    text = capsys.readouterr().out
    assert "layout: Circle of Power, 4 seats" in text and "mat 920 x 620 mm" in text
    assert "seal markers will be 3.2 pixels per module (good)" in text
    assert "cards read: 10H ann in battle:0, KS ann in city:0, X1 ann in city-deck" in text
    assert "a Rule of Power card's seal: this table plays another game" in text
    # Its zones keep their seat numbers; the AprilTag detector does not know its codes.
    assert rop(["calibrate", "--game", "circle-of-power", "--image", str(image), "--names", "ann,bob", "--no-window", "--out", str(tmp_path / "c.png")]) == 2
    assert "keep their seat numbers" in capsys.readouterr().err
    assert rop(["calibrate", "--game", "circle-of-power", "--image", str(image), "--detector", "apriltag", "--no-window", "--out", str(tmp_path / "c.png")]) == 2
    assert "--detector aruco" in capsys.readouterr().err
