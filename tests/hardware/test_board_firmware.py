"""End to end: the real firmware image, on an emulated ATmega328P with emulated PN532 chips
on its SPI bus (simavr), talking to the host code over a pseudo-terminal."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.observations import CardLifted, CardTapped, SensorState, SensorStatus
from hardware.board import ErrorLine, Heartbeat, Hello, MemLine, Reply, StatLine
from hardware.board_link import BoardLink
from hardware.registry import Registry
from hardware.resolver import Resolver
from hardware.tag_events import TagPresent, TagRemoved

pytestmark = pytest.mark.slow

UID_FIRE = "04A1B2C3D4E5F6"
UID_THIEF = "04112233445566"
UID_SHORT = "DEADBEEF"


def connected(e) -> bool:
    return isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED


class Messages:
    """Every protocol message the link hands on, with a wait for the one a step expects:
    each step waits for the board's answer instead of sleeping or polling a deadline. The
    timeout only bounds a test that is already failing."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._cond = threading.Condition()

    def __call__(self, message: Any) -> None:
        with self._cond:
            self.items.append(message)
            self._cond.notify_all()

    def mark(self) -> int:
        with self._cond:
            return len(self.items)

    def wait_for(self, predicate: Callable[[Any], bool], start: int = 0, timeout: float = 120) -> Any:
        with self._cond:
            found: list[Any] = []

            def seen() -> bool:
                found[:] = [m for m in self.items[start:] if predicate(m)]
                return bool(found)

            assert self._cond.wait_for(seen, timeout=timeout), f"no such message; got {self.items[start:]!r}"
            return found[0]


def test_build_fits_the_chip_with_room_to_spare(firmware):
    assert firmware.elf.is_file() and firmware.hex.is_file()
    assert 1000 < firmware.flash_bytes < 32256 * 3 // 4
    assert 0 < firmware.ram_bytes < 1024
    assert "flash:" in firmware.report and "ram:" in firmware.report


def test_greeting_readers_taps_and_lifts_resolved_to_cards(firmware, tmp_path, collector):
    from hardware.emulator import BoardEmulator

    registry = Registry.load(tmp_path / "tags")
    registry.enrol(UID_FIRE, Card.from_id("W007"), "ann", ndef=False)
    registry.enrol(UID_THIEF, Card.from_id("F001"), "bob", ndef=False)
    messages = []
    with BoardEmulator(firmware, chips="013", link=tmp_path / "board") as emu:
        with BoardLink(emu.port, Resolver(registry, collector), on_message=messages.append):
            status = collector.wait_for(connected)
            assert status.readers == ("board:0", "board:1", "board:3")
            assert "board:2 down" in status.detail
            hello = next(m for m in messages if isinstance(m, Hello))
            assert (hello.protocol, hello.firmware, hello.slots) == (1, "1.1.0", 8)

            emu.tag(0, UID_FIRE)
            emu.tag(3, UID_THIEF)
            fire = collector.wait_for(lambda e: isinstance(e, CardTapped) and e.reader == "board:0")
            thief = collector.wait_for(lambda e: isinstance(e, CardTapped) and e.reader == "board:3")
            assert (fire.card.id, fire.owner, fire.uid) == ("W007", "ann", UID_FIRE)
            assert (thief.card.id, thief.owner) == ("F001", "bob")

            emu.lift(0)
            lifted = collector.wait_for(lambda e: isinstance(e, CardLifted))
            assert (lifted.reader, lifted.card.id) == ("board:0", "W007")

            emu.tag(1, UID_SHORT)  # a 4-byte UID nobody enrolled
            unknown = collector.wait_for(lambda e: type(e).__name__ == "UnknownTag")
            assert unknown.reader == "board:1" and "not enrolled" in unknown.reason
        stats = emu.stats()
    # The emulated chips checked every frame the firmware sent: preamble, LEN/LCS, TFI, DCS.
    assert all(s["bad"] == 0 for s in stats.values())
    assert stats[0]["good"] >= 6 and stats[0]["polls"] >= 2 and stats[2]["good"] == 0, stats
    assert not any(isinstance(e, CardTapped) and e.reader == "board:0" and e.card.id != "W007" for e in collector.items)


