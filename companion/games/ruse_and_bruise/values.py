"""The values table (B4): the 13 numbers the rulebook does not print, entered once by a table
from its own cards and carried in every record.

Each is a whole number, 0 or more, bound by the rulebook's lists: the Wizard's list
(:data:`WIZARD_LIST`: 10 or more), the Witch's list (:data:`WITCH_LIST`: 9 or less), and three
cards in neither list (:data:`EITHER`) that may be either. The companion never assumes one of
these numbers: a table enters its own (``rop cards values --game ruse-and-bruise``).
:data:`EXAMPLE` is B4's example table, for tests and for trying the companion out when asked
for by name, never the printed numbers.

>>> table = ValuesTable.parse("ASSN=6,MUSK=9,WITCH=4,EXPL=13,TRAITOR=10,PRINCE=15,HERMIT=17,DRAGON=11,STORM=3,WIZ=2,SQUIRE=7,GIANT=1,BEGGAR=1")
>>> table == EXAMPLE, table["HERMIT"], table.text()[:14]
(True, 17, 'ASSN=6,MUSK=9,')
>>> ValuesTable.parse("ASSN=6,MUSK=9,WITCH=4,EXPL=7,TRAITOR=10,PRINCE=15,HERMIT=17,DRAGON=11,STORM=3,WIZ=2,SQUIRE=7,GIANT=1,BEGGAR=1")
Traceback (most recent call last):
...
companion.games.ruse_and_bruise.values.ValuesTableError: EXPL is on the Wizard's list: 10 or more, not 7 (B4)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.ruse_and_bruise.cards import PRINTED, Influence

__all__ = ["ValuesTable", "ValuesTableError", "TABLE_CARDS", "WIZARD_LIST", "WITCH_LIST", "EITHER", "EXAMPLE", "bound_words"]

TABLE_CARDS: tuple[str, ...] = ("ASSN", "MUSK", "WITCH", "EXPL", "TRAITOR", "PRINCE", "HERMIT", "DRAGON", "STORM", "WIZ", "SQUIRE", "GIANT", "BEGGAR")
"""The 13 cards of the values table, in the order records write them (B4)."""
WIZARD_LIST: tuple[str, ...] = ("EXPL", "TRAITOR", "PRINCE", "HERMIT", "DRAGON")
"""On the Wizard's list (the rulebook names them among the cards of 10 and higher): 10 or more."""
WITCH_LIST: tuple[str, ...] = ("STORM", "WIZ", "SQUIRE", "GIANT", "BEGGAR")
"""On the Witch's list (among the cards of 9 and under): 9 or less."""
EITHER: tuple[str, ...] = ("ASSN", "MUSK", "WITCH")
"""In neither list: any whole number, 0 or more."""

_EXAMPLE = {"ASSN": 6, "MUSK": 9, "WITCH": 4, "EXPL": 13, "TRAITOR": 10, "PRINCE": 15, "HERMIT": 17, "DRAGON": 11, "STORM": 3, "WIZ": 2, "SQUIRE": 7, "GIANT": 1, "BEGGAR": 1}


class ValuesTableError(ValueError):
    """A values table the rulebook's bounds refuse (B4): a card left out, a card that is not
    the table's, a number out of its bounds. ``reason`` says what, without the ruling; ``card``
    names the card at fault when one is; ``rule`` is ``"B4"`` (``"B2"`` for a printed card)."""

    def __init__(self, reason: str, *, card: str | None = None, rule: str = "B4") -> None:
        self.reason = reason
        self.card = card
        self.rule = rule
        super().__init__(f"{reason} ({rule})")


def bound_words(card_id: str) -> str:
    """The bound of ``card_id`` in the rulebook's words: ``"on the Wizard's list: 10 or
    more"``."""
    if card_id in WIZARD_LIST:
        return "on the Wizard's list: 10 or more"
    if card_id in WITCH_LIST:
        return "on the Witch's list: 9 or less"
    return "in neither list: any whole number, 0 or more"


def check_number(card_id: str, number: Any) -> int:
    """``number`` for ``card_id``, checked against its bound (B4); :class:`ValuesTableError`
    in the rulebook's words otherwise."""
    if type(number) is not int:
        if isinstance(number, str) and number.strip().lstrip("-").isdigit():
            number = int(number.strip())
        else:
            raise ValuesTableError(f"{card_id} must be a whole number, 0 or more, not {number!r}", card=card_id)
    if number < 0:
        raise ValuesTableError(f"{card_id} must be a whole number, 0 or more, not {number}", card=card_id)
    if card_id in WIZARD_LIST and number < 10:
        raise ValuesTableError(f"{card_id} is on the Wizard's list: 10 or more, not {number}", card=card_id)
    if card_id in WITCH_LIST and number > 9:
        raise ValuesTableError(f"{card_id} is on the Witch's list: 9 or less, not {number}", card=card_id)
    return number


