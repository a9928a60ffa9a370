"""The table as the sensors show it: each physical card face up (a card and, where cards carry
their owner's seal, the owner) and the zone it lies in, each card lying face down whose back
the camera reads (its deck and copy, never the card) and its zone, and each card laid that the
camera cannot name yet (its seal does not read) and its zone.

Only some zones can be compared with the game: those where cards lie face up for everybody
(Rule of Power's centre and the Fate cards in front of their owners; Circle of Power's cities
and lines). Hands are held and decks lie face down. Which zones are compared is the game's to
say (:attr:`TableView.compared`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from companion.observations import BackGone, BackSeen, CardGone, CardLaid, CardSeen, LaidGone

__all__ = ["TableView", "Zones", "Key", "difference", "difference_words", "same", "without"]

Zones = dict[str, Counter[Any]]
"""Cards face up, counted per zone (a card may lie twice where two players own one)."""
Key = tuple[Any, "str | None"]
"""A physical card: the card and its owner (``None`` for a card of the shared deck)."""

_ABSENT = "<absent>"
_K = TypeVar("_K")


class TableView:
    """Each face-up card the camera reports, by physical card and zone. ``compared`` says
    which zones the game can compare with what it expects."""

    def __init__(self, compared: Callable[[str | None], bool]) -> None:
        self.compared = compared
        self.cards: dict[Key, str | None] = {}
        self.backs: dict[int, tuple[str, str | None, str | None]] = {}
        """The backs seen, by the camera's mark: (deck, copy, zone)."""
        self.laid: dict[int, tuple[str | None, float]] = {}
        """The cards laid that the camera cannot name yet, by its mark, in the order laid:
        (zone, when it was seen laid on the sensors' clock)."""
        self.named: dict[int, Key] = {}
        """Cards laid unread that the table named (an answer), by mark, until the camera
        reads them or sees them go."""

    def update(self, obs: CardSeen | CardGone | BackSeen | BackGone | CardLaid | LaidGone) -> bool:
        """Take in an observation; returns whether the compared part of the table changed."""
        compared = self.compared
        if isinstance(obs, CardLaid):
            if obs.mark in self.laid or obs.mark in self.named:
                return False
            self.laid[obs.mark] = (obs.zone, obs.at)
            return compared(obs.zone)
        if isinstance(obs, LaidGone):
            if obs.mark in self.named:
                return self._remove(self.named.pop(obs.mark), None)
            unnamed = self.laid.pop(obs.mark, None)
            return unnamed is not None and compared(unnamed[0])
        if isinstance(obs, BackSeen):
            was = self.backs.get(obs.mark)
            self.backs[obs.mark] = (obs.deck, obs.owner, obs.zone)
            return (was is None or was[2] != obs.zone) and (compared(obs.zone) or (was is not None and compared(was[2])))
        if isinstance(obs, BackGone):
            gone = self.backs.pop(obs.mark, None)
            return gone is not None and compared(gone[2])
        key = (obs.card, obs.owner)
        if isinstance(obs, CardSeen):
            changed = False
            if obs.mark is not None:
                # The card laid unread is this one; if the table named it otherwise, the camera
                # is right.
                laid = self.laid.pop(obs.mark, None)
                changed = laid is not None and compared(laid[0])
                named = self.named.pop(obs.mark, None)
                if named is not None and named != key:
                    changed = self._remove(named, None) or changed
            old = self.cards.get(key, _ABSENT)
            self.cards[key] = obs.zone
            return changed or (old != obs.zone and (compared(obs.zone) or (old != _ABSENT and compared(old))))
        for mark in [m for m, k in self.named.items() if k == key]:
            del self.named[mark]
        return self._remove(key, obs.zone)

    def _remove(self, key: Key, zone: str | None) -> bool:
        """The physical card ``key`` no longer lies in ``zone`` (any zone: ``None``)."""
        old = self.cards.get(key, _ABSENT)
        if old != _ABSENT and (zone is None or old == zone):
            del self.cards[key]
            return self.compared(old if isinstance(old, str) else None)
        return False

    def name(self, mark: int, key: Key) -> None:
        """The table named the card laid unread with ``mark``: it is ``key`` from now on,
        until the camera reads it or sees it go."""
        laid = self.laid.pop(mark, None)
        if laid is None:
            return
        self.named[mark] = key
        self.cards[key] = laid[0]

    def laid_in(self, zone: str) -> list[int]:
        """The marks of the cards laid in ``zone`` that the camera cannot name yet, in the
        order they were laid."""
        return [mark for mark, (z, _) in self.laid.items() if z == zone]

    def zones(self, spent: Iterable[Key] = ()) -> Zones:
        """The compared zones, less the ``spent`` physical cards."""
        spent = set(spent)
        out: Zones = {}
        compared = self.compared
        for key, zone in self.cards.items():
            if zone is not None and compared(zone) and key not in spent:
                out.setdefault(zone, Counter())[key[0]] += 1
        return out

    def backs_in(self, zone: str) -> list[int]:
        """The marks of the cards lying face down in ``zone``, their backs seen."""
        return [mark for mark, (_, _, z) in self.backs.items() if z == zone]

    def zone_of(self, key: Key) -> str | None:
        """Where the physical card ``key`` lies, ``None`` when it is not seen."""
        return self.cards.get(key)

    def owners_in(self, zone: str, card: Any) -> list[str | None]:
        return [owner for (c, owner), z in self.cards.items() if c is card and z == zone]

    def seen_in(self, zone: str) -> list[Any]:
        return [card for (card, _), z in self.cards.items() if z == zone]


def same(a: Mapping[str, Counter[Any]], b: Mapping[str, Counter[Any]]) -> bool:
    keys = set(a) | set(b)
    return all(a.get(k, Counter()) == b.get(k, Counter()) for k in keys)


def difference(expected: Zones, observed: Zones) -> tuple[Zones, Zones]:
    """(extra, missing): what the table shows beyond the game, and what it lacks."""
    extra: Zones = {}
    missing: Zones = {}
    for zone in set(expected) | set(observed):
        e = expected.get(zone, Counter())
        o = observed.get(zone, Counter())
        if o - e:
            extra[zone] = o - e
        if e - o:
            missing[zone] = e - o
    return extra, missing


def without(zones: Mapping[str, Counter[_K]], allowed: Mapping[str, Counter[_K]]) -> dict[str, Counter[_K]]:
    """``zones`` less the cards ``allowed`` to lie there (cards of a finished trick or round
    that may stay on the table until taken up), zones left empty dropped."""
    out: dict[str, Counter[_K]] = {}
    for zone, cards in zones.items():
        left = cards - allowed.get(zone, Counter())
        if left:
            out[zone] = left
    return out


def difference_words(extra: Zones, missing: Zones, zone_words: Callable[[str], str], where: Callable[[Any], str]) -> tuple[str, ...]:
    """Each difference (:func:`difference`) in words, card by card in deck order: where a card
    lies that the game has elsewhere (``where``), and where one is missing; ``zone_words``
    names a zone ("in the centre")."""
    lines = []
    for zone, cards in sorted(extra.items()):
        for card in sorted(cards.elements(), key=lambda c: c.index):
            lines.append(f"{card.long_label} lies {zone_words(zone)}, but the game has it {where(card)}")
    for zone, cards in sorted(missing.items()):
        for card in sorted(cards.elements(), key=lambda c: c.index):
            lines.append(f"{card.long_label} should lie {zone_words(zone)} but is not seen there")
    return tuple(lines)
