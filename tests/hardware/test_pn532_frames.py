"""PN532 frame handling against the chip's documented frame format (PN532 User Manual 6.2.1):
the Python reference, and the firmware's own C code (src/pn532_frame.c) compiled for this
machine and called through ctypes, byte for byte."""

from __future__ import annotations

import ctypes
import shutil
import subprocess

import pytest

from hardware.emulator import FIRMWARE_DIR
from hardware.pn532_frames import (
    ACK,
    ERROR_FRAME,
    NACK,
    FrameError,
    build_frame,
    parse_frame,
    parse_in_list_passive_target,
)

# Frames as printed in the user manual and seen on the wire.
GET_FIRMWARE_VERSION = bytes.fromhex("0000FF02FED4022A00")
FIRMWARE_VERSION_REPLY = bytes.fromhex("0000FF06FAD50332010607E800")
IN_LIST_PASSIVE_TARGET = bytes.fromhex("0000FF04FCD44A0100E100")
IN_LIST_REPLY_BODY = bytes.fromhex("D54B0101004400" "07" "04A1B2C3D4E5F6")


def test_python_reference_matches_the_manual():
    assert build_frame(b"\x02") == GET_FIRMWARE_VERSION
    assert build_frame(b"\x4a\x01\x00") == IN_LIST_PASSIVE_TARGET
    assert parse_frame(FIRMWARE_VERSION_REPLY) == ("frame", bytes.fromhex("D50332010607"))
    assert parse_frame(ACK) == ("ack", b"") and parse_frame(NACK) == ("nack", b"")
    assert parse_frame(ERROR_FRAME) == ("error", b"")
    [target] = parse_in_list_passive_target(IN_LIST_REPLY_BODY)
    assert (target.sens_res, target.sel_res, target.uid.hex().upper()) == (b"\x00\x44", 0x00, "04A1B2C3D4E5F6")
    with pytest.raises(FrameError, match="LCS"):
        parse_frame(bytes.fromhex("0000FF02FDD4022A00"))
    with pytest.raises(FrameError, match="DCS"):
        parse_frame(bytes.fromhex("0000FF02FED4022B00"))


class RxState(ctypes.Structure):
    _fields_ = [("state", ctypes.c_uint8), ("zeros", ctypes.c_uint8), ("len", ctypes.c_uint8),
                ("got", ctypes.c_uint8), ("sum", ctypes.c_uint8), ("data", ctypes.c_uint8 * 48)]


RX = {0: "more", 1: "ack", 2: "nack", 3: "frame", 4: "error", -1: "bad LCS", -2: "bad DCS",
      -3: "too long", -4: "bad preamble", -5: "bad postamble"}


@pytest.fixture(scope="module")
def c_frames(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler: gcc is listed in packaging/apt-test.txt, which the test command installs")
    lib = tmp_path_factory.mktemp("pn532") / "libpn532_frame.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-Wall", "-Werror", str(FIRMWARE_DIR / "src" / "pn532_frame.c"),
                    "-o", str(lib)], check=True)
    so = ctypes.CDLL(str(lib))
    so.pn532_frame_build.restype = ctypes.c_uint8
    so.pn532_rx_feed.restype = ctypes.c_int8
    return so


def c_build(so, data: bytes) -> bytes:
    out = (ctypes.c_uint8 * 64)()
    n = so.pn532_frame_build(out, 64, (ctypes.c_uint8 * len(data))(*data), len(data))
    return bytes(out[:n])


def c_parse(so, raw: bytes) -> tuple[str, bytes]:
    rx = RxState()
    so.pn532_rx_init(ctypes.byref(rx))
    result = 0
    for byte in raw:
        result = so.pn532_rx_feed(ctypes.byref(rx), byte)
        if result != 0:
            break
    return RX[result], bytes(rx.data[: rx.len]) if result == 3 else b""


def test_firmware_builds_frames_as_documented(c_frames):
    assert c_build(c_frames, b"\x02") == GET_FIRMWARE_VERSION
    assert c_build(c_frames, b"\x4a\x01\x00") == IN_LIST_PASSIVE_TARGET
    for data in (b"\x14\x01\x14\x01", b"\x32\x05\xff\x01\x02", b"\x32\x01\x00"):
        assert c_build(c_frames, data) == build_frame(data)
    assert c_build(c_frames, bytes(60)) == b""  # refuses what it cannot hold


def test_firmware_parses_acks_replies_and_rejects_damage(c_frames):
    assert c_parse(c_frames, ACK) == ("ack", b"")
    assert c_parse(c_frames, NACK) == ("nack", b"")
    assert c_parse(c_frames, ERROR_FRAME) == ("error", b"")
    assert c_parse(c_frames, b"\x00\x00" + FIRMWARE_VERSION_REPLY) == ("frame", bytes.fromhex("D50332010607"))
    reply = build_frame(IN_LIST_REPLY_BODY[1:], tfi=0xD5)
    assert c_parse(c_frames, reply) == ("frame", IN_LIST_REPLY_BODY)
    assert c_parse(c_frames, bytes.fromhex("0000FF02FDD4022A00"))[0] == "bad LCS"
    assert c_parse(c_frames, bytes.fromhex("0000FF06FAD50332010607E900"))[0] == "bad DCS"
    assert c_parse(c_frames, bytes.fromhex("0000FF06FAD50332010607E8FF"))[0] == "bad postamble"
    assert c_parse(c_frames, bytes.fromhex("FF0000FF"))[0] == "bad preamble"
    assert c_parse(c_frames, bytes.fromhex("0000FFFFFF"))[0] == "too long"
    assert c_parse(c_frames, bytes.fromhex("0000FF40C0"))[0] == "too long"


def test_every_single_bit_flip_in_a_reply_is_caught(c_frames):
    good = FIRMWARE_VERSION_REPLY
    assert c_parse(c_frames, good)[0] == "frame"
    for i in range(len(good)):
        for bit in range(8):
            damaged = bytearray(good)
            damaged[i] ^= 1 << bit
            kind, _body = c_parse(c_frames, bytes(damaged))
            assert kind not in ("frame", "more"), (i, bit, kind)
