"""A USB NFC reader (ACR122U, SCL3711, RC-S380 ...) through nfcpy, in its own thread; also
a PN532 breakout on a serial port (``pn532:/dev/ttyUSB0``) through nfcpy's PN532 driver.

One tag in the field at a time, as nfcpy's reader/writer mode works. Each tap yields a
:class:`TagPresent` with the tag's UID and the card its NDEF message names; the lift
yields a :class:`TagRemoved` only after ``debounce`` seconds without the same tag coming
back, so a card wobbling at the edge of the field is one tap, not three. Those seconds, and
the time each event carries, are read from ``clock`` (``time.monotonic`` unless a test gives
its own).

A missing reader (nfcpy raises IOError with ENODEV), a reader unplugged mid-game, or one
that locks up (the ACR122U's habit: commands time out and nfcpy's ``connect`` gives up
with False) is reported as a :class:`SensorStatus` and opened again every
``retry_interval`` seconds.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.observations import SensorState, SensorStatus

from companion.contract import Catalogue

from .ndef_records import NdefError, card_from_records
from .tag_events import TagPresent, TagRemoved

__all__ = ["UsbReader", "WritePlan"]

log = logging.getLogger(__name__)

#: Called in the reader thread with a tapped tag's UID; returns the NDEF records to write
#: on it (enrolment) or None to leave the tag as it is.
WritePlan = Callable[[str], "list[Any] | None"]


def _open_frontend(path: str) -> Any:
    """nfcpy's frontend for ``path``; ``pn532:<serial port>`` opens a PN532 on any serial
    port name (``/dev/serial/by-id/...`` included, which nfcpy's own ``tty:`` paths cannot
    name) with nfcpy's PN532 driver."""
    import nfc  # imported here: nfcpy (and libusb) load only when a reader is used

    if path.startswith("pn532:"):
        import nfc.clf.pn532
        import nfc.clf.transport

        port = path.removeprefix("pn532:")
        transport = nfc.clf.transport.TTY(port)
        try:
            device = nfc.clf.pn532.init(transport)
        except Exception:
            transport.close()
            raise
        device._path = port  # what nfcpy's own device search records
        clf = nfc.ContactlessFrontend()
        clf.device = device  # what ContactlessFrontend.open does once a driver is found
        return clf
    return nfc.ContactlessFrontend(path)


