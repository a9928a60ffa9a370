"""The events of a game of Ruse and Bruise as small immutable values, one per event of the
``rab-record/1`` format (:mod:`.record` converts between the two).

- :class:`Round`: a round begins (B7): the goal cards turned over, and the cards drawn by
  players whose hands are short (B9).
- :class:`Place`: a turn (B8): a card placed face down, and the card drawn at the turn's end
  (B9).
- :class:`Pass`: the turn of a player with no card in hand (B8).
- :class:`TurnOver`: a face-down card turned over during the round (B10).
- :class:`Explore`, :class:`Assassinate`, :class:`Storm`: what an Explorer, an Assassin and a
  Storm do when turned over (B11-B13), the table's to carry out.
- :class:`Cloak`, :class:`Swap`: the choices of an Invisibility Cloak's and a Traitor's owner
  (B14, B15).
- :class:`Reveal`: every face-down card turned over at the round's end (B16).
- :class:`Distribute`: who takes each column's goal card (B18-B26).

Columns are numbered 1 to N, as records write them (B7). A card nobody saw is
:data:`UNSEEN`, written ``null`` in records; a draw nobody saw (or no draw at all) is
``None``.

>>> Place.make("ann", 2, "EXPL", "queen")
Place(player='ann', column=2, card=Influence.from_id('EXPL'), drew=Influence.from_id('QUEEN'))
>>> Round.make(["music-3a", "trade-1"], {"bob": [None]})
Round(goals=(Goal.from_id('music-3a'), Goal.from_id('trade-1')), drew=(('bob', (UNSEEN,)),))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import final

from companion.contract.cards import UNSEEN, Unseen
from companion.games.ruse_and_bruise.cards import Goal, Influence

__all__ = [
    "UNSEEN",
    "Seen",
    "Round",
    "Place",
    "Pass",
    "TurnOver",
    "Explore",
    "Assassinate",
    "Storm",
    "Cloak",
    "Swap",
    "Reveal",
    "Distribute",
    "Move",
    "PlayerMove",
    "TableMove",
]

Seen = Influence | Unseen
"""A card as the companion saw it: the card, or :data:`UNSEEN`."""


def _card(value: Influence | Unseen | str | None) -> Seen:
    if value is None or isinstance(value, Unseen):
        return UNSEEN
    return value if isinstance(value, Influence) else Influence.from_id(value)


def _drawn(value: Influence | str | None) -> Influence | None:
    if value is None or isinstance(value, Unseen):
        return None
    return value if isinstance(value, Influence) else Influence.from_id(value)


@final
@dataclass(frozen=True, slots=True)
class Round:
    """A round begins (B7): ``goals``, the goal card turned over on top of each stack, column
    1 first; ``drew``, for each player whose hand was short, the cards drawn up to 3 (B9), as
    (player, cards) pairs, :data:`UNSEEN` for a card nobody saw."""

    goals: tuple[Goal, ...]
    drew: tuple[tuple[str, tuple[Seen, ...]], ...] = ()

    @classmethod
    def make(cls, goals: Iterable[Goal | str], drew: Mapping[str, Iterable[Influence | str | None]] | None = None) -> Round:
        return cls(
            tuple(g if isinstance(g, Goal) else Goal.from_id(g) for g in goals),
            tuple((name, tuple(_card(c) for c in cards)) for name, cards in (drew or {}).items()),
        )

    def drew_of(self, player: str) -> tuple[Seen, ...] | None:
        for name, cards in self.drew:
            if name == player:
                return cards
        return None


@final
@dataclass(frozen=True, slots=True)
class Place:
    """``player``'s turn (B8): ``card`` placed face down at the bottom of ``column`` (1 to N;
    :data:`UNSEEN` when nobody saw it), and ``drew``, the card the player draws when the turn
    is over, after every immediate ability (B9); ``None`` when unseen or when nothing could be
    drawn."""

    player: str
    column: int
    card: Seen
    drew: Influence | None = None

    @classmethod
    def make(cls, player: str, column: int, card: Influence | str | None, drew: Influence | str | None = None) -> Place:
        return cls(player, column, _card(card), _drawn(drew))


@final
@dataclass(frozen=True, slots=True)
class Pass:
    """The turn of ``player``, who holds no card: nothing placed, nothing drawn (B8)."""

    player: str


@final
@dataclass(frozen=True, slots=True)
class TurnOver:
    """The face-down card directly above a card that arrived in ``column`` is turned over:
    ``card``, always named (B10). Its owner is known from where it lies."""

    column: int
    card: Influence

    @classmethod
    def make(cls, column: int, card: Influence | str) -> TurnOver:
        return cls(column, card if isinstance(card, Influence) else Influence.from_id(card))


@final
@dataclass(frozen=True, slots=True)
class Explore:
    """The Explorer just turned over moves ``to`` that column, face down at its bottom;
    ``None`` when the next column is closed by a Storm and he stays (B11)."""

    to: int | None


@final
@dataclass(frozen=True, slots=True)
class Assassinate:
    """The Assassin just turned over sends the card whose arrival turned him over to its
    owner's discard pile, unturned: ``discard``, :data:`UNSEEN` when nobody saw it (B12)."""

    discard: Seen

    @classmethod
    def make(cls, discard: Influence | str | None) -> Assassinate:
        return cls(_card(discard))


@final
@dataclass(frozen=True, slots=True)
class Storm:
    """The Storm just turned over closes its ``column``: complete at once, no card placed in
    it and no Explorer entering it any more (B13)."""

    column: int


@final
@dataclass(frozen=True, slots=True)
class Cloak:
    """The choice of ``player``, whose Invisibility Cloak was just turned over (B14):
    ``placed``, whether they put a card from their hand face down under it; when they did,
    ``card`` (:data:`UNSEEN` when nobody saw it) and ``drew``, the card they draw at once
    (``None`` when unseen or when nothing could be drawn)."""

    player: str
    placed: bool
    card: Seen | None = None
    drew: Influence | None = None

    @classmethod
    def make(cls, player: str, card: Influence | str | None = None, drew: Influence | str | None = None, *, placed: bool = True) -> Cloak:
        if not placed:
            return cls(player, False)
        return cls(player, True, _card(card), _drawn(drew))


@final
@dataclass(frozen=True, slots=True)
class Swap:
    """The choice of ``player``, whose Traitor was just turned over (B15): ``swap``, the other
    column whose goal card is exchanged with the Traitor's column's, ``None`` to decline."""

    player: str
    swap: int | None


@final
@dataclass(frozen=True, slots=True)
class Reveal:
    """The round is over (B16): every column's face-down cards turned over, column 1 first,
    each column's from the goal card down. Every card is named."""

    columns: tuple[tuple[Influence, ...], ...]

    @classmethod
    def make(cls, columns: Sequence[Sequence[Influence | str]]) -> Reveal:
        return cls(tuple(tuple(c if isinstance(c, Influence) else Influence.from_id(c) for c in col) for col in columns))


@final
@dataclass(frozen=True, slots=True)
class Distribute:
    """Who takes each column's goal card, column 1 first, ``None`` where nobody does
    (B18-B26)."""

    winners: tuple[str | None, ...]


PlayerMove = Place | Pass | Cloak | Swap
"""The moves of a player's decision."""
TableMove = Round | TurnOver | Explore | Assassinate | Storm | Reveal | Distribute
"""The moves the table carries out: nobody chooses them."""
Move = PlayerMove | TableMove
