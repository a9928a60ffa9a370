"""The cards of Love, Money, Power, Death (L1-L3): one Balance of Power deck of 52 cards, ten
nobles, six agents and thirty-six resources, each in one of four suits, and the catalogue that
reads and writes them.

A :class:`Card` is a small immutable value with exactly one instance per card, so cards compare
and hash by identity. Identifiers (L3): a noble is ``N``, its rank and its suit (``N3P``); a
resource its rank, its suit and, for ranks 1-4, the copy ``a`` or ``b`` (``4Mb``, ``5D``); an
agent ``A1``-``A6``. The suits (L2) are **Love** ``L``, **Money** ``M``, **Power** ``P`` and
**Death** ``D``.

>>> Card.from_id("4Mb")
Card.from_id('4Mb')
>>> [CARDS.parse(t).id for t in ("n3-love", "3 Money b", "a2", "5_death", "N5P", "4mb")]
['N3L', '3Mb', 'A2', '5D', 'N5P', '4Mb']
>>> card = Card.from_id("N3P")
>>> card.rank, card.suit, card.is_noble, card.title
(3, 'P', True, 'Power noble, 3 crowns')
>>> Card.from_id("A4").rank, Card.from_id("A4").suit
(0, None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from companion.contract import CardForm
from companion.contract.cards import OneOfAKind
from companion.contract.errors import UnknownCardError

if TYPE_CHECKING:
    from companion.contract.allocation import SealIds

__all__ = [
    "Card",
    "LmpdCards",
    "CARDS",
    "ALL_CARDS",
    "NOBLES",
    "RESOURCES",
    "AGENTS",
    "DEALT",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_EMBLEMS",
    "NOBLE_RANKS",
    "NOBLE_MASK",
    "DEALT_MASK",
    "DECK_NOBLES",
    "DEALT_COUNT",
    "cards_of_mask",
    "CARD_FORMS",
]

GAME_NAME = "love-money-power-death"

SUITS: tuple[str, ...] = ("L", "M", "P", "D")
"""The four suits in catalogue order (L2)."""
SUIT_NAMES: dict[str, str] = {"L": "Love", "M": "Money", "P": "Power", "D": "Death"}
"""Each suit's name (L2)."""
SUIT_EMBLEMS: dict[str, str] = {"L": "Diplomatic", "M": "Treasure", "P": "Population", "D": "Martial"}
"""The resource emblem each suit stands for (L2: the companion's pairing, fixed)."""

NOBLE_RANKS: tuple[int, ...] = (2, 3, 5)
"""A noble's rank is its number of crowns: 2, 3 or 5 (L1)."""

DECK_NOBLES = 10
"""One deck holds ten nobles (L1): a rank 2 and a rank 3 of each suit, and two rank 5s of two
different suits."""

DEALT_COUNT = 42
"""The resources and agents, always all dealt (L4, L5)."""

NOBLE = "noble"
RESOURCE = "resource"
AGENT = "agent"

_RANK_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


class Card(OneOfAKind):
    """One of the 54 cards the companion knows: the twelve nobles of which a deck holds ten,
    the 36 resources and the six agents (L1, L3). Attributes are plain slots:

    - ``id``: ``"N3P"``, ``"4Mb"``, ``"5D"``, ``"A2"`` (L3); ``index`` its place in the catalogue
      and ``bit`` (``1 << index``), for card sets kept as integers.
    - ``kind``: ``"noble"``, ``"resource"`` or ``"agent"``; ``is_noble``, ``is_agent``.
    - ``rank``: a noble's crowns (2, 3, 5) or a resource's emblems (1-5); 0 for an agent, which
      has no rank in this game (L1, L9).
    - ``suit``: ``"L"``, ``"M"``, ``"P"`` or ``"D"`` (L2); ``None`` for an agent (L1).
    - ``copy``: ``"a"`` or ``"b"`` for a resource of rank 1-4, ``""`` otherwise (L3).
    """

    game = GAME_NAME
    """The game the card belongs to."""

    __slots__ = ("id", "index", "bit", "kind", "rank", "suit", "copy", "is_noble", "is_agent")

    _by_id: dict[str, Card] = {}

    id: str
    index: int
    bit: int
    kind: str
    rank: int
    suit: str | None
    copy: str
    is_noble: bool
    is_agent: bool

    def __init__(self) -> None:  # pragma: no cover - the cards are made once, below
        raise TypeError("use Card.from_id('4Mb')")

    @classmethod
    def _make(cls, card_id: str, index: int, kind: str, rank: int, suit: str | None, copy: str) -> Card:
        card = object.__new__(cls)
        values = {
            "id": card_id,
            "index": index,
            "bit": 1 << index,
            "kind": kind,
            "rank": rank,
            "suit": suit,
            "copy": copy,
            "is_noble": kind == NOBLE,
            "is_agent": kind == AGENT,
        }
        for key, value in values.items():
            object.__setattr__(card, key, value)
        cls._by_id[card_id] = card
        return card

    @classmethod
    def from_id(cls, text: str) -> Card:
        """The card ``text`` names: its identifier (``N3P``, ``4Mb``, ``A2``), or any form L3
        lets a reader accept (``n3-love``, ``3 Money b``). Raises
        :class:`~companion.contract.errors.UnknownCardError` saying what is wrong otherwise."""
        card = cls._by_id.get(text)
        if card is not None:
            return card
        return _parse(text)

    @property
    def short(self) -> str:
        """The compact form a player types and reads: the identifier, ``"4Mb"``."""
        return self.id

    @property
    def label(self) -> str:
        """How every message names the card: its identifier, ``"N3P"``."""
        return self.id

    @property
    def title(self) -> str:
        """A name a player recognises: ``"Power noble, 3 crowns"``, ``"Money 4 (copy b)"``,
        ``"Death 5"``, ``"agent 2"``."""
        if self.is_noble:
            return f"{SUIT_NAMES[self.suit or '']} noble, {self.rank} crowns"
        if self.is_agent:
            return f"agent {self.id[1:]}"
        copy = f" (copy {self.copy})" if self.copy else ""
        return f"{SUIT_NAMES[self.suit or '']} {self.rank}{copy}"

    @property
    def long_label(self) -> str:
        """The label and the name: ``"N3P Power noble, 3 crowns"``."""
        return f"{self.id} {self.title}"

    @property
    def suit_name(self) -> str | None:
        """The suit's name (L2), ``None`` for an agent."""
        return SUIT_NAMES[self.suit] if self.suit else None


