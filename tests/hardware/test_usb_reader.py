"""The nfcpy reader loop, driven through nfcpy's real ContactlessFrontend and Type 2 Tag code
with a simulated reader device at nfcpy's driver boundary (nfc_device_sim)."""

from __future__ import annotations

import time

from companion.cards import Card
from companion.observations import CardLifted, CardTapped, SensorState, SensorStatus, UnknownTag
from hardware.enrolment import Enrolment
from hardware.ndef_records import NdefCard, card_records
from hardware.registry import Registry
from hardware.resolver import Resolver
from hardware.tag_events import TagPresent, TagRemoved
from hardware.usb_reader import UsbReader

from .nfc_device_sim import Ntag213, SimulatedReaderDevice, frontend_opener

UID_A = bytes.fromhex("04A1B2C3D4E5F6")
UID_B = bytes.fromhex("04112233445566")


def _reader(devices, collector, **kw) -> UsbReader:
    return UsbReader("usb", collector, retry_interval=0.1, open_frontend=frontend_opener(devices), **kw)


def test_tap_reads_ndef_card_and_lift_follows(collector, tmp_path):
    device = SimulatedReaderDevice()
    tag = Ntag213(UID_A)
    with _reader([device], collector, debounce=0.2, write_plan=lambda uid: card_records(Card.from_id("W007"), "ann")):
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED)
        device.place(tag)
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent))
        assert tap.uid == UID_A.hex().upper()
        assert tap.written is True
        assert tap.ndef_card == NdefCard(Card.from_id("W007"), "ann")
        device.place(None)
        lift = collector.wait_for(lambda e: isinstance(e, TagRemoved))
        assert lift.uid == tap.uid and lift.reader == "usb"
    # What was written is a real NDEF message on the tag's memory: TLV 03, our record type.
    assert tag.mem[16] == 0x03 and b"ruleofpower.org:card" in bytes(tag.mem)
    assert b"card=W007;owner=ann" in bytes(tag.mem)


def test_wobble_within_debounce_is_one_tap(collector):
    device = SimulatedReaderDevice()
    tag = Ntag213(UID_A)
    with _reader([device], collector, debounce=1.0):
        collector.wait_for(lambda e: isinstance(e, SensorStatus))
        device.place(tag)
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        device.place(None)
        time.sleep(0.3)  # gone for less than the debounce time
        device.place(tag)
        time.sleep(0.5)
        device.place(None)
        collector.wait_for(lambda e: isinstance(e, TagRemoved), timeout=5)
    assert len(collector.of_type(TagPresent)) == 1
    assert len(collector.of_type(TagRemoved)) == 1


def test_blank_tag_reports_why_and_resolves_unknown(collector, tmp_path):
    device = SimulatedReaderDevice()
    observations = []
    resolver = Resolver(Registry.load(tmp_path / "tags"), observations.append)

    def both(event):
        resolver(event)
        collector(event)

    with _reader([device], both):
        collector.wait_for(lambda e: isinstance(e, SensorStatus))
        device.place(Ntag213(UID_B))
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent))
    assert tap.ndef_card is None
    unknown = [o for o in observations if isinstance(o, UnknownTag)]
    assert unknown and "not enrolled" in unknown[0].reason and "rop tags enrol" in unknown[0].reason


def test_missing_reader_is_reported_and_retried_until_plugged(collector):
    device = SimulatedReaderDevice()
    with _reader([None, None, device], collector):
        status = collector.wait_for(lambda e: isinstance(e, SensorStatus))
        assert status.state is SensorState.RECONNECTING and "no NFC reader found" in status.detail
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED)
        device.place(Ntag213(UID_A))
        collector.wait_for(lambda e: isinstance(e, TagPresent))


def test_real_nfcpy_open_without_a_reader_reports_and_keeps_trying(collector):
    # nfcpy's own ContactlessFrontend and USB transport (libusb), asked for a VID:PID no reader has.
    reader = UsbReader("usb:ffff:fffe", collector, retry_interval=0.1).start()
    try:
        first = collector.wait_for(lambda e: isinstance(e, SensorStatus))
        assert first.state is SensorState.RECONNECTING
        assert first.detail == "usb:ffff:fffe: no NFC reader found; retrying"
        time.sleep(0.3)
        assert reader._thread.is_alive() and not collector.of_type(TagPresent)
    finally:
        reader.stop()


def test_reader_failing_mid_game_is_reopened_and_tag_on_it_released(collector):
    first, second = SimulatedReaderDevice(), SimulatedReaderDevice()
    with _reader([first, None, second], collector):
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED)
        first.place(Ntag213(UID_A))
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        mark = collector.mark()
        first.break_down()  # unplugged, or the ACR122U locking up: every command fails
        lost = collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.LOST, start=mark)
        assert "reopening" in lost.detail
        collector.wait_for(lambda e: isinstance(e, TagRemoved), start=mark)
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED, start=mark)
        second.place(Ntag213(UID_B))
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent), start=mark)
        assert tap.uid == UID_B.hex().upper()


def test_enrolment_over_usb_writes_tags_and_registry(tmp_path, capsys):
    import io

    registry = Registry.load(tmp_path / "tags")
    out = io.StringIO()
    cards = [Card.from_id("F001"), Card.from_id("F002")]
    walk = Enrolment(registry, "ann", cards, write=True, out=out)
    device = SimulatedReaderDevice()
    tags = [Ntag213(UID_A), Ntag213(UID_B)]
    reader = UsbReader("usb", walk.event, retry_interval=0.1, debounce=0.05,
                       write_plan=walk.write_plan, open_frontend=frontend_opener([device]))
    reader.start()
    import threading

    def table():
        for tag in tags:
            time.sleep(0.4)
            device.place(tag)
            time.sleep(0.4)
            device.place(None)

    player = threading.Thread(target=table)
    player.start()
    result = walk.run()
    player.join()
    reader.stop()
    assert [c.id for c in result.enrolled] == ["F001", "F002"] and result.ndef_written == 2
    fresh = Registry.load(tmp_path / "tags")
    assert fresh.lookup(UID_A.hex().upper()).card.id == "F001"
    assert fresh.lookup(UID_B.hex().upper()).card.id == "F002"
    # Both tags now name their card themselves, so another table without this registry reads them.
    observations = []
    stranger = Resolver(Registry.load(tmp_path / "elsewhere"), observations.append)
    device2 = SimulatedReaderDevice()
    with UsbReader("usb", stranger, open_frontend=frontend_opener([device2])):
        device2.place(tags[1])
        deadline = time.monotonic() + 5
        while not any(isinstance(o, CardTapped) for o in observations) and time.monotonic() < deadline:
            time.sleep(0.05)
        device2.place(None)
        time.sleep(0.6)
    tapped = [o for o in observations if isinstance(o, CardTapped)]
    assert tapped and tapped[0].card.id == "F002" and tapped[0].owner == "ann"
    assert any(isinstance(o, CardLifted) for o in observations)
    assert "✓ F001" in out.getvalue()
