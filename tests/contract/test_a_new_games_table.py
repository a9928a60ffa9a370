"""A new game's table, through its table spec alone (a toy game with colour decks and backs):
the camera prints and reads its stickers (fronts naming the card and its colour, backs naming
only the colour), lays out its mats and names its zones, and the readers' commands offer its
decks, with nothing of it in ``vision`` or ``hardware``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main as rop
from companion.contract.registry import names
from vision.detect import MarkerDetector
from vision.layout import LayoutError, demo_layout, load_layout
from vision.markers import SealBack, SealMarker, family_for, selected_ids
from vision.reader import TableReader
from vision.render import CardPlacement, Effects, VirtualCamera, render_frame

ROOT = Path(__file__).resolve().parents[2]


def test_its_layouts_come_from_its_spec(toy: Any) -> None:
    layout = load_layout(3, game="test-columns")  # no file shipped: the standard mat itself
    assert (layout.name, layout.players, layout.game, layout.seats_are_players) == ("Test Columns, 3 players", 3, "test-columns", True)
    assert {z.name for z in layout.seated(["ann", "bob", "cy"]).zones} == {"goals", "column:ann", "column:bob", "column:cy"}
    with pytest.raises(LayoutError, match="no layout for 5 players: Test Columns's standard mats are for 2-3 players"):
        load_layout(5, game="test-columns")
    data = layout.to_json()
    assert data["game"] == "test-columns"
    data["zones"] = [z for z in data["zones"] if z["name"] != "column:2"]
    with pytest.raises(LayoutError, match="no zone column:2 for a 3-player table"):
        type(layout).from_json(data, source="mine.json")


def test_the_camera_reads_its_fronts_and_its_backs_in_one_pass(toy: Any) -> None:
    family = family_for(toy.cards)
    assert selected_ids(family) == [532, 533, 534, 535, *range(2560, 2575)]  # its own seals and the mat's corners
    layout = demo_layout(game="test-columns")
    cards = [
        CardPlacement("KING", "blue", (175, 300), 4),
        CardPlacement("KING", "red", (375, 300), -3),
        CardPlacement("QUEEN", "blue", (250, 302), 2, face_up=False),
        CardPlacement("TRAITOR", "blue", (120, 160), 0, face_up=False),  # outside its column: no zone but the goals
        CardPlacement(toy.cards.from_id("ALCHEMY-1"), None, (300, 130), 0),
        CardPlacement(toy.cards.from_id("ALCHEMY-2"), None, (450, 130), 8, face_up=False),
        CardPlacement("W007", 0, (540, 150), 0),  # another game's card on the mat
    ]
    frame = render_frame([_card(c, toy) for c in cards], layout, owners=["ann"], effects=Effects(noise=2, blur=0.5))
    view = TableReader(layout=layout, cards=toy.cards).read(frame.image)
    assert [(c.card.id, c.owner, c.zone) for c in view.cards] == [("ALCHEMY-1", None, "goals"), ("KING", "blue", "column:0"), ("KING", "red", "column:1")]
    # Two of blue's cards lie face down: the same back twice, read both times, never as a card.
    backs = [(b.back, b.owner, b.zone) for b in view.backs]
    assert sorted(backs, key=str) == sorted(
        [(SealBack("test-columns", "goals", None), None, "goals"), (SealBack("test-columns", "influence", "blue"), "blue", "column:0"),
         (SealBack("test-columns", "influence", "blue"), "blue", "goals")], key=str)
    assert not view.rejected  # the other game's seal is no code this table reads


def _card(c: CardPlacement, toy: Any) -> CardPlacement:
    if isinstance(c.card, str) and c.card != "W007":
        return CardPlacement(toy.cards.from_id(c.card), c.owner, c.position_mm, c.angle_deg, face_up=c.face_up)
    return c


def test_rop_markers_prints_its_colours_and_backs(toy: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert rop(["markers", "--game", "test-columns", "--owner", "blue", "--deck", "influence", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "6 stickers" in text and "stickers marked 'back' go on the backs" in text
    assert "owner slot" not in text  # a colour is no player of owners.json
    folder = out / "test-columns" / "blue"
    assert sorted(p.stem for p in folder.glob("*.png") if not p.stem.startswith("sheet")) == ["KING", "QUEEN", "TRAITOR", "back-influence"]
    detector = MarkerDetector(family=family_for(toy.cards))
    single = np.array(Image.open(folder / "back-influence.png"))
    found = detector.detect(cv2.copyMakeBorder(single, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255))
    assert [d.tag_id for d in found] == [SealBack("test-columns", "influence", "blue").tag_id]
    sheet = np.array(Image.open(folder / "sheet-01.png"))
    king = SealMarker(toy.cards.from_id("KING"), 0).tag_id
    assert sorted(d.tag_id for d in detector.detect(sheet)) == sorted([king, king + 1, king + 2] + [SealBack("test-columns", "influence", "blue").tag_id] * 3)

    assert rop(["markers", "--game", "test-columns", "--owner", "ann", "--deck", "influence", "--out", str(out)]) == 2
    assert "the copies of these cards are the colours blue, white, red" in capsys.readouterr().err
    assert rop(["markers", "--game", "test-columns", "--deck", "influence", "--out", str(out)]) == 2
    assert "influence cards belong to a player: give --owner NAME (or --deck goals for cards without owner)" in capsys.readouterr().err
    assert rop(["markers", "--game", "test-columns", "--deck", "goals", "--out", str(out)]) == 0
    assert (out / "test-columns" / "nobody" / "ALCHEMY-2.png").is_file()


def test_rop_vision_detect_lists_its_backs(toy: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = demo_layout(game="test-columns")
    cards = [CardPlacement(toy.cards.from_id("KING"), "white", (175, 300)), CardPlacement(toy.cards.from_id("QUEEN"), "white", (375, 300), face_up=False)]
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), render_frame(cards, layout, camera=VirtualCamera.overhead(layout.mat_mm)).image)
    (tmp_path / "layout.json").write_text(json.dumps(layout.to_json()))
    assert rop(["vision", "detect", str(image), "--json", "--game", "test-columns", "--layout", str(tmp_path / "layout.json")]) == 0
    line = json.loads(capsys.readouterr().out)
    assert [(c["card"], c["owner"], c["zone"]) for c in line["cards"]] == [("KING", "white", "column:0")]
    assert [(b["back"], b["owner"], b["zone"]) for b in line["backs"]] == [("influence", "white", "column:1")]


def test_rop_tags_enrol_offers_its_decks(toy: Any) -> None:
    from companion.cli import build_parser

    parser = build_parser(["tags", "enrol"])
    args = parser.parse_args(["tags", "enrol", "--owner", "ann", "--game", "test-columns", "--deck", "influence"])
    assert args.deck == "influence" and "test-columns" in names()
    from hardware.cli import _deck

    assert [c.id for c in _deck(toy, "all", False)] == ["KING", "QUEEN", "TRAITOR", "ALCHEMY-1", "ALCHEMY-2"]


def test_vision_and_hardware_name_no_game() -> None:
    """The sensor packages read each game's table spec; none of them names a game."""
    from companion.contract.registry import games

    words = {w for g in games() for w in (g.name, g.title, g.name.replace("-", "_"))}
    found = []
    for path in sorted((ROOT / "vision").glob("*.py")) + sorted((ROOT / "hardware").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {w}" for w in words if w.lower() in text.lower()]
    assert found == []
