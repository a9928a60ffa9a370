"""The cards of Circle of Power (C1-C3): a standard deck of 52 cards and two jokers, the
battle deck and the city deck, and the circle that says which city may attack which.

A :class:`Card` is a small immutable value with exactly one instance per card, so cards
compare and hash by identity. Identifiers are rank then suit (C1): ``2H``-``10H``, ``JH``,
``QS``, ``KD``, ``AC``, and the jokers ``X1`` and ``X2``.

>>> Card.from_id("10h")
Card.from_id('10H')
>>> queen = CARDS.parse("queen of spades")
>>> queen.id, queen.colour, queen.title, queen.symbol
('QS', 'black', 'queen of spades', 'Q♠')
>>> may_attack(CARDS.parse("K♥"), CARDS.parse("qs")), may_attack(CARDS.parse("QS"), CARDS.parse("KH"))
(True, False)
>>> may_attack(Card.from_id("X1"), Card.from_id("JD")), may_attack(Card.from_id("X1"), Card.from_id("JS"))
(True, False)
>>> [c.id for c in CARDS.parse_many("joker, 7h, joker")]
['X1', '7H', 'X2']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from companion.contract.cards import OneOfAKind
from companion.contract.errors import UnknownCardError
from companion.contract import CardForm

if TYPE_CHECKING:
    from companion.contract.allocation import SealIds

__all__ = [
    "Card",
    "CircleCards",
    "CARDS",
    "ALL_CARDS",
    "BATTLE_DECK",
    "CITY_DECK",
    "JOKERS",
    "X1",
    "X2",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "CIRCLE",
    "BLACK",
    "RED",
    "BATTLE_MASK",
    "CITY_MASK",
    "may_attack",
    "attack_reason",
    "attack_range",
    "colour_in_attack",
    "cards_of_mask",
    "CARD_FORMS",
]

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""The suits in catalogue order (C1): spades, hearts, diamonds, clubs."""
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
BLACK = "black"
RED = "red"
_COLOURS = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}

CIRCLE: tuple[str, ...] = ("J", "Q", "K", "A")
"""The city types round the circle (C3), each attacking the one before it: J < Q < K < A < J."""

_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_WORDS: dict[str, str] = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
_RANK_PLURALS = {"six": "sixes"}


