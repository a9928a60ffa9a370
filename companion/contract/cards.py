"""What the cards of every game share: what a card tells (:class:`Card`), one object per card
that never changes (:class:`OneOfAKind`), and the card lying face down where nobody can see it.

A game's :class:`Card` class derives from :class:`OneOfAKind` and makes each of its cards once
(its ``from_id`` returns that object), so cards compare and hash by identity, which is what the
engines' hot loops want, and copying or pickling a state hands back the very same cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["Card", "CardForm", "OneOfAKind", "Unseen", "UNSEEN"]


@runtime_checkable
class Card(Protocol):
    """One card of a game's catalogue: an immutable value, one object per card, so that cards
    compare and hash by identity."""

    @property
    def game(self) -> str:
        """The name of the game the card belongs to (``"rule-of-power"``): a card seen by a
        sensor is never taken for another game's."""

    @property
    def id(self) -> str:
        """The identifier records use: ``"W007"``, ``"10H"``, ``"X1"``."""

    @property
    def short(self) -> str:
        """The compact form a player types and reads: ``"7P"``, ``"10H"``, ``"Thief"``."""

    @property
    def label(self) -> str:
        """How every message names the card: ``"7P W007"``, ``"10H"``."""

    @property
    def long_label(self) -> str:
        """The label and the name, where there is room: ``"7P W007 Fire Dragon"``."""

    @property
    def title(self) -> str:
        """A name a player recognises: ``"Fire Dragon (7)"``, ``"ten of hearts"``."""

    def __hash__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class CardForm:
    """One way of writing a card that every command and dialog accepts, for help texts."""

    form: str
    """What the form is, in words: ``"value and suit letter"``."""
    examples: str
    """Examples of it: ``"6m, 10D, 7P"``."""
    explanation: str = ""
    """What the letters mean, where it needs saying: ``"P Powers, M Men, E Elves, D Darkness"``."""


class OneOfAKind:
    """The base of a game's cards: immutable once made, copied and pickled as themselves.

    Subclasses set their attributes through ``object.__setattr__`` when they make a card and
    provide ``from_id``, which pickling calls to find the card again.
    """

    __slots__ = ()
    id: str
    index: int  # the card's place in its game's catalogue, which sorts cards

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (getattr(type(self), "from_id"), (self.id,))  # each kind of card has its from_id

    def __copy__(self) -> OneOfAKind:
        return self

    def __deepcopy__(self, memo: object) -> OneOfAKind:
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_id({self.id!r})"

    def __str__(self) -> str:
        return self.id

    def __lt__(self, other: OneOfAKind) -> bool:
        return self.index < other.index


class Unseen:
    """A card that lies face down where the companion cannot see it: a hand dealt face down, a
    dummy's pile, a card drawn unseen. There is one, :data:`UNSEEN`; records write it ``null``."""

    _instance: Unseen | None = None
    __slots__ = ()

    def __new__(cls) -> Unseen:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSEEN"

    def __reduce__(self) -> str:
        return "UNSEEN"

    def __copy__(self) -> Unseen:
        return self

    def __deepcopy__(self, memo: object) -> Unseen:
        return self


UNSEEN = Unseen()
