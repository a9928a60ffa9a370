"""The nfcpy reader loop, end to end through nfcpy's own PN532 driver, chipset code and
serial transport, talking over a pseudo-terminal to a PN532 chip simulator with an NTAG213
(pn532_hsu_sim). Reading and writing NDEF runs through nfcpy's Type 2 Tag code."""

from __future__ import annotations

import io
import threading
import time

import pytest

from companion.engine.cards import Card
from companion.observations import CardLifted, CardTapped, SensorState, SensorStatus, UnknownTag
from hardware.enrolment import Enrolment
from hardware.ndef_records import NdefCard, card_records
from hardware.registry import Registry
from hardware.resolver import Resolver
from hardware.tag_events import TagPresent, TagRemoved
from hardware.usb_reader import UsbReader

from .ntag_sim import Ntag213
from .pn532_hsu_sim import Pn532HsuChip

UID_A = bytes.fromhex("04A1B2C3D4E5F6")
UID_B = bytes.fromhex("04112233445566")


@pytest.fixture
def chip(tmp_path):
    chip = Pn532HsuChip(link=tmp_path / "ttyPN532")
    yield chip
    chip.close()


def _reader(chip, sink, **kw) -> UsbReader:
    return UsbReader(f"pn532:{chip.port}", sink, retry_interval=0.1, **kw)


def connected(e) -> bool:
    return isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED


def test_tap_writes_and_reads_the_card_then_lift(chip, collector):
    tag = Ntag213(UID_A)
    with _reader(chip, collector, debounce=0.2, write_plan=lambda uid: card_records(Card.from_id("W007"), "ann")):
        status = collector.wait_for(connected)
        assert status.readers == ("usb",) and chip.port in status.detail
        chip.place(tag)
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent))
        assert tap.uid == UID_A.hex().upper() and tap.reader == "usb"
        assert tap.written is True
        assert tap.ndef_card == NdefCard(Card.from_id("W007"), "ann")
        chip.place(None)
        lift = collector.wait_for(lambda e: isinstance(e, TagRemoved))
        assert lift.uid == tap.uid
    # A real NDEF message in the tag's memory: TLV 03, our external record type and payload.
    assert tag.mem[16] == 0x03 and b"ruleofpower.org:card" in bytes(tag.mem)
    assert b"card=W007;owner=ann" in bytes(tag.mem)
    assert chip.frames_bad == 0 and 0x42 in chip.commands  # InCommunicateThru carried the tag commands


def test_wobble_within_debounce_is_one_tap(chip, collector):
    tag = Ntag213(UID_A)
    with _reader(chip, collector, debounce=1.0):
        collector.wait_for(connected)
        chip.place(tag)
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        chip.place(None)
        time.sleep(0.3)  # out of the field for less than the debounce time
        chip.place(tag)
        time.sleep(0.5)
        chip.place(None)
        collector.wait_for(lambda e: isinstance(e, TagRemoved), timeout=5)
    assert len(collector.of_type(TagPresent)) == 1
    assert len(collector.of_type(TagRemoved)) == 1


def test_blank_tag_is_an_unknown_tag_with_the_fix(chip, tmp_path):
    observations: list = []
    resolver = Resolver(Registry.load(tmp_path / "tags"), observations.append)
    with _reader(chip, resolver):
        chip.place(Ntag213(UID_B))
        deadline = time.monotonic() + 8
        while not any(isinstance(o, UnknownTag) for o in observations) and time.monotonic() < deadline:
            time.sleep(0.05)
    unknown = [o for o in observations if isinstance(o, UnknownTag)]
    assert unknown and unknown[0].uid == UID_B.hex().upper()
    assert "not enrolled" in unknown[0].reason and "rop tags enrol" in unknown[0].reason


def test_real_nfcpy_usb_open_without_a_reader_reports_and_keeps_trying(collector):
    # nfcpy's ContactlessFrontend and USB transport (libusb), asked for a VID:PID no reader has.
    reader = UsbReader("usb:ffff:fffe", collector, retry_interval=0.1).start()
    try:
        first = collector.wait_for(lambda e: isinstance(e, SensorStatus))
        assert first.state is SensorState.RECONNECTING
        assert first.detail == "usb:ffff:fffe: no NFC reader found; retrying"
        time.sleep(0.3)
        assert reader._thread.is_alive() and not collector.of_type(TagPresent)
    finally:
        reader.stop()


def test_unplugged_mid_game_is_reported_and_reopened(chip, collector):
    with _reader(chip, collector):
        collector.wait_for(connected)
        chip.place(Ntag213(UID_A))
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        mark = collector.mark()
        chip.unplug()
        lost = collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.LOST, start=mark)
        assert "reopening" in lost.detail
        collector.wait_for(lambda e: isinstance(e, TagRemoved), start=mark)  # cannot vouch for it any more
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.RECONNECTING, start=mark)
        chip.place(Ntag213(UID_B))
        chip.plug()
        collector.wait_for(connected, start=mark)
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent), start=mark)
        assert tap.uid == UID_B.hex().upper()


def test_locked_up_reader_is_noticed_and_recovers(chip, collector):
    with _reader(chip, collector):
        collector.wait_for(connected)
        mark = collector.mark()
        chip.frozen = True  # the ACR122U habit: the chip stops answering altogether
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.LOST, start=mark)
        time.sleep(0.3)
        chip.frozen = False
        collector.wait_for(connected, start=mark)
        chip.place(Ntag213(UID_A))
        collector.wait_for(lambda e: isinstance(e, TagPresent), start=mark)


def test_enrolment_writes_tags_that_another_table_reads_without_the_registry(chip, tmp_path):
    registry = Registry.load(tmp_path / "tags")
    out = io.StringIO()
    walk = Enrolment(registry, "ann", [Card.from_id("F001"), Card.from_id("F002")], write=True, out=out)
    tags = [Ntag213(UID_A), Ntag213(UID_B)]
    reader = _reader(chip, walk.event, debounce=0.05, write_plan=walk.write_plan).start()

    def player() -> None:
        for tag in tags:
            time.sleep(0.5)
            chip.place(tag)
            time.sleep(0.6)
            chip.place(None)

    hand = threading.Thread(target=player)
    hand.start()
    result = walk.run()
    hand.join()
    reader.stop()
    assert [c.id for c in result.enrolled] == ["F001", "F002"] and result.ndef_written == 2
    assert "✓ F001" in out.getvalue() and "card written on the tag" in out.getvalue()
    fresh = Registry.load(tmp_path / "tags")
    assert fresh.lookup(UID_A.hex().upper()).card.id == "F001"
    assert fresh.lookup(UID_B.hex().upper()).card.id == "F002"

    observations: list = []
    elsewhere = Resolver(Registry.load(tmp_path / "other-table"), observations.append)
    with _reader(chip, elsewhere, debounce=0.1):
        chip.place(tags[1])
        deadline = time.monotonic() + 8
        while not any(isinstance(o, CardTapped) for o in observations) and time.monotonic() < deadline:
            time.sleep(0.05)
        chip.place(None)
        while not any(isinstance(o, CardLifted) for o in observations) and time.monotonic() < deadline:
            time.sleep(0.05)
    tapped = [o for o in observations if isinstance(o, CardTapped)]
    assert tapped and (tapped[0].card.id, tapped[0].owner) == ("F002", "ann")
    assert any(isinstance(o, CardLifted) for o in observations)