def _make_all() -> tuple[Card, ...]:
    cards: list[Card] = []
    for rank in NOBLE_RANKS:
        for suit in SUITS:
            cards.append(Card._make(f"N{rank}{suit}", len(cards), NOBLE, rank, suit, ""))
    for suit in SUITS:
        for rank in range(1, 6):
            for copy in ("a", "b") if rank < 5 else ("",):
                cards.append(Card._make(f"{rank}{suit}{copy}", len(cards), RESOURCE, rank, suit, copy))
    for n in range(1, 7):
        cards.append(Card._make(f"A{n}", len(cards), AGENT, 0, None, ""))
    return tuple(cards)


ALL_CARDS: tuple[Card, ...] = _make_all()
"""Every card the companion knows, in catalogue order: the twelve nobles (rank 2, 3, then 5,
each in the order of :data:`SUITS`), the resources suit by suit (``1La``, ``1Lb``, ...,
``4Lb``, ``5L``, then Money, Power, Death) and the agents ``A1``-``A6``."""

NOBLES: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.is_noble)
"""The twelve noble identifiers; a deck holds ten of them (L1, L3)."""
RESOURCES: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.kind == RESOURCE)
"""The 36 resources: in each suit two of each rank 1-4 and one of rank 5 (L1)."""
AGENTS: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.is_agent)
"""The six agents (L1)."""
DEALT: tuple[Card, ...] = RESOURCES + AGENTS
"""The 42 cards dealt to the players' piles, or set aside (L5)."""
NOBLE_MASK: int = sum(c.bit for c in NOBLES)
DEALT_MASK: int = sum(c.bit for c in DEALT)
_BY_INDEX = ALL_CARDS


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a card set kept as an integer of ``bit`` values, in catalogue order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BY_INDEX[low.bit_length() - 1])
        mask ^= low
    return out


# ---------------------------------------------------------------------- reading what people write

_SUIT_WORDS: dict[str, str] = {
    **{name.lower(): letter for letter, name in SUIT_NAMES.items()},
    **{name.lower(): letter for letter, name in SUIT_EMBLEMS.items()},
}
_SUIT_LETTERS = {s.lower(): s for s in SUITS}
_ALLOWED = re.compile(r"^[a-z0-9\-_ ]+$")
_TOKENS = re.compile(r"\d+|[a-z]+")

CARD_FORMS = "N3L (a noble), 4Mb or 5D (a resource), A2 (an agent); suits L Love, M Money, P Power, D Death"
"""How a card is written, for error messages (L3)."""


def _suit_and_copy(text: str) -> tuple[str, str] | None:
    """The suit a word names and the copy letter after it: ``"mb"`` -> ``("M", "b")``,
    ``"moneyb"`` -> ``("M", "b")``, ``"love"`` -> ``("L", "")``."""
    for word in sorted(_SUIT_WORDS, key=len, reverse=True):
        if text.startswith(word):
            return _SUIT_WORDS[word], text[len(word) :]
    if text[:1] in _SUIT_LETTERS:
        return _SUIT_LETTERS[text[0]], text[1:]
    return None


