"""The reader board's line protocol on the host side (``firmware/PROTOCOL.md``).

:func:`parse_message` turns one checked line body into a message value;
:class:`BoardProtocol` is a pyserial ``serial.threaded.LineReader``, so it works over any
transport pyserial's ``ReaderThread`` drives (a device, ``socket://``, ``loop://``).
It knows nothing about reconnecting or about cards: it hands messages and bad lines to the
callbacks it was built with.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial.threaded

from .line_codec import LineError, check_line, encode_line

__all__ = [
    "PROTOCOL_VERSION",
    "Hello",
    "ReaderLine",
    "TagLine",
    "GoneLine",
    "Ready",
    "Heartbeat",
    "ErrorLine",
    "StatLine",
    "MemLine",
    "Reply",
    "BoardMessage",
    "ProtocolError",
    "parse_message",
    "BoardProtocol",
]

#: The protocol major version this host speaks.
PROTOCOL_VERSION = 1

_UID = r"([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})"


class ProtocolError(ValueError):
    """A checksum-correct line whose content breaks the protocol."""


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    firmware: str
    slots: int
    reset_cause: str = ""


@dataclass(frozen=True, slots=True)
class ReaderLine:
    index: int
    up: bool
    detail: str  # "PN532 1.6" when up, the reason (TIMEOUT, NOACK ...) when down


@dataclass(frozen=True, slots=True)
class TagLine:
    index: int
    uid: str


@dataclass(frozen=True, slots=True)
class GoneLine:
    index: int
    uid: str


@dataclass(frozen=True, slots=True)
class Ready:
    pass


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int


@dataclass(frozen=True, slots=True)
class ErrorLine:
    index: int | None  # None: about the link or a command, not a reader
    code: str


@dataclass(frozen=True, slots=True)
class StatLine:
    index: int
    polls: int
    avg_us: int
    max_us: int


@dataclass(frozen=True, slots=True)
class MemLine:
    """RAM use measured on the board: static data, deepest stack so far, never used."""

    static: int
    stack_peak: int
    never_used: int


@dataclass(frozen=True, slots=True)
class Reply:
    text: str  # PONG, OK RESET


BoardMessage = Hello | ReaderLine | TagLine | GoneLine | Ready | Heartbeat | ErrorLine | StatLine | MemLine | Reply

_PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], BoardMessage]]] = [
    (re.compile(r"HELLO ROP-NFC (\d+) (\S+) (\d+)(?: (\S+))?(?: .*)?"),
     lambda m: Hello(int(m[1]), m[2], int(m[3]), m[4] or "")),
    (re.compile(r"RDR (\d) UP (.+)"), lambda m: ReaderLine(int(m[1]), True, m[2])),
    (re.compile(r"RDR (\d) DOWN (\S+)"), lambda m: ReaderLine(int(m[1]), False, m[2])),
    (re.compile(rf"TAG (\d) {_UID}"), lambda m: TagLine(int(m[1]), m[2])),
    (re.compile(rf"GONE (\d) {_UID}"), lambda m: GoneLine(int(m[1]), m[2])),
    (re.compile(r"READY"), lambda m: Ready()),
    (re.compile(r"HB (\d+)"), lambda m: Heartbeat(int(m[1]))),
    (re.compile(r"ERR (\d|-) (\S+)"), lambda m: ErrorLine(None if m[1] == "-" else int(m[1]), m[2])),
    (re.compile(r"STAT (\d) (\d+) (\d+) (\d+)"), lambda m: StatLine(int(m[1]), int(m[2]), int(m[3]), int(m[4]))),
    (re.compile(r"MEM (\d+) (\d+) (\d+)"), lambda m: MemLine(int(m[1]), int(m[2]), int(m[3]))),
    (re.compile(r"(PONG|OK \S+)"), lambda m: Reply(m[1])),
]


def parse_message(body: str) -> BoardMessage:
    """The message a checked line body carries; raises ProtocolError for anything else."""
    for pattern, build in _PATTERNS:
        match = pattern.fullmatch(body)
        if match:
            return build(match)
    raise ProtocolError(f"unknown message {body[:40]!r}")


class BoardProtocol(serial.threaded.LineReader):
    """One connection's worth of protocol: lines in, messages out, commands back.

    ``on_message(msg)`` gets every valid message, ``on_bad_line(raw, reason)`` every line
    that fails its checksum or the grammar, ``on_lost(exc)`` the end of the connection.
    :attr:`last_line_at` is when the last line arrived, read from ``clock``."""

    TERMINATOR = b"\n"
    ENCODING = "ascii"
    UNICODE_HANDLING = "replace"
    #: Longest line we wait for; a longer run without newline is noise and is dropped.
    MAX_LINE = 200

    def __init__(
        self,
        on_message: Callable[[BoardMessage], None],
        on_bad_line: Callable[[str, str], None],
        on_made: Callable[[BoardProtocol], None] | None = None,
        on_lost: Callable[[BaseException | None], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self._on_message = on_message
        self._on_bad_line = on_bad_line
        self._on_made = on_made
        self._on_lost = on_lost
        self._skipping = False  # inside an over-long line, until its newline
        self._clock = clock
        self.last_line_at = clock()

    def connection_made(self, transport: serial.threaded.ReaderThread) -> None:
        super().connection_made(transport)
        self.last_line_at = self._clock()
        if self._on_made:
            self._on_made(self)

    def data_received(self, data: bytes) -> None:
        """Split what arrived into lines. A line longer than :attr:`MAX_LINE` can no longer
        be valid: it is reported once and discarded up to its newline, so the buffer never
        holds more than one line's worth, however long the noise."""
        buffer = self.buffer
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            piece = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False  # the end of an over-long line already reported
                continue
            if len(buffer) + len(piece) > self.MAX_LINE:
                self._too_long(bytes(buffer[:40]) + piece[:40])
                del buffer[:]
                continue
            buffer.extend(piece)
            packet = bytes(buffer)
            del buffer[:]
            self.handle_packet(packet)
        rest = data[start:]
        if self._skipping or not rest:
            return
        if len(buffer) + len(rest) > self.MAX_LINE:
            self._too_long(bytes(buffer[:40]) + rest[:40])
            del buffer[:]
            self._skipping = True
            return
        buffer.extend(rest)

    def _too_long(self, head: bytes) -> None:
        self._on_bad_line(head[:40].decode("ascii", "replace"), f"line longer than {self.MAX_LINE} bytes, discarded (noise?)")

    def handle_line(self, line: str) -> None:
        self.last_line_at = self._clock()
        if not line.strip("\r"):
            return
        try:
            message = parse_message(check_line(line))
        except (LineError, ProtocolError) as exc:
            self._on_bad_line(line[:80], str(exc))
            return
        self._on_message(message)

    def send(self, command: str) -> bool:
        """Send a host command (``INFO``, ``PING``, ``STAT``, ``RESET``) with its checksum.
        Returns False when the connection is already gone (the link will reconnect)."""
        transport = self.transport
        if transport is None:
            return False
        try:
            transport.write(encode_line(command))
        except (serial.SerialException, OSError, TypeError, AttributeError):
            # The port closed under us (unplugged); the reader thread reports the loss.
            return False
        return True

    def connection_lost(self, exc: BaseException | None) -> None:
        # Not the base class: pyserial's Protocol re-raises the error, which would end the
        # reader thread with a traceback instead of a reconnect.
        self.transport = None
        del self.buffer[:]
        if self._on_lost:
            self._on_lost(exc)
