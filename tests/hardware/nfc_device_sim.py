"""An nfcpy device driver whose "radio" is an in-memory NTAG213, for testing the USB reader
loop with nfcpy's own ContactlessFrontend, tag detection and NDEF code.

It sits at nfcpy's driver boundary (``nfc.clf.device.Device``): nfcpy calls ``sense_tta``
and ``send_cmd_recv_rsp`` exactly as on a real reader, and the tag answers Type 2 Tag
commands (READ, WRITE, GET_VERSION) from its memory, so NDEF reading and writing run
through nfcpy's real Type 2 Tag implementation.
"""

from __future__ import annotations

import errno
import threading

import nfc.clf
import nfc.clf.device


class Ntag213:
    """45 pages of 4 bytes: UID/lock (0-2), capability container (3), user memory (4-39)."""

    PAGES = 45

    def __init__(self, uid: bytes, read_only: bool = False) -> None:
        assert len(uid) == 7
        self.uid = uid
        self.mem = bytearray(4 * self.PAGES)
        bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        self.mem[0:4] = bytes([uid[0], uid[1], uid[2], bcc0])
        self.mem[4:8] = uid[3:7]
        self.mem[8:12] = bytes([bcc1, 0x48, 0x00, 0x00])
        # CC: NDEF magic, version 1.0, 144 bytes of data area, read/write access (0x0F: read only).
        self.mem[12:16] = bytes([0xE1, 0x10, 0x12, 0x0F if read_only else 0x00])
        self.mem[16:20] = bytes([0x03, 0x00, 0xFE, 0x00])  # empty NDEF message TLV, terminator

    def command(self, data: bytes) -> bytes:
        if data[:1] == b"\x30":  # READ: 16 bytes from the page, wrapping
            page = data[1]
            if page >= self.PAGES:
                return b"\x00"  # NAK
            return bytes(self.mem[(4 * page + i) % len(self.mem)] for i in range(16))
        if data[:1] == b"\xa2" and len(data) == 6:  # WRITE one page
            page = data[1]
            if page < 4 or page >= 40 or self.mem[15] == 0x0F:
                return b"\x00"
            self.mem[4 * page : 4 * page + 4] = data[2:6]
            return b"\x0a"  # ACK
        if data[:1] == b"\x60":  # GET_VERSION: NTAG213
            return bytes.fromhex("0004040201000F03")
        raise nfc.clf.TimeoutError("no answer")  # what an NTAG does with commands it lacks


class SimulatedReaderDevice(nfc.clf.device.Device):
    """A USB reader with one field; tests place and remove tags, or make it fail."""

    def __init__(self) -> None:  # the base class forbids calling its __init__
        self.tag: Ntag213 | None = None
        self.fail: OSError | None = None
        self.exchanges = 0
        self._lock = threading.Lock()

    # -- test controls ---------------------------------------------------------------------
    def place(self, tag: Ntag213 | None) -> None:
        with self._lock:
            self.tag = tag

    def break_down(self, code: int = errno.EIO) -> None:
        with self._lock:
            self.fail = OSError(code, "simulated device failure")

    # -- nfcpy driver interface ----------------------------------------------------------------
    @property
    def vendor_name(self) -> str:
        return "Simulated"

    @property
    def product_name(self) -> str:
        return "NTAG test reader"

    @property
    def chipset_name(self) -> str:
        return "sim"

    @property
    def path(self) -> str:
        return "usb:sim"

    def close(self) -> None:
        pass

    def mute(self) -> None:
        pass

    def _check(self) -> None:
        if self.fail is not None:
            raise self.fail

    def sense_tta(self, target: nfc.clf.RemoteTarget) -> nfc.clf.RemoteTarget | None:
        with self._lock:
            self._check()
            tag = self.tag
        if tag is None:
            return None
        return nfc.clf.RemoteTarget("106A", sens_res=b"\x44\x00", sel_res=b"\x00", sdd_res=tag.uid)

    def sense_ttb(self, target: nfc.clf.RemoteTarget) -> None:
        return None

    def sense_ttf(self, target: nfc.clf.RemoteTarget) -> None:
        return None

    def sense_dep(self, target: nfc.clf.RemoteTarget) -> None:
        return None

    def send_cmd_recv_rsp(self, target: nfc.clf.RemoteTarget, data: bytes, timeout: float) -> bytes:
        with self._lock:
            self._check()
            tag = self.tag
            self.exchanges += 1
        if tag is None or tag.uid != target.sdd_res:
            raise nfc.clf.TimeoutError("tag gone")
        return tag.command(bytes(data))

    def get_max_send_data_size(self, target: nfc.clf.RemoteTarget) -> int:
        return 252

    def get_max_recv_data_size(self, target: nfc.clf.RemoteTarget) -> int:
        return 252

    def turn_on_led_and_buzzer(self) -> None:
        pass

    def turn_off_led_and_buzzer(self) -> None:
        pass


def frontend_opener(devices: list[SimulatedReaderDevice | None]):
    """An ``open_frontend`` for UsbReader: each call takes the next device from ``devices``;
    None (or an empty list) means no reader plugged in: nfcpy's IOError(ENODEV)."""

    def open_frontend(path: str) -> nfc.ContactlessFrontend:
        device = devices.pop(0) if devices else None
        if device is None:
            raise IOError(errno.ENODEV, "no such device")
        clf = nfc.ContactlessFrontend()
        clf.device = device  # what ContactlessFrontend.open does after finding a driver
        return clf

    return open_frontend
