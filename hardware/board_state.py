"""What the host knows about one reader board across connections: which tags lie on which
reader, which readers work, and whether the board speaks our protocol version.

It turns protocol messages into :class:`TagPresent`/:class:`TagRemoved` events and
:class:`SensorStatus` changes. After a reset or a reconnect the board re-announces the tags
it sees and then says ``READY``; tags the host believed present and that were not
re-announced by then are reported removed, the others stay present without a second tap.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.observations import SensorState, SensorStatus

from .board import (
    PROTOCOL_VERSION,
    BoardMessage,
    ErrorLine,
    GoneLine,
    Hello,
    ProtocolError,
    Ready,
    ReaderLine,
    StatLine,
    TagLine,
)
from .tag_events import TagPresent, TagRemoved

__all__ = ["BoardState", "IncompatibleBoard"]


class IncompatibleBoard(Exception):
    """The board greeted with a protocol version this host does not speak."""


class BoardState:
    """Feed it messages with :meth:`handle`; it calls ``emit`` with events and statuses,
    each stamped with the time ``clock`` reads. ``name`` names the board's readers
    (``board:0``, ``board:1``, ...): each board of a table has a name of its own."""

    def __init__(
        self,
        source: str,
        emit: Callable[[TagPresent | TagRemoved | SensorStatus], None],
        clock: Callable[[], float] = time.monotonic,
        *,
        name: str = "board",
    ) -> None:
        self.source = source
        self.name = name
        self._emit = emit
        self._clock = clock
        self.hello: Hello | None = None
        self.readers: dict[int, ReaderLine] = {}
        self.present: dict[int, str] = {}
        self._unconfirmed: dict[int, str] | None = None
        self._announced = False
        self._quiet = False
        self.errors: list[ErrorLine] = []

    def reader_name(self, index: int) -> str:
        return f"{self.name}:{index}"

    def readers_up(self) -> tuple[str, ...]:
        return tuple(self.reader_name(i) for i, r in sorted(self.readers.items()) if r.up)

    def begin_connection(self) -> None:
        """A new connection: wait for a greeting before believing anything it says."""
        self.hello = None
        self._quiet = False

    def begin_resync(self) -> None:
        """We asked the board to re-announce everything (after a damaged line): the greeting
        that answers is no news, only the tags it lists are."""
        self._quiet = True

    def check(self, message: BoardMessage) -> None:
        """Raise :class:`ProtocolError` for a message about a reader the board does not
        have: its greeting says how many it has (``slots``), and a line naming another is
        noise that happens to pass its checksum, not a tap."""
        if self.hello is None or not isinstance(message, (ReaderLine, TagLine, GoneLine, StatLine, ErrorLine)):
            return
        index = message.index
        if index is not None and index >= self.hello.slots:
            raise ProtocolError(
                f"reader {index} does not exist: the board has {self.hello.slots} reader"
                f"{'s' if self.hello.slots != 1 else ''} (0 to {self.hello.slots - 1})"
            )

    def handle(self, message: BoardMessage) -> None:
        now = self._clock()
        if isinstance(message, Hello):
            self._greeted(message)
            return
        if self.hello is None:
            return  # stale lines from before the greeting: their version is unknown
        if isinstance(message, ReaderLine):
            before = self.readers.get(message.index)
            self.readers[message.index] = message
            if not message.up:
                self._remove(message.index, now)
            if self._announced and (before is None or before.up != message.up):
                state = "up" if message.up else f"down ({message.detail})"
                self._status(SensorState.CONNECTED, f"{self.reader_name(message.index)} {state}")
        elif isinstance(message, TagLine):
            if self._unconfirmed is not None and self._unconfirmed.get(message.index) == message.uid:
                del self._unconfirmed[message.index]  # still there after the reset: no new tap
                return
            if self.present.get(message.index) == message.uid:
                return  # re-announced on request: nothing changed
            self._remove(message.index, now)
            self.present[message.index] = message.uid
            self._emit(TagPresent(self.source, now, self.reader_name(message.index), message.uid))
        elif isinstance(message, GoneLine):
            if self.present.get(message.index) == message.uid:
                self._remove(message.index, now)
            if self._unconfirmed is not None and self._unconfirmed.get(message.index) == message.uid:
                del self._unconfirmed[message.index]
        elif isinstance(message, Ready):
            if self._unconfirmed:
                for index, uid in list(self._unconfirmed.items()):
                    if self.present.get(index) == uid:
                        self._remove(index, now)
            self._unconfirmed = None
            if not self._announced:
                self._announced = True
                down = [f"{self.reader_name(i)} down ({r.detail})" for i, r in sorted(self.readers.items()) if not r.up]
                detail = f"firmware {self.hello.firmware}, last reset: {self.hello.reset_cause.lower() or 'unknown'}"
                self._status(SensorState.CONNECTED, "; ".join([detail, *down]))
        elif isinstance(message, ErrorLine):
            self.errors.append(message)
            del self.errors[:-50]  # keep the recent ones for `rop tags watch`

    def _greeted(self, hello: Hello) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            raise IncompatibleBoard(
                f"the board on {self.source.removeprefix('serial:')} speaks protocol version {hello.protocol} "
                f"(firmware {hello.firmware}); this companion speaks version {PROTOCOL_VERSION}: flash the "
                f"firmware that comes with this companion (make -C firmware flash) or update the companion"
            )
        self.hello = hello
        # A greeting we asked for to resync is not a new connection worth announcing.
        self._announced = self._announced and self._quiet
        self._quiet = False
        # Whatever we believed is now to be confirmed by the board's fresh announcements.
        self._unconfirmed = dict(self.present) if self.present else None

    def _remove(self, index: int, now: float) -> None:
        uid = self.present.pop(index, None)
        if uid is not None:
            self._emit(TagRemoved(self.source, now, self.reader_name(index), uid))

    def _status(self, state: SensorState, detail: str) -> None:
        self._emit(SensorStatus(self.source, self._clock(), state, detail, self.readers_up()))
