"""The host side of the board protocol over pyserial's socket:// transport, with a scripted
board on the other end: framing, damaged and partial lines, version refusal, silence. The
link measures silence on a clock the test moves, so a slow machine is never a silent board."""

from __future__ import annotations

import socket
import threading

import pytest

from companion.observations import SensorState, SensorStatus
from hardware.board import GoneLine, Hello, ProtocolError, ReaderLine, StatLine, TagLine, parse_message
from hardware.board_link import BoardLink
from hardware.line_codec import LineError, check_line, crc8, encode_line
from hardware.tag_events import TagPresent, TagRemoved


def test_crc8_check_value_and_line_round_trip():
    assert crc8(b"123456789") == 0xF4  # the CRC-8 (poly 07) check value
    line = encode_line("TAG 0 04A1B2C3D4E5F6")
    assert line.endswith(b"\n") and check_line(line[:-1].decode()) == "TAG 0 04A1B2C3D4E5F6"


@pytest.mark.parametrize(
    "text, why",
    [
        ("TAG 0 04A1B2C3D4E5F6", r"no \*HH"),
        ("TAG 0 04A1B2C3D4E5F6*00", "mismatch"),
        ("TAG 0 04A1B2C3D4E5F6*ZZ", "not hex"),
        ("TAG 0 04A1\x00B2*12", "printable"),
    ],
)
def test_damaged_lines_are_rejected_with_the_reason(text, why):
    with pytest.raises(LineError, match=why):
        check_line(text)


def test_messages_parse_and_nonsense_is_refused():
    assert parse_message("HELLO ROP-NFC 1 1.0.0 4 POWER") == Hello(1, "1.0.0", 4, "POWER")
    assert parse_message("RDR 2 DOWN TIMEOUT") == ReaderLine(2, False, "TIMEOUT")
    assert parse_message("TAG 3 DEADBEEF") == TagLine(3, "DEADBEEF")
    assert parse_message("GONE 0 04A1B2C3D4E5F6") == GoneLine(0, "04A1B2C3D4E5F6")
    assert parse_message("STAT 1 10 3120 4200") == StatLine(1, 10, 3120, 4200)
    for body in ("TAG 0 04A1B", "TAG 9x DEADBEEF", "FOO", "TAG 0 DEADBEEF extra"):
        with pytest.raises(ProtocolError):
            parse_message(body)


class ScriptedBoard:
    """A TCP server standing in for the board's serial port: sends what the test says,
    records what the host sends."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.conn: socket.socket | None = None
        self.received = bytearray()
        self._accepted = threading.Event()
        self._asked = threading.Event()
        """The host asked for the greeting (INFO): it reads what it is sent from then on."""
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.conn, _ = self.server.accept()
        self._accepted.set()
        while True:
            try:
                data = self.conn.recv(1024)
            except OSError:
                return
            if not data:
                return
            self.received += data
            if b"INFO*" in self.received:
                self._asked.set()

    def send(self, raw: bytes) -> None:
        # The timeouts only bound a test that is already failing.
        assert self._accepted.wait(60), "the host never connected"
        assert self.conn is not None
        # Opening a port flushes what arrived before: speak once the host has asked (INFO).
        assert self._asked.wait(60), "the host never asked for the greeting"
        self.conn.sendall(raw)

    def close(self) -> None:
        if self.conn:
            self.conn.close()
        self.server.close()


def test_partial_lines_garbage_and_a_greeting_over_socket(collector, clock):
    board = ScriptedBoard()
    bad = []
    read_up_to_reader_1 = threading.Event()

    def message(m: object) -> None:
        if isinstance(m, ReaderLine) and m.index == 1:
            read_up_to_reader_1.set()

    try:
        with BoardLink(board.url, collector, on_message=message, on_bad_line=lambda raw, why: bad.append(raw), clock=clock):
            board.send(b"\xff\xfe garbage without end" * 20)   # over-long noise
            board.send(b"\nNFC 1 1.0.0 4*77\n")                # tail of a line cut by the open
            for body in ("HELLO ROP-NFC 1 1.0.0 2 POWER", "RDR 0 UP PN532 1.6"):
                board.send(encode_line(body))
            line = encode_line("TAG 1 04A1B2C3D4E5F6")
            # A line arriving in pieces: its start comes with a whole line, and the rest only
            # once the host has read that line (and so the start with it).
            board.send(encode_line("RDR 1 UP PN532 1.6") + line[:7])
            assert read_up_to_reader_1.wait(60)
            board.send(line[7:] + encode_line("READY"))
            tap = collector.wait_for(lambda e: isinstance(e, TagPresent))
            assert (tap.reader, tap.uid) == ("board:1", "04A1B2C3D4E5F6")
            status = collector.wait_for(lambda e: isinstance(e, SensorStatus))
            assert status.state is SensorState.CONNECTED and status.readers == ("board:0", "board:1")
            board.send(encode_line("GONE 1 04A1B2C3D4E5F6"))
            collector.wait_for(lambda e: isinstance(e, TagRemoved))
            assert encode_line("INFO") in bytes(board.received)  # the host asked for the greeting
        assert len(bad) >= 2
    finally:
        board.close()


def test_unknown_protocol_version_is_refused_clearly_and_not_retried(collector, clock):
    board = ScriptedBoard()
    try:
        link = BoardLink(board.url, collector, retry_interval=0.1, clock=clock).start()
        board.send(encode_line("HELLO ROP-NFC 2 2.0.0 4 POWER") + encode_line("TAG 0 DEADBEEF"))
        failed = collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.FAILED)
        assert "protocol version 2" in failed.detail and "speaks version 1" in failed.detail
        assert "make -C firmware flash" in failed.detail
        link._thread.join(60)  # a refused board is not retried: the link's thread ends
        assert link.failed and not link._thread.is_alive()
        assert not collector.of_type(TagPresent)  # nothing a foreign protocol says is believed
        link.stop()
    finally:
        board.close()


def test_a_board_silent_past_the_heartbeat_timeout_is_declared_hung(collector, clock):
    board = ScriptedBoard()
    try:
        with BoardLink(board.url, collector, heartbeat_timeout=3.5, clock=clock):
            board.send(b"".join(encode_line(x) for x in ("HELLO ROP-NFC 1 1.0.0 1 POWER", "RDR 0 UP PN532 1.6", "READY")))
            collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED)
            clock.advance(3.6)  # no line, not even a heartbeat, for longer than the timeout
            lost = collector.wait_for(lambda e: isinstance(e, SensorStatus) and e.state is SensorState.LOST)
            assert "silent for 3.6 s (no heartbeat): board hung?" in lost.detail
    finally:
        board.close()


def test_port_that_does_not_exist_is_reported_and_retried(collector, tmp_path):
    link = BoardLink(str(tmp_path / "ttyACM9"), collector, retry_interval=0.1).start()
    try:
        status = collector.wait_for(lambda e: isinstance(e, SensorStatus))
        assert status.state is SensorState.RECONNECTING and "ttyACM9" in status.detail
        assert link._thread.is_alive()
    finally:
        link.stop()
