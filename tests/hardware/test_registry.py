"""The tag registry, the NDEF card record and the resolver's rules."""

from __future__ import annotations

import json

import ndef
import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.observations import CardLifted, CardTapped, UnknownTag
from hardware.ndef_records import NdefCard, NdefError, card_from_records, card_records
from hardware.registry import Registry, RegistryError, normalise_uid
from hardware.resolver import Resolver
from hardware.tag_events import TagPresent, TagRemoved

FIRE, THIEF = Card.from_id("W007"), Card.from_id("F001")
UID1, UID2, UID3 = "04A1B2C3D4E5F6", "04112233445566", "DEADBEEF"


def test_enrol_saves_one_line_per_tag_and_reloads(tmp_path):
    reg = Registry.load(tmp_path / "tags")
    reg.enrol("04:a1:b2:c3:d4:e5:f6", FIRE, "Ann", ndef=True)
    reg.enrol(UID2, THIEF, "ann", ndef=False)
    lines = (tmp_path / "tags" / "ann.jsonl").read_text().splitlines()
    assert [json.loads(line)["card"] for line in lines] == ["F001", "W007"]  # sorted by card
    fresh = Registry.load(tmp_path / "tags")
    entry = fresh.lookup(UID1)
    assert (entry.card, entry.owner, entry.ndef, entry.line) == (FIRE, "ann", True, 2)
    assert fresh.problems == []


def test_replacing_a_cards_tag_and_refusing_a_tag_of_another_card(tmp_path):
    reg = Registry.load(tmp_path / "tags")
    reg.enrol(UID1, FIRE, "ann", ndef=True)
    reg.enrol(UID3, FIRE, "ann", ndef=False)  # the card's tag was replaced
    assert reg.lookup(UID1) is None and reg.lookup(UID3).card is FIRE
    with pytest.raises(RegistryError, match=r"already enrolled as ann's W007.*rop tags forget DEADBEEF --owner ann"):
        reg.enrol(UID3, THIEF, "bob", ndef=False)
    assert reg.lookup(UID3).card is FIRE  # the refused enrolment changed nothing


def test_broken_files_report_file_and_line_and_keep_the_good_lines(tmp_path):
    tags = tmp_path / "tags"
    tags.mkdir()
    (tags / "ann.jsonl").write_text(
        json.dumps({"uid": UID1, "card": "W007", "owner": "ann"}) + "\n"
        + "{not json\n"
        + json.dumps({"uid": UID2, "card": "W099", "owner": "ann"}) + "\n"
        + json.dumps({"uid": "XYZ", "card": "W001", "owner": "ann"}) + "\n"
    )
    (tags / "bob.jsonl").write_text(json.dumps({"uid": UID1, "card": "F002", "owner": "bob"}) + "\n")
    reg = Registry.load(tags)
    text = "\n".join(map(str, reg.problems))
    assert "ann.jsonl:2: not valid JSON" in text
    assert "ann.jsonl:3: tag 04112233445566: unknown card id 'W099'" in text
    assert "ann.jsonl:4: not a tag UID" in text
    assert "enrolled more than once" in text and "bob.jsonl:1" in text
    # The twice-enrolled tag resolves to nothing rather than to either card.
    assert reg.lookup(UID1) is None and len(reg.conflicts(UID1)) == 2
    # Enrolling more keeps the unreadable lines for a person to fix: nothing recorded is lost.
    reg.enrol(UID3, Card.from_id("F003"), "ann", ndef=False)
    text = (tags / "ann.jsonl").read_text()
    assert "{not json" in text and "W099" in text and '"XYZ"' in text and UID3 in text
    assert len(Registry.load(tags).problems) == len(reg.problems)


def test_forget_by_card_or_uid(tmp_path):
    reg = Registry.load(tmp_path / "tags")
    reg.enrol(UID1, FIRE, "ann", ndef=False)
    reg.enrol(UID2, THIEF, "ann", ndef=False)
    assert [e.uid for e in reg.forget("ann", "W007")] == [UID1]
    assert [e.card for e in reg.forget("ann", UID2)] == [THIEF]
    assert reg.entries == []
    with pytest.raises(RegistryError):
        normalise_uid("04A1")


def test_ndef_records_round_trip_through_the_wire_format():
    records = card_records(FIRE, "ann")
    octets = b"".join(ndef.message_encoder(records))
    decoded = list(ndef.message_decoder(octets))
    assert card_from_records(decoded) == NdefCard(FIRE, "ann")
    assert "Fire Dragon (7)" in decoded[1].text
    assert card_from_records([ndef.TextRecord("hello")]) is None  # a foreign tag: not ours
    bad = ndef.Record("urn:nfc:ext:ruleofpower.org:card", "", b"v=1;card=W999;owner=ann")
    with pytest.raises(NdefError, match="W999"):
        card_from_records([bad])
    with pytest.raises(NdefError, match="version"):
        card_from_records([ndef.Record("urn:nfc:ext:ruleofpower.org:card", "", b"v=7;card=W007;owner=ann")])


def _tap(uid: str, named: NdefCard | None = None, reader: str = "usb") -> TagPresent:
    return TagPresent("test", 1.0, reader, uid, named)


def test_resolver_rules(tmp_path):
    reg = Registry.load(tmp_path / "tags")
    reg.enrol(UID1, FIRE, "ann", ndef=True)
    out: list = []
    resolve = Resolver(reg, out.append)

    resolve(_tap(UID1, NdefCard(FIRE, "ann")))
    assert isinstance(out[-1], CardTapped) and out[-1].card is FIRE and out[-1].owner == "ann"
    resolve(TagRemoved("test", 2.0, "usb", UID1))
    assert isinstance(out[-1], CardLifted) and out[-1].card is FIRE

    resolve(_tap(UID1, NdefCard(THIEF, "ann")))  # content disagrees with the registry
    assert isinstance(out[-1], UnknownTag) and "content says ann's F001" in out[-1].reason

    resolve(_tap(UID3, NdefCard(FIRE, "ann")))  # a new tag on a card that has one enrolled
    assert isinstance(out[-1], UnknownTag) and "replaced" in out[-1].reason
    assert "rop tags enrol --owner ann --card W007" in out[-1].reason

    resolve(_tap(UID2, NdefCard(THIEF, "bob")))  # enrolled at another table: content is enough
    assert isinstance(out[-1], CardTapped) and out[-1].card is THIEF and out[-1].owner == "bob"

    resolve(_tap(UID3))
    assert isinstance(out[-1], UnknownTag) and "not enrolled" in out[-1].reason
    resolve(TagRemoved("test", 3.0, "usb", UID3))  # lifting an unknown tag is no card's lift
    assert isinstance(out[-1], UnknownTag)