class Card(OneOfAKind):
    """One of the 54 cards (C1, C2). Attributes are plain slots, read in the engine's loops:

    - ``id``: ``"10H"``, ``"QS"``, ``"X1"``; ``index`` its place in the catalogue (0-53) and
      ``bit`` (``1 << index``), for the engine's card sets kept as integers.
    - ``rank``: ``"2"``-``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``, or ``"X"`` for a joker.
    - ``suit``: ``"S"``, ``"H"``, ``"D"``, ``"C"``, ``None`` for a joker (C1).
    - ``colour``: ``"black"`` (spades, clubs), ``"red"`` (hearts, diamonds), ``None`` for a joker
      (C1; in Coloured Cities a joker takes the colour of the other city in an attack, C19).
    - ``number``: a battle card's number, its rank 2-10 (C2); 0 for a city card.
    - ``is_battle`` (2-10, C2), ``is_city`` (J, Q, K, A and the jokers, C2), ``is_joker``.
    - ``circle``: a face card's place on the circle (J 0, Q 1, K 2, A 3, C3), -1 otherwise.
    - ``victims``: the cards this city may attack (C3), as a card set (an integer of ``bit``
      values); 0 for a battle card.
    """

    game = "circle-of-power"
    """The game the card belongs to: a standard deck at this table is Circle of Power's."""

    __slots__ = (
        "id",
        "index",
        "bit",
        "rank",
        "suit",
        "colour",
        "number",
        "is_battle",
        "is_city",
        "is_joker",
        "circle",
        "victims",
    )

    _by_id: dict[str, Card] = {}

    id: str
    index: int
    bit: int
    rank: str
    suit: str | None
    colour: str | None
    number: int
    is_battle: bool
    is_city: bool
    is_joker: bool
    circle: int
    victims: int

    def __init__(self) -> None:  # pragma: no cover - the cards are made once, below
        raise TypeError("use Card.from_id('10H')")

    @classmethod
    def _make(cls, card_id: str, index: int, rank: str, suit: str | None) -> Card:
        card = object.__new__(cls)
        number = int(rank) if rank.isdigit() else 0
        values = {
            "id": card_id,
            "index": index,
            "bit": 1 << index,
            "rank": rank,
            "suit": suit,
            "colour": _COLOURS[suit] if suit else None,
            "number": number,
            "is_battle": number > 0,
            "is_city": number == 0,
            "is_joker": suit is None,
            "circle": CIRCLE.index(rank) if rank in CIRCLE else -1,
            "victims": 0,
        }
        for key, value in values.items():
            object.__setattr__(card, key, value)
        cls._by_id[card_id] = card
        return card

    @classmethod
    def from_id(cls, text: str) -> Card:
        """The card with identifier ``text``: rank then suit, ``X1``/``X2`` for the jokers;
        lower case and the suit symbols are accepted (C1: ``10h``, ``10♥``). The strict reader
        of records; what players type goes through :meth:`CircleCards.parse`.

        Raises :class:`~companion.contract.errors.UnknownCardError` naming the text otherwise.
        """
        card = cls._by_id.get(text)
        if card is not None:
            return card
        if isinstance(text, str):
            card = cls._by_id.get(_normal_id(text))
            if card is not None:
                return card
        raise UnknownCardError(
            str(text), f"unknown card id {str(text)!r}: expected rank then suit (2H-10H, JS, QD, KC, AH) or X1, X2 (C1)"
        )

    @property
    def short(self) -> str:
        """The compact form a player types and reads: the identifier, ``"10H"``, ``"X1"``."""
        return self.id

    @property
    def label(self) -> str:
        """How every message names the card: its identifier, ``"10H"``."""
        return self.id

    @property
    def symbol(self) -> str:
        """The identifier with the suit symbol: ``"10♥"``, ``"Q♠"``; a joker's is its id."""
        return self.rank + SUIT_SYMBOLS[self.suit] if self.suit else self.id

    @property
    def title(self) -> str:
        """A name a player recognises: ``"ten of hearts"``, ``"first joker"``."""
        if self.suit is None:
            return "first joker" if self.id == "X1" else "second joker"
        return f"{_RANK_WORDS[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def long_label(self) -> str:
        """The label and the name: ``"10H ten of hearts"``, ``"X2 second joker"``."""
        return f"{self.id} {self.title}"

    @property
    def type_name(self) -> str:
        """A city's type in words (C2): ``"Q"``, ``"joker"``; a battle card's rank."""
        return "joker" if self.is_joker else self.rank


def _normal_id(text: str) -> str:
    t = "".join(text.split()).upper().replace("\ufe0f", "")
    for symbol, letter in _SYMBOL_LETTERS.items():
        t = t.replace(symbol, letter)
    return t


_SYMBOL_LETTERS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}

ALL_CARDS: tuple[Card, ...] = tuple(
    [Card._make(f"{rank}{suit}", s * 13 + r, rank, suit) for s, suit in enumerate(SUITS) for r, rank in enumerate(_RANKS)]
    + [Card._make("X1", 52, "X", None), Card._make("X2", 53, "X", None)]
)
"""The 54 cards in catalogue order: spades, hearts, diamonds, clubs (2-10, J, Q, K, A each),
then the jokers."""

BATTLE_DECK: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.is_battle)
"""The 36 cards 2-10 of the four suits (C2)."""
CITY_DECK: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.is_city)
"""The 16 cards J, Q, K, A of the four suits and the two jokers (C2)."""
JOKERS: tuple[Card, ...] = ALL_CARDS[52:]
X1, X2 = JOKERS
BATTLE_MASK: int = sum(c.bit for c in BATTLE_DECK)
CITY_MASK: int = sum(c.bit for c in CITY_DECK)
_BY_INDEX: tuple[Card, ...] = ALL_CARDS


def _attacks(attacker: Card, defender: Card) -> bool:
    """C3, one pair: the circle between face cards, a joker on a red face card, a black face
    card on a joker; nothing else (two jokers never interact)."""
    if not attacker.is_city or not defender.is_city or attacker is defender:
        return False
    if attacker.is_joker:
        return not defender.is_joker and defender.colour == RED
    if defender.is_joker:
        return attacker.colour == BLACK
    return (attacker.circle - defender.circle) % 4 == 1


