"""One allocator for every game's seal ids and NFC records: over every registered game (and a
third one installed beside them), no two card faces of any games share a seal id, a look-alike
code or an NFC record; a game's ids never depend on which other games are installed; and two
games claiming the same block, ids, record type or tag byte is an error naming both."""

from __future__ import annotations

import dataclasses
import hashlib
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from companion.contract import Claim, with_tables
from companion.contract.allocation import BLOCK, FIRST_BLOCK, MAT_CORNERS, SEAL_IDS, AllocationError, SealIds, check
from companion.contract.registry import game, games
from hardware.ndef_records import card_records
from vision.detect import MarkerDetector
from vision.markers import SEALS_SIZE, seal_bits
from vision.seal_codes import CODES_FILE, derive, rotations

CORRECTED = MarkerDetector().max_hamming
"""Bits the detector corrects: two codes closer than twice that plus one could be confused."""


def _numbers(ids: list[int]) -> np.ndarray:
    weights = np.uint64(1) << np.arange(35, -1, -1, dtype=np.uint64)
    return np.array([(seal_bits(i).ravel().astype(np.uint64) * weights).sum(dtype=np.uint64) for i in ids], np.uint64)


def _closest(ids: list[int]) -> tuple[int, int, int]:
    """The two ids whose codes lie closest (in any rotation), and how many bits apart."""
    codes = _numbers(ids)
    turned = np.stack(rotations(codes))  # (4, n)
    best = (99, -1, -1)
    for i in range(len(ids)):
        d = np.bitwise_count(turned[:, i + 1 :] ^ codes[i]).min(axis=0) if i + 1 < len(ids) else np.array([99])
        j = int(d.argmin())
        if int(d[j]) < best[0]:
            best = (int(d[j]), ids[i], ids[i + 1 + j])
    return best


@pytest.fixture(params=["installed games", "with a third game"])
def table_games(request: pytest.FixtureRequest) -> list[Any]:
    if request.param == "with a third game":
        request.getfixturevalue("toy")
    return with_tables(games())


def test_every_face_of_every_game_has_a_seal_id_of_its_own(table_games: list[Any]) -> None:
    owner: dict[int, str] = {}
    for g in table_games:
        seals = g.table.seals
        faces = [(d.name, c, card) for d in g.table.decks for c in d.copies for card in d.cards]
        faces += [(d.name, c, None) for d in g.table.decks if d.backs for c in d.copies]
        ids = list(seals.ids())
        assert len(ids) == len(set(ids)) == len(faces), g.name  # every card of every copy, every back
        for i in ids:
            assert i not in owner, f"seal id {i} is both {owner[i]}'s and {g.name}'s"
            assert i not in MAT_CORNERS and (0 <= i < SEALS_SIZE or FIRST_BLOCK * BLOCK <= i < SEAL_IDS)
            owner[i] = g.name
    check(table_games)


def test_no_two_seals_of_any_games_look_alike(table_games: list[Any]) -> None:
    ids = sorted({i for g in table_games for i in g.table.seals.ids()} | set(MAT_CORNERS))
    bits, a, b = _closest(ids)
    # The detector could only confuse codes closer than 2 * CORRECTED + 1; the dictionary keeps
    # every pair at least 8 apart (9 within the first generation).
    assert bits >= 8 > 2 * CORRECTED + 1, (a, b)


def test_the_whole_seal_dictionary_keeps_its_distances() -> None:
    """Room for the next games: every block code is 8 bits from every other and 9 from every
    first-generation code, in all four rotations."""
    first = list(range(SEALS_SIZE))
    blocks = list(range(FIRST_BLOCK * BLOCK, SEAL_IDS))
    assert len(blocks) >= 10 * 400  # ten more games of 400 card faces
    old, new = _numbers(first), _numbers(blocks)
    turned = np.concatenate(rotations(new))
    across = min(int(np.bitwise_count(chunk[:, None] ^ old[None, :]).min()) for chunk in np.array_split(turned, 16))
    assert across >= 9
    among = 99
    for s in range(0, len(new), 512):
        part = new[s : s + 512]
        d = np.bitwise_count(part[:, None] ^ turned[None, :])
        d[d == 0] = 99  # a code against itself
        among = min(among, int(d.min()))
    assert among >= 8


def test_no_two_cards_of_any_games_share_an_nfc_record(table_games: list[Any]) -> None:
    records, uids = {}, {}
    for g in table_games:
        assert g.table.claim.nfc_record_type == g.cards.nfc_record_type
        assert records.setdefault(g.cards.nfc_record_type, g.name) == g.name
        for card in (c for d in g.table.decks for c in d.cards):
            uid = g.table.tags.tag_byte(card)
            assert uids.setdefault(uid, (g.name, card)) == (g.name, card)
            written = card_records(card, "ann")[0]
            assert (written.type, bytes(written.data)) == (g.cards.nfc_record_type, f"v=1;card={card.id};owner=ann".encode())


