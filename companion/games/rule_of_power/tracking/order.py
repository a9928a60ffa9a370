"""The order the table showed things in: which cards were laid in the centre and when, which
were seen leaving it, which Fate cards were laid in front of a player, and what a finished
round left on the table.

Cards laid in the centre are played in the order they were laid, however late the camera
reports what the first one took; the tracker's reasoning reads that order from here. A card
seen laid before the camera can name it keeps its place from the moment it was laid: the card
named later takes that place, ahead of the cards laid after it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.observations import CardGone, CardLaid, CardSeen, LaidGone
from companion.tracker.view import Key, Zones

__all__ = ["TableOrder"]


@dataclass
class TableOrder:
    """What the table showed and when, counted in table changes (the tracker's ``seq``)."""

    shown: list[Key] = field(default_factory=list)
    """Physical cards laid in the centre that the game may not have played yet, in the order
    they were laid."""
    laid: dict[Key, int] = field(default_factory=dict)
    """When each shown card was laid in the centre."""
    left: dict[Key, int] = field(default_factory=dict)
    """When a shown card was seen leaving the centre."""
    in_front: dict[Key, int] = field(default_factory=dict)
    """When Fate cards were laid in front of a player."""
    lingering: Zones = field(default_factory=dict)
    """Cards of a finished round that may stay on the table until somebody clears it."""
    unread: dict[int, int] = field(default_factory=dict)
    """Cards laid in the centre that the camera cannot name yet, by its mark: when each was
    laid."""

    def clear(self) -> None:
        """A new game: nothing shown yet."""
        self.shown = []
        self.laid = {}
        self.left = {}
        self.in_front = {}
        self.lingering = {}
        self.unread = {}

    def saw_unread(self, obs: CardLaid | LaidGone, seq: int) -> None:
        """A card laid in the centre that the camera cannot name yet, as the ``seq``-th change
        of the table, or such a card gone unnamed."""
        if isinstance(obs, CardLaid) and obs.zone == "centre":
            self.unread.setdefault(obs.mark, seq)
        elif isinstance(obs, LaidGone):
            self.unread.pop(obs.mark, None)

    def first_unread(self) -> tuple[int, int] | None:
        """The card laid first of those the camera cannot name yet: its mark and when it was
        laid."""
        return min(self.unread.items(), key=lambda e: e[1], default=None)

    def has(self, key: Key) -> bool:
        """Whether the physical card ``key`` was shown in the centre (a World card under any
        owner: see :meth:`_same`)."""
        return any(_same(k, key) for k in self.shown)

    def saw(self, obs: CardSeen | CardGone, was: str | None, now: str | None, seq: int) -> None:
        """A card changed place (``was`` -> ``now``), as the ``seq``-th change of the table."""
        key = (obs.card, obs.owner)
        if isinstance(obs, CardSeen) and obs.zone == "centre" and was != "centre":
            # Newly laid in the centre: it goes last in the order cards were shown (in the
            # camera's words, when it was tapped first); a card seen laid before it could be
            # named goes where it was laid, before the cards laid after it.
            for k in [k for k in self.shown if _same(k, key)]:
                self.shown.remove(k)
                self.laid.pop(k, None)
            at = self.unread.pop(obs.mark, seq) if obs.mark is not None else seq
            later = [i for i, k in enumerate(self.shown) if self.laid.get(k, -1) > at]
            self.shown.insert(later[0] if later else len(self.shown), key)
            self.laid[key] = at
            self.left.pop(key, None)
        elif isinstance(obs, CardSeen) and obs.zone and obs.zone.startswith("fate:") and was != obs.zone:
            self.in_front[key] = seq
        if was == "centre" and now != "centre":
            self.left[key] = seq

    def tapped(self, key: Key, seq: int) -> None:
        """A card tapped on the centre reader while a camera watches: it was laid, even if the
        camera misses it in a fast capture."""
        if not self.has(key):
            self.shown.append(key)
            self.laid[key] = seq

    def forget_lingering(self, observed: Zones) -> None:
        """Lingering cards no longer on the table are forgotten."""
        for zone in list(self.lingering):
            still = self.lingering[zone] & observed.get(zone, Counter())
            if still:
                self.lingering[zone] = still
            else:
                del self.lingering[zone]


def _same(a: Key, b: Key) -> bool:
    """Whether two keys name the same physical card: a Fate card by its owner's seal; a World
    card is one of a kind in the game, whoever's seal its sticker bears (a tap names none)."""
    return a[0] is b[0] and (a[1] == b[1] or not a[0].is_fate)
