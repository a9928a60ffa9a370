"""The nfcpy reader loop, end to end through nfcpy's own PN532 driver, chipset code and
serial transport, talking over a pseudo-terminal to a PN532 chip simulator with an NTAG213
(pn532_hsu_sim). Reading and writing NDEF runs through nfcpy's Type 2 Tag code.

Each step waits for what the reader or the chip reports, never for the clock; the debounce is
measured on a clock the test moves (:class:`~tests.hardware.conftest.ManualClock`)."""

from __future__ import annotations

import io
import queue
import threading

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.observations import CardLifted, CardTapped, SensorState, SensorStatus, UnknownTag
from hardware.enrolment import Enrolment
from hardware.ndef_records import NdefCard, card_records
from hardware.registry import Registry
from hardware.resolver import Resolver
from hardware.tag_events import TagPresent, TagRemoved
from hardware.usb_reader import UsbReader, _open_frontend

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


def test_wobble_within_debounce_is_one_tap(chip, collector, clock):
    tag = Ntag213(UID_A)
    with _reader(chip, collector, debounce=1.0, clock=clock):
        collector.wait_for(connected)
        chip.place(tag)
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent))
        chip.place(None)
        chip.wait_polled()  # the reader saw the field empty: the lift waits out the debounce
        assert not collector.of_type(TagRemoved)
        clock.advance(0.3)  # out of the field for less than the debounce time
        reads = chip.tag_reads
        chip.place(tag)
        chip.wait_for(lambda: chip.tag_reads > reads)  # connected again, checking the tag stays
        clock.advance(5.0)  # long past the debounce: a lift still pending would be due now
        reads = chip.tag_reads
        chip.wait_for(lambda: chip.tag_reads >= reads + 2)  # the reader looked for due lifts between
        assert not collector.of_type(TagRemoved)
        chip.place(None)
        chip.wait_polled()
        assert not collector.of_type(TagRemoved)
        clock.advance(1.0)
        lift = collector.wait_for(lambda e: isinstance(e, TagRemoved))
    assert len(collector.of_type(TagPresent)) == 1
    assert len(collector.of_type(TagRemoved)) == 1
    assert lift.uid == tap.uid and lift.at == pytest.approx(tap.at + 5.3)  # when it left for good


def test_another_tag_within_the_debounce_ends_the_first_tap_at_once(chip, collector, clock):
    with _reader(chip, collector, debounce=1.0, clock=clock):
        collector.wait_for(connected)
        chip.place(Ntag213(UID_A))
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        chip.place(Ntag213(UID_B))  # slid on as the first came off; the clock stands still
        collector.wait_for(lambda e: isinstance(e, TagPresent) and e.uid == UID_B.hex().upper())
    taps = [(type(e).__name__, e.uid) for e in collector.items if isinstance(e, (TagPresent, TagRemoved))]
    a, b = UID_A.hex().upper(), UID_B.hex().upper()
    assert taps[:3] == [("TagPresent", a), ("TagRemoved", a), ("TagPresent", b)]


def test_blank_tag_is_an_unknown_tag_with_the_fix(chip, collector, tmp_path):
    resolver = Resolver(Registry.load(tmp_path / "tags"), collector)
    with _reader(chip, resolver):
        chip.place(Ntag213(UID_B))
        unknown = collector.wait_for(lambda o: isinstance(o, UnknownTag))
    assert unknown.uid == UID_B.hex().upper()
    assert "not enrolled" in unknown.reason and "rop tags enrol" in unknown.reason


def test_real_nfcpy_usb_open_without_a_reader_reports_and_keeps_trying(collector):
    # nfcpy's ContactlessFrontend and USB transport (libusb), asked for a VID:PID no reader has.
    attempts: queue.Queue[str] = queue.Queue()

    def open_frontend(path: str):
        attempts.put(path)
        return _open_frontend(path)

    reader = UsbReader("usb:ffff:fffe", collector, retry_interval=0.1, open_frontend=open_frontend).start()
    try:
        first = collector.wait_for(lambda e: isinstance(e, SensorStatus))
        assert first.state is SensorState.RECONNECTING
        assert first.detail == "usb:ffff:fffe: no NFC reader found; retrying"
        for _ in range(3):  # tried again and again, each after the one before failed
            assert attempts.get(timeout=60) == "usb:ffff:fffe"
        assert reader._thread.is_alive()
        assert collector.items == [first]  # said once, not on every retry
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
        # Opened again while it is still locked up: that fails too, and is said.
        collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.RECONNECTING, start=mark)
        chip.frozen = False
        collector.wait_for(connected, start=mark)
        chip.place(Ntag213(UID_A))
        collector.wait_for(lambda e: isinstance(e, TagPresent), start=mark)


class Transcript(io.StringIO):
    """What the enrolment says, with a wait for a phrase to be said."""

    def __init__(self) -> None:
        super().__init__()
        self._cond = threading.Condition()

    def write(self, text: str) -> int:
        with self._cond:
            written = super().write(text)
            self._cond.notify_all()
            return written

    def wait_for(self, phrase: str, timeout: float = 60.0) -> None:
        """Return once ``phrase`` has been said; the timeout only bounds a failing test."""
        with self._cond:
            if not self._cond.wait_for(lambda: phrase in self.getvalue(), timeout):
                raise AssertionError(f"never said {phrase!r}: {self.getvalue()!r}")


def test_enrolment_writes_tags_that_another_table_reads_without_the_registry(chip, collector, tmp_path):
    registry = Registry.load(tmp_path / "tags")
    out = Transcript()
    walk = Enrolment(registry, "ann", [Card.from_id("F001"), Card.from_id("F002")], write=True, out=out)
    tags = [Ntag213(UID_A), Ntag213(UID_B)]
    reader = _reader(chip, walk.event, debounce=0.05, write_plan=walk.write_plan).start()

    def player() -> None:
        # A person taps each card when asked for it, and lifts it once it is taken.
        done = False
        try:
            for number, tag in enumerate(tags, start=1):
                out.wait_for(f"[{number}/2] tap the")
                chip.place(tag)
                out.wait_for(f"✓ F00{number}")
                chip.place(None)
            done = True
        finally:
            if not done:  # the thread's error fails the test; end the walk so it gets there
                walk.typed(None)

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

    elsewhere = Resolver(Registry.load(tmp_path / "other-table"), collector)
    with _reader(chip, elsewhere, debounce=0.1):
        chip.place(tags[1])
        tapped = collector.wait_for(lambda o: isinstance(o, CardTapped))
        chip.place(None)
        lifted = collector.wait_for(lambda o: isinstance(o, CardLifted))
    assert (tapped.card.id, tapped.owner) == ("F002", "ann")
    assert (lifted.card.id, lifted.uid) == ("F002", UID_B.hex().upper())
