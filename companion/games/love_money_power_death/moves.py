"""The events of a game of Love, Money, Power, Death as small immutable values, one per event of
the ``lmpd-record/1`` format (:mod:`.record` converts between the two).

- :class:`Deal`: the nobles laid face down and the other cards dealt (L5), as far as they were
  seen.
- :class:`Commit`: a player puts one card of their hand face down (L6).
- :class:`TurnUp`: the top noble turned face up, once everyone has committed (L7).
- :class:`Reveal`: every player's committed card face up (L7); it decides the round (L8-L10).
- :class:`Draw`: every player draws the top card of their pile (L11).

A card nobody saw is :data:`UNSEEN` (``null`` in records).

>>> Commit.of("ann", "4Mb"), Commit.of("bob")
(Commit(player='ann', card=Card.from_id('4Mb')), Commit(player='bob', card=UNSEEN))
>>> Reveal.of(["ann", "bob"], {"bob": "A2", "ann": "4Mb"}).card_of("bob")
Card.from_id('A2')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, final

from companion.contract.cards import UNSEEN, Unseen
from companion.contract.errors import InvalidMoveError
from companion.games.love_money_power_death.cards import Card

__all__ = ["UNSEEN", "Unseen", "Seen", "Deal", "Commit", "TurnUp", "Reveal", "Draw", "Move", "TABLE_MOVES"]

Seen = Card | Unseen
"""A card as far as it was seen: the card, or :data:`UNSEEN`."""


def _seen(value: Card | Unseen | str | None) -> Seen:
    if value is None or isinstance(value, Unseen):
        return UNSEEN
    return value if isinstance(value, Card) else Card.from_id(value)


def _cards(values: Iterable[Card | Unseen | str | None]) -> tuple[Seen, ...]:
    return tuple(_seen(v) for v in values)


def _by_name(
    given: Mapping[str, Iterable[Card | Unseen | str | None] | None] | None, players: Sequence[str] | None
) -> tuple[tuple[str, tuple[Seen, ...]], ...]:
    """Piles or hands as (name, cards) pairs in seating order (the order given without
    ``players``), leaving out those given as ``None`` or with every card unseen: a pile nobody
    saw is the same whether written ``null`` or as nulls."""
    given = given or {}
    names = [p for p in players if p in given] if players is not None else list(given)
    if players is not None:
        for name in given:
            if name not in players:
                raise InvalidMoveError(f"{name!r} does not play (the players are {', '.join(players)})")
    out = []
    for name in names:
        cards = given[name]
        if cards is None:
            continue
        parsed = _cards(cards)
        if parsed and all(c is UNSEEN for c in parsed):
            continue
        out.append((name, parsed))
    return tuple(out)


@final
@dataclass(frozen=True, slots=True)
class Deal:
    """The deal (L5): ``order`` is the noble pile, top first (``None`` when unseen; a card of it
    may be :data:`UNSEEN`); ``piles`` each player's pile as dealt, top first, for the piles
    seen (a player left out: unseen), the first three of which become the hand; ``aside`` the
    cards set aside (``None`` when unseen); ``hands`` the hands seen without their pile (a
    record kept from one player's view), in any order."""

    order: tuple[Seen, ...] | None = None
    piles: tuple[tuple[str, tuple[Seen, ...]], ...] = ()
    aside: tuple[Seen, ...] | None = None
    hands: tuple[tuple[str, tuple[Seen, ...]], ...] = ()

    player = None
    """The table deals: no player decides it."""

    @classmethod
    def make(
        cls,
        order: Iterable[Card | Unseen | str | None] | None = None,
        piles: Mapping[str, Iterable[Card | Unseen | str | None] | None] | None = None,
        aside: Iterable[Card | Unseen | str | None] | None = None,
        hands: Mapping[str, Iterable[Card | Unseen | str | None] | None] | None = None,
        *,
        players: Sequence[str] | None = None,
    ) -> Deal:
        """A deal from names and card ids (``None`` for a card nobody saw), the piles and
        hands put in seating order when ``players`` is given; a list with no card seen is
        the same as none."""
        noble_order = _cards(order) if order is not None else None
        if noble_order is not None and noble_order and all(c is UNSEEN for c in noble_order):
            noble_order = None
        set_aside = _cards(aside) if aside is not None else None
        if set_aside and all(c is UNSEEN for c in set_aside):
            set_aside = None
        return cls(noble_order, _by_name(piles, players), set_aside, _by_name(hands, players))

    def pile_of(self, name: str) -> tuple[Seen, ...] | None:
        """``name``'s pile as dealt, top first, as seen; ``None`` when nobody saw it."""
        for who, cards in self.piles:
            if who == name:
                return cards
        return None

    def hand_of(self, name: str) -> tuple[Seen, ...] | None:
        """``name``'s hand as the deal event gave it apart from the pile; ``None`` if not."""
        for who, cards in self.hands:
            if who == name:
                return cards
        return None


@final
class Commit(NamedTuple):
    """``player`` commits ``card`` face down (L6): :data:`UNSEEN` when the companion did not
    see which (the reveal names it).

    An immutable named tuple, since replays make many; it equals only another
    :class:`Commit`."""

    player: str
    card: Seen = UNSEEN

    @classmethod
    def of(cls, player: str, card: Card | str | None = None) -> Commit:
        return cls(player, _seen(card))

    def __eq__(self, other: object) -> bool:
        return type(other) is Commit and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return tuple.__hash__(self)


@final
@dataclass(frozen=True, slots=True)
class TurnUp:
    """The top card of the noble pile is turned face up: the round's noble (L7)."""

    card: Card

    player = None

    @classmethod
    def of(cls, card: Card | str) -> TurnUp:
        return cls(card if isinstance(card, Card) else Card.from_id(card))


@final
@dataclass(frozen=True, slots=True)
class Reveal:
    """Every player's committed card, face up (L7), as (name, card) pairs in seating order."""

    cards: tuple[tuple[str, Card], ...]

    player = None

    @classmethod
    def of(cls, players: Sequence[str], cards: Mapping[str, Card | str]) -> Reveal:
        """The reveal of ``cards`` (by name, any order), in the order of ``players``;
        :class:`~companion.contract.errors.InvalidMoveError` unless it names each player once."""
        for name in cards:
            if name not in players:
                raise InvalidMoveError(f"reveal: {name!r} does not play (the players are {', '.join(players)})")
        missing = [p for p in players if p not in cards]
        if missing:
            raise InvalidMoveError(f"reveal: every player's card is face up, and {', '.join(missing)}'s is not named (L7)")
        return cls(tuple((p, _card(cards[p])) for p in players))

    def card_of(self, name: str) -> Card | None:
        for who, card in self.cards:
            if who == name:
                return card
        return None


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.from_id(value)


@final
@dataclass(frozen=True, slots=True)
class Draw:
    """Every player draws the top card of their own pile (L11), as (name, card) pairs in
    seating order: :data:`UNSEEN` when the card was not seen, or when the pile was empty and
    nothing was drawn (the state knows which)."""

    cards: tuple[tuple[str, Seen], ...]

    player = None

    @classmethod
    def of(cls, players: Sequence[str], cards: Mapping[str, Card | Unseen | str | None] | None = None) -> Draw:
        """The draw of ``cards`` (by name; a player left out drew unseen or nothing), in the
        order of ``players``."""
        cards = cards or {}
        for name in cards:
            if name not in players:
                raise InvalidMoveError(f"draw: {name!r} does not play (the players are {', '.join(players)})")
        return cls(tuple((p, _seen(cards.get(p))) for p in players))

    def card_of(self, name: str) -> Seen:
        for who, card in self.cards:
            if who == name:
                return card
        return UNSEEN


Move = Deal | Commit | TurnUp | Reveal | Draw
"""Every event of a game after its ``game`` header. Each class is final: the state and the
codec dispatch on a move's exact type (``type(move) is Commit``)."""

TABLE_MOVES = (Deal, TurnUp, Reveal, Draw)
"""The table's moves, which no player decides."""
