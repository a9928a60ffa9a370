import json
from pathlib import Path

import pytest

from vision.layout import LayoutError, load_layout, standard_layout
from vision.markers import CARD_MM
from vision.owners import OwnerError, OwnerRegistry
from vision.paths import PACKAGE_DATA

REPO = Path(__file__).resolve().parents[2]


def test_registry_assigns_free_slots_and_persists(tmp_path):
    reg = OwnerRegistry.load(tmp_path / "owners.json")
    assert reg.assign("ann") == 0
    assert reg.assign("Bob") == 1
    assert reg.assign("ANN") == 0
    reg.save()
    again = OwnerRegistry.load(tmp_path / "owners.json")
    assert again.slot_of("bob") == 1 and again.name_of(1) == "Bob"
    assert again.name_of(5) == "#5" and again.name_of(None) is None


def test_registry_errors_say_what_is_wrong(tmp_path):
    reg = OwnerRegistry([f"p{i}" for i in range(8)], tmp_path / "owners.json")
    with pytest.raises(OwnerError, match="all 8 owner slots are taken"):
        reg.assign("zoe")
    with pytest.raises(OwnerError, match="not usable"):
        OwnerRegistry().assign("capture:ann")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(OwnerError, match=str(bad)):
        OwnerRegistry.load(bad)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_shipped_layouts_are_the_standard_ones_and_make_sense(players):
    canonical = REPO / "calibration" / "layouts" / f"{players}-players.json"
    packaged = PACKAGE_DATA / f"layout-{players}-players.json"
    assert canonical.read_text() == packaged.read_text(), "package copy differs: run python -m vision.layout"
    layout = load_layout(canonical)
    assert layout.to_json() == standard_layout(players).to_json()
    w, h = layout.mat_mm
    names = {z.name for z in layout.zones}
    assert {"centre", "deck"} <= names
    assert {f"{k}:{s}" for k in ("capture", "fate") for s in range(players)} <= names
    for zone in layout.zones:
        xs, ys = zip(*zone.polygon_mm)
        assert 0 <= min(xs) and max(xs) <= w and 0 <= min(ys) and max(ys) <= h, zone.name
        assert max(xs) - min(xs) >= CARD_MM[0] and max(ys) - min(ys) >= CARD_MM[0], zone.name
        for other in layout.zones:
            if other is not zone:
                assert all(other.signed_distance(p) <= 0 for p in zone.polygon_mm), (zone.name, other.name)
        for marker in layout.mat_markers:
            # A corner marker with its white margin must not lie in a zone.
            assert all(zone.signed_distance(p) < -5 for p in marker.corners_mm()), (zone.name, marker.corner)


def test_seats_take_player_names_and_zone_lookup():
    layout = load_layout(2).seated(["ann", "bob"])
    assert layout.zone_at(layout.zone("capture:ann").polygon_mm[0]) == "capture:ann"
    centre = layout.zone("centre").polygon_mm
    assert layout.zone_at(((centre[0][0] + centre[2][0]) / 2, (centre[0][1] + centre[2][1]) / 2)) == "centre"
    assert layout.zone_at((1, 1)) is None
    with pytest.raises(LayoutError, match="for 2 players but 3 names"):
        load_layout(2).seated(["a", "b", "c"])


def test_bad_layout_files_are_named(tmp_path):
    with pytest.raises(LayoutError, match="no layout for 9 players"):
        load_layout(9, calibration=tmp_path)
    path = tmp_path / "l.json"
    data = standard_layout(2).to_json()
    data["zones"] = [z for z in data["zones"] if z["name"] != "fate:1"]
    path.write_text(json.dumps(data))
    with pytest.raises(LayoutError, match=rf"{path}.*fate:1"):
        load_layout(path)
    path.write_text("[")
    with pytest.raises(LayoutError, match="not JSON"):
        load_layout(path)


def test_calibration_directory_layout_wins_over_package_copy(tmp_path):
    data = standard_layout(3).to_json()
    data["name"] = "club table"
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "3-players.json").write_text(json.dumps(data))
    assert load_layout(3, calibration=tmp_path).name == "club table"
