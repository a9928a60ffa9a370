"""Keeping a connection to the reader board: open it (a device path or any pyserial URL:
``socket://host:port``, ``loop://``, ``rfc2217://``), run the protocol in pyserial's
``ReaderThread``, notice when it breaks (unplugged, garbage only, heartbeat silent) and
open it again, reporting each change as a :class:`SensorStatus`. The silences that count
(no greeting, no heartbeat) are measured on ``clock`` (``time.monotonic`` unless a test
gives its own).

A board that greets with an unknown protocol version is refused once, clearly, and not
retried: retrying cannot fix a firmware mismatch.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import serial
import serial.threaded

from companion.observations import SensorState, SensorStatus

from .board import BoardMessage, BoardProtocol, Hello, ProtocolError
from .board_state import BoardState, IncompatibleBoard
from .tag_events import TagPresent, TagRemoved

__all__ = ["BoardLink", "BAUDRATE", "DrainingReaderThread", "PortError", "check_port"]

log = logging.getLogger(__name__)

BAUDRATE = 115200

class PortError(ValueError):
    """A serial port name that can never be opened, named with the reason."""


def check_port(url: str) -> str:
    """``url`` if it can name a reader board's port, else :class:`PortError` saying why: an
    empty name, or a ``socket://`` or ``rfc2217://`` URL without a ``host:port`` (pyserial
    itself fails on those with an error about comparing numbers)."""
    if not url.strip():
        raise PortError("the serial port name is empty")
    scheme, sep, rest = url.partition("://")
    if sep and scheme.lower() in ("socket", "rfc2217"):
        hostport = rest.split("?", 1)[0].split("/", 1)[0]
        host, colon, port = hostport.rpartition(":")
        if not colon or not host:
            raise PortError(f"{url}: a {scheme}:// port is written {scheme}://HOST:PORT")
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise PortError(f"{url}: the port number must be from 1 to 65535, not {port!r}")
    return url


def _shown(message: BoardMessage) -> str:
    return repr(message)[:80]


class DrainingReaderThread(serial.threaded.ReaderThread):
    """pyserial's reader thread, reading whatever is waiting at once on every transport.

    pyserial's own loop reads ``in_waiting or 1`` bytes; a ``socket://`` port reports 1
    whenever anything at all is waiting, so a burst of noise was read a byte at a time, long
    enough for the heartbeat check to declare the board hung and lose the next tap."""

    CHUNK = 65536

    def run(self) -> None:  # the loop of serial.threaded.ReaderThread.run, draining sockets
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        try:
            self.protocol.connection_made(self)
        except Exception as exc:
            self.alive = False
            self.protocol.connection_lost(exc)
            self._connection_made.set()
            return
        error: BaseException | None = None
        self._connection_made.set()
        drain = type(self.serial).__module__.endswith("protocol_socket")
        while self.alive and self.serial.is_open:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
                if data and drain:
                    data += self._drain()
            except (serial.SerialException, OSError) as exc:
                # An I/O problem such as an unplugged adapter (asking how much is waiting fails
                # with EIO before any read does): the link reconnects.
                error = exc
                break
            if data:
                try:
                    self.protocol.data_received(data)
                except Exception as exc:
                    error = exc
                    break
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None

    def _drain(self) -> bytes:
        """What else is waiting on a socket, without waiting for more."""
        timeout = self.serial.timeout
        self.serial.timeout = 0
        try:
            return bytes(self.serial.read(self.CHUNK))
        finally:
            self.serial.timeout = timeout


Sink = Callable[[TagPresent | TagRemoved | SensorStatus], None]


class BoardLink:
    """One reader board on ``url``. :meth:`start` returns at once; events go to ``emit``
    from a background thread. ``name`` names its readers (``board:0`` ... ``board:7``; a
    table's second board is ``board2``). ``on_message`` (optional) sees every protocol
    message and ``on_bad_line`` every rejected line, e.g. for ``rop tags watch``."""

    def __init__(
        self,
        url: str,
        emit: Sink,
        *,
        baudrate: int = BAUDRATE,
        heartbeat_timeout: float = 3.5,
        greeting_timeout: float = 2.5,
        retry_interval: float = 1.0,
        on_message: Callable[[BoardMessage], None] | None = None,
        on_bad_line: Callable[[str, str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        name: str = "board",
    ) -> None:
        self.url = check_port(url)
        self.source = f"serial:{url}"
        self.baudrate = baudrate
        self.heartbeat_timeout = heartbeat_timeout
        self.greeting_timeout = greeting_timeout
        self.retry_interval = retry_interval
        self._emit = emit
        self._on_message = on_message
        self._on_bad_line = on_bad_line
        self._clock = clock
        self.state = BoardState(self.source, self._safe_emit, clock, name=name)
        self.bad_lines = 0
        self.failed: str | None = None
        self._stop = threading.Event()
        self._lost = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: serial.threaded.ReaderThread | None = None
        self._protocol: BoardProtocol | None = None
        self._incompatible: str | None = None
        self._last_status: tuple[SensorState, str] | None = None
        self._resync_wanted = False
        self._lost_reason = ""
        self._resync_at = 0.0

    # -- public ------------------------------------------------------------------------------

    def start(self) -> BoardLink:
        self._thread = threading.Thread(target=self._supervise, name=f"board {self.url}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._lost.set()
        if self._thread:
            self._thread.join(5)
        self._close()

    def __enter__(self) -> BoardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send(self, command: str) -> bool:
        """Send a host command; False when not connected right now."""
        protocol = self._protocol
        return protocol.send(command) if protocol else False

    @property
    def connected(self) -> bool:
        return self._protocol is not None and self.state.hello is not None

    # -- internals -------------------------------------------------------------------------

    def _safe_emit(self, event: TagPresent | TagRemoved | SensorStatus) -> None:
        # A consumer's bug must not kill the reader thread and with it the table.
        try:
            self._emit(event)
        except Exception:
            log.exception("observation consumer failed on %r", event)

    def _status(self, state: SensorState, detail: str) -> None:
        if self._last_status == (state, detail):
            return
        self._last_status = (state, detail)
        self._safe_emit(SensorStatus(self.source, self._clock(), state, detail, self.state.readers_up()))

    def _message(self, message: BoardMessage) -> None:
        try:
            self.state.check(message)
        except ProtocolError as exc:
            self._bad_line(_shown(message), str(exc))
            return
        if self._on_message:
            try:
                self._on_message(message)
            except Exception:
                log.exception("board message hook failed")
        try:
            self.state.handle(message)
        except IncompatibleBoard as exc:
            self._incompatible = str(exc)
            self._lost.set()
            return
        if isinstance(message, Hello):
            self._last_status = None

    def _bad_line(self, raw: str, reason: str) -> None:
        self.bad_lines += 1
        # A damaged line may have been a tap or a lift: ask the board to re-announce. A
        # well-formed message we do not know (a newer minor version) needs no resync.
        if not reason.startswith("unknown message"):
            self._resync_wanted = True
        log.debug("%s: rejected line %r: %s", self.url, raw, reason)
        if self._on_bad_line:
            try:
                self._on_bad_line(raw, reason)
            except Exception:
                log.exception("bad-line hook failed")

    def _make_protocol(self) -> BoardProtocol:
        return BoardProtocol(self._message, self._bad_line, on_lost=self._connection_lost, clock=self._clock)

    def _connection_lost(self, exc: BaseException | None) -> None:
        self._lost_reason = f"{exc}" if exc else "closed"
        self._lost.set()

    def _open(self) -> bool:
        try:
            # A read timeout lets the reader thread notice a stop request on any transport.
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.5)
        except (serial.SerialException, OSError, ValueError, TypeError) as exc:
            # TypeError: pyserial's own URL parsing on a URL it does not expect.
            self._status(SensorState.RECONNECTING, f"cannot open {self.url}: {exc}; retrying")
            return False
        self._lost.clear()
        self._lost_reason = ""
        self.state.begin_connection()
        reader = DrainingReaderThread(port, self._make_protocol)
        reader.daemon = True
        reader.start()
        try:
            _transport, protocol = reader.connect()
        except RuntimeError as exc:
            self._status(SensorState.RECONNECTING, f"{self.url} closed at once: {exc}; retrying")
            reader.close()
            return False
        self._reader, self._protocol = reader, protocol
        protocol.send("INFO")  # a board that booted before we opened the port greets again
        return True

    def _close(self) -> None:
        reader, self._reader, self._protocol = self._reader, None, None
        if reader is not None:
            try:
                reader.close()
            except Exception:  # closing a port that vanished may fail in many ways; it is gone
                log.debug("closing %s failed", self.url, exc_info=True)

    def _supervise(self) -> None:
        while not self._stop.is_set():
            if not self._open():
                self._stop.wait(self.retry_interval)
                continue
            try:
                reason = self._watch()
            except Exception as exc:  # noqa: BLE001 - a fault of ours: reported, and the board reopened
                log.exception("watching %s failed", self.url)
                reason = f"watching {self.url} failed ({type(exc).__name__}: {exc})"
            self._close()
            if self._incompatible:
                self.failed = self._incompatible
                self._status(SensorState.FAILED, self._incompatible)
                return
            if self._stop.is_set():
                self._status(SensorState.LOST, f"{self.url} closed")
                return
            self._status(SensorState.LOST, reason)
            self._stop.wait(min(self.retry_interval, 0.2))
            self._status(SensorState.RECONNECTING, f"reopening {self.url}")

    def _watch(self) -> str:
        """Wait while the connection is healthy; return why it is not any more."""
        opened = self._clock()
        asked_again = False
        while not self._stop.is_set():
            if self._lost.wait(0.1):
                if self._incompatible:
                    return self._incompatible
                return f"{self.url} lost: {self._lost_reason or 'closed'}"
            protocol = self._protocol
            if protocol is None:
                return f"{self.url} lost"
            now = self._clock()
            if self.state.hello is None:
                if now - opened > self.greeting_timeout and not asked_again:
                    asked_again = True  # the first INFO may have gone to a bootloader
                    protocol.send("INFO")
                if now - opened > 2 * self.greeting_timeout + self.heartbeat_timeout:
                    return (f"no greeting from {self.url} in {now - opened:.1f} s "
                            f"({self.bad_lines} bad lines): is it our reader board, at {self.baudrate} baud?")
            elif self._resync_wanted and now - self._resync_at > 0.5:
                self._resync_wanted = False
                self._resync_at = now
                self.state.begin_resync()
                protocol.send("INFO")
            elif now - protocol.last_line_at > self.heartbeat_timeout:
                return f"{self.url} silent for {now - protocol.last_line_at:.1f} s (no heartbeat): board hung?"
        return "stopped"
