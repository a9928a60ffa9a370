"""A game's table: what the physical table needs for the companion's camera and NFC readers to
follow the game, in one typed object (:class:`TableSpec`) that each game declares
(:attr:`companion.contract.Game.table`) and the sensor packages read.

- **Decks** (:class:`Deck`): which cards each holds, whether the table shares it (the club's
  World cards, a standard deck) or every player brings their own (Fate decks, a colour), and
  which **copies** a sticker or a tag tells apart: one per owner slot (the players named in
  ``owners.json``), one per colour the box has, one with no owner. A deck's **parts**
  (:class:`Part`) are offered on their own by ``rop markers --deck`` and ``rop tags enrol
  --deck``.
- **Faces** (:class:`Face`): every card's front carries a seal that names the card (and its
  copy); a deck with :attr:`Deck.backs` also carries one on the back of each card that names
  only the copy, the same on every card of it, so that the camera sees "a back of blue's deck"
  in a column without learning which card it is.
- **Zones and mats**: each seat's zones and the table's (:class:`ZoneKind`), how many seats a
  table has, and the standard mat for each number of players (:class:`Mats`, :class:`MatPlan`):
  the layouts ``rop calibrate`` checks and the camera reads zones from.
- **NFC readers** (:class:`ReaderRole`): the zones a table configuration may give a reader.
- **Turns** (:class:`Turns`): one player after another, or every player at once.
- **Claims** (:class:`Claim`): the seal ids and the NFC records the game owns, fixed for good
  once a sticker is printed or a tag written. :mod:`companion.contract.allocation` expands them
  into one seal id per card face and copy, and checks that no two games claim the same.

Nothing here imports a host or a game: the sensor packages turn a :class:`MatPlan` into their
own layout, and a game builds its spec from its own cards.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from companion.contract.cards import Card

if TYPE_CHECKING:
    from companion.contract.allocation import SealIds, TagIds

__all__ = [
    "OWNER_SLOTS",
    "Copy",
    "Turns",
    "Use",
    "Face",
    "Part",
    "Deck",
    "ZoneKind",
    "ZoneShape",
    "MatPlan",
    "Mats",
    "ReaderRole",
    "Stickers",
    "Claim",
    "TableSpec",
    "NoTableError",
    "table_of",
    "with_tables",
]

OWNER_SLOTS = 8
"""Owner slots a seal can name (0-7): the players of ``owners.json``, the same slots for every
game, so that a player is one slot on all their decks."""

Copy = int | str | None
"""Which copy of a deck a seal or a tag names: an owner slot (``2``), a colour of the box
(``"blue"``), or ``None`` for the copy with no owner (the club's)."""

Point = tuple[float, float]


class Turns(enum.Enum):
    """How the players act in a round."""

    IN_TURN = "in turn"
    """One player after another, each seeing what the one before did (Rule of Power R17,
    Circle of Power C8, Ruse and Bruise B8)."""
    AT_ONCE = "at once"
    """Every player commits a card face down at the same time and all are revealed together
    (Love, Money, Power, Death L6-L7): the order of the commits tells nothing."""


class Use(enum.Enum):
    """Whether the table shares a deck or each player has their own at the table."""

    SHARED = "shared"
    """One lies on the table for everyone: Rule of Power's World cards, a standard deck,
    Love, Money, Power, Death's 52 cards, Ruse and Bruise's goal cards."""
    PER_PLAYER = "per player"
    """Every player has their own: Rule of Power's Fate decks, Ruse and Bruise's 25 cards in
    each player's colour."""


class Face(enum.Enum):
    """Which face of a card a seal is stuck on."""

    FRONT = "front"
    """Names the card and its copy: ``7P W007 ann``."""
    BACK = "back"
    """Names the copy alone, the same on every card of it: a face-down card is seen as a back of
    that copy, never as the card it is."""


@dataclass(frozen=True, slots=True)
class Part:
    """A part of a deck offered on its own by ``rop markers --deck`` and ``rop tags enrol
    --deck``: Circle of Power's battle cards, Rule of Power's Higher Powers."""

    name: str
    """How ``--deck`` names it: ``"battle"``, ``"expansion"``."""
    what: str
    """Its cards in a few words, for help texts: ``"2-10"``, ``"W041-W052"``."""
    cards: tuple[Card, ...]
    expansion: bool = False
    """An expansion a table plays or not (Rule of Power's Higher Powers, R2): ``rop markers
    --deck`` offers it apart, and the deck's own choice leaves it out; ``rop tags enrol`` adds
    it to the deck's cards with ``--expansion``."""


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck of the game: its cards, who has it, and what a sticker or a tag on one of its
    cards tells.

    Its seal ids (:mod:`companion.contract.allocation`) run copy by copy in :attr:`copies`
    order, card by card in :attr:`cards` order, then one back per copy when :attr:`backs`: the
    order is fixed for good once its stickers are printed (a card added later goes in a deck of
    its own, at the end of the game's decks)."""

    name: str
    """The deck's name for ``--deck``: ``"world"``, ``"fate"``, ``"standard"``."""
    title: str
    """How a message names the deck: ``"World"``, ``"Fate"``, ``"standard deck"``."""
    cards: tuple[Card, ...]
    """Every card of one copy, in seal order."""
    what: str
    """Its cards in a few words, for help texts (its expansion parts left out): ``"W001-W040"``."""
    use: Use = Use.SHARED
    owner_slots: bool = False
    """A copy for each owner slot (0-7): a deck someone brings, named on its stickers."""
    colours: tuple[str, ...] = ()
    """A copy for each colour of the box, named by the game (Ruse and Bruise's six)."""
    unowned: bool = False
    """A copy that names no owner: the club's deck."""
    backs: bool = False
    """Each copy's backs carry a seal of their own (:attr:`Face.BACK`)."""
    parts: tuple[Part, ...] = ()

    @property
    def copies(self) -> tuple[Copy, ...]:
        """Every copy a sticker or a tag may name, in seal order: owner slots, colours, then
        the copy with no owner."""
        slots: tuple[Copy, ...] = tuple(range(OWNER_SLOTS)) if self.owner_slots else ()
        return slots + self.colours + ((None,) if self.unowned else ())

    @property
    def faces(self) -> tuple[Face, ...]:
        """The faces that carry a seal."""
        return (Face.FRONT, Face.BACK) if self.backs else (Face.FRONT,)

    def base(self) -> tuple[Card, ...]:
        """The cards without its expansion parts."""
        extra = {c for p in self.parts if p.expansion for c in p.cards}
        return tuple(c for c in self.cards if c not in extra)


@dataclass(frozen=True, slots=True)
class ZoneKind:
    """A kind of zone of the game's table: each seat has one of every seat zone
    (``capture:<seat>``), the table one of every table zone (``centre``), or of a
    :attr:`numbered` table zone one for each player (``column-1`` ... ``column-4``)."""

    name: str
    what: str
    """What lies there, in a few words."""
    required: bool = True
    """A layout of the game's table must have it (``rop calibrate`` refuses one without)."""
    numbered: bool = False
    """A table zone there is one of for each player, numbered from 1 and named
    ``<name>-<n>``: a place that belongs to no player, however many there are (Ruse and
    Bruise's columns, B7). Its names never take a player's name (:meth:`names`)."""

    def names(self, players: int) -> tuple[str, ...]:
        """The zones of this table zone kind at a table of ``players``: its name, or each
        numbered one (``column-1``, ``column-2``)."""
        return tuple(f"{self.name}-{n}" for n in range(1, players + 1)) if self.numbered else (self.name,)


@dataclass(frozen=True, slots=True)
class ZoneShape:
    """One zone of a mat: its name (``capture:0``, ``centre``) and its outline in table mm."""

    name: str
    polygon_mm: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class MatPlan:
    """A mat of the game's table, in table millimetres (origin at the mat's top-left corner as
    the camera sees it, x to the right, y down): its size, the centres of its four corner
    markers (top-left, top-right, bottom-right, bottom-left) and its zones, seats numbered
    clockwise from seat 0 at the bottom edge."""

    name: str
    """``"4 players"``, ``"Circle of Power, 4 seats"``."""
    seats: int
    size_mm: tuple[float, float]
    corners_mm: tuple[Point, Point, Point, Point]
    zones: tuple[ZoneShape, ...]


@dataclass(frozen=True, slots=True)
class Mats:
    """The game's standard mats: for each number of players, the file that holds its layout
    (a player's own under their calibration directory's ``layouts/`` wins over the one
    shipped), and the code that draws it."""

    files: tuple[tuple[int, str], ...]
    """``(players, file name)``: ``(4, "4-players.json")``; several counts may share a file."""
    plan: Callable[[int], MatPlan]
    """The standard mat for a number of players (one of :attr:`files`)."""
    demo: MatPlan | None = None
    """A small mat for the camera demo and the tests, where a 1080p camera reads every seal at
    about four pixels per module; ``None`` for a game without one."""

    def file_for(self, players: int) -> str | None:
        """The layout file of a table of ``players``, ``None`` for a count the game has none for."""
        return dict(self.files).get(players)


@dataclass(frozen=True, slots=True)
class ReaderRole:
    """What an NFC reader may serve at the game's table: the zone a table configuration maps
    it to (``"readers": {"board:0": "centre"}``), and what is tapped there."""

    zone: str
    """``"centre"``, ``"play"``; for a seat's reader the kind, mapped as ``fate:<player>``."""
    what: str
    per_seat: bool = False
    """One for each player, named ``<zone>:<player>``."""
    numbered: bool = False
    """One for each zone of a numbered table zone kind (:attr:`ZoneKind.numbered`), named
    ``<zone>-<n>``: ``column-1`` ... as many as there are players."""


@dataclass(frozen=True, slots=True)
class Stickers:
    """How the game's seal stickers are printed and where they go on a card."""

    where: tuple[str, ...] = ()
    """Printed under each sheet's title: where a sticker goes (the seal corner, bottom left of
    the face, when empty)."""
    corner: str = ""
    """The same in one sentence for the steps ``rop markers`` prints after the sheets: ``"upright
    in the card's seal corner: ..."`` (the seal corner when empty)."""
    example: str = ""
    """A sticker's two lines as ``rop markers`` shows them: ``"6D W036 ann / Servant of Darkness"``."""
    names_game: bool = True
    """The sheets name the game: written into ``DIR/<game>/<owner>/`` and titled with the
    game's name. Rule of Power's, printed before a second game had seals, go into
    ``DIR/<owner>/`` untitled, as they always did."""


@dataclass(frozen=True, slots=True)
class Claim:
    """The seal ids and the NFC records a game owns, claimed once and never changed: a sticker
    printed or a tag written reads as the same card whatever other game is installed.

    Seal ids come in numbered **blocks** of 64 (block ``n`` is ids ``64n`` to ``64n + 63``,
    blocks 16-127 of the seal dictionary); the two games that had stickers before blocks keep
    their **first-generation** ids (Rule of Power 0-531, Circle of Power 587-1018). NFC records
    are the record type the game's tags carry (its catalogue's
    :attr:`~companion.contract.Catalogue.nfc_record_type`) and the bytes that tell the game in
    a simulated tag's UID, one for every 256 cards."""

    seal_blocks: tuple[int, ...] = ()
    """Blocks of the seal dictionary, in the order the game's ids fill them."""
    first_generation: range | None = None
    """Ids of the first generation (0-1018), before any block."""
    nfc_record_type: str = ""
    tag_bytes: tuple[int, ...] = ()
    """The fourth byte of a simulated tag's UID (0-255), one for each 256 cards of the game:
    Rule of Power's ``0xA1``, Circle of Power's ``0xC0``."""

    def seal_ids(self) -> Iterator[int]:
        """Every seal id claimed, in the order the game's faces take them."""
        from companion.contract.allocation import BLOCK

        if self.first_generation is not None:
            yield from self.first_generation
        for block in self.seal_blocks:
            yield from range(block * BLOCK, (block + 1) * BLOCK)


@dataclass(frozen=True)
class TableSpec:
    """What the physical table of a game needs (the module's docstring says each part)."""

    game: str
    """The game's name (``"rule-of-power"``)."""
    decks: tuple[Deck, ...]
    seat_zones: tuple[ZoneKind, ...]
    table_zones: tuple[ZoneKind, ...]
    mats: Mats
    readers: tuple[ReaderRole, ...]
    turns: Turns
    claim: Claim
    stickers: Stickers = field(default_factory=Stickers)
    seats: int | None = None
    """Seats of every table whatever the players (Circle of Power's four, C4); ``None`` for one
    a player."""
    seats_rule: str = ""
    """The ruling that says so (``"C4"``)."""
    seats_are_players: bool = True
    """A seat is one player's for the whole game, so its zones may carry the player's name
    (``capture:ann``); not where players change seats (Circle of Power's emperors, C6)."""

    def deck_of(self, card: Card) -> Deck:
        """The deck ``card`` belongs to; :class:`KeyError` for a card none holds."""
        return self._decks_by_card[card]

    @cached_property
    def _decks_by_card(self) -> dict[Card, Deck]:
        return {c: d for d in reversed(self.decks) for c in d.cards}

    @cached_property
    def seals(self) -> SealIds | None:
        """The seal id of every face of every copy (:class:`~companion.contract.allocation.
        SealIds`), ``None`` when the game claims none yet."""
        from companion.contract.allocation import SealIds

        return SealIds(self) if any(True for _ in self.claim.seal_ids()) else None

    @cached_property
    def tags(self) -> TagIds:
        """The game's NFC records and simulated tag UIDs (:class:`~companion.contract.
        allocation.TagIds`)."""
        from companion.contract.allocation import TagIds

        return TagIds(self)

    def choices(self, *, expansions_apart: bool) -> dict[str, tuple[Card, ...]]:
        """The cards ``--deck`` offers, by name, ``"all"`` last: each deck (its parts instead,
        where it has some that are not expansions), its cards without expansions; the
        expansion parts on their own when ``expansions_apart`` (``rop markers``), else not
        (``rop tags enrol`` adds them to their deck with ``--expansion``)."""
        out: dict[str, tuple[Card, ...]] = {}
        for deck in self.decks:
            plain = [p for p in deck.parts if not p.expansion]
            for part in plain:
                out[part.name] = part.cards
            if not plain:
                out[deck.name] = deck.base()
            if expansions_apart:
                out.update((p.name, p.cards) for p in deck.parts if p.expansion)
        every = (c for d in self.decks for c in (d.cards if expansions_apart else d.base()))
        out["all"] = tuple(dict.fromkeys(every))
        return out

    def choice_words(self) -> list[str]:
        """Each choice of ``rop markers --deck`` with what it holds: ``"world: W001-W040"``."""
        words = []
        for deck in self.decks:
            plain = [p for p in deck.parts if not p.expansion]
            words += [f"{p.name}: {p.what}" for p in plain] or [f"{deck.name}: {deck.what}"]
            words += [f"{p.name}: {p.what}" for p in deck.parts if p.expansion]
        return words

    def with_expansions(self, chosen: Sequence[Card]) -> tuple[Card, ...]:
        """``chosen`` and, after each deck's cards, the expansion cards of that deck
        (``--expansion``): ``world`` is W001-W052, ``all`` W001-W052 then F001-F008."""
        out: list[Card] = []
        for deck in self.decks:
            mine = [c for c in chosen if self.deck_of(c) is deck]
            if mine:
                out += mine + [c for p in deck.parts if p.expansion for c in p.cards]
        return tuple(dict.fromkeys(out))

    def reader_zones(self, players: Sequence[str]) -> list[str]:
        """Every zone a reader may serve at a table of ``players``: ``centre``, ``fate:ann``,
        ``column-2``, ..."""
        out: list[str] = []
        for r in self.readers:
            if r.per_seat:
                out += [f"{r.zone}:{p}" for p in players]
            elif r.numbered:
                out += [f"{r.zone}-{n}" for n in range(1, len(players) + 1)]
            else:
                out.append(r.zone)
        return out


class NoTableError(LookupError):
    """A game whose table no sensor follows yet: it declares no :class:`TableSpec`."""


def table_of(game: Any) -> TableSpec:
    """``game``'s table spec; :class:`NoTableError` naming the game when it has none yet."""
    spec: TableSpec | None = game.table
    if spec is None:
        raise NoTableError(f"{game.title} has no table for cameras and NFC readers yet (no stickers, tags or mats)")
    return spec


def with_tables(games: Iterable[Any]) -> list[Any]:
    """The games among ``games`` that declare their table."""
    return [g for g in games if g.table is not None]
