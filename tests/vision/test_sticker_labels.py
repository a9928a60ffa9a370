"""Stickers a person can match to cards: each names its card (short form, id, owner, name),
the sheets say where a sticker goes, and rop markers prints the next steps."""

from __future__ import annotations

import numpy as np
from PIL import Image

from companion.cli import main as rop
from companion.games.rule_of_power.engine.cards import Card
from vision.markers import SealMarker
from vision.sheets import STICKING, Sticker, card_stickers, sticker_image, sticker_label, sticker_name


def test_labels_carry_short_form_id_owner_and_name():
    fire, thief = Card.parse("7p"), Card.parse("thief")
    assert sticker_label(fire, "ann") == "7P W007 ann" and sticker_name(fire) == "Fire Dragon"
    assert sticker_label(Card.parse("6d"), None) == "6D W036" and sticker_name(Card.parse("6d")) == "Servant of Darkness"
    assert sticker_label(thief, "bob") == "F006 bob" and sticker_name(thief) == "Thief"
    (sticker,) = card_stickers([fire], 2, "ann")
    assert sticker.marker == SealMarker(fire, 2) and (sticker.label, sticker.name) == ("7P W007 ann", "Fire Dragon")


def _ink_rows(image: np.ndarray, start: int) -> list[int]:
    inside = image[start:-3, 3:-3]
    return [r for r in range(inside.shape[0]) if (inside[r] < 128).any()]


def test_the_name_is_printed_as_a_second_line_under_the_label():
    fire = Card.parse("7p")
    one = sticker_image(Sticker(SealMarker(fire, 0), "7P W007 ann"))
    two = sticker_image(Sticker(SealMarker(fire, 0), "7P W007 ann", "Fire Dragon"))
    below = one.shape[1]  # the marker with its margin is square; the words lie below it
    rows_one, rows_two = _ink_rows(one, below), _ink_rows(two, below)
    assert rows_one and rows_two
    gaps = [b - a for a, b in zip(rows_two, rows_two[1:]) if b - a > 1]
    assert gaps, "two lines of text have a blank row between them"
    assert not np.array_equal(one, two)


def test_rop_markers_says_what_to_do_next_and_takes_any_notation(tmp_path, capsys):
    out = tmp_path / "out"
    assert rop(["markers", "--owner", "ann", "--card", "6d,thief", "--card", "w7", "--out", str(out), "--calibration", str(tmp_path / "cal")]) == 0
    text = capsys.readouterr().out
    assert sorted(p.name for p in (out / "ann").glob("*.png") if not p.name.startswith("sheet")) == ["F006.png", "W007.png", "W036.png"]
    assert "Next:" in text and "100 %" in text and "seal corner" in text and "rop calibrate" in text
    assert str(out / "ann" / "markers.pdf") in text
    # The check to run next reads the owners from the same calibration directory.
    assert text.splitlines()[-1] == f"     ./run rop calibrate --calibration {tmp_path / 'cal'} --camera 0"
    page = np.array(Image.open(out / "ann" / "sheet-01.png").convert("L"))
    assert (page[:400] < 128).any()  # the title and the sticking lines are printed at the top
    assert "seal corner" in " ".join(STICKING)


def test_rop_markers_refuses_a_card_it_cannot_read(tmp_path, capsys):
    assert rop(["markers", "--owner", "ann", "--card", "6x", "--out", str(tmp_path / "out"), "--calibration", str(tmp_path / "cal")]) == 2
    err = capsys.readouterr().err
    assert "--card" in err and "'6x'" in err and "6M" in err
