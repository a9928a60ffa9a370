"""Rule of Power's cards as the companion's protocol sees them (:class:`~companion.contract.
Catalogue`): every card, the ways a player writes one, and how a card is written on a sticker,
a seal marker and an NFC tag. Which seal id each card carries is the table's
(:mod:`companion.games.rule_of_power.table`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from companion.contract import CardForm
from companion.games.rule_of_power.engine.cards import ALL_CARDS, Card, parse_cards

if TYPE_CHECKING:
    from companion.contract.allocation import SealIds

__all__ = ["RuleOfPowerCards", "CATALOGUE"]


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

    @property
    def markers(self) -> SealIds:
        """The seal ids of the cards, as the table claims them (ids 0-531)."""
        from companion.games.rule_of_power.table import TABLE

        seals = TABLE.seals
        assert seals is not None  # Rule of Power claims its first-generation ids
        return seals

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

