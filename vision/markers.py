"""Seal markers: which fiducial codes the cards carry and what each marker id means.

Every card carries one 8 x 8-module marker in its seal corner (bottom left): a black border
round 36 data modules. The **seal dictionary** (:mod:`vision.seal_codes`) gives every seal id
its code; which id a game's card, copy and face carry is the game's claim, expanded by the one
allocator (:mod:`companion.contract.allocation`), which also lists the ranges:

- ids 0-1018, the **first generation**: ids 0-586 are AprilTag 36h11's codes (the first game's
  cards 0-531, the mat's corners 532-535), ids 587-1018 432 codes of AprilTag 36h10
  (:data:`EXTRA_36H10`): the first 432 of that family, in its own order, that differ in at least
  9 bits from every 36h11 code in all four rotations (and, within 36h10, in at least 10 from
  each other). Fixed for good: every sticker printed keeps its id and its picture.
- ids 1024-8191, **blocks** 16-127 of 64 ids: codes made for the companion, at least 8 bits from
  each other and 9 from every first-generation code in all four rotations, with the same 8 x 8
  modules, so that every game's sticker is the same size and is read at the same pixels per
  module by the same detector (figures: ``docs/vision.md``, "Seal ids").

A table reads, in one pass of the detector, the codes its game's seals use and the mat's
corners (:func:`family_for`): :data:`FAMILY` (36h11 alone) when they are all 36h11's; the first
generation (:data:`SEALS`) when they all lie in it, so that a card of the other first-generation
game lying on it is recognised and refused, never read as one of its own cards; otherwise its
own ids and the corners alone (a selection of the dictionary, ``"seals:<ids>"``): fewer codes to
compare is faster, and no code of another game is within reach of a misread of its own. Ids
532-535 are the table mat's corners for every game (:class:`MatCorner`); an id that is no face
of the table's game is never accepted.

A front's seal names a card and the copy it belongs to (:class:`SealMarker`: an owner slot
0-7, which :mod:`vision.owners` maps to a name, or a colour of the box); a back's, where a deck's
backs carry seals, names the copy alone (:class:`SealBack`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from companion.contract import Card, Catalogue, TableSpec
from companion.contract.allocation import BLOCK, FIRST_BLOCK, MAT_CORNERS, SEAL_IDS, AllocationError, SealIds, installed
from companion.contract.registry import game, games
from companion.contract.table import OWNER_SLOTS, Copy

if TYPE_CHECKING:
    from pathlib import Path

    import cv2
    import numpy as np

__all__ = [
    "FAMILY",
    "FAMILY_SIZE",
    "SEALS",
    "SEALS_SIZE",
    "SEAL_IDS",
    "EXTRA_36H10",
    "family_for",
    "selection",
    "selected_ids",
    "seal_bits",
    "foreign_game",
    "aruco_dictionary",
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
    "SealBack",
    "MarkerIdError",
    "decode",
    "module_grid",
]

#: The AprilTag family of the first game's seals and of the mat's corners.
FAMILY = "tag36h11"
#: Number of ids the family has.
FAMILY_SIZE = 587
#: The seal dictionary: 36h11's 587 codes (ids 0-586), then :data:`EXTRA_36H10` (ids 587-1018).
SEALS = "seals"
#: The AprilTag 36h10 codes (by their 36h10 id) that follow 36h11 in :data:`SEALS`, in order:
#: the first 432 of that family that differ in at least 9 of their 36 bits from every 36h11
#: code, in all four rotations (``tests/vision/test_markers.py`` derives them again). Fixed for
#: good: a printed sticker keeps its meaning.
EXTRA_36H10: tuple[int, ...] = (
    6, 14, 18, 19, 20, 23, 26, 27, 28, 33, 39, 52, 54, 75, 80, 88, 89, 90,
    101, 102, 105, 106, 115, 121, 126, 128, 130, 132, 133, 135, 136, 140, 146, 150, 154, 157,
    159, 166, 168, 177, 182, 202, 203, 204, 211, 212, 214, 216, 230, 238, 240, 257, 261, 262,
    264, 274, 278, 286, 288, 290, 303, 307, 322, 324, 327, 329, 348, 350, 358, 365, 367, 368,
    376, 377, 380, 382, 385, 387, 391, 392, 394, 397, 412, 413, 421, 428, 437, 439, 440, 442,
    443, 445, 447, 449, 460, 480, 494, 495, 496, 499, 505, 506, 508, 511, 518, 519, 524, 527,
    533, 541, 542, 550, 556, 557, 565, 572, 574, 575, 576, 579, 580, 583, 589, 591, 594, 607,
    623, 625, 635, 639, 645, 647, 654, 658, 660, 661, 668, 671, 677, 678, 680, 683, 685, 687,
    690, 700, 701, 709, 732, 736, 737, 740, 746, 747, 748, 755, 768, 775, 780, 781, 782, 783,
    788, 798, 803, 807, 821, 826, 829, 830, 834, 841, 846, 851, 855, 859, 861, 867, 872, 877,
    879, 880, 893, 896, 898, 902, 913, 934, 935, 940, 947, 952, 954, 960, 962, 963, 964, 970,
    978, 993, 995, 998, 1001, 1005, 1012, 1020, 1025, 1026, 1037, 1039, 1050, 1052, 1053, 1055, 1057, 1058,
    1066, 1072, 1079, 1083, 1091, 1092, 1102, 1106, 1111, 1120, 1122, 1126, 1130, 1146, 1148, 1151, 1155, 1159,
    1167, 1178, 1186, 1198, 1199, 1202, 1213, 1216, 1218, 1219, 1221, 1222, 1223, 1227, 1231, 1233, 1236, 1237,
    1242, 1243, 1247, 1250, 1255, 1258, 1270, 1280, 1294, 1303, 1306, 1317, 1323, 1327, 1338, 1341, 1357, 1366,
    1368, 1369, 1373, 1377, 1381, 1384, 1387, 1394, 1398, 1405, 1406, 1416, 1417, 1422, 1423, 1425, 1430, 1439,
    1443, 1449, 1451, 1455, 1457, 1458, 1460, 1461, 1462, 1463, 1464, 1468, 1474, 1475, 1477, 1479, 1480, 1484,
    1485, 1486, 1488, 1493, 1497, 1498, 1502, 1516, 1519, 1520, 1526, 1530, 1532, 1539, 1541, 1542, 1546, 1560,
    1582, 1586, 1597, 1600, 1609, 1615, 1616, 1631, 1633, 1643, 1649, 1655, 1660, 1663, 1664, 1674, 1677, 1684,
    1699, 1704, 1705, 1710, 1711, 1715, 1717, 1725, 1729, 1734, 1735, 1737, 1738, 1742, 1744, 1745, 1751, 1755,
    1756, 1757, 1762, 1787, 1789, 1800, 1801, 1807, 1809, 1813, 1814, 1815, 1816, 1819, 1822, 1828, 1830, 1836,
    1839, 1843, 1853, 1875, 1884, 1887, 1888, 1889, 1891, 1900, 1903, 1913, 1928, 1930, 1938, 1946, 1950, 1957,
    1974, 1983, 1984, 1986, 1987, 1992, 1997, 2003, 2011, 2014, 2023, 2028, 2033, 2040, 2045, 2046, 2056, 2060,
    2064, 2071, 2073, 2074, 2081, 2083, 2092, 2097, 2102, 2109, 2119, 2125, 2140, 2141, 2143, 2145, 2147, 2153,
)
#: Number of ids the first generation has (:data:`SEALS`).
SEALS_SIZE = FAMILY_SIZE + 432
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

_MAT_BASE = MAT_CORNERS.start
"""The mat's corner markers follow the first game's cards."""
_SELECTION = "seals:"


class MarkerIdError(ValueError):
    """A card, owner slot or marker id that the scheme cannot encode or decode, or seal ids two
    installed games claim."""


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
    """What one front's seal says: a card and, optionally, the slot (0-7) of its owner (or the
    place of its colour among the deck's). Which id it has is the card's game's claim
    (:meth:`tag_id`); a card the game cannot mark so (a card of a deck that belongs to a player
    without an owner, a slot out of range) is a :class:`MarkerIdError`.
    """

    card: Card
    slot: int | None = None

    def __post_init__(self) -> None:
        self.tag_id  # noqa: B018 - the scheme refuses what it cannot encode

    @classmethod
    def of(cls, card: str | Card, slot: int | None = None, *, cards: Catalogue | None = None) -> SealMarker:
        """``SealMarker.of("W007", 2)``: a card by id in ``cards`` (the default game's);
        raises the catalogue's :class:`~companion.contract.errors.UnknownCardError` for a bad id."""
        catalogue = cards if cards is not None else game().cards
        return cls(catalogue.from_id(card) if isinstance(card, str) else card, slot)

    @property
    def tag_id(self) -> int:
        """The seal id printed for this card and owner."""
        scheme = _seals(self.card.game)
        try:
            return scheme.encode(self.card, self.slot)
        except ValueError as exc:
            raise MarkerIdError(str(exc)) from None

    @property
    def label(self) -> str:
        """The human-readable text printed under the marker, e.g. ``"W007 #2"``."""
        return self.card.id if self.slot is None else f"{self.card.id} #{self.slot}"


@dataclass(frozen=True, slots=True)
class SealBack:
    """What a back's seal says: the copy of a deck whose cards it lies on (an owner slot, a
    colour, or ``None`` for the copy without owner), never which card."""

    game: str
    deck: str
    """The deck's name in the game's table spec."""
    copy: Copy

    @property
    def tag_id(self) -> int:
        """The seal id on every back of that copy."""
        seals = _seals(self.game)
        deck = next((d for d in seals.spec.decks if d.name == self.deck), None)
        if deck is None:
            raise MarkerIdError(f"{game(self.game).title} has no deck {self.deck!r}")
        try:
            return seals.back(deck, self.copy)
        except ValueError as exc:
            raise MarkerIdError(str(exc)) from None


def _table(name: str) -> TableSpec | None:
    return getattr(game(name), "table", None)


def _seals(name: str) -> SealIds:
    """``name``'s seal ids, checked against every installed game's claim."""
    spec = _table(name)
    seals = spec.seals if spec is not None else None
    if seals is None:
        raise MarkerIdError(f"the companion has no seal markers for {game(name).title} cards yet")
    try:
        installed()
    except AllocationError as exc:
        raise MarkerIdError(str(exc)) from None
    return seals


def decode(tag_id: int, cards: Catalogue | None = None) -> SealMarker | SealBack | MatCorner | None:
    """What a detected id means at a table of ``cards``' game (the default game's): a mat
    corner, a front's card and owner, a back's copy, or ``None`` for an id it never prints.

    Unused ids are refused rather than guessed at: an id outside the scheme can only be a
    misread or a foreign marker (:func:`foreign_game` says whose).
    """
    if _MAT_BASE <= tag_id < _MAT_BASE + len(MatCorner):
        return MatCorner(tag_id - _MAT_BASE)
    spec = _table((cards if cards is not None else game().cards).game)
    seals = spec.seals if spec is not None else None
    if seals is None:
        return None
    found = seals.meaning(tag_id)
    if found is None:
        return None
    if found.card is None:
        return SealBack(seals.game, found.deck.name, found.copy)
    return SealMarker(found.card, SealIds.slot_of(found))


def foreign_game(tag_id: int, cards: Catalogue | None = None) -> str | None:
    """The title of the other game whose card a seal id is (its ``title``), when it is
    not one of ``cards``' game (the default game's); ``None`` otherwise."""
    mine = (cards if cards is not None else game().cards).game
    for other in games():
        spec = getattr(other, "table", None)
        try:
            seals = spec.seals if spec is not None else None
        except AllocationError:
            continue  # a game whose claim cannot be honoured names no seal (its commands say why)
        if other.name != mine and seals is not None and seals.meaning(tag_id) is not None:
            title: str = other.title
            return title
    return None


def family_for(cards: Catalogue | None = None) -> str:
    """The codes a table of ``cards``' game (the default game's) reads in one pass:
    :data:`FAMILY` (36h11) when its seals are all 36h11's, :data:`SEALS` (the first
    generation) when they all lie in it, else its own ids and the mat's corners
    (:func:`selection`)."""
    spec = _table((cards if cards is not None else game().cards).game)
    seals = spec.seals if spec is not None else None
    ids = set(seals.ids()) if seals is not None else set()
    if max(ids, default=0) < FAMILY_SIZE:
        return FAMILY
    if max(ids) < SEALS_SIZE:
        return SEALS
    return selection(sorted(ids | set(MAT_CORNERS)))


def selection(ids: list[int] | range) -> str:
    """The family name of a selection of the seal dictionary: ``"seals:532-535,1024-1279"``
    (detected markers keep their seal ids)."""
    ids = sorted(set(ids))
    # Runs of consecutive ids: [first, last] of each.
    spans: list[list[int]] = []
    for i in ids:
        if spans and spans[-1][1] + 1 == i:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    runs = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans]
    return _SELECTION + ",".join(runs)


