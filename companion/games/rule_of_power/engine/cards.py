"""The cards of Rule of Power: the World deck (R1), the Higher Powers expansion (R2) and the
starter Fate cards (R3).

A :class:`Card` is a small immutable value; there is exactly one instance per identifier, so
cards compare and hash by identity and can be used freely in sets and as dictionary keys.

>>> Card.from_id("W007")
Card.from_id('W007')
>>> fire = Card.from_id("w007")
>>> fire.name, fire.value, fire.suit.label, fire.is_dragon, fire.is_power
('Fire Dragon', 7, 'Powers', True, True)
>>> Card.from_id("W017").title
'Dragon of Men (7)'
>>> Card.from_id("F003").value    # the Vampire plays as a Ruler (R20)
10
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

from companion.contract import errors
from companion.contract.cards import OneOfAKind

__all__ = [
    "Suit",
    "FateCategory",
    "Card",
    "UnknownCardError",
    "RANK_NAMES",
    "WORLD_DECK",
    "EXPANSION_CARDS",
    "FATE_CARDS",
    "ALL_CARDS",
    "POWER_RING",
    "FIRE_DRAGON",
    "MYSTIC_CRYSTAL",
    "WARLOCK",
    "VAMPIRE",
    "DARK_DECAY",
    "MIRROR_SWAP",
    "THIEF",
    "EXORCIST",
    "RENEWAL",
    "world_deck",
    "power_cards",
    "parse_cards",
    "CARD_FORMS",
    "SUIT_LETTERS",
]


#: The card notations every command and dialog accepts, for error messages and help.
CARD_FORMS = (
    "an id (W016, F006; loosely w16), a value and suit letter (6M, 10d: P Powers, M Men, "
    "E Elves, D Darkness) or a name (Fire Dragon, Servant of Men, thief)"
)


class UnknownCardError(errors.UnknownCardError):
    """Raised when a text names no card of the game (R1-R3); the message shows the forms
    that are accepted."""

    def __init__(self, text: str, reason: str | None = None) -> None:
        super().__init__(text, reason or f"{text!r} is no card: write {CARD_FORMS}")


class Suit(enum.Enum):
    """The four suits of the World deck (R1), in identifier order."""

    POWERS = "Powers"
    MEN = "Men"
    ELVES = "Elves"
    DARKNESS = "Darkness"

    @property
    def label(self) -> str:
        return self.value


class FateCategory(enum.Enum):
    """The categories Fate cards are grouped in (rulebook, "Fate Cards Effects")."""

    MAGIC = "Magic"
    CHARACTER = "Character"
    CREATURE = "Creature"
    EVENT = "Event"


#: Rank names by value (R1; 11-13 are the expansion's, which the rulebook leaves unnamed).
RANK_NAMES: dict[int, str] = {
    1: "Wizard",
    2: "Blade",
    3: "Tower",
    4: "Minion",
    5: "Covenanter",
    6: "Servant",
    7: "Dragon",
    8: "Champion",
    9: "Lady",
    10: "Ruler",
    11: "Eleven",
    12: "Twelve",
    13: "Thirteen",
}

_SPECIAL_NAMES = {
    "W001": "Cosmic Power",
    "W002": "Sword of Power",
    "W003": "Temple of Power",
    "W007": "Fire Dragon",
}

_SUIT_ORDER = (Suit.POWERS, Suit.MEN, Suit.ELVES, Suit.DARKNESS)

_FATE = {
    # id: (name, category, value when it plays as a World card)
    "F001": ("Mystic Crystal", FateCategory.MAGIC, None),
    "F002": ("Warlock", FateCategory.CREATURE, 1),
    "F003": ("Vampire", FateCategory.CREATURE, 10),
    "F004": ("Dark Decay", FateCategory.EVENT, None),
    "F005": ("Mirror Swap", FateCategory.MAGIC, None),
    "F006": ("Thief", FateCategory.CHARACTER, None),
    "F007": ("Exorcist", FateCategory.CHARACTER, None),
    "F008": ("Renewal", FateCategory.EVENT, None),
}

_ID_RE = re.compile(r"^\s*([WwFf])(\d{3})\s*$")
_LOOSE_ID_RE = re.compile(r"^([WF])0*(\d{1,3})$", re.IGNORECASE)
_SHORT_RE = re.compile(r"^(\d{1,2})\s*([PMED])$", re.IGNORECASE)

#: The suit letters of the short notation (6M is the 6 of Men, 10D the 10 of Darkness).
SUIT_LETTERS: dict[str, Suit] = {"P": Suit.POWERS, "M": Suit.MEN, "E": Suit.ELVES, "D": Suit.DARKNESS}

#: Single words players use for the Fate cards, besides their full names.
_FATE_WORDS = {
    "crystal": "F001",
    "mystic": "F001",
    "warlock": "F002",
    "vampire": "F003",
    "decay": "F004",
    "dark": "F004",
    "swap": "F005",
    "mirror": "F005",
    "thief": "F006",
    "exorcist": "F007",
    "renewal": "F008",
}


class Card(OneOfAKind):
    """One card of the game, World or Fate.

    Attributes are plain slots, read in the engine's hot loops:

    - ``id``: ``"W001"``-``"W052"`` or ``"F001"``-``"F008"``.
    - ``value``: the capturing value; for Fate cards only the Warlock (1) and Vampire (10)
      have one, ``None`` otherwise.
    - ``suit``: a :class:`Suit` for World cards, ``None`` for Fate cards.
    - ``is_world``, ``is_fate``, ``is_expansion`` (R2), ``is_power`` (the Powers suit),
      ``is_ring`` (W001-W003), ``is_dragon`` (value 7), ``is_wizard`` (value 1, the Warlock
      included since it is a Wizard, R20), ``is_creature`` (R24), ``to_centre`` (the card is
      played to the centre: World cards, Warlock, Vampire).
    """

    game = "rule-of-power"
    """The game the card belongs to (every card of this catalogue is Rule of Power's)."""

    __slots__ = (
        "id",
        "index",
        "value",
        "suit",
        "name",
        "rank_name",
        "category",
        "is_world",
        "is_fate",
        "is_expansion",
        "is_power",
        "is_ring",
        "is_dragon",
        "is_wizard",
        "is_creature",
        "to_centre",
    )

    _by_id: dict[str, Card] = {}

    id: str
    index: int
    value: int | None
    suit: Suit | None
    name: str | None
    rank_name: str | None
    category: FateCategory | None
    is_world: bool
    is_fate: bool
    is_expansion: bool
    is_power: bool
    is_ring: bool
    is_dragon: bool
    is_wizard: bool
    is_creature: bool
    to_centre: bool

    def __init__(self) -> None:  # pragma: no cover - instances come from from_id
        raise TypeError("use Card.from_id('W007')")

    @classmethod
    def _make(cls, card_id: str, index: int, **attrs: object) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "id", card_id)
        object.__setattr__(card, "index", index)
        for key, value in attrs.items():
            object.__setattr__(card, key, value)
        cls._by_id[card_id] = card
        return card

    @classmethod
    def from_id(cls, text: str) -> Card:
        """The card with identifier ``text`` (case and surrounding blanks ignored): the strict
        reader of files, which hold ids only; what people type goes through :meth:`parse`.

        Raises :class:`UnknownCardError` naming the text when no such card exists.
        """
        card = cls._by_id.get(text)
        if card is not None:
            return card
        m = _ID_RE.match(text) if isinstance(text, str) else None
        card = cls._by_id.get(m.group(1).upper() + m.group(2)) if m else None
        if card is None:
            # Files (records, registries) hold ids only: the message names that form alone.
            raise UnknownCardError(str(text), f"unknown card id {str(text)!r}: expected W001-W052 or F001-F008")
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card a player means by ``text``, in any of the notations of the companion:

        - an id, ``W016`` or ``F006``, or loosely ``w16`` (leading zeros may be left out);
        - the short form, value then suit letter: ``6M``, ``10d``, ``7P`` (P Powers, M Men,
          E Elves, D Darkness; 11-13 are the expansion's, R2);
        - a name: ``Fire Dragon``, ``Servant of Men``, a Fate card's name or its word
          (``thief``, ``crystal``, ``Mirror Swap``).

        Case and surrounding blanks are ignored. Raises :class:`UnknownCardError` with a
        message showing the accepted forms.

        >>> [Card.parse(t).id for t in ("W016", "w16", "6m", "10D", "thief", "fire dragon")]
        ['W016', 'W016', 'W016', 'W040', 'F006', 'W007']
        """
        if not isinstance(text, str):
            raise UnknownCardError(str(text))
        card = cls._by_id.get(text)
        if card is not None:
            return card
        t = text.strip()
        if not t:
            raise UnknownCardError(text, f"no card given: write {CARD_FORMS}")
        m = _LOOSE_ID_RE.match(t)
        if m:
            card = cls._by_id.get(f"{m.group(1).upper()}{int(m.group(2)):03d}")
            if card is None:
                raise UnknownCardError(
                    t, f"{t!r} is no card: World cards are W001-W052 (W041-W052 the expansion), Fate cards F001-F008 (R1-R3)"
                )
            return card
        m = _SHORT_RE.match(t)
        if m:
            card = _BY_SHORT.get((int(m.group(1)), SUIT_LETTERS[m.group(2).upper()]))
            if card is None:
                raise UnknownCardError(
                    t, f"{t!r} is no card: values run 1-10 (11-13 with the expansion, R2), suits P M E D"
                )
            return card
        card = _BY_NAME.get(" ".join(t.lower().split()))
        if card is None:
            raise UnknownCardError(t)
        return card

    @property
    def label(self) -> str:
        """The short form and the id, the way every message names a card: '6M W016',
        'Thief F006'."""
        return f"{self.short} {self.id}"

    @property
    def long_label(self) -> str:
        """The short form, the id and the name, where there is room: '6M W016 Servant of
        Men', '7P W007 Fire Dragon', 'F006 Thief'."""
        if self.is_fate:
            return f"{self.id} {self.name}"
        suit = self.suit
        assert suit is not None  # every World card has a suit (R1)
        name = self.name or f"{self.rank_name} of {suit.label}"
        return f"{self.short} {self.id} {name}"

    @property
    def title(self) -> str:
        """A name a player recognises: 'Fire Dragon (7)', 'Champion of Elves (8)', 'Thief'."""
        if self.is_fate:
            return self.name or self.id
        if self.name:
            return f"{self.name} ({self.value})"
        assert self.suit is not None
        return f"{self.rank_name} of {self.suit.label} ({self.value})"

    @property
    def short(self) -> str:
        """A compact label: '7P' for the Fire Dragon, '10M', 'Vampire'."""
        if self.is_fate:
            return self.name or self.id
        assert self.suit is not None
        return f"{self.value}{self.suit.label[0]}"


def _build() -> None:
    index = 0
    for s, suit in enumerate(_SUIT_ORDER):
        for v in range(1, 11):
            card_id = f"W{s * 10 + v:03d}"
            _make_world(card_id, index, suit, v, expansion=False)
            index += 1
    for s, suit in enumerate(_SUIT_ORDER):
        for k, v in enumerate((11, 12, 13)):
            card_id = f"W{41 + s * 3 + k:03d}"
            _make_world(card_id, index, suit, v, expansion=True)
            index += 1
    for card_id, (name, category, value) in _FATE.items():
        Card._make(
            card_id,
            index,
            value=value,
            suit=None,
            name=name,
            rank_name=RANK_NAMES[value] if value else None,
            category=category,
            is_world=False,
            is_fate=True,
            is_expansion=False,
            is_power=False,
            is_ring=False,
            is_dragon=False,
            is_wizard=value == 1,
            is_creature=category is FateCategory.CREATURE,
            to_centre=value is not None,
        )
        index += 1


def _make_world(card_id: str, index: int, suit: Suit, value: int, *, expansion: bool) -> None:
    Card._make(
        card_id,
        index,
        value=value,
        suit=suit,
        name=_SPECIAL_NAMES.get(card_id),
        rank_name=RANK_NAMES[value],
        category=None,
        is_world=True,
        is_fate=False,
        is_expansion=expansion,
        is_power=suit is Suit.POWERS,
        is_ring=card_id in ("W001", "W002", "W003"),
        is_dragon=value == 7,
        is_wizard=value == 1,
        is_creature=False,
        to_centre=True,
    )


_build()

_BY_SHORT: dict[tuple[int, Suit], Card] = {
    (c.value, c.suit): c for c in Card._by_id.values() if c.suit is not None and c.value is not None
}
_BY_NAME: dict[str, Card] = {}
for _card in Card._by_id.values():
    if _card.is_fate:
        _BY_NAME[(_card.name or _card.id).lower()] = _card
    else:
        assert _card.suit is not None
        _BY_NAME[f"{_card.rank_name} of {_card.suit.label}".lower()] = _card
        if _card.name:
            _BY_NAME[_card.name.lower()] = _card
for _word, _fid in _FATE_WORDS.items():
    _BY_NAME.setdefault(_word, Card._by_id[_fid])
del _card, _word, _fid

#: The 40 cards of the standard World deck, W001-W040 (R1).
WORLD_DECK: tuple[Card, ...] = tuple(Card.from_id(f"W{i:03d}") for i in range(1, 41))
#: The 12 cards of the Higher Powers expansion, W041-W052 (R2).
EXPANSION_CARDS: tuple[Card, ...] = tuple(Card.from_id(f"W{i:03d}") for i in range(41, 53))
#: The eight starter Fate cards, F001-F008 (R3).
FATE_CARDS: tuple[Card, ...] = tuple(Card.from_id(f"F{i:03d}") for i in range(1, 9))
ALL_CARDS: tuple[Card, ...] = WORLD_DECK + EXPANSION_CARDS + FATE_CARDS
#: Cosmic Power, Sword of Power, Temple of Power (R1, R12).
POWER_RING: tuple[Card, ...] = WORLD_DECK[0:3]
FIRE_DRAGON: Card = Card.from_id("W007")
#: The starter Fate cards by name (R3); their rules are in :mod:`companion.games.rule_of_power.engine.fate`.
MYSTIC_CRYSTAL: Card = Card.from_id("F001")
WARLOCK: Card = Card.from_id("F002")
VAMPIRE: Card = Card.from_id("F003")
DARK_DECAY: Card = Card.from_id("F004")
MIRROR_SWAP: Card = Card.from_id("F005")
THIEF: Card = Card.from_id("F006")
EXORCIST: Card = Card.from_id("F007")
RENEWAL: Card = Card.from_id("F008")


def world_deck(expansion: bool = False) -> tuple[Card, ...]:
    """The World deck in play: 40 cards, or 52 with the Higher Powers expansion (R2)."""
    return WORLD_DECK + EXPANSION_CARDS if expansion else WORLD_DECK


def power_cards(expansion: bool = False) -> tuple[Card, ...]:
    """The Power cards in ladder order (R12): W001-W010, then W041-W043 with the expansion."""
    base = WORLD_DECK[0:10]
    return base + EXPANSION_CARDS[0:3] if expansion else base


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from a comma-separated string (``"W002,4m,thief"``; ``""`` is none) or an
    iterable of card texts, each in any form :meth:`Card.parse` accepts. Raises
    :class:`UnknownCardError` naming the first bad text."""
    if isinstance(text, str):
        parts = [p for p in (s.strip() for s in text.split(",")) if p]
    else:
        parts = list(text)
    return tuple(Card.parse(p) for p in parts)
