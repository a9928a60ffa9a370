"""The cards of Ruse and Bruise: the 25 influence cards each player holds in their colour (B1),
the numbers the rulebook prints (B2, B3), and the 36 goal cards in six areas (B5).

An :class:`Influence` card or a :class:`Goal` card is a small immutable value with exactly one
instance per card, so cards compare and hash by identity. A card in play is its identifier and
its owner: every player has the same 25 cards, told apart by their colour.

>>> Influence.from_id("doppel")
Influence.from_id('DOPPEL')
>>> CARDS.parse("Small Giant").id, CARDS.parse("3 musketeers").title
('GIANT', 'Musketeers')
>>> alch = Influence.from_id("ALCH")
>>> alch.area, alch.number_under(Goal.from_id("alchemy-4")), alch.number_under(Goal.from_id("MUSIC-3a"))
('alchemy', 12, 8)
>>> Goal.from_id("music-3b").value, Goal.from_id("music-3b").title
(3, 'music 3 (b)')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from companion.contract.cards import OneOfAKind
from companion.contract.errors import UnknownCardError
from companion.contract import CardForm

if TYPE_CHECKING:
    from companion.contract.allocation import SealIds

__all__ = [
    "Influence",
    "Goal",
    "RabCards",
    "CARDS",
    "INFLUENCE",
    "GOALS",
    "AREAS",
    "COLOURS",
    "IMMEDIATE",
    "DISTRIBUTION",
    "NUMBERS_ONLY",
    "PROFESSIONALS",
    "PRINTED",
    "HAND_SIZE",
    "GOALS_PER_PLAYER",
    "ROUNDS",
]

COLOURS: tuple[str, ...] = ("blue", "white", "red", "yellow", "green", "black")
"""The six colours of the box (B1): blue and white are the rulebook's, the other four name the
box's other colours, whatever their shade. A table that names none takes them in this order."""

AREAS: tuple[str, ...] = ("alchemy", "fencing", "agriculture", "trade", "religion", "music")
"""The six areas of the goal cards (B5), in the rulebook's order."""

HAND_SIZE = 3
"""Cards in a hand (B6, B9)."""
GOALS_PER_PLAYER = 6
"""Goal cards dealt per player, one stack each (B6): six rounds (B7)."""
ROUNDS = 6
"""Rounds in a game (B7, B28)."""

# (identifier, name, kind, area of a professional)
_INFLUENCE: tuple[tuple[str, str, str, str | None], ...] = (
    ("KING", "King", "number", None),
    ("QUEEN", "Queen", "number", None),
    ("JULIET", "Juliet", "number", None),
    ("ALCH", "Alchemist", "number", "alchemy"),
    ("FENCER", "Fencing Master", "number", "fencing"),
    ("LORD", "Lord of the Manor", "number", "agriculture"),
    ("TRADER", "Trader", "number", "trade"),
    ("CARDINAL", "Cardinal", "number", "religion"),
    ("MINNE", "Minnesinger", "number", "music"),
    ("EXPL", "Explorer", "immediate", None),
    ("ASSN", "Assassin", "immediate", None),
    ("STORM", "Storm", "immediate", None),
    ("CLOAK", "Invisibility Cloak", "immediate", None),
    ("TRAITOR", "Traitor", "immediate", None),
    ("MUSK", "Musketeers", "distribution", None),
    ("WIZ", "Wizard", "distribution", None),
    ("WITCH", "Witch", "distribution", None),
    ("PRINCE", "Prince", "distribution", None),
    ("SQUIRE", "Squire", "distribution", None),
    ("HERMIT", "Hermit", "distribution", None),
    ("GIANT", "Small Giant", "distribution", None),
    ("DOPPEL", "Doppelgänger", "distribution", None),
    ("DRAGON", "Dragon", "distribution", None),
    ("ROMEO", "Romeo", "distribution", None),
    ("BEGGAR", "Beggar", "distribution", None),
)