def selected_ids(family: str) -> list[int] | None:
    """The seal ids a selection (:func:`selection`) reads, in dictionary order; ``None`` for a
    family that is no selection."""
    if not family.startswith(_SELECTION):
        return None
    ids: list[int] = []
    try:
        for run in family[len(_SELECTION) :].split(","):
            first, _, last = run.partition("-")
            ids += range(int(first), int(last or first) + 1)
    except ValueError:
        raise MarkerIdError(f"{family!r} is not a selection of seal ids (seals:532-535,1024-1279)") from None
    return ids


def seal_bits(tag_id: int) -> "np.ndarray":
    """The 6 x 6 data modules of seal ``tag_id`` (1 white), from the seal dictionary;
    :class:`MarkerIdError` for an id it does not have."""
    import cv2
    import numpy as np

    if 0 <= tag_id < SEALS_SIZE:
        d = aruco_dictionary(SEALS)
        return np.asarray(cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[tag_id : tag_id + 1], d.markerSize), np.uint8)
    if FIRST_BLOCK * BLOCK <= tag_id < SEAL_IDS:
        from vision.seal_codes import BITS, block_codes

        code = block_codes()[tag_id - FIRST_BLOCK * BLOCK]
        return np.array([(code >> (BITS - 1 - k)) & 1 for k in range(BITS)], np.uint8).reshape(6, 6)
    raise MarkerIdError(f"seal id {tag_id} is none of the seal dictionary's (0-{SEALS_SIZE - 1}, {FIRST_BLOCK * BLOCK}-{SEAL_IDS - 1})")