@dataclass(frozen=True, slots=True)
class ValuesTable:
    """The 13 numbers of a table's own cards (B4), checked against the rulebook's bounds.

    Read a number with ``table["EXPL"]``; :meth:`number` gives any card's number in a column
    (the printed ones included). Make one with :meth:`from_mapping` or :meth:`parse`, which
    check every bound; :meth:`to_json` and :meth:`text` write it back."""

    numbers: tuple[int, ...]
    """The numbers in :data:`TABLE_CARDS` order."""

    def __post_init__(self) -> None:
        if len(self.numbers) != len(TABLE_CARDS):
            raise ValuesTableError(f"a values table has {len(TABLE_CARDS)} numbers, not {len(self.numbers)}")
        for card_id, number in zip(TABLE_CARDS, self.numbers):
            check_number(card_id, number)

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any]) -> ValuesTable:
        """The table from ``{"ASSN": 6, ...}`` (identifiers in any case): exactly the 13 cards,
        each within its bound; :class:`ValuesTableError` saying which card is wrong."""
        if not isinstance(given, Mapping):
            raise ValuesTableError(f"the values table maps each of its {len(TABLE_CARDS)} cards to a number, not {given!r}")
        found: dict[str, Any] = {}
        for key, number in given.items():
            card_id = key.strip().upper() if isinstance(key, str) else key
            if card_id not in TABLE_CARDS:
                if isinstance(card_id, str) and card_id in PRINTED:
                    raise ValuesTableError(f"{card_id} is not in the values table: the rulebook prints its number, {PRINTED[card_id]}", card=card_id, rule="B2")
                if isinstance(card_id, str) and card_id in Influence._by_id:
                    what = "the Doppelgänger has no number of its own (B22)" if card_id == "DOPPEL" else "its number is 12 or 8 by its area (B3)"
                    raise ValuesTableError(f"{card_id} is not in the values table: {what}", card=card_id)
                raise ValuesTableError(f"{key!r} is not a card of the values table: its cards are {', '.join(TABLE_CARDS)}")
            if card_id in found:
                raise ValuesTableError(f"{card_id} is given twice", card=card_id)
            found[card_id] = check_number(card_id, number)
        missing = [c for c in TABLE_CARDS if c not in found]
        if missing:
            raise ValuesTableError(f"the values table lacks {', '.join(missing)}: it needs all {len(TABLE_CARDS)} numbers", card=missing[0])
        return cls(tuple(found[c] for c in TABLE_CARDS))

    @classmethod
    def parse(cls, text: str) -> ValuesTable:
        """The table from ``"ASSN=6,MUSK=9,..."`` (as ``--values`` takes it)."""
        given: dict[str, str] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            card_id, sep, number = part.partition("=")
            if not sep:
                raise ValuesTableError(f"write each card as CARD=NUMBER (ASSN=6), not {part!r}")
            key = card_id.strip().upper()
            if key in given:
                raise ValuesTableError(f"{key} is given twice", card=key)
            given[key] = number.strip()
        return cls.from_mapping(given)

    def __getitem__(self, card_id: str) -> int:
        return self.numbers[TABLE_CARDS.index(card_id)]

    def items(self) -> Iterator[tuple[str, int]]:
        return zip(TABLE_CARDS, self.numbers)

    def to_json(self) -> dict[str, int]:
        """``{"ASSN": 6, "MUSK": 9, ...}`` in the record's order."""
        return dict(self.items())

    def text(self) -> str:
        """``"ASSN=6,MUSK=9,..."``: what ``--values`` takes."""
        return ",".join(f"{c}={n}" for c, n in self.items())

    def number(self, card: Influence) -> int | None:
        """The number of ``card`` where its column does not matter: printed (B2) or the
        table's (B4); ``None`` for a professional (12 or 8 by its column, B3) and the
        Doppelgänger (none of its own, B22)."""
        if card.printed is not None:
            return card.printed
        if card.id in TABLE_CARDS:
            return self[card.id]
        return None


EXAMPLE = ValuesTable.from_mapping(_EXAMPLE)
"""B4's example table, for tests and for trying the companion out when asked for by name;
never the printed numbers."""
