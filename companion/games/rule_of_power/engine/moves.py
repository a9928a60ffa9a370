"""The events of a game as small immutable values: what a table does, one step at a time.

They mirror the events of the ``rop-record/1`` format (``round``, ``deal``, ``play``,
``draw_fate``, ``pass``); :mod:`companion.records.format` converts between the two.

>>> Play.from_ids("ann", "W006", capture=["W002", "W014"])
Play(player='ann', card=Card.from_id('W006'), capture=(Card.from_id('W002'), Card.from_id('W014')))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from companion.contract.cards import UNSEEN
from companion.contract.cards import Unseen as _Unseen
from companion.games.rule_of_power.engine.cards import Card
from companion.contract.errors import InvalidMoveError

__all__ = [
    "UNSEEN",
    "Move",
    "NewRound",
    "Deal",
    "Play",
    "DrawFate",
    "Pass",
    "InvalidMoveError",
    "DETAILS",
]

HandCard = Card | _Unseen


@dataclass(frozen=True, slots=True)
class NewRound:
    """A round begins (R15, R18): who deals, and each player's shuffled Fate deck, top card
    first. An empty deck means the player plays without Fate cards. ``fate_order_known`` is
    false when the order of the decks is unseen (only their contents are known)."""

    dealer: str
    fate_decks: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    fate_order_known: bool = True

    @classmethod
    def make(
        cls, dealer: str, fate_decks: Mapping[str, Iterable[Card | str]] | None = None, *, fate_order_known: bool = True
    ) -> NewRound:
        decks = tuple(
            (player, tuple(c if isinstance(c, Card) else Card.from_id(c) for c in cards))
            for player, cards in (fate_decks or {}).items()
        )
        return cls(dealer, decks, fate_order_known)

    def deck_of(self, player: str) -> tuple[Card, ...]:
        for name, cards in self.fate_decks:
            if name == player:
                return cards
        return ()


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal (R15): each player's cards in seating order of the ``hands`` mapping, and on the
    first deal of a round the four centre cards. A hand may hold :data:`UNSEEN` cards."""

    hands: tuple[tuple[str, tuple[HandCard, ...]], ...]
    centre: tuple[Card, ...] = ()

    @classmethod
    def make(cls, hands: Mapping[str, Iterable[HandCard | str | None]], centre: Iterable[Card | str] = ()) -> Deal:
        def card(c: HandCard | str | None) -> HandCard:
            if c is None or isinstance(c, _Unseen):
                return UNSEEN
            return c if isinstance(c, Card) else Card.from_id(c)

        return cls(
            tuple((p, tuple(card(c) for c in cards)) for p, cards in hands.items()),
            tuple(c if isinstance(c, Card) else Card.from_id(c) for c in centre),
        )

    def hand_of(self, player: str) -> tuple[HandCard, ...]:
        for name, cards in self.hands:
            if name == player:
                return cards
        return ()


DETAILS: tuple[str, ...] = ("target", "given", "received", "stolen", "drawn", "discards")
"""The fields of a :class:`Play` that only some Fate cards carry; each Fate card's rule names
its own (:attr:`companion.games.rule_of_power.engine.fate.FateRule.details`), and any other is refused."""


class Play(NamedTuple):
    """A player plays ``card`` from hand.

    - World card, Warlock, Vampire: ``capture`` lists the centre cards taken (R4, R5).
    - Dark Decay (F004): ``discards``, each opponent's discarded card, as (player, card) pairs.
    - Mirror Swap (F005): ``target``, ``given`` (the player's cards), ``received`` (the target's);
      a card exchanged face down, unseen by the companion, is :data:`UNSEEN`.
    - Thief (F006): ``target`` and ``stolen`` (``None`` when the stack was empty).
    - Renewal (F008): ``drawn`` (``None`` when the deck was empty, :data:`UNSEEN` when drawn
      face down).
    - Mystic Crystal (F001), Exorcist (F007): nothing more.

    An immutable named tuple, since replays and simulations create millions of them; it
    compares equal only to another :class:`Play`. Pass the Fate details by keyword.
    """

    player: str
    card: Card
    capture: tuple[Card, ...] = ()
    target: str | None = None
    given: tuple[Card | _Unseen, ...] = ()
    received: tuple[Card | _Unseen, ...] = ()
    stolen: Card | None = None
    drawn: Card | _Unseen | None = None
    discards: tuple[tuple[str, Card], ...] = ()

    @classmethod
    def from_ids(
        cls,
        player: str,
        card: str,
        capture: Sequence[str] = (),
        *,
        target: str | None = None,
        given: Sequence[str] = (),
        received: Sequence[str] = (),
        stolen: str | None = None,
        drawn: str | None = None,
        discards: Mapping[str, str] | None = None,
    ) -> Play:
        return cls(
            player,
            Card.from_id(card),
            tuple(Card.from_id(c) for c in capture),
            target=target,
            given=tuple(Card.from_id(c) for c in given),
            received=tuple(Card.from_id(c) for c in received),
            stolen=Card.from_id(stolen) if stolen else None,
            drawn=Card.from_id(drawn) if drawn else None,
            discards=tuple((p, Card.from_id(c)) for p, c in (discards or {}).items()),
        )

    def __eq__(self, other: object) -> bool:
        return type(other) is Play and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __repr__(self) -> str:
        parts = [f"player={self.player!r}", f"card={self.card!r}"]
        if self.capture:
            parts.append(f"capture={self.capture!r}")
        for key in ("target", "given", "received", "stolen", "drawn", "discards"):
            value = getattr(self, key)
            if value:
                parts.append(f"{key}={value!r}")
        return f"Play({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class DrawFate:
    """The player takes the top card of their own Fate deck instead of playing (R17)."""

    player: str


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn without a play, for a player holding no World card (R17)."""

    player: str


Move = NewRound | Deal | Play | DrawFate | Pass