PRINTED: dict[str, int] = {"KING": 20, "QUEEN": 16, "JULIET": 14, "ROMEO": 5, "CLOAK": 0}
"""The numbers the rulebook prints (B2): King 20, Queen 16, Juliet 14, Romeo 5 (his 15 is his
ability, B24) and the Invisibility Cloak 0 (the Beggar's paragraph). The professionals' 12 or 8
are :data:`PROFESSIONAL_NUMBERS` (B3); every other number is the values table's (B4); the
Doppelgänger has none of its own (B22)."""

PROFESSIONAL_NUMBERS = (12, 8)
"""A professional's number under a goal card of its own area, and under any other (B3)."""


class Influence(OneOfAKind):
    """One of the 25 influence cards every player holds, one of each, in their colour (B1).

    - ``id``: the identifier records use (``"KING"``, ``"DOPPEL"``); ``index`` its place in
      the catalogue (0-24) and ``bit`` (``1 << index``), for card sets kept as integers.
    - ``name``: the rulebook's name (``"Small Giant"``).
    - ``kind``: ``"number"`` (numbers only), ``"immediate"`` (an ability during the round,
      B10-B15) or ``"distribution"`` (an ability at the distribution, B18-B26).
    - ``area``: a professional's area (B3), ``None`` for any other card.
    - ``printed``: the number the rulebook prints (B2), ``None`` where the values table gives
      it (B4), for a professional (B3) and for the Doppelgänger (B22).
    """

    game = "ruse-and-bruise"
    __slots__ = ("id", "index", "bit", "name", "kind", "area", "printed")
    _by_id: dict[str, Influence] = {}

    id: str
    index: int
    bit: int
    name: str
    kind: str
    area: str | None
    printed: int | None

    def __init__(self) -> None:  # pragma: no cover - the cards are made once, below
        raise TypeError("use Influence.from_id('KING')")

    @classmethod
    def _make(cls, card_id: str, index: int, name: str, kind: str, area: str | None) -> Influence:
        card = object.__new__(cls)
        for key, value in {
            "id": card_id,
            "index": index,
            "bit": 1 << index,
            "name": name,
            "kind": kind,
            "area": area,
            "printed": PRINTED.get(card_id),
        }.items():
            object.__setattr__(card, key, value)
        cls._by_id[card_id] = card
        return card

    @classmethod
    def from_id(cls, text: str) -> Influence:
        """The card with identifier ``text``, in any letter case (B1); the strict reader of
        records. :class:`~companion.contract.errors.UnknownCardError` otherwise."""
        card = cls._by_id.get(text)
        if card is not None:
            return card
        if isinstance(text, str):
            card = cls._by_id.get(text.strip().upper())
            if card is not None:
                return card
        raise UnknownCardError(str(text), f"unknown influence card {str(text)!r}: the cards are {', '.join(_IDS)} (B1)")

    @property
    def immediate(self) -> bool:
        """Whether the card acts when turned over during the round (B10-B15)."""
        return self.kind == "immediate"

    @property
    def short(self) -> str:
        return self.id

    @property
    def label(self) -> str:
        return self.id

    @property
    def title(self) -> str:
        """The rulebook's name: ``"Small Giant"``, ``"Musketeers"``."""
        return self.name

    @property
    def long_label(self) -> str:
        return f"{self.id} {self.name}"

    def number_under(self, goal: Goal) -> int | None:
        """The number this card has in a column headed by ``goal``, where the rulebook prints
        it: a professional's 12 under a goal card of its own area, else 8 (B3); the printed
        numbers (B2). ``None`` for a card whose number is the values table's (B4) and for the
        Doppelgänger (B22)."""
        if self.area is not None:
            return PROFESSIONAL_NUMBERS[0] if goal.area == self.area else PROFESSIONAL_NUMBERS[1]
        return self.printed


INFLUENCE: tuple[Influence, ...] = tuple(Influence._make(i, k, n, kind, a) for k, (i, n, kind, a) in enumerate(_INFLUENCE))
"""The 25 influence cards in catalogue order (B1's table, column by column)."""
_IDS = tuple(c.id for c in INFLUENCE)
NUMBERS_ONLY: tuple[Influence, ...] = tuple(c for c in INFLUENCE if c.kind == "number")
IMMEDIATE: tuple[Influence, ...] = tuple(c for c in INFLUENCE if c.kind == "immediate")
"""Explorer, Assassin, Storm, Invisibility Cloak, Traitor (B10-B15)."""
DISTRIBUTION: tuple[Influence, ...] = tuple(c for c in INFLUENCE if c.kind == "distribution")
PROFESSIONALS: tuple[Influence, ...] = tuple(c for c in INFLUENCE if c.area is not None)
"""Alchemist, Fencing Master, Lord of the Manor, Trader, Cardinal, Minnesinger (B3)."""
ALL_INFLUENCE_MASK = (1 << len(INFLUENCE)) - 1


