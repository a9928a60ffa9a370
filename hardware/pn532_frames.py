"""PN532 host-link frames in Python (PN532 User Manual, 6.2.1), as a reference for the
firmware's C implementation and for reading bus captures.

    normal frame: 00 00 FF LEN LCS TFI PD0..PDn DCS 00
    ACK:          00 00 FF 00 FF 00
    NACK:         00 00 FF FF 00 00
    error frame:  00 00 FF 01 FF 7F 81 00
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACK", "NACK", "ERROR_FRAME", "TFI_HOST", "TFI_CHIP", "FrameError", "build_frame", "parse_frame",
    "Target", "parse_in_list_passive_target",
]

ACK = bytes.fromhex("0000FF00FF00")
NACK = bytes.fromhex("0000FFFF0000")
ERROR_FRAME = bytes.fromhex("0000FF01FF7F8100")
TFI_HOST = 0xD4
TFI_CHIP = 0xD5


class FrameError(ValueError):
    """Bytes that are not a valid PN532 frame; the message says which field is wrong and
    ``kind`` names the fault as the firmware's parser reports it (``"bad preamble"``,
    ``"bad LCS"``, ``"too long"``, ``"bad DCS"``, ``"bad postamble"``, or ``"more"``: the
    bytes end before the frame does)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def build_frame(data: bytes, tfi: int = TFI_HOST) -> bytes:
    """A normal information frame carrying ``data`` (command code and parameters)."""
    body = bytes([tfi]) + bytes(data)
    if len(body) > 255:
        raise FrameError("normal frames carry at most 254 data bytes (use an extended frame)", "too long")
    length = len(body)
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + body + bytes([(-sum(body)) & 0xFF, 0x00])


def parse_frame(raw: bytes, *, max_data: int = 255) -> tuple[str, bytes]:
    """``("ack", b"")``, ``("nack", b"")``, ``("error", b"")`` or ``("frame", TFI+data)``.

    Fields are checked in the order they arrive on the wire, as the firmware's parser does;
    ``max_data`` is the longest TFI+data accepted (the firmware's buffer holds 48). Bytes
    after the frame are ignored."""
    i = 0
    while i < len(raw) and raw[i] == 0x00:
        i += 1
    if i >= len(raw):
        raise FrameError("frame ends before its start code", "more")
    if i == 0 or raw[i] != 0xFF:
        raise FrameError("no start code (00 .. 00 FF)", "bad preamble")
    i += 1
    if i + 2 > len(raw):
        raise FrameError("frame ends before LEN/LCS", "more")
    length, lcs = raw[i], raw[i + 1]
    i += 2
    if (length, lcs) == (0x00, 0xFF):
        kind = "ack"
    elif (length, lcs) == (0xFF, 0x00):
        kind = "nack"
    elif (length, lcs) == (0xFF, 0xFF):
        raise FrameError("extended frames are not supported", "too long")
    else:
        if (length + lcs) & 0xFF:
            raise FrameError(f"LEN {length:02X} and LCS {lcs:02X} do not sum to 00", "bad LCS")
        if length == 0:
            # LEN counts the TFI, so it is never 00 outside an ACK; 00 00 passes the sum.
            raise FrameError("LEN 00 with LCS 00: a frame carries at least its TFI", "bad LCS")
        if length > max_data:
            raise FrameError(f"LEN {length} is longer than the {max_data} bytes accepted", "too long")
        if i + length >= len(raw):
            raise FrameError("frame ends before DCS", "more")
        body = raw[i : i + length]
        if (sum(body) + raw[i + length]) & 0xFF:
            raise FrameError("DCS does not match the data", "bad DCS")
        if i + length + 1 >= len(raw):
            raise FrameError("frame ends before the postamble", "more")
        if raw[i + length + 1] != 0x00:
            raise FrameError("postamble 00 missing", "bad postamble")
        if body == b"\x7f":
            return "error", b""
        return "frame", bytes(body)
    if i >= len(raw):
        raise FrameError("frame ends before the postamble", "more")
    if raw[i] != 0x00:
        raise FrameError("postamble 00 missing", "bad postamble")
    return kind, b""


@dataclass(frozen=True)
class Target:
    number: int
    sens_res: bytes
    sel_res: int
    uid: bytes


def parse_in_list_passive_target(body: bytes) -> list[Target]:
    """Targets in an InListPassiveTarget response body (``D5 4B NbTg ...``), type A 106 kbps."""
    if len(body) < 3 or body[:2] != b"\xd5\x4b":
        raise FrameError("not an InListPassiveTarget response", "bad data")
    count, i, targets = body[2], 3, []
    for _ in range(count):
        if i + 5 > len(body):
            raise FrameError("target data cut short", "bad data")
        tg, sens, sel, uid_len = body[i], body[i + 1 : i + 3], body[i + 3], body[i + 4]
        uid = body[i + 5 : i + 5 + uid_len]
        if len(uid) != uid_len:
            raise FrameError("UID cut short", "bad data")
        i += 5 + uid_len
        if i < len(body) and sel & 0x20:  # ISO 14443-4 targets append ATS
            i += body[i]
        targets.append(Target(tg, bytes(sens), sel, bytes(uid)))
    return targets
