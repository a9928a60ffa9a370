"""What the cards of every game share: one object per card that never changes, and the card
lying face down where nobody can see it.

A game's :class:`Card` class derives from :class:`OneOfAKind` and makes each of its cards once
(its ``from_id`` returns that object), so cards compare and hash by identity, which is what the
engines' hot loops want, and copying or pickling a state hands back the very same cards.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OneOfAKind", "Unseen", "UNSEEN"]


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
        return (type(self).from_id, (self.id,))  # type: ignore[attr-defined]

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