class Goal(OneOfAKind):
    """One of the 36 goal cards (B5): ``area`` and ``value`` (its points and the cards its
    column needs, B16); the two 3s of an area are alike, ``letter`` ``"a"`` or ``"b"`` only
    tells them apart (``""`` for the others). ``id`` is ``"music-3a"``, ``"trade-1"``."""

    game = "ruse-and-bruise"
    __slots__ = ("id", "index", "bit", "area", "value", "letter")
    _by_id: dict[str, Goal] = {}

    id: str
    index: int
    bit: int
    area: str
    value: int
    letter: str

    def __init__(self) -> None:  # pragma: no cover - the cards are made once, below
        raise TypeError("use Goal.from_id('music-3a')")

    @classmethod
    def _make(cls, index: int, area: str, value: int, letter: str) -> Goal:
        card = object.__new__(cls)
        card_id = f"{area}-{value}{letter}"
        for key, v in {"id": card_id, "index": index, "bit": 1 << (index - len(INFLUENCE)), "area": area, "value": value, "letter": letter}.items():
            object.__setattr__(card, key, v)
        cls._by_id[card_id] = card
        return card

    @classmethod
    def from_id(cls, text: str) -> Goal:
        """The goal card ``text`` names, in any letter case: ``music-3a`` (B5)."""
        card = cls._by_id.get(text)
        if card is not None:
            return card
        if isinstance(text, str):
            card = cls._by_id.get(text.strip().lower())
            if card is not None:
                return card
        raise UnknownCardError(
            str(text), f"unknown goal card {str(text)!r}: an area ({', '.join(AREAS)}) and a value 1, 2, 3a, 3b, 4 or 5, as music-3a (B5)"
        )

    @property
    def short(self) -> str:
        return self.id

    @property
    def label(self) -> str:
        return self.id

    @property
    def title(self) -> str:
        """``"music 3 (a)"``, ``"trade 1"``."""
        return f"{self.area} {self.value}" + (f" ({self.letter})" if self.letter else "")

    @property
    def long_label(self) -> str:
        return self.id


GOALS: tuple[Goal, ...] = tuple(
    Goal._make(len(INFLUENCE) + 6 * a + k, area, value, letter)
    for a, area in enumerate(AREAS)
    for k, (value, letter) in enumerate(((1, ""), (2, ""), (3, "a"), (3, "b"), (4, ""), (5, "")))
)
"""The 36 goal cards, area by area, each area's 1, 2, 3a, 3b, 4, 5 (B5)."""


# ---------------------------------------------------------------------- what players type