class UsbReader:
    """Reads tags on the nfcpy reader at ``path`` (``usb``, ``usb:072f:2200``, ``tty:S0:pn532``).
    ``reader_name`` names it at the table: ``usb``, a second one ``usb2``."""

    def __init__(
        self,
        path: str,
        emit: Callable[[TagPresent | TagRemoved | SensorStatus], None],
        *,
        reader_name: str = "usb",
        debounce: float = 0.3,
        retry_interval: float = 1.0,
        write_plan: WritePlan | None = None,
        open_frontend: Callable[[str], Any] = _open_frontend,
        clock: Callable[[], float] = time.monotonic,
        cards: Catalogue | None = None,
    ) -> None:
        self.path = path
        self.reader_name = reader_name
        self.cards = cards
        """The catalogue of the table's game, whose cards the tags' records name (the default
        game's when ``None``)."""
        self.source = f"nfc:{path}"
        self.debounce = debounce
        self.retry_interval = retry_interval
        self.write_plan = write_plan
        self._emit = emit
        self._open_frontend = open_frontend
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending_lift: TagRemoved | None = None
        self._present: str | None = None
        self._last_status: tuple[SensorState, str] | None = None

    # -- public ------------------------------------------------------------------------------

    def start(self) -> UsbReader:
        self._thread = threading.Thread(target=self._run, name=f"nfc {self.path}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(5)

    def __enter__(self) -> UsbReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the loop --------------------------------------------------------------------------

    def _safe_emit(self, event: TagPresent | TagRemoved | SensorStatus) -> None:
        try:
            self._emit(event)
        except Exception:  # a consumer's bug must not stop the reader
            log.exception("observation consumer failed on %r", event)

    def _status(self, state: SensorState, detail: str) -> None:
        if self._last_status == (state, detail):
            return
        self._last_status = (state, detail)
        readers = (self.reader_name,) if state is SensorState.CONNECTED else ()
        self._safe_emit(SensorStatus(self.source, self._clock(), state, detail, readers))

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                clf = self._open_frontend(self.path)
            except (OSError, IOError) as exc:
                why = "no NFC reader found" if getattr(exc, "errno", None) == errno.ENODEV else str(exc)
                if "libusb" in str(exc):
                    why = "libusb-1.0 is not installed (Debian/Ubuntu: apt install libusb-1.0-0)"
                if getattr(exc, "errno", None) == errno.EACCES:
                    why = f"no permission to use the reader ({exc}): see Troubleshooting in docs/nfc.md"
                if getattr(exc, "errno", None) == errno.EBUSY:
                    why = f"the reader is in use by another program or a kernel driver ({exc})"
                self._status(SensorState.RECONNECTING, f"{self.path}: {why}; retrying")
                self._stop.wait(self.retry_interval)
                continue
            self._status(SensorState.CONNECTED, f"{getattr(clf, 'device', None) or self.path}")
            try:
                reason = self._serve_taps(clf)
            except Exception as exc:  # nfcpy raises more than IOError from a dying device
                reason = f"{type(exc).__name__}: {exc}"
            finally:
                try:
                    clf.close()
                except Exception:
                    log.debug("closing %s failed", self.path, exc_info=True)
            self._flush_lift(force=True)
            if self._present is not None:
                # The reader died with a tag on it: we cannot vouch for the tag any more.
                self._safe_emit(TagRemoved(self.source, self._clock(), self.reader_name, self._present))
                self._present = None
            if self._stop.is_set():
                self._status(SensorState.LOST, f"{self.path} closed")
                return
            self._status(SensorState.LOST, f"{self.path}: {reason}; reopening")
            self._stop.wait(self.retry_interval)

    def _serve_taps(self, clf: Any) -> str:
        """Serve taps until the reader fails (returns why) or we are stopped."""
        options = {
            "on-connect": self._on_connect,
            "on-release": self._on_release,
            "beep-on-connect": False,
            "iterations": 1,
            "interval": 0.05,
        }
        while not self._stop.is_set():
            result = clf.connect(rdwr=options, terminate=self._terminate)
            if result is False and not self._stop.is_set():
                # nfcpy logs an IOError and returns False: the device stopped answering.
                return "the reader stopped answering (unplugged or locked up)"
        return "stopped"

    def _terminate(self) -> bool:
        self._flush_lift()
        return self._stop.is_set()

    def _flush_lift(self, force: bool = False) -> None:
        pending = self._pending_lift
        if pending is not None and (force or self._clock() - pending.at >= self.debounce):
            self._pending_lift = None
            self._safe_emit(pending)

    def _on_connect(self, tag: Any) -> bool:
        now = self._clock()
        uid = bytes(tag.identifier).hex().upper()
        pending = self._pending_lift
        if pending is not None:
            if pending.uid == uid and now - pending.at < self.debounce:
                self._pending_lift = None  # the same tag came straight back: one tap
                self._present = uid
                if self.write_plan is None:
                    return True
            else:
                self._pending_lift = None
                self._safe_emit(pending)
        written: bool | None = None
        write_error: str | None = None
        if self.write_plan is not None:
            written, write_error = self._write(tag, uid)
        ndef_card = None
        ndef_error: str | None = None
        try:
            ndef = tag.ndef
            if ndef is not None:
                ndef_card = card_from_records(list(ndef.records), self.cards)
            else:
                ndef_error = "the tag holds no NDEF data (blank or not formatted)"
        except NdefError as exc:
            ndef_error = str(exc)
        except Exception as exc:  # a half-read tag (moved away mid-read) must not end the loop
            ndef_error = f"could not read the tag's content: {type(exc).__name__}: {exc}"
        self._present = uid
        self._safe_emit(TagPresent(self.source, now, self.reader_name, uid, ndef_card, ndef_error, written, write_error))
        return True  # keep the tag connected until it leaves the field

    def _write(self, tag: Any, uid: str) -> tuple[bool | None, str | None]:
        assert self.write_plan is not None
        try:
            records = self.write_plan(uid)
        except Exception as exc:
            return False, f"enrolment refused the tag: {exc}"
        if records is None:
            return None, None
        try:
            ndef = tag.ndef
            if ndef is None:
                return False, "the tag is not NDEF formatted; the UID is recorded instead"
            if not ndef.is_writeable:
                return False, "the tag is read-only; the UID is recorded instead"
            if sum(len(bytes(r.data)) + len(r.type) + 8 for r in records) > ndef.capacity:
                return False, f"the tag holds only {ndef.capacity} bytes; the UID is recorded instead"
            ndef.records = records
            return True, None
        except Exception as exc:
            return False, f"writing failed ({type(exc).__name__}: {exc}); the UID is recorded instead"

    def _on_release(self, tag: Any) -> bool:
        uid = bytes(tag.identifier).hex().upper()
        if self._present == uid:
            self._present = None
            self._pending_lift = TagRemoved(self.source, self._clock(), self.reader_name, uid)
        return True


if os.environ.get("ROP_NFC_DEBUG"):
    logging.getLogger("nfc").setLevel(logging.DEBUG)