def _parse(text: object) -> Card:
    """L3: any letter case, a suit's full name for its letter, ``-``, ``_`` or blanks between
    the parts."""
    if not isinstance(text, str):
        raise UnknownCardError(str(text), f"{text!r} is no card: write {CARD_FORMS}")
    t = text.strip().lower()
    if not t:
        raise UnknownCardError(text, f"no card given: write {CARD_FORMS}")
    if not _ALLOWED.match(t):
        raise UnknownCardError(text, f"{text.strip()!r} is no card: write {CARD_FORMS}")
    tokens = _TOKENS.findall(t)
    head = tokens[0]
    if head in ("a", "agent"):
        if len(tokens) == 2 and tokens[1].isdigit() and 1 <= int(tokens[1]) <= 6:
            return Card._by_id[f"A{int(tokens[1])}"]
        raise UnknownCardError(text, f"{text.strip()!r} is no card: the agents are A1-A6 (L3)")
    noble = head in ("n", "noble")
    rest = tokens[1:] if noble else tokens
    if not rest or not rest[0].isdigit():
        raise UnknownCardError(text, f"{text.strip()!r} is no card: write {CARD_FORMS}")
    rank = int(rest[0])
    letters = "".join(rest[1:])
    found = _suit_and_copy(letters) if letters and all(not x.isdigit() for x in rest[1:]) else None
    if found is None:
        raise UnknownCardError(text, f"{text.strip()!r} is no card: name its suit (L Love, M Money, P Power, D Death; L2)")
    suit, copy = found
    if noble:
        if rank not in NOBLE_RANKS or copy:
            raise UnknownCardError(text, f"{text.strip()!r} is no card: a noble is N, its rank 2, 3 or 5 and its suit (N3L; L3)")
        return Card._by_id[f"N{rank}{suit}"]
    if not 1 <= rank <= 5:
        raise UnknownCardError(text, f"{text.strip()!r} is no card: a resource's rank is 1-5 (L1)")
    if rank == 5:
        if copy:
            raise UnknownCardError(text, f"{text.strip()!r} is no card: a rank-5 resource has no copy letter ({rank}{suit}; L3)")
        return Card._by_id[f"5{suit}"]
    if copy not in ("a", "b"):
        if not copy:
            raise UnknownCardError(text, f"{text.strip()!r} names two cards: write the copy, {rank}{suit}a or {rank}{suit}b (L3)")
        raise UnknownCardError(text, f"{text.strip()!r} is no card: the copy of a resource is a or b (L3)")
    return Card._by_id[f"{rank}{suit}{copy}"]


_FORMS = (
    CardForm("a noble: N, rank (crowns) and suit", "N2L, N3M, N5D", "L Love, M Money, P Power, D Death"),
    CardForm("a resource: rank, suit and, for ranks 1-4, the copy a or b", "1La, 4Mb, 5D"),
    CardForm("an agent", "A1 to A6"),
    CardForm("any case, a suit's name for its letter, - _ or blanks between the parts", "n3-love, 3 Money b, 5_death"),
)


class LmpdCards:
    """The catalogue of Love, Money, Power, Death (the contract's :class:`~companion.contract.
    Catalogue`): every card, the forms a player writes one in, and how a card is named on a
    sticker and an NFC tag."""

    game = GAME_NAME
    forms = _FORMS
    nfc_record_type = "urn:nfc:ext:ruleofpower.org:lmpd-card"

    @property
    def markers(self) -> SealIds:
        """The seal ids of the cards, as the table claims them (blocks 16-23,
        :mod:`companion.games.love_money_power_death.table`)."""
        from companion.games.love_money_power_death.table import TABLE

        seals = TABLE.seals
        assert seals is not None  # the table claims its blocks
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
        """The card ``text`` names in any form L3 accepts.

        >>> CARDS.parse("N5 Death").id, CARDS.parse("2-power-a").id
        ('N5D', '2Pa')
        """
        return Card.from_id(text)

    def parse_many(self, text: str | Iterable[str]) -> tuple[Card, ...]:
        """Cards separated by commas or ``+`` (or a list of texts), each read by :meth:`parse`."""
        if isinstance(text, str):
            parts = [p for p in (s.strip() for s in re.split(r"[,+]", text)) if p]
        else:
            parts = list(text)
        return tuple(self.parse(p) for p in parts)

    def sticker_label(self, card: Card) -> str:
        """The sticker's first line: the identifier, ``"4Mb"``."""
        return card.id

    def sticker_name(self, card: Card) -> str:
        """The sticker's second line: ``"Money 4 (copy b)"``."""
        return card.title

    def nfc_text(self, card: Card, owner: str) -> str:
        """The text a phone shows for ``owner``'s card: ``"Love, Money, Power, Death: Money 4
        (copy b), 4Mb (ann)"``."""
        return f"Love, Money, Power, Death: {card.title}, {card.id} ({owner})"


CARDS = LmpdCards()
"""The catalogue, as the plug-in's ``cards``."""
