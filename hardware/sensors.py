"""One entry point for the rest of the companion: start the NFC readers a table uses and get
plain observations (:mod:`companion.observations`) from all of them.

    sensors = NfcSensors(emit=queue.put, nfc=["usb"], serial=["/dev/ttyACM0"]).start()
    ...
    sensors.stop()

Readers are named after their device, in the order the devices are given: the first reader
board's readers ``board:0`` ... ``board:7`` (by the chip-select pin each is wired to), the
second board's ``board2:0`` ... ``board2:7``, and so on; the first USB reader ``usb``, the second
``usb2``. Sources are ``serial:<port>`` and ``nfc:<path>``. Everything runs in background
threads; ``emit`` is called from them. ``cards`` is the catalogue of the table's game, whose
records the tags carry (the default game's when absent); tags found in the registry name their
own game's cards.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from companion.contract import Catalogue
from companion.observations import Observation

from .registry import Registry, calibration_dir
from .resolver import Resolver

__all__ = ["BOARD_SLOTS", "NfcSensors", "board_name", "reader_names", "usb_name"]

BOARD_SLOTS = 8
"""Reader positions a board has at most (chip-select lines D10 to D3, firmware/README.md)."""


def board_name(k: int) -> str:
    """The name of the ``k``-th reader board of a table (from 0): its readers are
    ``<name>:<reader>``, ``board:0`` for the first board's reader 0, ``board2:0`` for the
    second's."""
    return "board" if k == 0 else f"board{k + 1}"


def usb_name(k: int) -> str:
    """The name of the ``k``-th USB reader of a table (from 0): ``usb``, ``usb2``, ..."""
    return "usb" if k == 0 else f"usb{k + 1}"


def reader_names(boards: int, usb: int) -> list[str]:
    """Every reader name a table of ``boards`` reader boards and ``usb`` USB readers can
    report, in the order the devices are given."""
    names = [f"{board_name(k)}:{slot}" for k in range(boards) for slot in range(BOARD_SLOTS)]
    return names + [usb_name(k) for k in range(usb)]


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

            for k, port in enumerate(self._serial):
                link = BoardLink(port, self.resolver, name=board_name(k), on_message=self._on_board_message, on_bad_line=self._on_bad_line)
                self._readers.append(link.start())
        if self._nfc:
            from .usb_reader import UsbReader

            for k, path in enumerate(self._nfc):
                self._readers.append(UsbReader(path, self.resolver, reader_name=usb_name(k), cards=self._cards).start())
        return self

    def stop(self) -> None:
        for reader in self._readers:
            reader.stop()
        self._readers.clear()

    def __enter__(self) -> NfcSensors:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
