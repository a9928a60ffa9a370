"""Goofspiel's table: each player's five bid cards (their own, named on their stickers, with a
back that names only whose they are, since a bid lies face down), the shared prize deck, and a
small mat: a place for each player's bid and the prize in the middle. It claims one block of the
seal dictionary, as a game packaged apart does."""

from __future__ import annotations

from companion.contract import Claim, Deck, MatPlan, Mats, ReaderRole, Stickers, TableSpec, Turns, Use, ZoneKind, ZoneShape
from goofspiel.rules import BIDS, PRIZES


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def mat(players: int) -> MatPlan:
    """A 640 x 360 mm mat: the players' bids along the bottom edge, the prize in the middle."""
    if not 2 <= players <= 4:
        raise ValueError(f"Goofspiel is played by 2-4 players, not {players}")
    bids = [ZoneShape(f"bid:{s}", _rect(70 + 130 * s, 240, 180 + 130 * s, 350)) for s in range(players)]
    corners = ((40.0, 40.0), (600.0, 40.0), (600.0, 320.0), (40.0, 320.0))
    return MatPlan(f"Goofspiel, {players} players", players, (640.0, 360.0), corners, (ZoneShape("prize", _rect(250, 60, 390, 220)), *bids))


TABLE = TableSpec(
    game="goofspiel",
    decks=(
        Deck("bids", "bid cards", BIDS, "B1-B5", Use.PER_PLAYER, owner_slots=True, backs=True),
        Deck("prizes", "prize deck", PRIZES, "P1-P5", Use.SHARED, unowned=True),
    ),
    seat_zones=(ZoneKind("bid", "the player's bid, face down until the reveal"),),
    table_zones=(ZoneKind("prize", "the prize turned up"),),
    mats=Mats(((2, "goofspiel-2-players.json"), (3, "goofspiel-3-players.json"), (4, "goofspiel-4-players.json")), mat, demo=mat(2)),
    readers=(ReaderRole("bid", "the player's bid, tapped face down", per_seat=True), ReaderRole("prize", "the prize, tapped as it is turned up")),
    turns=Turns.AT_ONCE,
    claim=Claim(seal_blocks=(100,), nfc_record_type="urn:nfc:ext:goofspiel.example:card", tag_bytes=(0x6F,)),
    stickers=Stickers(example="B3 ann / bid 3"),
)
