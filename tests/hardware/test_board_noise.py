"""Noise on the reader board's line: a long burst without newlines is read in chunks, reported
once and discarded without stalling the link; lines naming readers the board does not have
are rejected, not taken as taps; ports that can never open are refused by name."""

from __future__ import annotations

import re
import socket
import threading

import pytest
import serial

from companion.observations import SensorState, SensorStatus
from hardware.board import BoardProtocol, TagLine
from hardware.board_link import BoardLink, DrainingReaderThread, PortError, check_port
from hardware.line_codec import encode_line
from hardware.tag_events import TagPresent

from .conftest import ManualClock


class Peer:
    """The far end of a ``socket://`` port: a TCP server the test writes to; it records
    what the host sends and lets the test wait for it without polling."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.conn: socket.socket | None = None
        self.received = bytearray()
        self._cond = threading.Condition()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with self._cond:
            self.conn = conn
            self._cond.notify_all()
        while True:
            try:
                data = conn.recv(1024)
            except OSError:
                return
            if not data:
                return
            with self._cond:
                self.received += data
                self._cond.notify_all()

    def wait_for(self, needle: bytes) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: needle in self.received, timeout=30), bytes(self.received)

    def send(self, raw: bytes) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: self.conn is not None, timeout=30)
            conn = self.conn
        assert conn is not None
        conn.sendall(raw)

    def close(self) -> None:
        if self.conn:
            self.conn.close()
        self.server.close()


def test_a_megabyte_without_newlines_is_read_in_chunks_and_reported_once() -> None:
    peer = Peer()
    messages: list[object] = []
    bad: list[tuple[str, str]] = []
    calls = 0
    got_tap = threading.Event()

    class Counting(BoardProtocol):
        def data_received(self, data: bytes) -> None:
            nonlocal calls
            calls += 1
            super().data_received(data)

    def message(m: object) -> None:
        messages.append(m)
        got_tap.set()

    port = serial.serial_for_url(peer.url, timeout=0.5)
    reader = DrainingReaderThread(port, lambda: Counting(message, lambda raw, why: bad.append((raw, why))))
    reader.start()
    try:
        reader.connect()
        peer.send(b"\xaa" * 1_000_000 + b"\n" + encode_line("TAG 1 DEADBEEF"))
        assert got_tap.wait(60)
        assert messages == [TagLine(1, "DEADBEEF")]
        assert [why for _, why in bad] == [f"line longer than {BoardProtocol.MAX_LINE} bytes, discarded (noise?)"]
        # pyserial's own loop read a socket a byte at a time: a million calls.
        assert calls < 5_000, calls
    finally:
        reader.close()
        peer.close()


def test_the_line_buffer_never_holds_more_than_a_line() -> None:
    bad: list[str] = []
    got: list[object] = []
    proto = BoardProtocol(got.append, lambda raw, why: bad.append(why))
    for _ in range(100):
        proto.data_received(b"x" * 10_000)
        assert len(proto.buffer) <= BoardProtocol.MAX_LINE
    proto.data_received(b"tail of the noise\n" + encode_line("TAG 0 DEADBEEF"))
    assert got == [TagLine(0, "DEADBEEF")] and len(bad) == 1


def test_readers_the_board_does_not_have_are_rejected_not_tapped(clock: ManualClock) -> None:
    peer = Peer()
    events: list[object] = []
    bad: list[tuple[str, str]] = []
    cond = threading.Condition()

    def emit(e: object) -> None:
        with cond:
            events.append(e)
            cond.notify_all()

    def on_bad(raw: str, why: str) -> None:
        with cond:
            bad.append((raw, why))
            cond.notify_all()

    # Silence is measured on the test's clock: a slow machine is not a hung board.
    link = BoardLink(peer.url, emit, on_bad_line=on_bad, clock=clock).start()
    try:
        peer.wait_for(b"INFO*")
        peer.send(b"".join(encode_line(x) for x in ("HELLO ROP-NFC 1 1.0.0 2 POWER", "RDR 0 UP PN532 1.6", "RDR 1 UP PN532 1.6", "READY")))
        with cond:
            assert cond.wait_for(lambda: any(isinstance(e, SensorStatus) and e.state is SensorState.CONNECTED for e in events), timeout=30)
        peer.send(encode_line("TAG 9 DEADBEEF") + encode_line("TAG 1 04A1B2C3D4E5F6"))
        with cond:
            assert cond.wait_for(lambda: any(isinstance(e, TagPresent) for e in events), timeout=30)
            taps = [e for e in events if isinstance(e, TagPresent)]
            assert [(t.reader, t.uid) for t in taps] == [("board:1", "04A1B2C3D4E5F6")]
            assert any("reader 9 does not exist: the board has 2 readers (0 to 1)" in why for _, why in bad)
    finally:
        link.stop()
        peer.close()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("", "the serial port name is empty"),
        ("socket://nohostport", "socket://nohostport: a socket:// port is written socket://HOST:PORT"),
        ("socket://host:99999", "the port number must be from 1 to 65535"),
        ("rfc2217://:4000", "rfc2217://HOST:PORT"),
    ],
)
def test_ports_that_can_never_open_are_refused_by_name(url: str, why: str) -> None:
    with pytest.raises(PortError, match=re.escape(why)):
        check_port(url)
    with pytest.raises(PortError):
        BoardLink(url, lambda e: None)
    assert check_port("socket://127.0.0.1:4000") == "socket://127.0.0.1:4000"
    assert check_port("/dev/ttyACM0") == "/dev/ttyACM0"


def test_tags_watch_shows_the_lines_it_rejects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    peer = Peer()
    watch = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "tags", "watch", "--serial", peer.url, "--calibration", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # Only a watch that never shows what is awaited runs this long: end it, and fail.
    bound = threading.Timer(120, watch.kill)
    bound.start()
    try:
        peer.wait_for(b"INFO*")
        peer.send(encode_line("HELLO ROP-NFC 1 1.0.0 2 POWER") + encode_line("READY") + encode_line("TAG 9 DEADBEEF") + b"TAG 1 DEADBEEF*00\n")
        assert watch.stdout is not None
        shown: list[str] = []
        for line in watch.stdout:  # ends when the command does; the kill below ends it on success
            shown.append(line)
            if sum("REJECTED" in s for s in shown) == 2:
                break
        rejected = [s for s in shown if "REJECTED" in s]
        assert len(rejected) == 2, shown
        assert "reader 9 does not exist: the board has 2 readers" in rejected[0]
        assert "TAG 1 DEADBEEF*00" in rejected[1]
    finally:
        bound.cancel()
        watch.kill()
        watch.wait()
        peer.close()