def _plain(text: str) -> str:
    """Lower case, accents and punctuation gone, blanks single: ``"Doppelgänger"`` ->
    ``"doppelganger"``."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    t = re.sub(r"[^a-z0-9]+", " ", t.lower())
    return t.strip()


_NAMES: dict[str, Influence] = {}
for _card in INFLUENCE:
    _NAMES[_plain(_card.id)] = _card
    _NAMES[_plain(_card.name)] = _card
for _word, _id in {
    "the 3 musketeers": "MUSK",
    "3 musketeers": "MUSK",
    "three musketeers": "MUSK",
    "musketeer": "MUSK",
    "cloak": "CLOAK",
    "giant": "GIANT",
    "doppelgaenger": "DOPPEL",
    "fencing": "FENCER",
    "fencer": "FENCER",
    "lord": "LORD",
    "minnesinger": "MINNE",
    "alchemist": "ALCH",
    "assassin": "ASSN",
    "wizard": "WIZ",
    "explorer": "EXPL",
}.items():
    _NAMES[_word] = Influence._by_id[_id]
del _card, _word, _id

_GOAL_RE = re.compile(r"^(alchemy|fencing|agriculture|trade|religion|music)\s*[- ]?\s*([1245]|3\s*[ab])$")

_FORMS: tuple[CardForm, ...] = (
    CardForm("identifier", "KING, doppel, Musk, EXPL", "any letter case (B1)"),
    CardForm("name", "King, Small Giant, Doppelgänger, 3 Musketeers, Invisibility Cloak"),
    CardForm("goal card", "music-3a, trade-1, Alchemy 5", "an area and a value 1, 2, 3a, 3b, 4 or 5 (B5)"),
)


class RabCards:
    """The catalogue of Ruse and Bruise (the protocol's :class:`~companion.contract.
    Catalogue`): the 25 influence cards, then the 36 goal cards; the forms a player writes one
    in; how a card is named on a sticker and an NFC tag; their seal markers."""

    game = "ruse-and-bruise"
    forms = _FORMS
    nfc_record_type = "urn:nfc:ext:ruleofpower.org:rab-card"

    @property
    def markers(self) -> SealIds:
        """The seal ids of the cards, fronts and backs, as the table claims them (blocks 24-27,
        :mod:`companion.games.ruse_and_bruise.table`)."""
        from companion.games.ruse_and_bruise.table import TABLE

        seals = TABLE.seals
        assert seals is not None  # the table claims its blocks
        return seals

    def __iter__(self) -> Iterator[Influence | Goal]:
        yield from INFLUENCE
        yield from GOALS

    def __len__(self) -> int:
        return len(INFLUENCE) + len(GOALS)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, (Influence, Goal))

    def from_id(self, card_id: str) -> Influence | Goal:
        """An influence card (``KING``) or a goal card (``music-3a``), any case."""
        if isinstance(card_id, str) and "-" in card_id:
            return Goal.from_id(card_id)
        return Influence.from_id(card_id)

    def parse(self, text: str) -> Influence | Goal:
        """The card ``text`` names: an identifier (``doppel``), a name (``Small Giant``,
        ``Doppelgänger``, ``3 Musketeers``) or a goal card (``music-3a``, ``Music 3a``).

        >>> [CARDS.parse(t).id for t in ("king", "Lord of the Manor", "doppelganger", "Trade 3b")]
        ['KING', 'LORD', 'DOPPEL', 'trade-3b']
        """
        if not isinstance(text, str):
            raise UnknownCardError(str(text), f"{text!r} is no card: write {self._forms_words()}")
        card = Influence._by_id.get(text) or Goal._by_id.get(text)
        if card is not None:
            return card
        plain = _plain(text)
        if not plain:
            raise UnknownCardError(text, f"no card given: write {self._forms_words()}")
        found = _NAMES.get(plain)
        if found is not None:
            return found
        m = _GOAL_RE.match(" ".join(text.lower().split()))
        if m:
            return Goal.from_id(f"{m.group(1)}-{m.group(2).replace(' ', '')}")
        raise UnknownCardError(text, f"{text.strip()!r} is no card: write {self._forms_words()}")

    def parse_influence(self, text: str) -> Influence:
        """An influence card in any form :meth:`parse` reads; a goal card is refused."""
        card = self.parse(text)
        if not isinstance(card, Influence):
            raise UnknownCardError(text, f"{card.id} is a goal card, not an influence card (B1)")
        return card

    def parse_many(self, text: str | Iterable[str]) -> tuple[Influence | Goal, ...]:
        parts = [p for p in (s.strip() for s in text.split(","))] if isinstance(text, str) else list(text)
        return tuple(self.parse(p) for p in parts if p)

    def _forms_words(self) -> str:
        return "; ".join(f"{f.form} ({f.examples})" for f in _FORMS)

    def sticker_label(self, card: Influence | Goal) -> str:
        return card.id

    def sticker_name(self, card: Influence | Goal) -> str:
        return card.title

    def nfc_text(self, card: Influence | Goal, owner: str) -> str:
        """``"Ruse and Bruise: Small Giant, GIANT (ann)"``."""
        return f"Ruse and Bruise: {card.title}, {card.id} ({owner})"


CARDS = RabCards()
"""The catalogue, as the plug-in's ``cards``."""
