"""Rule of Power's table (:class:`~companion.contract.TableSpec`): the club's World deck and each
player's Fate deck, the zones of a seat and of the table, the standard mats for 2-6 players, the
centre and Fate readers, and the seal ids and NFC records its cards own.

Seal ids (the first generation, AprilTag 36h11, printed since the first stickers; fixed for
good):

====================  =======================================  ============
marker                id                                       range
====================  =======================================  ============
World card n, owner   ``(slot * 52) + (n - 1)``, slot 0-7      0-415
World card n, nobody  ``416 + (n - 1)``                        416-467
Fate card n, owner    ``468 + slot * 8 + (n - 1)``, slot 0-7   468-531
====================  =======================================  ============

(the allocator's order, :mod:`companion.contract.allocation`: the World deck's copies, owner
slots 0-7 then the one without owner, then the Fate decks'). A tag carries the record type
``urn:nfc:ext:ruleofpower.org:card``; a simulated tag's UID has the byte ``A1``.
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
from companion.games.rule_of_power.catalogue import CATALOGUE
from companion.games.rule_of_power.engine.cards import EXPANSION_CARDS, FATE_CARDS, WORLD_DECK

__all__ = ["TABLE", "standard_mat", "DEMO_MAT"]

Point = tuple[float, float]

# --- the standard mats ------------------------------------------------------------------------

_MATS = {2: (900.0, 600.0), 3: (1100.0, 700.0), 4: (1000.0, 800.0), 5: (1200.0, 800.0), 6: (1200.0, 900.0)}
# Each seat's stretch of the mat edge: (side, start, end) as fractions along the side, walking
# clockwise (bottom edge right to left, left edge bottom to top, top edge left to right, ...).
_SEATS: dict[int, list[tuple[str, float, float]]] = {
    2: [("bottom", 0, 1), ("top", 0, 1)],
    3: [("bottom", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1)],
    4: [("bottom", 0, 1), ("left", 0, 1), ("top", 0, 1), ("right", 0, 1)],
    5: [("bottom", 0, 1), ("left", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1), ("right", 0, 1)],
    6: [("bottom", 0, 0.5), ("bottom", 0.5, 1), ("left", 0, 1), ("top", 0, 0.5), ("top", 0.5, 1), ("right", 0, 1)],
}
_EDGE = 20.0  # gap between the mat edge and a seat's zones
_DEPTH = 130.0  # a seat's zones, measured from _EDGE inwards: room for a card lying either way
_INNER = 180.0  # the centre and deck keep this far from every edge
_CAPTURE, _FATE, _GAP = 200.0, 140.0, 20.0
_MARKER_INSET = 45.0  # a corner marker's centre, from both mat edges


def standard_mat(players: int) -> MatPlan:
    """The mat shipped for ``players`` (2-6) players: per seat, clockwise from the bottom edge,
    its capture area then its Fate area along its stretch of edge; the centre and the deck in
    the middle."""
    if players not in _MATS:
        raise ValueError(f"standard layouts exist for 2-6 players, not {players}")
    w, h = _MATS[players]
    i = _MARKER_INSET
    zones: list[ZoneShape] = []
    for seat, (side, f0, f1) in enumerate(_SEATS[players]):
        capture, fate = _seat_zones(side, f0, f1, w, h)
        zones += [ZoneShape(f"capture:{seat}", capture), ZoneShape(f"fate:{seat}", fate)]
    deck_w = 110.0
    x0, x1, y0, y1 = _INNER, w - _INNER, _INNER, h - _INNER
    zones.insert(0, ZoneShape("deck", _rect(x1 - deck_w, (y0 + y1) / 2 - 75, x1, (y0 + y1) / 2 + 75)))
    zones.insert(0, ZoneShape("centre", _rect(x0, y0, x1 - deck_w - 15, y1)))
    return MatPlan(f"{players} players", players, (w, h), ((i, i), (w - i, i), (w - i, h - i), (i, h - i)), tuple(zones))


def _seat_zones(side: str, f0: float, f1: float, w: float, h: float) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    # Lay the two rectangles out along the seat's stretch of edge, capture area first (on the
    # player's left as they face the table), centred in the stretch; then turn into place.
    length = w if side in ("bottom", "top") else h
    span0, span1 = f0 * length, f1 * length
    mid = (span0 + span1) / 2
    total = _CAPTURE + _GAP + _FATE
    a0 = mid - total / 2
    runs = [(a0, a0 + _CAPTURE), (a0 + _CAPTURE + _GAP, a0 + total)]
    d0, d1 = _EDGE, _EDGE + _DEPTH
    out = []
    for s0, s1 in runs:
        if side == "bottom":  # walking right to left along the bottom edge
            out.append(_rect(w - s1, h - d1, w - s0, h - d0))
        elif side == "left":  # bottom to top
            out.append(_rect(d0, h - s1, d1, h - s0))
        elif side == "top":  # left to right
            out.append(_rect(s0, d0, s1, d1))
        else:  # right edge, top to bottom
            out.append(_rect(w - d1, s0, w - d0, s1))
    return out[0], out[1]


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


DEMO_MAT = MatPlan(
    "demo table, 2 players",
    2,
    (640.0, 360.0),
    ((40.0, 40.0), (600.0, 40.0), (600.0, 320.0), (40.0, 320.0)),
    (
        ZoneShape("centre", _rect(90, 110, 470, 250)),
        ZoneShape("deck", _rect(490, 110, 590, 250)),
        ZoneShape("capture:0", _rect(320, 260, 550, 355)),
        ZoneShape("fate:0", _rect(90, 260, 300, 355)),
        ZoneShape("capture:1", _rect(90, 5, 320, 100)),
        ZoneShape("fate:1", _rect(340, 5, 550, 100)),
    ),
)
"""The demo table's mat for two players: small enough that a 1080p camera, real or virtual,
reads every seal at about four pixels per module (the camera demo and the tests use it; a real
table uses the standard mats)."""


# --- the table ----------------------------------------------------------------------------------

_WORLD = Deck(
    "world",
    "World",
    WORLD_DECK + EXPANSION_CARDS,
    "W001-W040",
    Use.SHARED,
    owner_slots=True,
    unowned=True,
    parts=(Part("expansion", "W041-W052", EXPANSION_CARDS, expansion=True),),
)
"""The World deck (R1), with the Higher Powers (R2): the club's, or a player's own."""

_FATE_DECK = Deck("fate", "Fate", FATE_CARDS, "F001-F008", Use.PER_PLAYER, owner_slots=True)
"""Each player's Fate cards (R3, R18)."""

