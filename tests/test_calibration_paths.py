"""A user's calibration data lives in the user's data directory, not in the checkout (so a
fresh clone keeps the owner slots and tags); the shipped layouts stay the defaults."""

from __future__ import annotations

from pathlib import Path

from companion.cli import main as rop
from companion.observations.paths import calibration_dir, calibration_file, shipped_calibration_dir
from vision.layout import load_layout


def test_lookup_order(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert calibration_dir() == tmp_path / "xdg" / "rop" / "calibration"
    monkeypatch.setenv("ROP_CALIBRATION", str(tmp_path / "env"))
    assert calibration_dir() == tmp_path / "env"
    assert calibration_dir(tmp_path / "given") == tmp_path / "given"
    monkeypatch.delenv("ROP_CALIBRATION")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert calibration_dir() == tmp_path / "home" / ".local" / "share" / "rop" / "calibration"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # invalid by the XDG rule: ignored
    assert calibration_dir() == tmp_path / "home" / ".local" / "share" / "rop" / "calibration"


def test_shipped_layouts_are_defaults_until_the_user_overrides_them(tmp_path):
    shipped = shipped_calibration_dir() / "layouts" / "4-players.json"
    assert shipped.is_file()
    assert calibration_file("layouts/4-players.json") == shipped
    assert load_layout(4).source == str(shipped)
    mine = calibration_dir() / "layouts" / "4-players.json"
    mine.parent.mkdir(parents=True)
    mine.write_text(shipped.read_text())
    assert calibration_file("layouts/4-players.json") == mine
    assert load_layout(4).source == str(mine)
    assert calibration_file("owners.json") == calibration_dir() / "owners.json"


def test_rop_markers_keeps_owner_slots_out_of_the_checkout(tmp_path, capsys):
    before = sorted(p.name for p in shipped_calibration_dir().iterdir())
    assert rop(["markers", "--owner", "ann", "--card", "7p", "--out", str(tmp_path / "out")]) == 0
    saved = calibration_dir() / "owners.json"
    assert saved.is_file() and str(saved) in capsys.readouterr().out
    assert sorted(p.name for p in shipped_calibration_dir().iterdir()) == before
    assert not Path(shipped_calibration_dir() / "owners.json").exists()
