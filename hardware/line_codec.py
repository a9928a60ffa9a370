"""The reader board's line framing: ``BODY*HH\\n``, where HH is the CRC-8 (polynomial 0x07,
initial value 0) of BODY in two upper-case hex digits. See ``firmware/PROTOCOL.md``."""

from __future__ import annotations

__all__ = ["crc8", "encode_line", "check_line", "LineError"]


class LineError(ValueError):
    """A received line that is not a well-formed, checksum-correct protocol line."""


def crc8(data: bytes) -> int:
    """CRC-8/ATM-style check value of ``data`` (``crc8(b"123456789") == 0xF4``)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode_line(body: str) -> bytes:
    """The bytes to send for ``body`` (printable ASCII, no ``*``)."""
    raw = body.encode("ascii")
    if b"*" in raw or any(b < 0x20 or b > 0x7E for b in raw):
        raise ValueError(f"protocol line body must be printable ASCII without '*': {body!r}")
    return raw + b"*%02X\n" % crc8(raw)


def check_line(line: str) -> str:
    """The body of a received line (terminator already removed); raises LineError."""
    line = line.rstrip("\r")
    if any(ord(c) < 0x20 or ord(c) > 0x7E for c in line):
        raise LineError("line holds bytes that are not printable ASCII (line noise or wrong baud rate?)")
    body, star, check = line.rpartition("*")
    if not star or len(check) != 2:
        raise LineError("line has no *HH checksum at its end (cut short, or not from our firmware)")
    try:
        expected = int(check, 16)
    except ValueError:
        raise LineError(f"checksum {check!r} is not hex") from None
    actual = crc8(body.encode("ascii"))
    if actual != expected:
        raise LineError(f"checksum mismatch: line says {expected:02X}, content gives {actual:02X}")
    return body
