"""An NTAG213 as its Type 2 Tag commands see it (READ, WRITE, GET_VERSION), for the
emulated PN532 (pn532_hsu_sim) to put in its field."""

from __future__ import annotations

import nfc.clf


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
