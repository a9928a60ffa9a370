"""Love, Money, Power, Death's table (:class:`~companion.contract.TableSpec`): one shared deck
whose backs carry seals too (a committed card lies face down, L6), a seat for each player with
its pile, its commit place and its court (L5, L6, L10), the noble pile, the turned noble and the
discards in the middle (L7, L10), the standard mats for 2-6 players, a commit reader per player
and the centre reader, every player committing at once (L6), and the seal ids and NFC records
its cards own.

**The deck** holds the 54 cards the companion knows (L1, L3): the twelve noble identifiers (a
deck holds ten of them: a rank 2 and a rank 3 of each suit, and two rank-5 nobles whose suits
depend on the deck), the 36 resources and the six agents. ``--deck love-power`` (and the five
other pairs of suits, as ``rop simulate --fives`` names them) is the 52 cards of a deck whose
rank-5 nobles are N5L and N5P; ``all`` is every card. A deck is the club's (no owner) or a
player's own, named on its seals, as Rule of Power's World deck.

**Seal ids**: blocks 16-23 (ids 1024-1535), in the allocator's order: for each owner slot
``s`` (0-7) the 54 fronts in catalogue order, ids ``1024 + 54 s + index``; the fronts without
owner 1456-1509; then one back per copy, slots 0-7 then none, 1510-1518. A tag carries the
record type ``urn:nfc:ext:ruleofpower.org:lmpd-card``; a simulated tag's UID has the byte ``4C``.

>>> from companion.games.love_money_power_death.cards import Card
>>> TABLE.seals.encode(Card.from_id("N2L"), 0), TABLE.seals.encode(Card.from_id("A6"), None)
(1024, 1509)
>>> TABLE.seals.decode(1024 + 54 * 2 + 12)
SealMarker(card=Card.from_id('1La'), slot=2)
>>> TABLE.seals.meaning(1518).face, TABLE.seals.meaning(1518).copy
(<Face.BACK: 'back'>, None)
>>> [len(TABLE.choices(expansions_apart=True)[name]) for name in ("love-power", "money-death", "all")]
[52, 52, 54]
"""

from __future__ import annotations

from companion.contract import (
    Claim,
    Deck,
    MatPlan,
    Mats,
    Part,
    ReaderRole,
    Stickers,
    TableSpec,
    Turns,
    Use,
    ZoneKind,
    ZoneShape,
)
from companion.games.love_money_power_death.cards import ALL_CARDS, CARDS
from companion.games.love_money_power_death.setup import FIVES, deck_nobles

__all__ = [
    "TABLE",
    "mat",
    "MAT_MM",
    "PLAYERS",
    "COMMIT",
    "CENTRE",
    "PILE",
    "COURT",
    "NOBLE",
    "NOBLE_PILE",
    "DISCARDS",
]

Point = tuple[float, float]

PLAYERS = range(2, 7)
"""The players the standard mats seat: two to six (L4 allows more, with fewer nobles; their
tables lay out a mat of their own, ``--layout``)."""

PILE = "pile"
COMMIT = "commit"
COURT = "court"
NOBLE_PILE = "nobles"
NOBLE = "noble"
DISCARDS = "discards"
CENTRE = "centre"
"""The reader the noble is tapped on as it is turned (L7)."""

MAT_MM = (1000.0, 550.0)
"""Every standard mat's size: 550 mm deep, so that a 1080p camera framing it reads the seals at
2.8-2.9 pixels per module (docs/vision.md), and 1000 mm wide, for three seats along each long
edge."""

_MARKER_INSET = 45.0  # a corner marker's centre, from both mat edges
_SIDE = 85.0  # the seats keep clear of the corner markers (their 60 mm squares end 75 mm in)
_EDGE = 10.0  # between the mat's edge and the court
_ROW = 100.0  # a row of zones: a card (88 mm) upright, with room to lay it by hand
_GAP = 6.0
_CARD = 82.0  # a pile's or a commit place's width: a card (63 mm) with room
# How many seats sit along the bottom and the top edge; seats are numbered clockwise, seat 0 at
# the bottom right (the bottom edge walked right to left, then the top edge left to right).
_EDGES = {2: (1, 1), 3: (2, 1), 4: (2, 2), 5: (3, 2), 6: (3, 3)}

