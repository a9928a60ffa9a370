"""Ruse and Bruise's table (:class:`~companion.contract.TableSpec`): the 25 influence cards in each
of the box's six colours (B1), their backs seen face down; the 36 goal cards (B5); a row of
columns, one per player (B7), each under its goal stack; each player's stack, discard pile, goal
cards won and hand; the standard mats for 2-6 players; a reader at each column; and the seal
ids and NFC records its cards own.

Seal ids: blocks 24-27 of the seal dictionary (ids 1536-1791), in the allocator's order
(:mod:`companion.contract.allocation`): the influence cards colour by colour (blue, white, red,
yellow, green, black), each colour's 25 in catalogue order, then the six colours' backs; then
the 36 goal cards and their one back. A card placed face down in a column is thus seen as "a
back of blue's influence", never as the card it is (B29). A tag carries the record type
``urn:nfc:ext:ruleofpower.org:rab-card``; a simulated tag's UID has the byte ``AB``.

>>> from companion.games.ruse_and_bruise.cards import Goal, Influence
>>> TABLE.seals.encode(Influence.from_id("KING"), 0), TABLE.seals.encode(Influence.from_id("BEGGAR"), 5)
(1536, 1685)
>>> TABLE.seals.back(INFLUENCE_DECK, "white"), TABLE.seals.encode(Goal.from_id("music-5"), None), TABLE.seals.back(GOAL_DECK, None)
(1687, 1727, 1728)
>>> [z.name for z in mat(3).zones][:7]
['goal-1', 'column-1', 'goal-2', 'column-2', 'goal-3', 'column-3', 'stack:0']
"""

from __future__ import annotations

from companion.contract import (
    Claim,
    Deck,
    MatPlan,
    Mats,
    ReaderRole,
    Stickers,
    TableSpec,
    Turns,
    Use,
    ZoneKind,
    ZoneShape,
)
from companion.games.ruse_and_bruise.cards import CARDS, COLOURS, GOALS, INFLUENCE

__all__ = [
    "TABLE",
    "INFLUENCE_DECK",
    "GOAL_DECK",
    "GOAL",
    "COLUMN",
    "SEAT_ZONES",
    "mat",
    "goal_zone",
    "column_zone",
    "column_of_zone",
    "SEAL_BLOCKS",
    "TAG_BYTE",
]

Point = tuple[float, float]

SEAL_BLOCKS = (24, 25, 26, 27)
"""The blocks of the seal dictionary the game claims: 6 x 25 influence fronts, 6 backs, 36
goal fronts and their back, 193 of 256 ids."""
TAG_BYTE = 0xAB
"""The byte of a simulated tag's UID that names the game (docs/nfc.md)."""

GOAL = "goal"
"""The numbered zones of the goal stacks: ``goal-1`` ... (B7): stack k, its top card turned
face up at the head of column k."""
COLUMN = "column"
"""The numbered zones of the columns: ``column-1`` ... (B7): the cards placed under goal card
k, from the goal card down."""

SEAT_ZONES = (
    ZoneKind("stack", "the player's stack, face down (B6, B9)"),
    ZoneKind("discard", "the player's discard pile (B9, B12, B27)"),
    ZoneKind("won", "the goal cards the player has won, face down (B27)", required=False),
    ZoneKind("hand", "the player's hand, where they lay it down", required=False),
)


def goal_zone(column: int) -> str:
    """The zone of goal stack ``column`` (1 to N): ``goal-2``."""
    return f"{GOAL}-{column}"


def column_zone(column: int) -> str:
    """The zone of column ``column`` (1 to N): ``column-2``."""
    return f"{COLUMN}-{column}"


def column_of_zone(zone: str | None, kind: str = COLUMN) -> int | None:
    """The column number of a numbered zone of ``kind`` (``"column-2"`` -> 2), ``None`` for
    another zone."""
    if zone is None:
        return None
    name, _, number = zone.rpartition("-")
    return int(number) if name == kind and number.isdigit() and number[0] != "0" else None


# --- the standard mats ------------------------------------------------------------------------
#
# Seen from above, as the camera sees it: the columns in a row across the middle, column 1 on
# the left (the Explorer moves to the right, B11), each goal stack at the head of its column;
# the players' places along the mat's edges, clockwise from seat 0 at the bottom edge. A mat is
# 580 mm deep, so that a 1080p camera over it reads every seal at 2.7-2.8 pixels per module
# (the seal dictionary's blocks are read at 99 % there, docs/vision.md); 760-1070 mm wide.

_DEPTH_MM = 580.0
_WIDTH_MM = {2: 760.0, 3: 800.0, 4: 840.0, 5: 920.0, 6: 1070.0}
# Each seat's stretch of the mat's edge: (side, start, end) as fractions along the side,
# walking clockwise (bottom edge right to left, left edge bottom to top, top edge left to right,
# right edge top to bottom).
_SEATS: dict[int, list[tuple[str, float, float]]] = {
    2: [("bottom", 0, 1), ("top", 0, 1)],
    3: [("bottom", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1)],
    4: [("bottom", 0, 0.5), ("bottom", 0.5, 1), ("top", 0, 0.5), ("top", 0.5, 1)],
    5: [("bottom", 0, 0.5), ("bottom", 0.5, 1), ("left", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1)],
    6: [("bottom", 0, 0.5), ("bottom", 0.5, 1), ("left", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1), ("right", 0, 1)],
}
_MARKER_INSET = 45.0  # a corner marker's centre, from both mat edges
_CLEAR = 80.0  # zones along an edge keep this far from the mat's corners (the corner markers)
_EDGE = 8.0  # between the mat's edge and a seat's zones
_SPOT = (68.0, 92.0)  # one card's place of a seat: along the edge, and deep (a card 63 x 88)
_SPOT_GAP = 6.0
_BAND = _EDGE + _SPOT[1] + 8.0  # the seats' band along an edge, and the gap after it
_SIDE = 10.0  # the middle keeps this far from an edge without seats beside it
_COLUMN_GAP = 8.0
_GOAL_DEPTH = 92.0  # a goal stack with its top card turned up


