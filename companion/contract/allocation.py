"""One allocator of seal ids and NFC records for every game: each game claims numbered blocks of
the seal dictionary and its NFC records in its table spec (:class:`~companion.contract.table.
Claim`); this module checks the claims and expands them into one seal id per card face and
copy, and one simulated tag UID per card and owner.

Allocation never depends on which other games are installed, nor on their order: a game's ids
come from its own claim and its own decks alone (:class:`SealIds`), so a sticker printed today
reads as the same card after any other game is installed. What depends on the installed games
is only the check (:func:`check`): two games claiming the same block, the same ids, the same
record type or the same tag byte is an :class:`AllocationError` naming both.

The seal dictionary (its codes: :mod:`vision.seal_codes`) has :data:`SEAL_IDS` ids:

=========  ===========================================================================
ids        what
=========  ===========================================================================
0-531      Rule of Power's cards (first generation: AprilTag 36h11)
532-535    the table mat's four corner markers, every game's (:data:`MAT_CORNERS`)
536-586    36h11's last codes, free for a first-generation claim
587-1018   Circle of Power's cards (first generation: 432 codes of AprilTag 36h10)
1019-1023  never printed
1024-8191  blocks 16-127 of 64 ids each (block ``n``: ids ``64n`` to ``64n + 63``)
=========  ===========================================================================

Within its claim a game's ids are taken in order: deck by deck, copy by copy
(:attr:`~companion.contract.table.Deck.copies`), card by card, then one back per copy where
the deck's backs carry seals. Rule of Power's World cards of owner slot ``s`` are thus ids
``52s`` to ``52s + 51``, its World cards without owner 416-467, its Fate cards 468-531, as
printed since its first stickers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from companion.contract.cards import Card
from companion.contract.catalogue import SealMarker
from companion.contract.table import OWNER_SLOTS, Copy, Deck, Face, TableSpec, Use

if TYPE_CHECKING:
    from companion.contract.game import Game

__all__ = [
    "BLOCK",
    "FIRST_BLOCK",
    "BLOCKS",
    "SEAL_IDS",
    "FIRST_GENERATION",
    "MAT_CORNERS",
    "AllocationError",
    "SealFace",
    "SealIds",
    "TagIds",
    "Allocation",
    "check",
    "installed",
]

BLOCK = 64
"""Seal ids in a block."""
FIRST_BLOCK = 16
"""The first block a game may claim (ids 1024-1087): the ones before are the first generation's."""
BLOCKS = 128
"""Blocks of the seal dictionary, the first generation's 16 included."""
SEAL_IDS = BLOCKS * BLOCK
"""Seal ids of the dictionary: 0-8191."""
FIRST_GENERATION = range(0, 1019)
"""The ids printed before blocks: AprilTag 36h11's 587 codes, then 432 of 36h10."""
MAT_CORNERS = range(532, 536)
"""The table mat's corner markers (top-left, top-right, bottom-right, bottom-left), every game's."""


class AllocationError(ValueError):
    """A claim that cannot be honoured: ids outside the dictionary, too few for the decks, or
    ids, a record type or a tag byte another installed game claims (the message names both)."""


@dataclass(frozen=True, slots=True)
class SealFace:
    """What one seal id of a game stands for: a face of a card of a copy of a deck; for a
    back (:attr:`Face.BACK`) the copy alone, ``card`` ``None``."""

    deck: Deck
    copy: Copy
    face: Face
    card: Card | None


