"""A game's cards as a catalogue: every card, the forms a player types, and how a card is
written on a sticker, a seal marker and an NFC tag."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from companion.contract.cards import Card, CardForm

CardT = TypeVar("CardT", bound=Card)
"""The cards of one game."""

__all__ = ["CardT", "SealMarker", "MarkerScheme", "Catalogue"]


@dataclass(frozen=True, slots=True)
class SealMarker(Generic[CardT]):
    """What one seal marker (an AprilTag on a card's sticker) says: a card and, where the
    game's cards carry their owner, the owner's slot."""

    card: CardT
    slot: int | None = None


class MarkerScheme(Protocol[CardT]):
    """Which seal marker id stands for which card (and owner slot) in one game, and back.

    The markers of every game share one family (:mod:`vision.markers`); a game's scheme says
    which of its ids are the game's cards. Ids that are not the game's decode to ``None``."""

    @property
    def owner_slots(self) -> int:
        """How many owner slots the scheme names (0 when the cards carry no owner)."""

    def encode(self, card: CardT, slot: int | None) -> int:
        """The marker id of ``card`` with owner ``slot``; :class:`ValueError` when the scheme
        has none (an owner the card cannot carry, a slot out of range)."""

    def decode(self, marker_id: int) -> SealMarker[CardT] | None:
        """The card a marker id stands for, ``None`` when the id is not one of the game's."""

    def ids(self) -> Iterable[int]:
        """Every marker id the scheme uses, for tests and for telling schemes apart."""


class Catalogue(Protocol[CardT]):
    """A game's cards: every card, the ways a player writes one, and how a card is written
    on a sticker (the label under its seal marker), a seal marker and an NFC tag."""

    @property
    def game(self) -> str:
        """The name of the game whose cards these are (``"rule-of-power"``)."""

    @property
    def forms(self) -> tuple[CardForm, ...]:
        """The ways of writing a card, for help texts and for the errors of :meth:`parse`."""

    @property
    def nfc_record_type(self) -> str:
        """The NFC Forum external type of the record a card's tag carries
        (``"urn:nfc:ext:ruleofpower.org:card"``): a deck names its game, so a tag of another
        game's deck is never taken for one of this game's cards."""

    @property
    def markers(self) -> MarkerScheme[CardT] | None:
        """The seal marker ids of the cards, ``None`` when the game's cards have none yet."""

    def __iter__(self) -> Iterator[CardT]:
        """Every card of the game, in catalogue order."""

    def from_id(self, card_id: str) -> CardT:
        """The card with identifier ``card_id`` (as records write it);
        :class:`~companion.contract.errors.UnknownCardError` otherwise."""

    def parse(self, text: str) -> CardT:
        """The card ``text`` names in any form a player may type (:attr:`forms`);
        :class:`~companion.contract.errors.UnknownCardError` saying which forms are accepted."""

    def parse_many(self, text: str | Iterable[str]) -> tuple[CardT, ...]:
        """Cards separated by commas (or a list of texts), each read by :meth:`parse`."""

    def sticker_label(self, card: CardT) -> str:
        """The first line printed under the card's seal marker and on its NFC sticker (the
        owner's name follows it): ``"7P W007"``, ``"10H"``."""

    def sticker_name(self, card: CardT) -> str:
        """The second line: the card's name, ``"Fire Dragon"``, ``"ten of hearts"``."""

    def nfc_text(self, card: CardT, owner: str) -> str:
        """The text record a phone shows for ``owner``'s ``card``'s tag."""