def mat(players: int) -> MatPlan:
    """The standard mat for ``players`` (2-6) players: the goal stacks and columns 1 to N in a
    row across the middle, left to right; each seat's stack, discard pile, goal cards won and
    hand along its stretch of edge, clockwise from seat 0 at the bottom edge (2-4 players on the
    bottom and top edges, a fifth on the left, a sixth on the right)."""
    if players not in _WIDTH_MM:
        raise ValueError(f"Ruse and Bruise is played by 2-6 players, not {players} (B6)")
    w, h = _WIDTH_MM[players], _DEPTH_MM
    sides = {side for side, _, _ in _SEATS[players]}
    x0 = _BAND if "left" in sides else _SIDE
    x1 = w - (_BAND if "right" in sides else _SIDE)
    y0, y1 = _BAND, h - _BAND
    width = (x1 - x0 - (players - 1) * _COLUMN_GAP) / players
    zones: list[ZoneShape] = []
    for k in range(players):
        left = x0 + k * (width + _COLUMN_GAP)
        zones.append(ZoneShape(goal_zone(k + 1), _rect(left, y0, left + width, y0 + _GOAL_DEPTH)))
        zones.append(ZoneShape(column_zone(k + 1), _rect(left, y0 + _GOAL_DEPTH + _COLUMN_GAP, left + width, y1)))
    for seat, (side, f0, f1) in enumerate(_SEATS[players]):
        for kind, spot in zip(SEAT_ZONES, _seat_spots(side, f0, f1, w, h)):
            zones.append(ZoneShape(f"{kind.name}:{seat}", spot))
    i = _MARKER_INSET
    return MatPlan(f"Ruse and Bruise, {players} players", players, (w, h), ((i, i), (w - i, i), (w - i, h - i), (i, h - i)), tuple(zones))


def _seat_spots(side: str, f0: float, f1: float, w: float, h: float) -> list[tuple[Point, ...]]:
    """A seat's four places (stack, discard pile, goal cards won, hand) side by side along its
    stretch of edge, from the player's right as they face the table (walking clockwise), centred
    in the stretch."""
    length = w if side in ("bottom", "top") else h
    span0 = max(f0 * length, _CLEAR)
    span1 = min(f1 * length, length - _CLEAR)
    along, deep = _SPOT
    total = len(SEAT_ZONES) * along + (len(SEAT_ZONES) - 1) * _SPOT_GAP
    a = (span0 + span1) / 2 - total / 2
    out = []
    for _ in SEAT_ZONES:
        s0, s1 = a, a + along
        d0, d1 = _EDGE, _EDGE + deep
        if side == "bottom":  # walking right to left along the bottom edge
            out.append(_rect(w - s1, h - d1, w - s0, h - d0))
        elif side == "left":  # bottom to top
            out.append(_rect(d0, h - s1, d1, h - s0))
        elif side == "top":  # left to right
            out.append(_rect(s0, d0, s1, d1))
        else:  # the right edge, top to bottom
            out.append(_rect(w - d1, s0, w - d0, s1))
        a += along + _SPOT_GAP
    return out


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# --- the table ----------------------------------------------------------------------------------

INFLUENCE_DECK = Deck(
    "influence",
    "influence cards",
    INFLUENCE,
    "KING ... BEGGAR, 25 a colour",
    Use.PER_PLAYER,
    colours=COLOURS,
    backs=True,
)
"""Each player's 25 influence cards in their colour (B1), whose backs name the colour: placed
face down in a column (B8), a card is seen as a back of its colour."""

GOAL_DECK = Deck("goals", "goal cards", GOALS, "alchemy-1 ... music-5, 36 cards", Use.SHARED, unowned=True, backs=True)
"""The 36 goal cards (B5), the table's; their backs (the goal stacks, the goal cards won) carry
one seal too."""

TABLE = TableSpec(
    game=CARDS.game,
    decks=(INFLUENCE_DECK, GOAL_DECK),
    seat_zones=SEAT_ZONES,
    table_zones=(
        ZoneKind(GOAL, "goal stack k, face down, its top card turned face up at the head of column k (B7)", numbered=True),
        ZoneKind(COLUMN, "the influence cards placed under goal card k, from the goal card down (B7, B8)", numbered=True),
    ),
    mats=Mats(tuple((n, f"ruse-and-bruise-{n}-players.json") for n in sorted(_WIDTH_MM)), mat),
    readers=(
        ReaderRole(
            COLUMN,
            "the card a player places in the column, tapped through its back before it is laid face down (B8), a card placed "
            "under a Cloak there (B14), the goal card turned over for the column at a round's start (B7), the goal card a "
            "Traitor brings (B15)",
            numbered=True,
        ),
    ),
    turns=Turns.IN_TURN,
    claim=Claim(seal_blocks=SEAL_BLOCKS, nfc_record_type=CARDS.nfc_record_type, tag_bytes=(TAG_BYTE,)),
    stickers=Stickers(
        where=(
            "Cut along the grey outlines. Stick each sticker upright in the bottom left corner of",
            "the face of the card it names, 2 mm from both edges; 'back' ones on its deck's backs.",
        ),
        corner="upright in the bottom left corner of the card's face, 2 mm from both edges, words at the bottom.",
        example="KING blue / King",
    ),
)
"""Ruse and Bruise's table."""