@lru_cache(maxsize=None)
def aruco_dictionary(family: str = FAMILY) -> "cv2.aruco.Dictionary":
    """OpenCV's dictionary for ``family``: :data:`SEALS` (the first generation), a selection
    of the seal dictionary (:func:`selection`: its rows in the selection's order, which
    :class:`vision.detect.MarkerDetector` maps back to seal ids), or an OpenCV dictionary name without
    the ``DICT_`` prefix (``"APRILTAG_36h11"``, ``"5X5_1000"``), or ``"tag36h11"``/``"tag25h9"``
    (OpenCV's AprilTag dictionaries carry the same codes under the same ids as the AprilTag
    library); :class:`MarkerIdError` for one OpenCV does not have."""
    import cv2
    import numpy as np

    chosen = selected_ids(family)
    if chosen is not None:
        rows = [cv2.aruco.Dictionary.getByteListFromBits(seal_bits(i)) for i in chosen]
        # Codes differ in at least 8 bits, so 3 bits can be told apart.
        return cv2.aruco.Dictionary(np.concatenate(rows) if rows else np.zeros((0, 5, 4), np.uint8), 6, 3)
    if family != SEALS:
        return cv2.aruco.getPredefinedDictionary(_opencv_dictionary(family))
    base = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    extra = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h10)
    codes = np.concatenate([base.bytesList, extra.bytesList[list(EXTRA_36H10)]])
    # Codes differ in at least 9 bits (36h11's from 36h10's), so 4 bits can be told apart.
    return cv2.aruco.Dictionary(codes, base.markerSize, 4)