_SEAT_ZONES = (
    ZoneKind(PILE, "the player's pile, face down (L5); the hand is held, off the mat"),
    ZoneKind(COMMIT, "the card the player commits, face down (L6), turned face up at the reveal (L7)"),
    ZoneKind(COURT, "the nobles the player won, face up, each laid 25 mm to the right of the one before so every seal shows (L10)"),
)
_TABLE_ZONES = (
    ZoneKind(NOBLE_PILE, "the noble pile, face down (L5)"),
    ZoneKind(NOBLE, "the round's noble, turned face up once every player has committed (L7)"),
    ZoneKind(DISCARDS, "the revealed cards and the discarded nobles, out of play (L10)", required=False),
)


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def mat(players: int) -> MatPlan:
    """The standard mat of a table of ``players`` (2-6), 1000 x 550 mm: the seats along the
    two long edges, each with its court along the edge and, in front of it towards the middle,
    its pile and its commit place; the noble pile, the turned noble and the discards across the
    middle. At 1080p its seals are 2.8 pixels per module."""
    if players not in _EDGES:
        raise ValueError(f"Love, Money, Power, Death's standard mats seat 2-6 players, not {players}")
    w, h = MAT_MM
    i = _MARKER_INSET
    bottom, top = _EDGES[players]
    zones: list[ZoneShape] = []
    seat = 0
    for edge, count in (("bottom", bottom), ("top", top)):
        stretch = (w - 2 * _SIDE) / count
        for k in range(count):
            # The bottom edge is walked right to left, the top edge left to right (clockwise).
            x0 = w - _SIDE - (k + 1) * stretch if edge == "bottom" else _SIDE + k * stretch
            zones += _seat(seat, edge, x0 + _GAP / 2, x0 + stretch - _GAP / 2, h)
            seat += 1
    mid = h / 2
    y0, y1 = mid - _ROW / 2, mid + _ROW / 2
    cx = w / 2
    zones.insert(0, ZoneShape(NOBLE_PILE, _rect(cx - 150, y0, cx - 150 + _CARD + 8, y1)))
    zones.insert(1, ZoneShape(NOBLE, _rect(cx - 45, y0, cx + 45, y1)))
    zones.insert(2, ZoneShape(DISCARDS, _rect(cx + 70, y0, cx + 200, y1)))
    name = f"Love, Money, Power, Death, {players} players"
    return MatPlan(name, players, (w, h), ((i, i), (w - i, i), (w - i, h - i), (i, h - i)), tuple(zones))


def _seat(seat: int, edge: str, x0: float, x1: float, h: float) -> list[ZoneShape]:
    """One seat's zones in its stretch of edge ``x0``-``x1``: its court along the edge, then,
    towards the middle, its pile and its commit place side by side, the commit place nearer the
    middle of the stretch's row (on the player's right at the bottom edge, as they face it)."""
    near = (h - _EDGE - _ROW, h - _EDGE) if edge == "bottom" else (_EDGE, _EDGE + _ROW)
    far = (near[0] - _GAP - _ROW, near[0] - _GAP) if edge == "bottom" else (near[1] + _GAP, near[1] + _GAP + _ROW)
    mid = (x0 + x1) / 2
    if edge == "bottom":
        pile, commit = (mid - _GAP / 2 - _CARD, mid - _GAP / 2), (mid + _GAP / 2, mid + _GAP / 2 + _CARD)
    else:  # the player faces the camera upside down: their right is the camera's left
        commit, pile = (mid - _GAP / 2 - _CARD, mid - _GAP / 2), (mid + _GAP / 2, mid + _GAP / 2 + _CARD)
    return [
        ZoneShape(f"{PILE}:{seat}", _rect(pile[0], far[0], pile[1], far[1])),
        ZoneShape(f"{COMMIT}:{seat}", _rect(commit[0], far[0], commit[1], far[1])),
        ZoneShape(f"{COURT}:{seat}", _rect(x0, near[0], x1, near[1])),
    ]


def _pair_part(fives: str) -> Part:
    """The 52 cards of a deck whose rank-5 nobles have the suits ``fives`` (L1)."""
    nobles = deck_nobles(fives)
    chosen = set(nobles) | {c for c in ALL_CARDS if not c.is_noble}
    five = " and ".join(c.id for c in nobles if c.rank == 5)
    return Part(fives, f"the 52 cards of a deck with {five}", tuple(c for c in ALL_CARDS if c in chosen))


_DECK = Deck(
    "deck",
    "Balance of Power deck",
    ALL_CARDS,
    "the 52 cards (and the two rank-5 nobles of other decks)",
    Use.SHARED,
    owner_slots=True,
    unowned=True,
    backs=True,
    parts=tuple(_pair_part(pair) for pair in FIVES),
)
"""The cards of L1, in catalogue order (N2L ... N5D, 1La ... 5D, A1 ... A6): the club's deck
or a player's own, with a seal on every back naming whose deck it is."""

TABLE = TableSpec(
    game=CARDS.game,
    decks=(_DECK,),
    seat_zones=_SEAT_ZONES,
    table_zones=_TABLE_ZONES,
    mats=Mats(tuple((n, f"love-money-power-death-{n}-players.json") for n in PLAYERS), mat),
    readers=(
        ReaderRole(COMMIT, "the card the player commits, tapped face down as they lay it (L6)", per_seat=True),
        ReaderRole(CENTRE, "the noble, tapped as it is turned face up (L7)"),
    ),
    turns=Turns.AT_ONCE,
    claim=Claim(seal_blocks=tuple(range(16, 24)), nfc_record_type=CARDS.nfc_record_type, tag_bytes=(0x4C,)),
    stickers=Stickers(
        where=(
            "Cut along the grey outlines. Stick each sticker on the card it names, upright, in the",
            "bottom left corner of the face, 2 mm from both edges; a 'back' sticker on any card's back.",
        ),
        corner="upright in the bottom left corner of the card's face, 2 mm from both edges, words at the bottom, reading the way the card's name does.",
        example="4Mb ann / Money 4 (copy b)",
    ),
)
"""Love, Money, Power, Death's table."""