for _a in CITY_DECK:
    object.__setattr__(_a, "victims", sum(d.bit for d in CITY_DECK if _attacks(_a, d)))
del _a


def may_attack(attacker: Card, defender: Card) -> bool:
    """Whether a city ``attacker`` may attack (take over) the city ``defender`` (C3): Q attacks
    J, K attacks Q, A attacks K, J attacks A; a joker attacks any red J/Q/K/A; a black J/Q/K/A
    attacks a joker. Nothing else: equal types, J against K, a red city against a joker, and
    two jokers never interact."""
    return bool(attacker.victims & defender.bit)


def attack_reason(attacker: Card, defender: Card) -> str:
    """Why ``attacker`` may attack ``defender``, or why not, in a few words (C3):
    ``"Q attacks J"``, ``"a joker attacks any red city"``, ``"K attacks Q only"``."""
    if may_attack(attacker, defender):
        if attacker.is_joker:
            return "a joker attacks any red city"
        if defender.is_joker:
            return "a black city attacks a joker"
        return f"{attacker.rank} attacks {defender.rank}"
    if attacker.is_joker:
        if defender.is_joker:
            return "two jokers never interact"
        return "a joker attacks red cities only"
    below = CIRCLE[(attacker.circle - 1) % 4]
    if defender.is_joker:
        return f"a red city never attacks a joker ({attacker.rank} attacks {below} only)"
    return f"{attacker.rank} attacks {below} only"


def attack_range(card: Card) -> str:
    """Which cities ``card`` may attack, in words (C3): ``"Q attacks J only"``, ``"QS attacks
    J and jokers"``, ``"a joker attacks red cities only"``."""
    if card.is_joker:
        return "a joker attacks red cities only"
    if not card.is_city:
        return f"{card.id} is no city"
    below = CIRCLE[(card.circle - 1) % 4]
    if card.colour == BLACK:
        return f"{card.id} attacks {below} and jokers"
    return f"{card.rank} attacks {below} only"


def colour_in_attack(card: Card, other: Card) -> str | None:
    """A city's colour in an attack against ``other`` (C19): its own, or for a joker the
    colour of the other city."""
    return card.colour if card.colour is not None else other.colour


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a card set kept as an integer, in catalogue order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BY_INDEX[low.bit_length() - 1])
        mask ^= low
    return out


# ---------------------------------------------------------------------- what players type

CARD_FORMS = (
    "a rank and suit (7h, QS, 10♥, q♠, 10 of hearts, queen of spades) or a joker (X1, X2, "
    "joker, first joker, second joker)"
)

_FORMS: tuple[CardForm, ...] = (
    CardForm("rank and suit letter", "7h, QS, 10H, ad", "S spades, H hearts, D diamonds, C clubs; T for 10 too"),
    CardForm("rank and suit symbol", "10♥, q♠, A♦, 7♣"),
    CardForm("name", "queen of spades, ten of hearts, 7 of clubs"),
    CardForm(
        "joker",
        "X1, X2, joker, first joker, joker 2",
        "a bare 'joker' is X1, or in a list of cards the first joker not yet named in it",
    ),
)

_SHORT_RE = re.compile(r"^(10|[2-9]|[tjqka])\s*([shdc♠♤♥♡♦♢♣♧])$")
_NAME_RE = re.compile(r"^(\w+)\s+of\s+(\w+)$")
_WORD_RANKS = {word: rank for rank, word in _RANK_WORDS.items()}
_WORD_RANKS.update({rank.lower(): rank for rank in _RANKS})
_WORD_RANKS.update({"t": "10", "jack": "J", "knave": "J"})
_WORD_SUITS = {name: s for s, name in SUIT_NAMES.items()}
_WORD_SUITS.update({name[:-1]: s for s, name in SUIT_NAMES.items()})
_JOKER_WORDS = {
    "x1": "X1",
    "x2": "X2",
    "joker 1": "X1",
    "joker1": "X1",
    "joker 2": "X2",
    "joker2": "X2",
    "first joker": "X1",
    "second joker": "X2",
}