TABLE = TableSpec(
    game=CATALOGUE.game,
    decks=(_WORLD, _FATE_DECK),
    seat_zones=(
        ZoneKind("capture", "the cards the player (or their team) captured, face down"),
        ZoneKind("fate", "the player's Fate deck and the Fate cards lying in front of them (a Mystic Crystal, an Exorcist)"),
    ),
    table_zones=(
        ZoneKind("centre", "the cards face up in the centre", required=False),
        ZoneKind("deck", "the World cards not yet dealt, face down", required=False),
    ),
    mats=Mats(tuple((n, f"{n}-players.json") for n in sorted(_MATS)), standard_mat, demo=DEMO_MAT),
    readers=(
        ReaderRole("centre", "the card played, and the cards it takes where a capture can be made more than one way; the first deal's centre cards"),
        ReaderRole("fate", "the player's Fate draws, Dark Decay discards, and the tap that names a Thief's or a Mirror Swap's target", per_seat=True),
    ),
    turns=Turns.IN_TURN,
    claim=Claim(first_generation=range(0, 532), nfc_record_type=CATALOGUE.nfc_record_type, tag_bytes=(0xA1,)),
    stickers=Stickers(example="6D W036 ann / Servant of Darkness", names_game=False),
)
"""Rule of Power's table."""
