"""One entry point for the rest of the companion: start the NFC readers a table uses and get
plain observations (:mod:`companion.observations`) from all of them.

    sensors = NfcSensors(emit=queue.put, nfc=["usb"], serial=["/dev/ttyACM0"]).start()
    ...
    sensors.stop()

Readers are named ``usb`` and ``board:0`` ... ``board:3``; sources ``nfc:<path>`` and
``serial:<port>``. Everything runs in background threads; ``emit`` is called from them.
``cards`` is the catalogue of the table's game, whose records the tags carry (the default
game's when absent); tags found in the registry name their own game's cards.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from companion.games.protocol import Catalogue
from companion.observations import Observation

from .registry import Registry, calibration_dir
from .resolver import Resolver

__all__ = ["NfcSensors"]


class NfcSensors:
    """USB readers (``nfc`` paths) and reader boards (``serial`` ports) behind one resolver."""

    def __init__(
        self,
        emit: Callable[[Observation], None],
        *,
        nfc: Sequence[str] = (),
        serial: Sequence[str] = (),
        calibration: str | os.PathLike[str] | None = None,
        registry: Registry | None = None,
        on_board_message: Callable[[Any], None] | None = None,
        on_bad_line: Callable[[str, str], None] | None = None,
        cards: Catalogue | None = None,
    ) -> None:
        self.registry = registry or Registry.load(calibration_dir(calibration) / "tags")
        self.resolver = Resolver(self.registry, emit)
        self._nfc = list(nfc)
        self._serial = list(serial)
        self._on_board_message = on_board_message
        self._on_bad_line = on_bad_line
        self._cards = cards
        self._readers: list[Any] = []

    def start(self) -> NfcSensors:
        if self._serial:
            from .board_link import BoardLink

            for port in self._serial:
                self._readers.append(BoardLink(port, self.resolver, on_message=self._on_board_message, on_bad_line=self._on_bad_line).start())
        if self._nfc:
            from .usb_reader import UsbReader

            for path in self._nfc:
                self._readers.append(UsbReader(path, self.resolver, cards=self._cards).start())
        return self

    def stop(self) -> None:
        for reader in self._readers:
            reader.stop()
        self._readers.clear()

    def __enter__(self) -> NfcSensors:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