class CircleCards:
    """The catalogue of Circle of Power (the protocol's :class:`~companion.contract.
    Catalogue`): every card, the forms a player writes one in, and how a card is named on a
    sticker and an NFC tag.

    The catalogue knows no game in progress, so a bare ``joker`` is ``X1``; in a list read by
    :meth:`parse_many` each bare ``joker`` is the first joker not yet named in that list
    (``"joker, joker"`` is X1 then X2), which is how a player lists cities or a deal.
    """

    game = "circle-of-power"
    forms = _FORMS
    nfc_record_type = "urn:nfc:ext:ruleofpower.org:cop-card"

    @property
    def markers(self) -> SealIds:
        """The seal ids of the cards, as the table claims them (ids 587-1018,
        :mod:`companion.games.circle_of_power.table`)."""
        from companion.games.circle_of_power.table import TABLE

        seals = TABLE.seals
        assert seals is not None  # Circle of Power claims its first-generation ids
        return seals

    def __iter__(self) -> Iterator[Card]:
        return iter(ALL_CARDS)

    def __len__(self) -> int:
        return len(ALL_CARDS)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card)

    def from_id(self, card_id: str) -> Card:
        return Card.from_id(card_id)

    def parse(self, text: str) -> Card:
        """The card ``text`` names: ``7h``, ``QS``, ``10♥``, ``10h``, ``q♠``, ``T♠``,
        ``queen of spades``, ``7 of clubs``, ``X1``, ``joker`` (X1), ``second joker``. Case and
        blanks are ignored. :class:`~companion.contract.errors.UnknownCardError` otherwise,
        saying which forms are accepted.

        >>> [CARDS.parse(t).id for t in ("7h", "QS", "10♥", "q♠", "ten of hearts", "joker 2", "t c")]
        ['7H', 'QS', '10H', 'QS', '10H', 'X2', '10C']
        """
        return self._parse(text, ())

    def _parse(self, text: str, taken: tuple[Card, ...]) -> Card:
        if not isinstance(text, str):
            raise UnknownCardError(str(text), f"{text!r} is no card: write {CARD_FORMS}")
        card = Card._by_id.get(text)
        if card is not None:
            return card
        t = " ".join(text.replace("\ufe0f", "").lower().split())
        if not t:
            raise UnknownCardError(text, f"no card given: write {CARD_FORMS}")
        if t == "joker":
            return X2 if X1 in taken and X2 not in taken else X1
        if t in _JOKER_WORDS:
            return Card._by_id[_JOKER_WORDS[t]]
        m = _SHORT_RE.match(t)
        if m:
            rank = _WORD_RANKS[m.group(1)]
            suit = _SYMBOL_LETTERS.get(m.group(2), m.group(2).upper())
            return Card._by_id[rank + suit]
        m = _NAME_RE.match(t)
        if m and m.group(1) in _WORD_RANKS and m.group(2) in _WORD_SUITS:
            return Card._by_id[_WORD_RANKS[m.group(1)] + _WORD_SUITS[m.group(2)]]
        if re.match(r"^(1|11|12|13|14|[01]?[0-9]{2,})\s*[shdc♠♥♦♣]$", t):
            raise UnknownCardError(text, f"{text.strip()!r} is no card: ranks are 2-10, J, Q, K, A (C1)")
        raise UnknownCardError(text, f"{text.strip()!r} is no card: write {CARD_FORMS}")

    def parse_many(self, text: str | Iterable[str]) -> tuple[Card, ...]:
        """Cards separated by commas (or a list of texts), each read by :meth:`parse`; a bare
        ``joker`` is the first joker not yet named in the list."""
        if isinstance(text, str):
            parts = [p for p in (s.strip() for s in text.split(",")) if p]
        else:
            parts = list(text)
        out: tuple[Card, ...] = ()
        for part in parts:
            out += (self._parse(part, out),)
        return out

    def sticker_label(self, card: Card) -> str:
        """The sticker's first line (the owner follows it): ``"10H"``, ``"X1"``."""
        return card.id

    def sticker_name(self, card: Card) -> str:
        """The sticker's second line: ``"ten of hearts"``, ``"first joker"``."""
        return card.title

    def nfc_text(self, card: Card, owner: str) -> str:
        """The text a phone shows for ``owner``'s card: ``"Circle of Power: ten of hearts, 10H
        (ann)"``."""
        return f"Circle of Power: {card.title}, {card.id} ({owner})"


CARDS = CircleCards()
"""The catalogue, as the plug-in's ``cards``."""