@lru_cache(maxsize=4096)
def module_grid(tag_id: int, *, family: str = SEALS, quiet: int = QUIET_MODULES) -> "np.ndarray":
    """The marker as a square ``uint8`` array of modules (0 black, 255 white), one pixel per
    module, with ``quiet`` white modules around the black square.

    ``family`` is :data:`SEALS` (the default: every seal and mat marker the companion prints,
    by its seal id, blocks included) or a selection of it (:func:`selection`), an OpenCV
    dictionary name (:func:`aruco_dictionary`), or, for the benchmark's comparisons, an
    AprilTag family OpenCV does not have (``"tagStandard41h12"``), drawn from the AprilTag
    library's own code table: its grid is the family's whole width, its data ring outside
    the border included, and needs no ``quiet`` margin of its own.
    """
    import cv2
    import numpy as np

    if family.startswith(("tagStandard", "tagCircle", "tagCustom")):
        grid = _apriltag_grid(tag_id, family)
    elif family == SEALS or family.startswith(_SELECTION):
        side = MODULES + 2 * quiet
        grid = np.full((side, side), 255, np.uint8)
        grid[quiet : quiet + MODULES, quiet : quiet + MODULES] = 0
        grid[quiet + 1 : quiet + MODULES - 1, quiet + 1 : quiet + MODULES - 1] = seal_bits(tag_id) * 255
    else:
        dictionary = aruco_dictionary(family)
        size = dictionary.markerSize + 2
        if not 0 <= tag_id < dictionary.bytesList.shape[0]:
            raise MarkerIdError(f"marker id {tag_id} does not exist in family {family}")
        inner = cv2.aruco.generateImageMarker(dictionary, tag_id, size, borderBits=1)
        grid = np.full((size + 2 * quiet, size + 2 * quiet), 255, np.uint8)
        grid[quiet : quiet + size, quiet : quiet + size] = inner
    grid.setflags(write=False)
    return grid


