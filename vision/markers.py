"""Seal markers: which fiducial family the cards carry and what each marker id means.

Every card carries one AprilTag 36h11 marker in its seal corner (bottom left). The family has
587 ids, each at least 11 bits from every other (in all four rotations), which is what makes a
misread id essentially impossible: a detector must flip 11 of 36 bits the same wrong way. The
measurements behind the choice are in ``docs/vision.md`` and ``bench/bench_vision.py``.

Id scheme (532 of the 587 ids; the rest are never accepted):

====================  =======================================  ============
marker                id                                       range
====================  =======================================  ============
World card n, owner   ``(slot * 52) + (n - 1)``, slot 0-7      0-415
World card n, nobody  ``416 + (n - 1)``                        416-467
Fate card n, owner    ``468 + slot * 8 + (n - 1)``, slot 0-7   468-531
mat corner            ``532 + corner`` (TL, TR, BR, BL)        532-535
====================  =======================================  ============

Owner slots are numbered 0-7; :mod:`vision.owners` maps them to player names.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from companion.games.rule_of_power.engine.cards import Card, UnknownCardError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FAMILY",
    "FAMILY_SIZE",
    "OWNER_SLOTS",
    "MODULES",
    "MARKER_MM",
    "MODULE_MM",
    "PRINT_DPI",
    "QUIET_MODULES",
    "STICKER_MM",
    "LABEL_MM",
    "SEAL_CENTRE_ON_CARD_MM",
    "CARD_MM",
    "MAT_MARKER_MM",
    "MatCorner",
    "SealMarker",
    "MarkerIdError",
    "decode",
    "module_grid",
]

#: The AprilTag family every seal and mat marker belongs to.
FAMILY = "tag36h11"
#: Number of ids the family has.
FAMILY_SIZE = 587
#: Owner slots a marker can name (0-7).
OWNER_SLOTS = 8
#: Modules across the black square of one marker (6 data modules plus the black border).
MODULES = 8
#: Printer resolution the sizes are made for: modules are a whole number of 300 dpi dots, so
#: every module prints the same size.
PRINT_DPI = 300
#: Side of one seal module: 19 dots at 300 dpi (1.61 mm).
MODULE_MM = 19 * 25.4 / PRINT_DPI
#: Side of a seal marker's black square on the sticker: 8 modules, 12.9 mm.
MARKER_MM = MODULES * MODULE_MM
#: White modules printed around the black square; detectors need this contrast edge.
QUIET_MODULES = 1
#: Sticker size (width, height) in mm: the marker with its white margin, and the label under it.
LABEL_MM = 4.0
STICKER_MM = (17.0, 17.0 + LABEL_MM)
#: A card's size (width, height) in millimetres.
CARD_MM = (63.0, 88.0)
#: Where the marker's centre lies on an upright card, in mm from the card's top-left corner:
#: the sticker sits 2 mm in from the left and bottom edges, label at the bottom.
SEAL_CENTRE_ON_CARD_MM = (2.0 + STICKER_MM[0] / 2, CARD_MM[1] - 2.0 - LABEL_MM - STICKER_MM[0] / 2)
#: Side of a mat corner marker's black square: 8 modules of 89 dots at 300 dpi (60.3 mm).
MAT_MARKER_MM = MODULES * 89 * 25.4 / PRINT_DPI

_WORLD_CARDS = 52
_FATE_CARDS = 8
_NOBODY_BASE = OWNER_SLOTS * _WORLD_CARDS  # 416
_FATE_BASE = _NOBODY_BASE + _WORLD_CARDS  # 468
_MAT_BASE = _FATE_BASE + OWNER_SLOTS * _FATE_CARDS  # 532


class MarkerIdError(ValueError):
    """A card, owner slot or marker id that the scheme cannot encode or decode."""


class MatCorner(enum.IntEnum):
    """The four corner markers of the table mat, clockwise from the top left as the camera sees it."""

    TOP_LEFT = 0
    TOP_RIGHT = 1
    BOTTOM_RIGHT = 2
    BOTTOM_LEFT = 3

    @property
    def tag_id(self) -> int:
        return _MAT_BASE + int(self)

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "-")


@dataclass(frozen=True, slots=True)
class SealMarker:
    """What one seal marker says: a card and, optionally, the slot (0-7) of its owner.

    Fate cards always have an owner; World cards may have none (``slot=None``).
    """

    card: Card
    slot: int | None = None

    def __post_init__(self) -> None:
        if self.slot is not None and not (0 <= self.slot < OWNER_SLOTS):
            raise MarkerIdError(f"owner slot {self.slot} is out of range: slots are 0-{OWNER_SLOTS - 1}")
        if self.card.id.startswith("F") and self.slot is None:
            raise MarkerIdError(f"Fate card {self.card.id} needs an owner slot: Fate cards belong to a player")

    @classmethod
    def of(cls, card: str | Card, slot: int | None = None) -> "SealMarker":
        """``SealMarker.of("W007", 2)``; raises :class:`~companion.games.rule_of_power.engine.cards.UnknownCardError` for a bad id."""
        return cls(card if isinstance(card, Card) else Card.from_id(card), slot)

    @property
    def tag_id(self) -> int:
        """The family id printed for this card and owner."""
        n = int(self.card.id[1:])
        if self.card.id.startswith("F"):
            assert self.slot is not None  # __post_init__ refuses a Fate card without an owner
            return _FATE_BASE + self.slot * _FATE_CARDS + (n - 1)
        if self.slot is None:
            return _NOBODY_BASE + (n - 1)
        return self.slot * _WORLD_CARDS + (n - 1)

    @property
    def label(self) -> str:
        """The human-readable text printed under the marker, e.g. ``"W007 #2"``."""
        return self.card.id if self.slot is None else f"{self.card.id} #{self.slot}"


def decode(tag_id: int) -> SealMarker | MatCorner | None:
    """What a detected id means, or ``None`` for an id the scheme never prints.

    Unused ids are refused rather than guessed at: an id outside the scheme can only be a
    misread or a foreign marker.
    """
    if tag_id < 0:
        return None
    if tag_id < _NOBODY_BASE:
        slot, n = divmod(tag_id, _WORLD_CARDS)
        return SealMarker(_card("W", n + 1), slot)
    if tag_id < _FATE_BASE:
        return SealMarker(_card("W", tag_id - _NOBODY_BASE + 1), None)
    if tag_id < _MAT_BASE:
        slot, n = divmod(tag_id - _FATE_BASE, _FATE_CARDS)
        return SealMarker(_card("F", n + 1), slot)
    if tag_id < _MAT_BASE + len(MatCorner):
        return MatCorner(tag_id - _MAT_BASE)
    return None


def _card(prefix: str, n: int) -> Card:
    try:
        return Card.from_id(f"{prefix}{n:03d}")
    except UnknownCardError as exc:  # the scheme and the catalogue disagree: a programming error
        raise MarkerIdError(str(exc)) from exc


@lru_cache(maxsize=4096)
def module_grid(tag_id: int, *, family: str = FAMILY, quiet: int = QUIET_MODULES) -> "np.ndarray":
    """The marker as a square ``uint8`` array of modules (0 black, 255 white), one pixel per
    module, with ``quiet`` white modules around the black square.

    ``family`` is an OpenCV dictionary name without the ``DICT_`` prefix (``"APRILTAG_36h11"``,
    ``"5X5_1000"``) or ``"tag36h11"``/``"tag25h9"``; OpenCV's AprilTag dictionaries carry the
    same codes under the same ids as the AprilTag library.
    """
    import cv2
    import numpy as np

    dictionary = cv2.aruco.getPredefinedDictionary(_opencv_dictionary(family))
    size = dictionary.markerSize + 2
    if not 0 <= tag_id < dictionary.bytesList.shape[0]:
        raise MarkerIdError(f"marker id {tag_id} does not exist in family {family}")
    inner = cv2.aruco.generateImageMarker(dictionary, tag_id, size, borderBits=1)
    grid = np.full((size + 2 * quiet, size + 2 * quiet), 255, np.uint8)
    grid[quiet : quiet + size, quiet : quiet + size] = inner
    grid.setflags(write=False)
    return grid


def _opencv_dictionary(family: str) -> int:
    import cv2

    name = {"tag36h11": "APRILTAG_36h11", "tag25h9": "APRILTAG_25h9", "tag16h5": "APRILTAG_16h5"}.get(family, family)
    try:
        return getattr(cv2.aruco, f"DICT_{name}")
    except AttributeError:
        raise MarkerIdError(f"unknown marker family {family!r}") from None
