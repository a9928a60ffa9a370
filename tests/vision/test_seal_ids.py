"""The seal ids and NFC records of two games at one companion: stickers already printed and tags
already enrolled for Rule of Power keep meaning what they meant, and a Circle of Power card is
never taken for a Rule of Power card (or the reverse) by a camera or a reader."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from companion.games.circle_of_power.cards import ALL_CARDS as STANDARD_DECK
from companion.contract.registry import game
from companion.games.rule_of_power.engine.cards import ALL_CARDS, Card
from hardware.ndef_records import NdefError, card_from_records, card_records
from vision.detect import MarkerDetector
from vision.markers import FAMILY, FAMILY_SIZE, SEALS, SEALS_SIZE, MatCorner, SealMarker, decode, family_for, foreign_game, module_grid

COP = game("circle-of-power").cards
ROP = game("rule-of-power").cards


def rule_of_power_markers() -> list[SealMarker]:
    return [SealMarker(c, s) for c in ALL_CARDS for s in list(range(8)) + ([None] if c.id.startswith("W") else [])]


def test_rule_of_power_stickers_already_printed_keep_their_ids_and_patterns() -> None:
    # The ids and the 36h11 patterns as they were printed before a second game had seals: a
    # digest of every (card, owner slot, id) and of every printed pattern, and a few by hand.
    rows = "\n".join(f"{m.card.id}:{m.slot}:{m.tag_id}" for m in rule_of_power_markers())
    assert hashlib.sha256(rows.encode()).hexdigest() == "a4273ab8b93f00423c6150ef47040d42d6d12b550c9bf037720205fcaf4b0db0"
    patterns = b"".join(module_grid(i).tobytes() for i in range(FAMILY_SIZE))
    assert hashlib.sha256(patterns).hexdigest() == "700c6fae9ac4a11afe4e3549110ef65bd79f93d12047ce47e9b2f6a49d20d227"
    assert [SealMarker.of(c, s).tag_id for c, s in (("W001", 0), ("W001", 1), ("W001", None), ("W052", 7), ("F008", 7))] == [0, 52, 416, 415, 531]
    assert [c.tag_id for c in MatCorner] == [532, 533, 534, 535]
    # A Rule of Power table still reads 36h11 alone, with the detector it always used.
    assert family_for(ROP) == FAMILY


def test_circle_of_power_seals_are_ids_no_rule_of_power_sticker_has() -> None:
    theirs = {m.tag_id for m in rule_of_power_markers()} | {c.tag_id for c in MatCorner}
    mine = {SealMarker(c, s).tag_id: (c, s) for c in STANDARD_DECK for s in range(8)}
    assert len(mine) == 54 * 8  # every card of every owner slot has its own
    assert not set(mine) & theirs
    assert min(mine) >= FAMILY_SIZE and max(mine) < SEALS_SIZE  # past 36h11, in the 36h10 codes
    assert family_for(COP) == SEALS
    for tag_id, (card, slot) in mine.items():
        assert decode(tag_id, COP) == SealMarker(card, slot)
        assert decode(tag_id, ROP) is None and foreign_game(tag_id, ROP) == "Circle of Power"
    for tag_id in theirs - {c.tag_id for c in MatCorner}:
        assert decode(tag_id, COP) is None and foreign_game(tag_id, COP) == "Rule of Power"
    # Owner slots are the same for both games: ann is slot 2 on both of her decks.
    assert SealMarker.of("QH", 2, cards=COP).label == "QH #2"


def test_the_new_codes_are_far_from_36h11_and_each_other() -> None:
    def bits(tag_id: int) -> np.ndarray:
        return (module_grid(tag_id, quiet=0)[1:7, 1:7] == 0).ravel()

    def rotations(tag_id: int) -> list[np.ndarray]:
        g = module_grid(tag_id, quiet=0)[1:7, 1:7] == 0
        return [np.rot90(g, k).ravel() for k in range(4)]

    old = np.array([bits(i) for i in range(FAMILY_SIZE)])
    new = range(FAMILY_SIZE, SEALS_SIZE)
    worst = min(int((old != r).sum(axis=1).min()) for i in new for r in rotations(i))
    assert worst >= 9, worst  # a misread of up to 4 bits still names the right code


@pytest.mark.slow
def test_printed_circle_of_power_seals_read_back_among_rule_of_power_ones() -> None:
    # Every Circle of Power seal and a Rule of Power owner's seals on one sheet, read by the
    # detector a Circle of Power table uses: each to its own id, the other game's named.
    ids = sorted({SealMarker(c, s).tag_id for c in STANDARD_DECK for s in range(8)}) + [m.tag_id for m in rule_of_power_markers() if m.slot == 3]
    cell, cols = 12 * 5, 24
    rows = -(-len(ids) // cols)
    sheet = np.full((rows * cell + 20, cols * cell + 20), 255, np.uint8)
    for i, tag_id in enumerate(ids):
        r, c = divmod(i, cols)
        sheet[10 + r * cell : 10 + r * cell + 50, 10 + c * cell : 10 + c * cell + 50] = np.kron(module_grid(tag_id), np.ones((5, 5), np.uint8))
    found = MarkerDetector(backend="aruco", family=SEALS).detect(sheet)
    assert sorted(d.tag_id for d in found) == sorted(ids)


def test_a_tag_names_its_game_and_the_other_game_refuses_it() -> None:
    ten = COP.from_id("10H")
    mine = card_records(ten, "ann")
    assert mine[0].type == "urn:nfc:ext:ruleofpower.org:cop-card" != ROP.nfc_record_type
    read = card_from_records(mine, COP)
    assert read is not None and read.card is ten and read.owner == "ann"
    with pytest.raises(NdefError, match="a Circle of Power card's tag: this table plays another game"):
        card_from_records(mine, ROP)
    # A Rule of Power tag written before Circle of Power came reads as it always did.
    old = card_records(Card.from_id("W007"), "ann")
    assert old[0].type == "urn:nfc:ext:ruleofpower.org:card"
    assert bytes(old[0].data) == b"v=1;card=W007;owner=ann"
    read = card_from_records(old)
    assert read is not None and read.card is Card.from_id("W007")
    with pytest.raises(NdefError, match="a Rule of Power card's tag"):
        card_from_records(old, COP)
