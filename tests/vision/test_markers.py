import numpy as np
import pytest
from pupil_apriltags import Detector

from companion.games.rule_of_power.engine.cards import ALL_CARDS, Card, UnknownCardError
from vision.markers import FAMILY_SIZE, MatCorner, MarkerIdError, SealMarker, decode, module_grid


def every_marker() -> list[SealMarker]:
    out = []
    for card in ALL_CARDS:
        slots = list(range(8)) + ([None] if card.id.startswith("W") else [])
        out += [SealMarker(card, s) for s in slots]
    return out


def test_every_card_and_owner_has_its_own_id_and_decodes_back():
    markers = every_marker()
    assert len(markers) == 52 * 9 + 8 * 8
    ids = [m.tag_id for m in markers]
    assert len(set(ids)) == len(ids)
    assert max(ids) < MatCorner.TOP_LEFT.tag_id
    for m in markers:
        assert decode(m.tag_id) == m


def test_mat_corners_and_unused_ids():
    assert [decode(c.tag_id) for c in MatCorner] == list(MatCorner)
    assert all(decode(i) is None for i in range(MatCorner.BOTTOM_LEFT.tag_id + 1, FAMILY_SIZE + 5))
    assert decode(-1) is None


def test_bad_markers_are_refused_with_the_reason():
    with pytest.raises(MarkerIdError, match="F003 needs an owner"):
        SealMarker.of("F003")
    with pytest.raises(MarkerIdError, match="slot 8"):
        SealMarker.of("W001", 8)
    with pytest.raises(UnknownCardError, match="W099"):
        SealMarker.of("W099", 1)
    assert SealMarker.of("w007", 2).label == "W007 #2"


def test_printed_patterns_decode_to_their_ids_with_apriltag():
    # All 536 markers of the scheme on one sheet, read back by the detector the camera uses.
    ids = [m.tag_id for m in every_marker()] + [c.tag_id for c in MatCorner]
    cell = 12 * 5  # 10 modules + 2 spacing, 5 px each
    cols = 24
    rows = -(-len(ids) // cols)
    sheet = np.full((rows * cell + 20, cols * cell + 20), 255, np.uint8)
    for i, tag_id in enumerate(ids):
        r, c = divmod(i, cols)
        grid = np.kron(module_grid(tag_id), np.ones((5, 5), np.uint8))
        sheet[10 + r * cell : 10 + r * cell + 50, 10 + c * cell : 10 + c * cell + 50] = grid
    found = Detector(families="tag36h11", quad_decimate=2.0).detect(sheet)
    assert sorted(d.tag_id for d in found) == sorted(ids)
    assert all(d.hamming == 0 for d in found)


def test_module_grid_has_quiet_zone_and_black_border():
    g = module_grid(SealMarker(Card.from_id("W007"), 0).tag_id)
    assert g.shape == (10, 10)
    assert (g[0] == 255).all() and (g[:, 0] == 255).all()
    assert (g[1, 1:9] == 0).all() and (g[1:9, 1] == 0).all()
