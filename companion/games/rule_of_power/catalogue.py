"""Rule of Power's cards as the companion's protocol sees them (:class:`~companion.games.
protocol.Catalogue`): every card, the ways a player writes one, and how a card is written on
a sticker, a seal marker and an NFC tag.

Seal marker ids (AprilTag 36h11; :mod:`vision.markers` has the family and the sizes):

====================  =======================================  ============
marker                id                                       range
====================  =======================================  ============
World card n, owner   ``(slot * 52) + (n - 1)``, slot 0-7      0-415
World card n, nobody  ``416 + (n - 1)``                        416-467
Fate card n, owner    ``468 + slot * 8 + (n - 1)``, slot 0-7   468-531
====================  =======================================  ============

Ids 532-535 are the table mat's corners (:class:`vision.markers.MatCorner`); the rest are never
printed for Rule of Power. Stickers printed with this scheme stay valid for good: it never
changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from companion.contract import CardForm, SealMarker
from companion.games.rule_of_power.engine.cards import ALL_CARDS, Card, parse_cards

__all__ = ["RuleOfPowerCards", "RuleOfPowerMarkers", "CATALOGUE", "OWNER_SLOTS"]

OWNER_SLOTS = 8
"""Owner slots a seal marker can name (0-7)."""
_WORLD_CARDS = 52
_FATE_CARDS = 8
_NOBODY_BASE = OWNER_SLOTS * _WORLD_CARDS  # 416
_FATE_BASE = _NOBODY_BASE + _WORLD_CARDS  # 468
_END = _FATE_BASE + OWNER_SLOTS * _FATE_CARDS  # 532


class RuleOfPowerMarkers:
    """The seal marker ids of Rule of Power's cards (the table in the module's docstring)."""

    owner_slots = OWNER_SLOTS

    def encode(self, card: Card, slot: int | None) -> int:
        if slot is not None and not 0 <= slot < OWNER_SLOTS:
            raise ValueError(f"owner slot {slot} is out of range: slots are 0-{OWNER_SLOTS - 1}")
        n = int(card.id[1:])
        if card.is_fate:
            if slot is None:
                raise ValueError(f"Fate card {card.id} needs an owner slot: Fate cards belong to a player")
            return _FATE_BASE + slot * _FATE_CARDS + (n - 1)
        if slot is None:
            return _NOBODY_BASE + (n - 1)
        return slot * _WORLD_CARDS + (n - 1)

    def decode(self, marker_id: int) -> SealMarker | None:
        """The card (and owner slot) of a marker id, ``None`` for an id the scheme never
        prints: an id outside it can only be a misread or a foreign marker."""
        if marker_id < 0 or marker_id >= _END:
            return None
        if marker_id < _NOBODY_BASE:
            slot, n = divmod(marker_id, _WORLD_CARDS)
            return SealMarker(Card.from_id(f"W{n + 1:03d}"), slot)
        if marker_id < _FATE_BASE:
            return SealMarker(Card.from_id(f"W{marker_id - _NOBODY_BASE + 1:03d}"), None)
        slot, n = divmod(marker_id - _FATE_BASE, _FATE_CARDS)
        return SealMarker(Card.from_id(f"F{n + 1:03d}"), slot)

    def ids(self) -> Iterable[int]:
        return range(_END)


class RuleOfPowerCards:
    """Rule of Power's catalogue: the World deck, the Higher Powers expansion and the starter
    Fate cards (R1-R3)."""

    game = "rule-of-power"
    forms = (
        CardForm("value and suit letter", "6m, 10D, 7P", "P Powers, M Men, E Elves, D Darkness"),
        CardForm("the id printed on the card (leading zeros may be left out)", "W036, w7, F006"),
        CardForm("the name", "Fire Dragon, Servant of Darkness, thief, crystal"),
    )
    nfc_record_type = "urn:nfc:ext:ruleofpower.org:card"
    _markers = RuleOfPowerMarkers()

    @property
    def markers(self) -> RuleOfPowerMarkers:
        return self._markers

    def __iter__(self) -> Iterator[Card]:
        return iter(ALL_CARDS)

    def from_id(self, card_id: str) -> Card:
        return Card.from_id(card_id)

    def parse(self, text: str) -> Card:
        return Card.parse(text)

    def parse_many(self, text: str | Iterable[str]) -> tuple[Card, ...]:
        return parse_cards(text)

    def sticker_label(self, card: Card) -> str:
        """The sticker's first line (the owner follows it): ``"7P W007"``, ``"F006"``."""
        return f"{card.short} {card.id}" if card.is_world else card.id

    def sticker_name(self, card: Card) -> str:
        """The sticker's second line: ``"Fire Dragon"``, ``"Servant of Darkness"``."""
        if card.is_fate:
            return card.name or card.id
        assert card.suit is not None
        return card.name or f"{card.rank_name} of {card.suit.label}"

    def nfc_text(self, card: Card, owner: str) -> str:
        return f"Rule of Power: {card.title}, {card.id} ({owner})"


CATALOGUE = RuleOfPowerCards()

