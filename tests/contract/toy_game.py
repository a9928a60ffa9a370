"""A third game for the tests, registered only while a test needs it: a small table of the kind
the next games have (Ruse and Bruise's decks in each player's colour, their backs seen face
down, a shared goal deck), claiming a block of the seal dictionary like any game packaged
apart. It has cards and a table, nothing more: what the camera and the readers ask of a game."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from companion.contract import (
    CardForm,
    Claim,
    Deck,
    MatPlan,
    Mats,
    OneOfAKind,
    ReaderRole,
    Stickers,
    TableSpec,
    Turns,
    UnknownCardError,
    Use,
    ZoneKind,
    ZoneShape,
)

NAME = "test-columns"
BLOCK = 40
"""The seal block the toy claims (ids 2560-2623)."""


class ToyCard(OneOfAKind):
    __slots__ = ("id", "index", "title")
    _by_id: dict[str, ToyCard] = {}

    game = NAME

    @classmethod
    def make(cls, card_id: str, title: str) -> ToyCard:
        card = object.__new__(cls)
        object.__setattr__(card, "id", card_id)
        object.__setattr__(card, "index", len(cls._by_id))
        object.__setattr__(card, "title", title)
        cls._by_id[card_id] = card
        return card

    @classmethod
    def from_id(cls, card_id: str) -> ToyCard:
        try:
            return cls._by_id[card_id.strip().upper()]
        except KeyError:
            raise UnknownCardError(card_id, f"{card_id!r} is no card of {NAME}: {', '.join(cls._by_id)}") from None

    @property
    def short(self) -> str:
        return self.id

    @property
    def label(self) -> str:
        return self.id

    @property
    def long_label(self) -> str:
        return f"{self.id} {self.title}"


INFLUENCE = tuple(ToyCard.make(i, t) for i, t in (("KING", "King"), ("QUEEN", "Queen"), ("TRAITOR", "Traitor")))
GOALS = tuple(ToyCard.make(i, t) for i, t in (("ALCHEMY-1", "alchemy 1"), ("ALCHEMY-2", "alchemy 2")))
COLOURS = ("blue", "white", "red")


class ToyCards:
    game = NAME
    forms = (CardForm("the identifier", "KING, alchemy-1"),)
    nfc_record_type = "urn:nfc:ext:example.org:test-card"

    @property
    def markers(self) -> object:
        return TABLE.seals

    def __iter__(self) -> Iterator[ToyCard]:
        return iter(ToyCard._by_id.values())

    def from_id(self, card_id: str) -> ToyCard:
        return ToyCard.from_id(card_id)

    def parse(self, text: str) -> ToyCard:
        return ToyCard.from_id(text)

    def parse_many(self, text: str | Iterable[str]) -> tuple[ToyCard, ...]:
        parts = [p for p in (text.split(",") if isinstance(text, str) else text) if p.strip()]
        return tuple(self.parse(p) for p in parts)

    def sticker_label(self, card: ToyCard) -> str:
        return card.id

    def sticker_name(self, card: ToyCard) -> str:
        return card.title

    def nfc_text(self, card: ToyCard, owner: str) -> str:
        return f"{TITLE}: {card.title} ({owner})"


TITLE = "Test Columns"


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _mat(players: int) -> MatPlan:
    """A small mat (a 1080p camera reads its seals at about four pixels per module): each seat
    a column along its edge, the goals in the middle."""
    w, h = 640.0, 360.0
    seats = [ZoneShape(f"column:{s}", _rect(90 + 200 * s, 250, 260 + 200 * s, 355)) for s in range(players)]
    return MatPlan(f"{TITLE}, {players} players", players, (w, h), ((40.0, 40.0), (600.0, 40.0), (600.0, 320.0), (40.0, 320.0)),
                   (ZoneShape("goals", _rect(90, 20, 540, 240)), *seats))


TABLE = TableSpec(
    game=NAME,
    decks=(
        Deck("influence", "influence", INFLUENCE, "KING, QUEEN, TRAITOR", Use.PER_PLAYER, colours=COLOURS, backs=True),
        Deck("goals", "goal deck", GOALS, "alchemy 1-2", Use.SHARED, unowned=True, backs=True),
    ),
    seat_zones=(ZoneKind("column", "the cards placed under the player's goal card"),),
    table_zones=(ZoneKind("goals", "the goal cards turned up"),),
    mats=Mats(((2, f"{NAME}-2-players.json"), (3, f"{NAME}-3-players.json")), _mat, demo=_mat(2)),
    readers=(ReaderRole("column", "a card placed in the player's column", per_seat=True),),
    turns=Turns.IN_TURN,
    claim=Claim(seal_blocks=(BLOCK,), nfc_record_type=ToyCards.nfc_record_type, tag_bytes=(0x7E,)),
    stickers=Stickers(example="KING blue / King"),
)


class ToyGame:
    name = NAME
    title = TITLE
    rulings = "T1"
    min_players = 2
    max_players = 3
    options = ()
    cards = ToyCards()
    table = TABLE


GAME = ToyGame()