def test_the_first_games_keep_their_printed_ids_whatever_else_is_installed(toy: Any) -> None:
    rop, cop = game("rule-of-power"), game("circle-of-power")
    # Circle of Power's seal ids as printed since its first stickers: 587 + slot * 54 + index.
    assert {(c.id, s): cop.table.seals.encode(c, s) for c in cop.cards for s in range(8)} == {
        (c.id, s): 587 + s * 54 + c.index for c in cop.cards for s in range(8)
    }
    rows = "\n".join(f"{c.id}:{s}:{rop.table.seals.encode(c, s)}" for c in rop.cards for s in [*range(8), None] if not (s is None and c.id.startswith("F")))
    assert hashlib.sha256(rows.encode()).hexdigest() == "a4273ab8b93f00423c6150ef47040d42d6d12b550c9bf037720205fcaf4b0db0"
    # Each game's ids come from its own claim alone: installing a game, or another order, changes none.
    alone = {g.name: dict(SealIds(g.table)._by_id) for g in with_tables(games())}
    assert {name: dict(s._by_id) for name, s in check(reversed(list(games()))).seals.items()} == alone
    # The toy's: its influence cards in each colour and their backs, then its goals and their back.
    influence, goals = toy.table.decks
    assert list(toy.table.seals.ids()) == list(range(2560, 2560 + 15))
    assert [toy.table.seals.back(influence, c) for c in ("blue", "white", "red")] + [toy.table.seals.back(goals, None)] == [2569, 2570, 2571, 2574]
    assert (rop.table.tags.tag_byte(rop.cards.from_id("W007")), cop.table.tags.tag_byte(cop.cards.from_id("10H"))) == ((6, 0xA1), (21, 0xC0))


def _claiming(title: str, base: Any, **claim: Any) -> Any:
    spec = dataclasses.replace(base.table, game=title.lower().replace(" ", "-"), claim=dataclasses.replace(base.table.claim, **claim))
    return SimpleNamespace(title=title, table=spec)


@pytest.mark.parametrize(
    "claim,message",
    [
        ({"seal_blocks": (40,)}, r"both Test Columns and Copy Cat claim seal block 40 \(ids 2560-2623\)"),
        ({"seal_blocks": (), "first_generation": range(0, 64)}, "both Rule of Power and Copy Cat claim seal ids 0-63"),
        ({"seal_blocks": (41,), "nfc_record_type": "urn:nfc:ext:ruleofpower.org:cop-card"}, "both Circle of Power and Copy Cat claim the NFC record type"),
        ({"seal_blocks": (41,), "tag_bytes": (0xA1,)}, "both Rule of Power and Copy Cat claim the tag byte 0xA1"),
    ],
)
def test_two_games_claiming_the_same_is_an_error_naming_both(toy: Any, claim: dict[str, Any], message: str) -> None:
    fresh = {"nfc_record_type": "urn:nfc:ext:example.org:copy-cat", "tag_bytes": (0x7F,)}
    cat = _claiming("Copy Cat", toy, **{**fresh, **claim})
    with pytest.raises(AllocationError, match=message):
        check([*games(), cat])


@pytest.mark.parametrize(
    "claim,message",
    [
        ({"seal_blocks": (12,)}, "seal block 12 does not exist: blocks are 16-127"),
        ({"seal_blocks": (128,)}, "seal block 128 does not exist"),
        ({"seal_blocks": (), "first_generation": range(530, 540)}, "532-535 are the mat's corners"),
        ({"seal_blocks": (), "first_generation": range(1010, 1030)}, "lie outside 0-1018: claim blocks instead"),
        ({"seal_blocks": (), "first_generation": range(536, 546)}, "its decks need 15 seal ids but it claims 10: claim 1 more block"),
        ({"seal_blocks": (50, 50)}, "a seal block is claimed twice"),
        ({"tag_bytes": ()}, "need 1 tag byte"),
    ],
)
def test_a_claim_the_dictionary_cannot_honour_says_why(toy: Any, claim: dict[str, Any], message: str) -> None:
    with pytest.raises(AllocationError, match=message):
        check([_claiming("Copy Cat", toy, **claim)])


def test_an_installed_game_whose_claim_clashes_is_refused_when_its_seals_are_used(install: Any, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main as rop

    install("copy-cat", "tests.contract.test_allocation:COPY_CAT")
    assert rop(["markers", "--owner", "ann", "--card", "W007", "--out", str(tmp_path)]) == 2
    assert "both Rule of Power and Copy Cat claim seal ids 0-63" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # refused before anything is written


def test_the_block_codes_are_the_shipped_ones() -> None:
    # Fixed for good: a sticker printed with a block code keeps its meaning.
    assert hashlib.sha256(CODES_FILE.read_bytes()).hexdigest() == "c5b150816afae1151d7e9386f67fd5e563985ce037178f06fe4720adce974648"
    assert derive(64) == [int(line, 16) for line in CODES_FILE.read_text().split()[:64]]


@pytest.mark.slow
def test_the_block_codes_derive_again() -> None:
    assert derive() == [int(line, 16) for line in CODES_FILE.read_text().split()]


from tests.contract import toy_game  # noqa: E402 - the copy is made of the toy

COPY_CAT = SimpleNamespace(
    name="copy-cat",
    title="Copy Cat",
    options=(),
    cards=toy_game.ToyCards(),
    table=dataclasses.replace(toy_game.TABLE, game="copy-cat", claim=Claim(first_generation=range(0, 64), nfc_record_type="urn:nfc:ext:example.org:copy-cat", tag_bytes=(0x7F,))),
)
