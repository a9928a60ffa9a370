"""Circle of Power's table (:class:`~companion.contract.TableSpec`): one standard deck, someone's
own; four seats whoever plays (C4), each with its city, battle card and line of victories; the
city deck in the middle; the play, city and line readers; and the seal ids and NFC records its
cards own.

Seal ids: ``587 + slot * 54 + index`` for the card at ``index`` of the catalogue (2S-AS,
2H-AH, 2D-AD, 2C-AC, X1, X2: 0-53) in the deck of owner slot ``slot`` (0-7): ids 587-1018 of
the first generation, the codes that follow AprilTag 36h11's (432 of 36h10), so that no Rule of
Power seal (ids 0-531) nor mat corner (532-535) is ever one of them and a card seen by the
camera names its game. A standard deck always names its owner, so that decks mixed at a club
can be sorted. A tag carries the record type ``urn:nfc:ext:ruleofpower.org:cop-card``; a
simulated tag's UID has the byte ``C0``.

>>> TABLE.seals.encode(Card.from_id("10H"), 2), TABLE.seals.decode(587 + 2 * 54 + 21)
(716, SealMarker(card=Card.from_id('10H'), slot=2))
>>> TABLE.seals.decode(7) is None
True
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
from companion.games.circle_of_power.cards import ALL_CARDS, BATTLE_DECK, CARDS, CITY_DECK, Card

__all__ = ["TABLE", "mat"]

_MAT = (920.0, 620.0)
# Each seat: its city beside its line of victories along its edge, its battle card in front of
# the city (towards the middle), turned about the middle so the four seats interlock
# (a pinwheel) and every zone keeps clear of the corner markers. (x0, y0, x1, y1) in mm.
_SEATS: tuple[dict[str, tuple[float, float, float, float]], ...] = (
    # seat 0, the bottom edge
    {"line": (350, 470, 650, 600), "city": (660, 470, 750, 600), "battle": (660, 350, 750, 460)},
    # seat 1, the left edge
    {"line": (20, 95, 150, 425), "city": (20, 435, 150, 535), "battle": (160, 435, 250, 530)},
    # seat 2, the top edge
    {"city": (170, 20, 260, 150), "line": (270, 20, 570, 150), "battle": (170, 160, 260, 270)},
    # seat 3, the right edge
    {"city": (770, 85, 900, 195), "line": (770, 205, 900, 535), "battle": (660, 90, 760, 190)},
)
_DECK = (405.0, 235.0, 515.0, 385.0)
_MARKER_INSET = 45.0  # a corner marker's centre, from both mat edges
_SEAT_ZONES = (
    ZoneKind("city", "the emperor's city"),
    ZoneKind("battle", "the battle card played, between the city and the middle"),
    ZoneKind("line", "the line of victories"),
)


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def mat(players: int = 4) -> MatPlan:
    """Circle of Power's mat, for 2-4 players: four seats always (the missing players' are the
    dummies', C4), each with its city, battle card and line of victories, and the city deck in
    the middle. A 920 x 620 mm mat: at 1080p its seals are 2.6 pixels per module."""
    if not 2 <= players <= 4:
        raise ValueError(f"Circle of Power is played by 2-4 players, not {players}")
    w, h = _MAT
    i = _MARKER_INSET
    zones = [ZoneShape("city-deck", _rect(*_DECK))]
    for seat, places in enumerate(_SEATS):
        zones += [ZoneShape(f"{kind.name}:{seat}", _rect(*places[kind.name])) for kind in _SEAT_ZONES]
    return MatPlan("Circle of Power, 4 seats", 4, (w, h), ((i, i), (w - i, i), (w - i, h - i), (i, h - i)), tuple(zones))


_STANDARD = Deck(
    "standard",
    "standard deck",
    ALL_CARDS,
    "2-10, J, Q, K, A and the jokers",
    Use.SHARED,
    owner_slots=True,
    parts=(Part("battle", "2-10", BATTLE_DECK), Part("city", "J, Q, K, A and the jokers", CITY_DECK)),
)
"""The 54 cards: the battle deck and the city deck (C1, C2), in catalogue order."""

TABLE = TableSpec(
    game=CARDS.game,
    decks=(_STANDARD,),
    seat_zones=_SEAT_ZONES,
    table_zones=(ZoneKind("city-deck", "the city deck, its next available city face up on it (at a season's set-up the joker at its bottom)"),),
    mats=Mats(((2, "circle-of-power.json"), (3, "circle-of-power.json"), (4, "circle-of-power.json")), mat),
    readers=(
        ReaderRole("play", "each battle card as it is played, in turn"),
        ReaderRole("city", "the city cards dealt at a season's set-up, the city turned up, a city coming to the winner's seat"),
        ReaderRole("line", "what goes into a line of victories or leaves one"),
    ),
    turns=Turns.IN_TURN,
    claim=Claim(first_generation=range(587, 1019), nfc_record_type=CARDS.nfc_record_type, tag_bytes=(0xC0,)),
    stickers=Stickers(
        where=(
            "Cut along the grey outlines. Stick each sticker on the card it names, upright, in the",
            "bottom left corner of the face (the corner without an index), 2 mm from both edges.",
        ),
        corner="upright in the bottom left corner of the card's face, the corner without an index, 2 mm from both edges, words at the bottom.",
        example="10H ann / ten of hearts",
    ),
    seats=4,
    seats_rule="C4",
    seats_are_players=False,
)
"""Circle of Power's table."""