def _apriltag_grid(tag_id: int, family: str) -> "np.ndarray":
    """A marker of an AprilTag family OpenCV lacks, from the AprilTag library's code table (as
    ``pupil-apriltags`` ships it): the same layout its detector samples."""
    import ctypes

    import numpy as np
    from pupil_apriltags import bindings

    lib = ctypes.CDLL(str(next(p for p in _apriltag_libraries(bindings) if p.exists())))
    create = getattr(lib, f"{family}_create", None)
    if create is None:
        raise MarkerIdError(f"unknown marker family {family!r}")
    create.restype = ctypes.POINTER(bindings._ApriltagFamily)
    fam = create().contents
    if not 0 <= tag_id < fam.ncodes:
        raise MarkerIdError(f"marker id {tag_id} does not exist in family {family}")
    width, border = fam.total_width, fam.width_at_border
    grid = np.full((width, width), 255, np.uint8)
    # Bit positions count from the border's top-left module, those outside it negative. The
    # border is one black module ring with white inside, or, reversed, a white ring with black
    # round it.
    offset = (width - border) // 2
    if fam.reversed_border:
        grid[offset - 1 : offset + border + 1, offset - 1 : offset + border + 1] = 0
        grid[offset : offset + border, offset : offset + border] = 255
    else:
        grid[offset : offset + border, offset : offset + border] = 0
        grid[offset + 1 : offset + border - 1, offset + 1 : offset + border - 1] = 255
    code = fam.codes[tag_id]
    for i in range(fam.nbits):
        # The first bit is the code's most significant; positions are signed (outside: < 0).
        x, y = (ctypes.c_int32(v).value + offset for v in (fam.bit_x[i], fam.bit_y[i]))
        grid[y, x] = 255 if (code >> (fam.nbits - 1 - i)) & 1 else 0
    return grid


def _apriltag_libraries(bindings: object) -> list["Path"]:
    from pathlib import Path

    folder = Path(getattr(bindings, "__file__", ".")).parent / "lib64"
    return sorted(folder.glob("libapriltag.so*")) + sorted(folder.glob("*.dll")) + sorted(folder.glob("*.dylib"))


def _opencv_dictionary(family: str) -> int:
    import cv2

    name = {"tag36h11": "APRILTAG_36h11", "tag25h9": "APRILTAG_25h9", "tag16h5": "APRILTAG_16h5"}.get(family, family)
    try:
        return int(getattr(cv2.aruco, f"DICT_{name}"))
    except AttributeError:
        raise MarkerIdError(f"unknown marker family {family!r}") from None