def test_eight_readers_each_on_its_own_chip_select(firmware, tmp_path, collector):
    """A board of eight readers (D10 to D3): the centre and a Fate reader for each of six
    players, and one more. A tag on each of the readers wired to the new lines is reported on
    that reader alone, and no two chips ever answer at once (the emulated bus would garble it)."""
    from hardware.emulator import BoardEmulator

    with BoardEmulator(firmware, chips="01234567", link=tmp_path / "board") as emu:
        with BoardLink(emu.port, collector):
            status = collector.wait_for(connected)
            assert status.readers == tuple(f"board:{r}" for r in range(8)) and "down" not in status.detail
            for r in range(4, 8):
                uid = f"04{r:02X}B2C3D4E5F6"
                emu.tag(r, uid)
                tap = collector.wait_for(lambda e: isinstance(e, TagPresent) and e.uid == uid)
                assert tap.reader == f"board:{r}"
                emu.lift(r)
                collector.wait_for(lambda e: isinstance(e, TagRemoved) and e.uid == uid)
        stats = emu.stats()
    assert all(s["bad"] == 0 and s["polls"] > 0 for s in stats.values()), stats
    assert sorted(stats) == list(range(8))


def test_two_boards_of_one_table_name_their_readers_apart(firmware, tmp_path, collector):
    """A table with two boards (``--serial`` given twice): the first board's readers are
    ``board:0`` ..., the second's ``board2:0`` ..., so that a tap on either reader 0 is told
    apart and mapped to its own zone."""
    from hardware.emulator import BoardEmulator
    from hardware.sensors import NfcSensors

    registry = Registry.load(tmp_path / "tags")
    registry.enrol(UID_FIRE, Card.from_id("W007"), "ann", ndef=False)
    registry.enrol(UID_THIEF, Card.from_id("F006"), "bob", ndef=False)
    with BoardEmulator(firmware, chips="0123", link=tmp_path / "one") as one, BoardEmulator(firmware, chips="01", link=tmp_path / "two") as two:
        with NfcSensors(collector, serial=[one.port, two.port], registry=registry):
            statuses = [collector.wait_for(lambda e, port=port: connected(e) and e.source == f"serial:{port}") for port in (one.port, two.port)]
            assert statuses[0].readers == ("board:0", "board:1", "board:2", "board:3")
            assert statuses[1].readers == ("board2:0", "board2:1")
            two.tag(0, UID_THIEF)
            one.tag(0, UID_FIRE)
            thief = collector.wait_for(lambda e: isinstance(e, CardTapped) and e.card.id == "F006")
            fire = collector.wait_for(lambda e: isinstance(e, CardTapped) and e.card.id == "W007")
            assert (thief.reader, thief.owner) == ("board2:0", "bob")
            assert (fire.reader, fire.owner) == ("board:0", "ann")


def test_corrupt_bytes_and_garbage_are_rejected_without_losing_taps(board, collector):
    bad = Messages()
    with BoardLink(board.port, collector, on_bad_line=lambda raw, why: bad(why)) as link:
        collector.wait_for(connected)
        board.command("garbage 00FF1B5B324A48454C4C4F")  # noise, then a line that never ends
        board.command("corrupt 6")                       # a flipped bit in the next line
        board.tag(2, UID_FIRE)
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent))
        assert (tap.reader, tap.uid) == ("board:2", UID_FIRE)
        bad.wait_for(lambda why: "checksum" in why or "printable" in why)
        assert link.bad_lines >= 1
        board.lift(2)
        collector.wait_for(lambda e: isinstance(e, TagRemoved))
    assert len(collector.of_type(TagPresent)) == 1  # the resync did not invent a second tap


def test_board_reset_keeps_tags_still_there_and_lifts_the_rest(board, collector):
    with BoardLink(board.port, collector) as link:
        collector.wait_for(connected)
        board.tag(0, UID_FIRE)
        board.tag(1, UID_THIEF)
        collector.wait_for(lambda e: isinstance(e, TagPresent) and e.reader == "board:1")
        collector.wait_for(lambda e: isinstance(e, TagPresent) and e.reader == "board:0")
        mark = collector.mark()
        board.reset()
        board.lift(1)  # lifted while the board restarted: it never saw it go
        # The removal is decided at the board's READY, after it has re-announced every tag it
        # sees: once it is here, every re-announcement has been handled.
        removed = collector.wait_for(lambda e: isinstance(e, TagRemoved), start=mark)
        assert (removed.reader, removed.uid) == ("board:1", UID_THIEF)
        assert not [e for e in collector.items[mark:] if isinstance(e, TagPresent)]
        assert link.state.present == {0: UID_FIRE}


def test_host_reset_command_restarts_through_the_watchdog(board, collector):
    messages = Messages()
    with BoardLink(board.port, collector, on_message=messages) as link:
        collector.wait_for(connected)
        mark = messages.mark()
        assert link.send("RESET")
        hello = messages.wait_for(lambda m: isinstance(m, Hello), start=mark)
        assert hello.reset_cause == "WATCHDOG"


def test_unplug_is_reported_and_the_link_reconnects(board, collector):
    with BoardLink(board.port, collector, retry_interval=0.2):
        collector.wait_for(connected)
        board.tag(3, UID_FIRE)
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        mark = collector.mark()
        board.unplug()
        lost = collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.LOST, start=mark)
        assert board.port in lost.detail
        board.lift(3)  # lifted while the cable was out
        board.plug()
        collector.wait_for(connected, start=mark)
        collector.wait_for(lambda e: isinstance(e, TagRemoved), start=mark)


