"""Run inside a process with AddressSanitizer preloaded (see test_pn532_under_asan.py):
hypothesis feeds the same bytes to the firmware's C parser and to the Python reference, and
any disagreement is an assertion error; any memory error is reported by ASan, which ends the
process. Usage: python pn532_asan_driver.py LIB EXAMPLES [c-only]; ``c-only`` feeds the C
parser alone, for showing that the sanitizer sees an overrun."""

from __future__ import annotations

import ctypes
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.pn532_frames import FrameError, build_frame, parse_frame

MAX_DATA = 48  # PN532_MAX_DATA in firmware/src/pn532_frame.h

RX = {0: "more", 1: "ack", 2: "nack", 3: "frame", 4: "error", -1: "bad LCS", -2: "bad DCS",
      -3: "too long", -4: "bad preamble", -5: "bad postamble"}


class RxState(ctypes.Structure):
    _fields_ = [("state", ctypes.c_uint8), ("zeros", ctypes.c_uint8), ("len", ctypes.c_uint8),
                ("got", ctypes.c_uint8), ("sum", ctypes.c_uint8), ("data", ctypes.c_uint8 * MAX_DATA)]


def main(lib_path: str, examples: int, c_only: bool = False) -> None:
    lib = ctypes.CDLL(lib_path)
    lib.pn532_rx_feed.restype = ctypes.c_int8

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    lib.pn532_rx_init.argtypes = [ctypes.c_void_p]
    lib.pn532_rx_feed.argtypes = [ctypes.c_void_p, ctypes.c_uint8]

    def c_parse(raw: bytes) -> tuple[str, bytes]:
        # The state lives where ASan watches it: malloc'd (ASan's malloc, with red zones
        # right after the struct), not in Python's own allocator.
        rx = libc.malloc(ctypes.sizeof(RxState))
        try:
            lib.pn532_rx_init(rx)
            result = 0
            for byte in raw:
                result = lib.pn532_rx_feed(rx, byte)
                if result != 0:
                    break
            state = RxState.from_address(rx)
            return RX[result], bytes(state.data[: state.len]) if result == 3 else b""
        finally:
            libc.free(rx)

    def py_parse(raw: bytes) -> tuple[str, bytes]:
        try:
            return parse_frame(raw, max_data=MAX_DATA)
        except FrameError as exc:
            return exc.kind, b""

    header = st.sampled_from([b"\x00\x00\xff", b"\x00\xff", b"\x00" * 5 + b"\xff", b""])
    framed = st.builds(lambda d, t: build_frame(d, tfi=t), st.binary(max_size=60), st.sampled_from([0xD4, 0xD5, 0x7F]))

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(
        raw=st.one_of(
            st.binary(max_size=80),
            st.builds(lambda h, n, rest: h + bytes([n & 0xFF, (-n) & 0xFF]) + rest, header, st.integers(0, 255), st.binary(max_size=70)),
            # LEN and LCS both 00, then a long run: the frame that once overran the buffer.
            st.builds(lambda h, rest: h + b"\x00\x00" + rest, header, st.binary(min_size=40, max_size=300)),
            framed,
            st.builds(lambda f, i, b: f[:i] + bytes([b]) + f[i + 1 :], framed, st.integers(0, 70), st.integers(0, 255)),
        )
    )
    def agree(raw: bytes) -> None:
        got = c_parse(raw)
        if not c_only:
            assert got == py_parse(raw), raw.hex()

    agree()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), c_only=sys.argv[3:] == ["c-only"])
