"""What we write on a card's tag: an NFC Forum external-type record naming the card and
its owner, followed by a text record a phone can show.

    record 1: the card's game's record type, payload ``v=1;card=W007;owner=ann``
    record 2: text record (en), the game's words: ``<game>: Fire Dragon (7), W007 (ann)``

The record's type names the card's game (each game's catalogue has its own,
:attr:`companion.contract.Catalogue.nfc_record_type`, which the game's table spec claims: no two
installed games share one, :mod:`companion.contract.allocation`), so a tag of another game's
deck is never read as one of this game's cards. The payload is short ASCII (an NTAG213 holds 144
bytes) and self-describing, so a tag enrolled at one table reads correctly at another even
without that table's registry.
"""

from __future__ import annotations

from dataclasses import dataclass

import ndef

from companion.contract.errors import UnknownCardError
from companion.contract import Card, Catalogue
from companion.contract.registry import game, games

from .registry import RegistryError, normalise_owner

__all__ = ["NdefCard", "NdefError", "card_records", "card_from_records"]

_VERSION = "1"


class NdefError(ValueError):
    """Tag content that claims to be ours but cannot be understood."""


@dataclass(frozen=True, slots=True)
class NdefCard:
    """The card and owner a tag's NDEF message names."""

    card: Card
    owner: str


def card_records(card: Card, owner: str) -> list[ndef.Record]:
    """The NDEF message to write on ``owner``'s ``card``."""
    owner = normalise_owner(owner)
    cards = game(card.game).cards
    payload = f"v={_VERSION};card={card.id};owner={owner}".encode("ascii")
    return [ndef.Record(cards.nfc_record_type, "", payload), ndef.TextRecord(cards.nfc_text(card, owner), "en")]


def card_from_records(records: list[ndef.Record], cards: Catalogue | None = None) -> NdefCard | None:
    """The card of ``cards``' game (the default game's) named by a tag's records; None if no
    record is a card's (a blank or foreign tag). Raises NdefError when a card record is
    present but unreadable, or names a card of another game."""
    catalogue = cards if cards is not None else game().cards
    others = {g.cards.nfc_record_type: g.title for g in games() if g.cards is not catalogue}
    for record in records:
        kind = getattr(record, "type", None)
        if kind in others and kind != catalogue.nfc_record_type:
            raise NdefError(f"a {others[kind]} card's tag: this table plays another game")
        if kind != catalogue.nfc_record_type:
            continue
        try:
            text = bytes(record.data).decode("ascii")
        except UnicodeDecodeError as exc:
            raise NdefError("card record is not ASCII") from exc
        fields: dict[str, str] = {}
        for part in text.split(";"):
            key, sep, value = part.partition("=")
            if not sep:
                raise NdefError(f"card record field {part!r} has no '='")
            fields[key.strip()] = value.strip()
        if fields.get("v") != _VERSION:
            raise NdefError(f"card record version {fields.get('v')!r} is not known here (expected {_VERSION})")
        try:
            card = catalogue.from_id(fields.get("card", ""))
            owner = normalise_owner(fields.get("owner", ""))
        except (UnknownCardError, RegistryError) as exc:
            raise NdefError(f"card record: {exc}") from exc
        return NdefCard(card, owner)
    return None