def test_hung_board_is_noticed_by_its_missing_heartbeat(board, collector):
    with BoardLink(board.port, collector, heartbeat_timeout=1.5, retry_interval=0.2):
        collector.wait_for(connected)
        mark = collector.mark()
        board.command("freeze")
        lost = collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.LOST, start=mark)
        assert "heartbeat" in lost.detail or "greeting" in lost.detail
        board.command("thaw")
        collector.wait_for(connected, start=collector.mark(), timeout=10)


def test_reader_fitted_later_comes_up(firmware, tmp_path, collector):
    from hardware.emulator import BoardEmulator

    with BoardEmulator(firmware, chips="0", link=tmp_path / "board") as emu:
        with BoardLink(emu.port, collector):
            first = collector.wait_for(connected)
            assert first.readers == ("board:0",)
            emu.command("chip 1 on")
            later = collector.wait_for(lambda e: connected(e) and "board:1" in e.readers, timeout=6)
            assert "board:1 up" in later.detail
            emu.tag(1, UID_FIRE)
            collector.wait_for(lambda e: isinstance(e, TagPresent) and e.reader == "board:1")


def test_stat_reports_poll_times_and_ram_use(firmware, board, collector):
    messages = Messages()
    with BoardLink(board.port, collector, on_message=messages) as link:
        collector.wait_for(connected)
        board.tag(1, UID_FIRE)
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        # A heartbeat after the tap: the board has gone on polling every reader since.
        messages.wait_for(lambda m: isinstance(m, Heartbeat), start=messages.mark())
        assert link.send("STAT")
        messages.wait_for(lambda m: isinstance(m, MemLine))
    stats = {m.index: m for m in messages.items if isinstance(m, StatLine)}
    assert sorted(stats) == list(range(8))  # every reader position, fitted (0-3) or not
    assert all(s.polls > 0 and 0 < s.avg_us <= s.max_us < 100_000 for i, s in stats.items() if i < 4)
    assert all(s.polls == 0 for i, s in stats.items() if i >= 4)
    [mem] = [m for m in messages.items if isinstance(m, MemLine)]
    assert mem.static == firmware.ram_bytes  # the board's own view agrees with the image
    assert 50 < mem.stack_peak < 700 and mem.static + mem.stack_peak + mem.never_used <= 2048


def test_damaged_and_unknown_commands_get_an_error_and_the_board_keeps_going(board, collector):
    """Each command waits for the board's answer to the one before: sent back to back, the
    bytes could arrive while the board polls a reader and overrun its 64-byte receive
    buffer, which changes which error comes first."""
    messages = Messages()

    def link_error(code: str, start: int) -> None:
        messages.wait_for(lambda m: isinstance(m, ErrorLine) and m.index is None and m.code == code, start=start)

    with BoardLink(board.port, collector, on_message=messages) as link:
        collector.wait_for(connected)
        transport = link._protocol.transport
        mark = messages.mark()
        transport.write(b"PING*00\n")                 # wrong checksum
        link_error("CRC", mark)
        mark = messages.mark()
        transport.write(b"\xff\xfe" + b"X" * 40 + b"\n")  # noise longer than any command
        link_error("OVERFLOW", mark)
        mark = messages.mark()
        link.send("FLY")                               # well-formed, unknown
        link_error("CMD", mark)
        mark = messages.mark()
        link.send("PING")
        messages.wait_for(lambda m: isinstance(m, Reply) and m.text == "PONG", start=mark)
        codes = [m.code for m in messages.items if isinstance(m, ErrorLine) and m.index is None]
        assert codes[:3] == ["CRC", "OVERFLOW", "CMD"]
        board.tag(0, UID_FIRE)
        collector.wait_for(lambda e: isinstance(e, TagPresent))


def test_card_swapped_within_one_poll_is_a_lift_then_a_tap(board, collector):
    with BoardLink(board.port, collector):
        collector.wait_for(connected)
        board.tag(2, UID_FIRE)
        collector.wait_for(lambda e: isinstance(e, TagPresent))
        mark = collector.mark()
        board.tag(2, UID_THIEF)  # the other card slid on as the first came off
        tap = collector.wait_for(lambda e: isinstance(e, TagPresent), start=mark)
        events = [e for e in collector.items[mark:] if isinstance(e, (TagPresent, TagRemoved))]
        assert [(type(e).__name__, e.uid) for e in events][:2] == [("TagRemoved", UID_FIRE), ("TagPresent", UID_THIEF)]
        assert tap.reader == "board:2"
