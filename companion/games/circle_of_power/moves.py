"""The events of a game of Circle of Power as small immutable values, one per event of the
``cop-record/1`` format (:mod:`.record` converts between the two).

- :class:`Season`: a season's set-up (C4-C6): seats, dealer, cities, the bottom joker, and
  the hands and dummies' piles as far as they were seen.
- :class:`Reveal`: the top card of the city deck turned face up (C7).
- :class:`Play`: an emperor plays a battle card and, a player, draws one (C8).
- :class:`Conquer`, :class:`Retake`, :class:`Regroup`: the winner's act (C10-C14, C18, C19).
- :class:`Reshuffle`: the battle deck made anew after action 6 (C15).

A card nobody saw (a hand dealt face down) is :data:`UNSEEN`, written ``null`` in records.

>>> Play.from_ids("ann", "9H", "3H")
Play(player='ann', card=Card.from_id('9H'), drew=Card.from_id('3H'))
>>> Conquer("ann", "bob")
Conquer(player='ann', victim='bob', keep=False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, final

from companion.contract.cards import UNSEEN
from companion.contract.cards import Unseen as _Unseen
from companion.games.circle_of_power.cards import Card

__all__ = [
    "UNSEEN",
    "HandCard",
    "Season",
    "Reveal",
    "Play",
    "Conquer",
    "Retake",
    "Regroup",
    "Reshuffle",
    "Move",
    "ACTS",
    "Act",
]

HandCard = Card | _Unseen


def _card(value: HandCard | str | None) -> HandCard:
    if value is None or isinstance(value, _Unseen):
        return UNSEEN
    return value if isinstance(value, Card) else Card.from_id(value)


def _cards_by_name(
    given: Mapping[str, Iterable[HandCard | str | None] | None] | None, size: int
) -> tuple[tuple[str, tuple[HandCard, ...]], ...]:
    """Hands or piles as (name, cards) pairs, leaving out the emperors given as ``None`` or
    with every one of their ``size`` cards unseen: a hand nobody saw is the same whether
    written ``null`` or as nulls."""
    out = []
    for name, cards in (given or {}).items():
        if cards is None:
            continue
        parsed = tuple(_card(c) for c in cards)
        if len(parsed) == size and all(c is UNSEEN for c in parsed):
            continue
        out.append((name, parsed))
    return tuple(out)


@final
@dataclass(frozen=True, slots=True)
class Season:
    """A season is set up (C4-C6): the four emperors clockwise (``seats``), the ``dealer``,
    each emperor's city (``cities``, as (name, card) pairs), the joker at the bottom of the
    city deck (``bottom``), and what was seen of each player's three hand cards (``hands``)
    and each dummy's nine-card pile, top first (``piles``). An emperor left out of ``hands``
    or ``piles`` was dealt face down, unseen; a single unseen card is :data:`UNSEEN`."""

    dealer: str
    seats: tuple[str, ...]
    cities: tuple[tuple[str, Card], ...]
    bottom: Card
    hands: tuple[tuple[str, tuple[HandCard, ...]], ...] = ()
    piles: tuple[tuple[str, tuple[HandCard, ...]], ...] = ()

    @classmethod
    def make(
        cls,
        dealer: str,
        seats: Sequence[str],
        cities: Mapping[str, Card | str],
        bottom: Card | str,
        hands: Mapping[str, Iterable[HandCard | str | None] | None] | None = None,
        piles: Mapping[str, Iterable[HandCard | str | None] | None] | None = None,
    ) -> Season:
        """A season from names and card ids (``None`` for a card nobody saw)."""
        return cls(
            dealer,
            tuple(seats),
            tuple((name, c if isinstance(c, Card) else Card.from_id(c)) for name, c in cities.items()),
            bottom if isinstance(bottom, Card) else Card.from_id(bottom),
            _cards_by_name(hands, 3),
            _cards_by_name(piles, 9),
        )

    def city_of(self, name: str) -> Card | None:
        for who, card in self.cities:
            if who == name:
                return card
        return None

    def hand_of(self, name: str) -> tuple[HandCard, ...] | None:
        """``name``'s hand as seen, ``None`` when nobody saw it."""
        for who, cards in self.hands:
            if who == name:
                return cards
        return None

    def pile_of(self, name: str) -> tuple[HandCard, ...] | None:
        """Dummy ``name``'s pile, top first, as seen; ``None`` when nobody saw it."""
        for who, cards in self.piles:
            if who == name:
                return cards
        return None


@final
@dataclass(frozen=True, slots=True)
class Reveal:
    """The top card of the city deck is turned face up: the next available city (C7)."""

    card: Card

    @classmethod
    def from_id(cls, card_id: str) -> Reveal:
        return cls(Card.from_id(card_id))


@final
class Play(NamedTuple):
    """``player`` plays ``card`` face up (C8) and, a player while the battle deck has cards,
    draws ``drew``. ``drew`` is ``None`` when no card is named: the draw was unseen, or there
    was nothing to draw (the battle deck was empty, or the emperor is a dummy, which draws
    nothing); the state knows which.

    An immutable named tuple, since replays make millions of them; it equals only another
    :class:`Play`.
    """

    player: str
    card: Card
    drew: Card | None = None

    @classmethod
    def from_ids(cls, player: str, card: str, drew: str | None = None) -> Play:
        return cls(player, Card.from_id(card), Card.from_id(drew) if drew else None)

    def __eq__(self, other: object) -> bool:
        return type(other) is Play and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __repr__(self) -> str:
        if self.drew is None:
            return f"Play(player={self.player!r}, card={self.card!r})"
        return f"Play(player={self.player!r}, card={self.card!r}, drew={self.drew!r})"


@final
@dataclass(frozen=True, slots=True)
class Conquer:
    """The winner takes over ``victim``'s city by conquest (C12; in Lonely Tyrant the city is
    destroyed, C18; in Coloured Cities its colour decides, C19). ``keep``: in Coloured Cities,
    a black attacker keeps their city and the loser takes the next available one."""

    player: str
    victim: str
    keep: bool = False


@final
@dataclass(frozen=True, slots=True)
class Retake:
    """The winner retakes ``victim``'s city (C13, C19), discarding ``discard`` from the
    victim's trophies (``None`` when the victim had none)."""

    player: str
    victim: str
    discard: Card | None = None


@final
@dataclass(frozen=True, slots=True)
class Regroup:
    """The winner, with no city to attack, regroups (C14): ``discard`` is the winner's own
    trophy lost to rebellion, ``None`` when the city was under threat or the line empty."""

    player: str
    discard: Card | None = None


@final
@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The 24 cards of actions 1-6 become the new battle deck (C15); ``piles`` gives each
    dummy's six new cards, top first, as far as they were seen (a dummy left out: unseen)."""

    piles: tuple[tuple[str, tuple[HandCard, ...]], ...] = ()

    @classmethod
    def make(cls, piles: Mapping[str, Iterable[HandCard | str | None] | None] | None = None) -> Reshuffle:
        return cls(_cards_by_name(piles, 6))

    def pile_of(self, name: str) -> tuple[HandCard, ...] | None:
        for who, cards in self.piles:
            if who == name:
                return cards
        return None


Move = Season | Reveal | Play | Conquer | Retake | Regroup | Reshuffle
"""Every event of a game after its ``game`` header. Each class is final: the state and the
codec dispatch on a move's exact type (``type(move) is Play``), which the type checker then
narrows."""

ACTS = (Conquer, Retake, Regroup)
"""The winner's acts, one of which ends each action (C10)."""

Act = Conquer | Retake | Regroup
"""The type of the winner's acts (C10)."""
