"""A PN532 on a serial line (HSU), answering from the far end of a pseudo-terminal, with an
NTAG213 that can be put in and taken out of its field.

nfcpy's own PN532 driver (``nfc.clf.pn532``), its chipset code and its serial transport
talk to it exactly as to a PN532 breakout on a USB-serial adapter: wake-up preamble, normal
and extended frames with LEN/LCS and DCS, ACK then response, the registers nfcpy reads and
writes, InListPassiveTarget, and InCommunicateThru carrying the tag's Type 2 commands
(with CRC_A appended when the host has switched the chip's CRC check off, as nfcpy does).
Frames with a bad checksum are ignored, as the chip does.

A test waits on what the host did rather than on the clock: :meth:`Pn532HsuChip.wait_polled`
returns once the host has polled the field since the last :meth:`~Pn532HsuChip.place`, and
:meth:`~Pn532HsuChip.wait_for` once the chip's counters (:attr:`~Pn532HsuChip.tag_reads`)
say what the test needs.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Callable

from .ntag_sim import Ntag213

ACK = bytes.fromhex("0000FF00FF00")


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A (initial 0x6363, reflected polynomial 0x8408), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


def frame(body: bytes) -> bytes:
    """A response frame: normal up to 255 bytes of TFI+data, extended beyond."""
    n = len(body)
    dcs = (-sum(body)) & 0xFF
    if n < 256:
        return bytes([0, 0, 0xFF, n, (-n) & 0xFF]) + body + bytes([dcs, 0])
    hi, lo = n >> 8, n & 0xFF
    return bytes([0, 0, 0xFF, 0xFF, 0xFF, hi, lo, (-(hi + lo)) & 0xFF]) + body + bytes([dcs, 0])


class Pn532HsuChip:
    """The chip; :attr:`port` is the device path to give the host (with ``link``, a symbolic
    link that survives :meth:`unplug`/:meth:`plug`, as a /dev/serial/by-id name does)."""

    def __init__(self, link: os.PathLike[str] | str | None = None) -> None:
        self.link = os.fspath(link) if link else None
        self.tag: Ntag213 | None = None
        self.frozen = False  # a locked-up chip: reads everything, answers nothing
        self.tag_active = False
        self.rf_on = False
        self.registers: dict[int, int] = {0x6302: 0x80, 0x6303: 0x80, 0x6305: 0x00, 0x6339: 0x00}
        self.frames_good = 0
        self.frames_bad = 0
        self.commands: list[int] = []
        self.tag_reads = 0
        """READ commands the tag in the field answered (the host's NDEF reads and its
        checks that the tag is still there)."""
        self.polled = False
        """The host has polled the field (InListPassiveTarget) since the last :meth:`place`."""
        self._lock = threading.Condition()
        self.plug()

    def plug(self) -> None:
        """Connect: a fresh pseudo-terminal (and link to it)."""
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo or line editing between chip and host
        self.pty = os.ttyname(self.slave)
        if self.link:
            if os.path.lexists(self.link):
                os.unlink(self.link)
            os.symlink(self.pty, self.link)
        self.port = self.link or self.pty
        self._buffer = bytearray()
        self._stop = False
        self._thread = threading.Thread(target=self._serve, name="pn532 chip", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Disconnect: the host's port reports an error and the device name disappears."""
        self._stop = True
        self._thread.join(2)
        if self.link and os.path.lexists(self.link):
            os.unlink(self.link)
        os.close(self.master)
        os.close(self.slave)

    # -- the table ---------------------------------------------------------------------------
    def place(self, tag: Ntag213 | None) -> None:
        with self._lock:
            self.tag = tag
            self.tag_active = False
            self.polled = False

    def wait_for(self, condition: Callable[[], bool], timeout: float = 60.0) -> None:
        """Return once ``condition`` holds, checked after each command the chip answers. The
        timeout only bounds a test that is already failing (generous: a loaded machine is slow)."""
        with self._lock:
            if not self._lock.wait_for(condition, timeout):
                raise AssertionError(f"the host never got there in {timeout} s; commands: {self.commands[-20:]}")

    def wait_polled(self, timeout: float = 60.0) -> None:
        """Return once the host has polled the field since the last :meth:`place`: it has seen
        what lies there now (an empty field after a lift: the host has released the tag)."""
        self.wait_for(lambda: self.polled, timeout)

    def close(self) -> None:
        if not self._stop:
            self.unplug()

    # -- the wire ----------------------------------------------------------------------------
    def _serve(self) -> None:
        while not self._stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                continue
            if not self.frozen:
                self._buffer += data
                self._parse()

    def _parse(self) -> None:
        buf = self._buffer
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                # Keep a trailing 00 that may begin a start code; drop wake-up 55s and noise.
                del buf[: max(0, len(buf) - 1)]
                return
            del buf[:start]
            if len(buf) < 4:
                return
            if buf[2:4] == b"\x00\xff":  # ACK from the host: abort, nothing to answer
                del buf[:5]
                continue
            if buf[2:4] == b"\xff\xff":  # extended frame
                if len(buf) < 7:
                    return
                n = buf[4] << 8 | buf[5]
                if (buf[4] + buf[5] + buf[6]) & 0xFF:
                    self.frames_bad += 1
                    del buf[:2]
                    continue
                head = 7
            else:
                n = buf[2]
                if (buf[2] + buf[3]) & 0xFF:
                    self.frames_bad += 1
                    del buf[:2]
                    continue
                head = 4
            if len(buf) < head + n + 1:
                return
            body = bytes(buf[head : head + n])
            dcs = buf[head + n]
            del buf[: head + n + 1]
            if (sum(body) + dcs) & 0xFF or not body or body[0] != 0xD4:
                self.frames_bad += 1  # the chip ignores it: the host times out and retries
                continue
            self.frames_good += 1
            os.write(self.master, ACK)
            response = self._execute(body[1], body[2:])
            if response is not None:
                os.write(self.master, frame(bytes([0xD5, body[1] + 1]) + response))

    # -- the chip ----------------------------------------------------------------------------
    def _execute(self, code: int, data: bytes) -> bytes | None:
        with self._lock:
            self.commands.append(code)
            self._lock.notify_all()  # what a waiting test checks may change with this command
            if code == 0x00:  # Diagnose: communication line test echoes its data
                return data if data[:1] == b"\x00" else b"\x00"
            if code == 0x02:  # GetFirmwareVersion
                return bytes([0x32, 0x01, 0x06, 0x07])
            if code == 0x06:  # ReadRegister: 16-bit addresses, one value each
                return bytes(self.registers.get(data[i] << 8 | data[i + 1], 0) for i in range(0, len(data) - 1, 2))
            if code == 0x08:  # WriteRegister: address, value triples
                for i in range(0, len(data) - 2, 3):
                    self.registers[data[i] << 8 | data[i + 1]] = data[i + 2]
                return b""
            if code in (0x10, 0x12, 0x14):  # SetSerialBaudrate, SetParameters, SAMConfiguration
                return b""
            if code == 0x16:  # PowerDown
                self.rf_on = False
                self.tag_active = False
                return b"\x00"
            if code == 0x32:  # RFConfiguration
                if data[:1] == b"\x01":
                    self.rf_on = bool(data[1] & 1)
                    if not self.rf_on:
                        self.tag_active = False
                return b""
            if code == 0x4A:  # InListPassiveTarget
                self.rf_on = True
                self.polled = True
                if data[1] == 0x00 and self.tag is not None:
                    self.tag_active = True
                    self.registers[0x6339] = 0x00
                    uid = self.tag.uid
                    return bytes([1, 1, 0x00, 0x44, 0x00, len(uid)]) + uid
                self.registers[0x6339] = 0x26  # the SENS_REQ still sits in the FIFO
                return b"\x00"
            if code == 0x42:  # InCommunicateThru
                if self.tag is None or not self.tag_active or not self.rf_on:
                    return b"\x01"  # timeout: the target has not answered
                import nfc.clf

                try:
                    answer = self.tag.command(data)
                except nfc.clf.TimeoutError:
                    return b"\x01"
                if data[:1] == b"\x30" and len(answer) == 16:
                    self.tag_reads += 1
                crc_check_on = bool(self.registers.get(0x6303, 0x80) & 0x80)
                if len(answer) > 1 and not crc_check_on:
                    answer += crc_a(answer)  # the host checks CRC_A itself
                return b"\x00" + answer
            return None  # commands a card reader never sends here: no response, host times out
