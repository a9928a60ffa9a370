"""Seal markers: which fiducial family the cards carry and what each marker id means.

Every card carries one AprilTag 36h11 marker in its seal corner (bottom left). The family has
587 ids, each at least 11 bits from every other (in all four rotations), which is what makes a
misread id essentially impossible: a detector must flip 11 of 36 bits the same wrong way. The
measurements behind the choice are in ``docs/vision.md`` and ``bench/bench_vision.py``.

Which id stands for which card is the game's to say: each game's card catalogue has its
marker scheme (:class:`companion.games.protocol.MarkerScheme`; Rule of Power's, ids 0-531, is in
:mod:`companion.games.rule_of_power.catalogue`). Ids 532-535 are the table mat's corners for
every game (:class:`MatCorner`); an id that is neither is never accepted.

Owner slots are numbered 0-7; :mod:`vision.owners` maps them to player names.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from companion.games.protocol import Card, Catalogue
from companion.games.registry import game

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

_MAT_BASE = 532
"""The mat's corner markers follow the ids the games' card schemes use."""


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
    """What one seal marker says: a card and, optionally, the slot (0-7) of its owner. Which
    id it has is the card's game's scheme (:meth:`tag_id`); a card the scheme cannot mark
    (a Fate card without an owner, a slot out of range) is a :class:`MarkerIdError`.
    """

    card: Card
    slot: int | None = None

    def __post_init__(self) -> None:
        self.tag_id  # noqa: B018 - the scheme refuses what it cannot encode

    @classmethod
    def of(cls, card: str | Card, slot: int | None = None, *, cards: Catalogue | None = None) -> SealMarker:
        """``SealMarker.of("W007", 2)``: a card by id in ``cards`` (the default game's);
        raises the catalogue's :class:`~companion.games.errors.UnknownCardError` for a bad id."""
        catalogue = cards if cards is not None else game().cards
        return cls(catalogue.from_id(card) if isinstance(card, str) else card, slot)

    @property
    def tag_id(self) -> int:
        """The family id printed for this card and owner."""
        scheme = game(self.card.game).cards.markers
        if scheme is None:
            raise MarkerIdError(f"{self.card.id}: the companion has no seal markers for {game(self.card.game).title} cards yet")
        try:
            marker_id: int = scheme.encode(self.card, self.slot)
        except ValueError as exc:
            raise MarkerIdError(str(exc)) from None
        return marker_id

    @property
    def label(self) -> str:
        """The human-readable text printed under the marker, e.g. ``"W007 #2"``."""
        return self.card.id if self.slot is None else f"{self.card.id} #{self.slot}"


def decode(tag_id: int, cards: Catalogue | None = None) -> SealMarker | MatCorner | None:
    """What a detected id means at a table of ``cards``' game (the default game's), or
    ``None`` for an id it never prints.

    Unused ids are refused rather than guessed at: an id outside the scheme can only be a
    misread or a foreign marker.
    """
    if _MAT_BASE <= tag_id < _MAT_BASE + len(MatCorner):
        return MatCorner(tag_id - _MAT_BASE)
    scheme = (cards if cards is not None else game().cards).markers
    found = scheme.decode(tag_id) if scheme is not None else None
    return SealMarker(found.card, found.slot) if found is not None else None


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