class SealIds:
    """The seal ids of one game, expanded from its claim (the module's docstring says the
    order). It is the game catalogue's :class:`~companion.contract.MarkerScheme` for the
    card fronts, and knows the backs too."""

    def __init__(self, spec: TableSpec) -> None:
        self.game = spec.game
        self.spec = spec
        claimed = list(spec.claim.seal_ids())
        _check_claim(spec)
        faces: list[SealFace] = []
        for deck in spec.decks:  # a deck added later takes the ids after every deck printed
            faces += [SealFace(deck, copy, Face.FRONT, card) for copy in deck.copies for card in deck.cards]
            if deck.backs:
                faces += [SealFace(deck, copy, Face.BACK, None) for copy in deck.copies]
        if len(faces) > len(claimed):
            lacking = -(-(len(faces) - len(claimed)) // BLOCK)
            raise AllocationError(
                f"{spec.game}: its decks need {len(faces)} seal ids but it claims {len(claimed)}: "
                f"claim {lacking} more block(s) of {BLOCK} (free blocks: see docs/vision.md, 'Seal ids')"
            )
        self._by_id: dict[int, SealFace] = dict(zip(claimed, faces))
        self._by_face: dict[tuple[Card | None, str, Copy, Face], int] = {
            (f.card, f.deck.name, f.copy, f.face): i for i, f in self._by_id.items()
        }
        self.claimed = frozenset(claimed)
        """Every id the game owns, those its decks do not use yet included."""
        self.owner_slots = OWNER_SLOTS if any(d.owner_slots for d in spec.decks) else 0

    # -- the catalogue's MarkerScheme ------------------------------------------------------

    def encode(self, card: Card, slot: int | None) -> int:
        """The seal id of ``card``'s front on the copy ``slot`` names (an owner slot, or a
        colour's place in :attr:`Deck.colours`; ``None`` for no owner); :class:`ValueError`
        saying why a card cannot carry that owner."""
        try:
            deck = self.spec.deck_of(card)
        except KeyError:
            raise ValueError(f"{card.id} is in none of {self.game}'s decks") from None
        return self._by_face[(card, deck.name, self.copy_of(deck, slot, card), Face.FRONT)]

    def decode(self, marker_id: int) -> SealMarker | None:
        """The card and owner slot (or colour's place) of a front's seal id, ``None`` for an id
        that is no front of the game's cards: an id outside the scheme can only be a misread
        or a foreign marker."""
        found = self._by_id.get(marker_id)
        if found is None or found.card is None:
            return None
        return SealMarker(found.card, self.slot_of(found))

    def ids(self) -> Iterable[int]:
        """Every seal id the game's stickers use, fronts and backs."""
        return self._by_id.keys()

    # -- faces and copies ------------------------------------------------------------------

    def meaning(self, marker_id: int) -> SealFace | None:
        """What a seal id stands for, front or back; ``None`` for one the game never prints."""
        return self._by_id.get(marker_id)

    def back(self, deck: Deck, copy: Copy) -> int:
        """The seal id on every back of ``deck``'s ``copy``; :class:`ValueError` for a deck
        whose backs carry none."""
        found = self._by_face.get((None, deck.name, copy, Face.BACK))
        if found is None:
            raise ValueError(f"the backs of {self.game}'s {deck.title} carry no seal of copy {copy!r}")
        return found

    def copy_of(self, deck: Deck, slot: int | None, card: Card | None = None) -> Copy:
        """The copy of ``deck`` that ``slot`` names (see :meth:`encode`)."""
        name = card.id if card is not None else f"a {deck.title} card"
        if slot is None:
            if deck.unowned:
                return None
            if deck.use is Use.PER_PLAYER:
                raise ValueError(f"{deck.title} card {name} needs an owner slot: {deck.title} cards belong to a player")
            raise ValueError(f"{name} needs an owner slot: the {deck.title}'s seals name its owner")
        if deck.colours:
            if not 0 <= slot < len(deck.colours):
                raise ValueError(f"colour {slot} is out of range: the {deck.title}'s colours are 0-{len(deck.colours) - 1} ({', '.join(deck.colours)})")
            return deck.colours[slot]
        if not deck.owner_slots:
            raise ValueError(f"{name} names no owner: the {deck.title} is the table's")
        if not 0 <= slot < OWNER_SLOTS:
            raise ValueError(f"owner slot {slot} is out of range: slots are 0-{OWNER_SLOTS - 1}")
        return slot

    @staticmethod
    def slot_of(face: SealFace) -> int | None:
        """The owner slot (or colour's place) a face's copy has, as :class:`SealMarker` carries it."""
        if isinstance(face.copy, str):
            return face.deck.colours.index(face.copy)
        return face.copy


class TagIds:
    """One game's NFC records: the record type its tags carry, and the UID bytes of its
    simulated tags (a card's place among the game's cards, in deck order, and the claim's tag
    byte for each 256 of them)."""

    def __init__(self, spec: TableSpec) -> None:
        self.game = spec.game
        self.record_type = spec.claim.nfc_record_type
        cards = list(dict.fromkeys(c for d in spec.decks for c in d.cards))
        self._number = {c: i for i, c in enumerate(cards)}
        needed = -(-len(cards) // 256)
        if len(spec.claim.tag_bytes) < needed:
            raise AllocationError(f"{spec.game}: its {len(cards)} cards need {needed} tag byte(s), it claims {len(spec.claim.tag_bytes)}")
        for byte in spec.claim.tag_bytes:
            if not 0 <= byte <= 255:
                raise AllocationError(f"{spec.game}: tag byte {byte} is not a byte (0-255)")
        self.tag_bytes = spec.claim.tag_bytes

    def tag_byte(self, card: Card) -> tuple[int, int]:
        """``(low, kind)``: the card's place among the game's cards modulo 256, and the claim's
        byte for its 256."""
        number = self._number[card]
        return number % 256, self.tag_bytes[number // 256]


def _check_claim(spec: TableSpec) -> None:
    claim = spec.claim
    first = claim.first_generation
    if first is not None:
        if first.step != 1 or first.start < FIRST_GENERATION.start or first.stop > FIRST_GENERATION.stop:
            raise AllocationError(f"{spec.game}: first-generation ids {_span(first)} lie outside {_span(FIRST_GENERATION)}: claim blocks instead")
        if set(first) & set(MAT_CORNERS):
            raise AllocationError(f"{spec.game}: ids {_span(MAT_CORNERS)} are the mat's corners, every game's: claim ids around them")
    for block in claim.seal_blocks:
        if not FIRST_BLOCK <= block < BLOCKS:
            raise AllocationError(f"{spec.game}: seal block {block} does not exist: blocks are {FIRST_BLOCK}-{BLOCKS - 1}")
    if len(set(claim.seal_blocks)) != len(claim.seal_blocks):
        raise AllocationError(f"{spec.game}: a seal block is claimed twice ({', '.join(map(str, claim.seal_blocks))})")


def _span(ids: range) -> str:
    return f"{ids.start}-{ids.stop - 1}"


@dataclass(frozen=True)
class Allocation:
    """The claims of the installed games, checked: which game owns each claimed seal id."""

    owners: dict[int, str]
    """Seal id to the name of the game that claims it."""
    seals: dict[str, SealIds]
    tags: dict[str, TagIds]

    def owner(self, marker_id: int) -> str | None:
        """The game whose claim holds ``marker_id``; ``None`` for an id nobody claims."""
        return self.owners.get(marker_id)


def check(games: Iterable[Game | Any]) -> Allocation:
    """Expand every game's claim and check them against each other; :class:`AllocationError`
    naming both games for a block, id, record type or tag byte two of them claim."""
    owners: dict[int, str] = {}
    seals: dict[str, SealIds] = {}
    tags: dict[str, TagIds] = {}
    titles: dict[str, str] = {}
    blocks: dict[int, str] = {}
    records: dict[str, str] = {}
    kinds: dict[int, str] = {}
    for game in games:
        spec: TableSpec | None = getattr(game, "table", None)
        if spec is None:
            continue
        titles[spec.game] = getattr(game, "title", spec.game)

        def clash(what: str, other: str, me: str = titles[spec.game]) -> AllocationError:
            return AllocationError(
                f"both {titles[other]} and {me} claim {what}: two games cannot share it, since a sticker "
                f"or tag of one would read as the other's card; one of them must claim another "
                f"(docs/architecture.md, 'A game's table')"
            )

        _check_claim(spec)
        for block in spec.claim.seal_blocks:
            if block in blocks:
                raise clash(f"seal block {block} (ids {block * BLOCK}-{block * BLOCK + BLOCK - 1})", blocks[block])
            blocks[block] = spec.game
        found = spec.seals
        if found is not None:
            taken = sorted(i for i in found.claimed if i in owners)
            if taken:
                raise clash(f"seal ids {taken[0]}-{taken[-1]}", owners[taken[0]])
            owners.update(dict.fromkeys(found.claimed, spec.game))
            seals[spec.game] = found
        record = spec.claim.nfc_record_type
        if record:
            if record in records:
                raise clash(f"the NFC record type {record!r}", records[record])
            records[record] = spec.game
        for byte in spec.claim.tag_bytes:
            if byte in kinds:
                raise clash(f"the tag byte 0x{byte:02X}", kinds[byte])
            kinds[byte] = spec.game
        tags[spec.game] = spec.tags
    return Allocation(owners, seals, tags)


@cache
def installed() -> Allocation:
    """:func:`check` over every registered game, once (:mod:`companion.contract.registry`)."""
    from companion.contract.registry import games

    return check(games())

