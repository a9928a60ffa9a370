"""How a player reckons a column from what they see, quickly: each player's sum there as the
distribution would make it (B18-B26), a face-down card of another player taken at a guessed
worth, and from it the chance of taking the column's goal card.

The distribution itself (:func:`~companion.games.ruse_and_bruise.distribution.distribute`)
explains every step and costs accordingly; the players of the coach's playouts reckon
thousands of columns per decision, so this is the same order of abilities in a few lines,
with the cards nobody has seen yet guessed at:

- the Musketeers leave every card its number, the Doppelgänger nothing (B19);
- a single Wizard takes every known card of 10 or more, a single Witch then every known
  card of 9 or less but herself (B20); an unseen card keeps part of its guessed worth;
- a Prince & Squire pair decides (B21);
- the Hermit loses 1 and the Small Giant gains 3 for each other card, the Doppelgänger takes
  the number of the card below it, Romeo is 15 beside his Juliet, each Dragon cuts the other
  players' cards by 2 (B22-B25);
- with a Beggar the lowest sum wins (B26).

>>> from companion.games.ruse_and_bruise.cards import Goal, Influence
>>> from companion.games.ruse_and_bruise.values import EXAMPLE
>>> goal = Goal.from_id("music-3a")
>>> r = reckon(goal, [("ann", Influence.from_id("KING")), ("bob", None), ("ann", Influence.from_id("WIZ"))], EXAMPLE)
>>> r.sums, r.beggar, r.pair
({'bob': 4.2, 'ann': 2.0}, False, None)
"""

from __future__ import annotations

import math
from functools import lru_cache
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from companion.games.ruse_and_bruise.cards import AREAS, INFLUENCE, Goal, Influence
from companion.games.ruse_and_bruise.distribution import number_in
from companion.games.ruse_and_bruise.values import ValuesTable

__all__ = ["Reckoning", "reckon", "numbers_under", "lead_of", "chance_of", "UNKNOWN_WORTH", "SPREAD"]

UNKNOWN_WORTH = 7.0
"""A face-down card of another player, guessed: about the middle of the numbers."""

SPREAD = 4.0
"""How far a column's lead may still move before the round ends: the scale of
:func:`chance_of`'s curve."""

_ID = Influence._by_id
KING, JULIET, ROMEO, DOPPEL = _ID["KING"], _ID["JULIET"], _ID["ROMEO"], _ID["DOPPEL"]
MUSK, WIZ, WITCH = _ID["MUSK"], _ID["WIZ"], _ID["WITCH"]
PRINCE, SQUIRE, HERMIT, GIANT, DRAGON, BEGGAR = (_ID[i] for i in ("PRINCE", "SQUIRE", "HERMIT", "GIANT", "DRAGON", "BEGGAR"))

_NUMBERS: dict[tuple[tuple[int, ...], str], tuple[int, ...]] = {}


def numbers_under(values: ValuesTable, area: str) -> tuple[int, ...]:
    """Every card's number in a column of ``area`` (B2-B4), by catalogue index; the
    Doppelgänger's 0 (it has none of its own, B22)."""
    key = (values.numbers, area)
    found = _NUMBERS.get(key)
    if found is None:
        goal = _GOAL_OF[area]
        found = tuple(number_in(card, goal, values) or 0 for card in INFLUENCE)
        _NUMBERS[key] = found
    return found


_GOAL_OF = {area: Goal.from_id(f"{area}-1") for area in AREAS}


class Reckoning(NamedTuple):
    """A column reckoned: the ``sums`` of the owners who take part (a card left other than a
    Doppelgänger without a value, B26; guessed where cards are unseen), whether a
    ``beggar`` turns it to the lowest sum (B26), the owner of a deciding Prince & Squire
    ``pair`` (B21); and what a plain card added at the bottom would meet (:meth:`plus`):
    ``musk`` (B19), a single Wizard or Witch in force (``high_gone``, ``low_gone``, B20),
    each owner's Dragons, Hermits and Small Giants left (B23, B25)."""

    sums: dict[str, float]
    beggar: bool
    pair: str | None
    musk: bool = False
    high_gone: bool = False
    low_gone: bool = False
    dragons: tuple[tuple[str, int], ...] = ()
    hermits: tuple[tuple[str, int], ...] = ()
    giants: tuple[tuple[str, int], ...] = ()

    def plus(self, owner: str, number: float, *, cards: int = 0, dragon: bool = False) -> dict[str, float]:
        """The sums with a card worth ``number`` added at the bottom for ``owner``: a Wizard
        or a Witch takes it (B20), Dragons of other owners cut it (B25), every Hermit loses
        1 and every Small Giant gains 3 (B23); with ``dragon`` the card is a Dragon, which
        cuts the other owners' ``cards`` of the column (B25)."""
        sums = dict(self.sums)
        if self.musk:
            sums[owner] = sums.get(owner, 0.0) + number
            return sums
        if (self.high_gone and number >= 10) or (self.low_gone and number <= 9):
            if owner not in sums:
                return sums  # the card is removed: its owner still takes no part (B20, B26)
            v = 0.0
        else:
            cut = 2 * sum(n for o, n in self.dragons if o != owner)
            v = max(0.0, float(number - cut))
        sums[owner] = sums.get(owner, 0.0) + v
        for o, n in self.hermits:
            sums[o] = max(0.0, sums[o] - n)
        for o, n in self.giants:
            sums[o] = sums[o] + 3 * n
        if dragon and v:
            for o in sums:
                if o != owner:
                    sums[o] = max(0.0, sums[o] - 2.0 * cards / max(1, len(sums) - 1))
        return sums

    def with_card(self, owner: str, card: Influence, nums: Sequence[int], column: Sequence[tuple[str, Influence | None]]) -> dict[str, float] | None:
        """The sums with ``card`` added at the bottom of ``column`` for ``owner``, where its
        ability is easily told: a card without one at the distribution (:meth:`plus`), the
        Hermit and the Small Giant by the cards already there (B23), Romeo beside his Juliet
        or not (B24), a Doppelgänger with nothing below it yet (B22), a Dragon (B25).
        ``None`` for a card that changes the whole column (the Musketeers, the Wizard, the
        Witch, the Prince, the Squire, the Beggar): it is reckoned again."""
        if self.pair is not None:
            return None
        if card.kind != "distribution":
            return self.plus(owner, nums[card.index])
        if card is HERMIT:
            return self.plus(owner, max(0, nums[card.index] - len(column)))
        if card is GIANT:
            return self.plus(owner, nums[card.index] + 3 * len(column))
        if card is ROMEO:
            return self.plus(owner, 15 if any(c is JULIET and o == owner for o, c in column) else 5)
        if card is DOPPEL:
            return dict(self.sums)  # at the bottom it has no card below to copy yet (B22, B26)
        if card is DRAGON:
            return self.plus(owner, nums[card.index], cards=sum(1 for o, _ in column if o != owner), dragon=True)
        return None


def reckon(goal: Goal, cards: Sequence[tuple[str, Influence | None]], values: ValuesTable, unknown: float | Mapping[str, float] = UNKNOWN_WORTH) -> Reckoning:
    """The column under ``goal`` holding ``cards`` (owner, card or ``None`` when unseen), from
    the goal card down, reckoned as the module says; an unseen card is worth ``unknown``, or
    ``unknown[owner]`` for each owner. A column reckoned with the usual guess is kept for the
    next time it is asked: a playout asks the same columns again and again."""
    if unknown == UNKNOWN_WORTH:
        return _reckoned(goal, tuple(cards), values)
    return _reckon(goal, cards, values, unknown)


# Small: the columns asked again are those of the decision under way, and a cache of tens of
# thousands of columns keeps so many objects alive that a full pass of the garbage collector
# takes longer than a decision's budget.
@lru_cache(maxsize=1 << 12)
def _reckoned(goal: Goal, cards: tuple[tuple[str, Influence | None], ...], values: ValuesTable) -> Reckoning:
    return _reckon(goal, cards, values, UNKNOWN_WORTH)


def _reckon(goal: Goal, cards: Sequence[tuple[str, Influence | None]], values: ValuesTable, unknown: float | Mapping[str, float]) -> Reckoning:
    nums = numbers_under(values, goal.area)
    sums: dict[str, float] = {}
    guesses = unknown if isinstance(unknown, Mapping) else None
    flat = float(unknown) if not isinstance(unknown, Mapping) else UNKNOWN_WORTH
    wizards = witches = 0
    musk = False
    for _, c in cards:
        if c is None:
            continue
        if c is MUSK:
            musk = True
        elif c is WIZ:
            wizards += 1
        elif c is WITCH:
            witches += 1
    if musk:
        for owner, card in cards:
            if card is DOPPEL:
                continue  # no number of its own, and nothing to copy under the Musketeers (B19)
            sums[owner] = sums.get(owner, 0.0) + ((guesses.get(owner, flat) if guesses is not None else flat) if card is None else nums[card.index])
        return Reckoning(sums, False, None, musk=True)
    high_gone = wizards == 1
    low_gone = witches == 1 and not (high_gone and nums[WITCH.index] >= 10)
    shrink = (0.6 if high_gone else 1.0) * (0.5 if low_gone else 1.0)
    left: list[tuple[str, Influence | None]] = []
    special = False
    for owner, card in cards:
        if card is None:
            left.append((owner, None))
            continue
        if card.kind == "distribution":
            special = True
        elif high_gone or low_gone:
            n = nums[card.index]
            if (high_gone and n >= 10) or (low_gone and n <= 9):
                continue
        left.append((owner, card))
    if not special:
        # Numbers only (the Wizard's and the Witch's removals done): each card its number.
        for owner, card in left:
            sums[owner] = sums.get(owner, 0.0) + (shrink * (guesses.get(owner, flat) if guesses is not None else flat) if card is None else nums[card.index])
        return Reckoning(sums, False, None, high_gone=high_gone, low_gone=low_gone)
    if high_gone or low_gone:
        left = [(o, c) for o, c in left if c is None or (c is WIZ and not low_gone) or c is WITCH or c is DOPPEL or not ((high_gone and nums[c.index] >= 10) or (low_gone and c is not WITCH and nums[c.index] <= 9))]
    pairs = [o for o in dict.fromkeys(o for o, c in left if c is PRINCE) if any(c is SQUIRE and p == o for p, c in left)]
    if pairs:
        return Reckoning({o: 0.0 for o, _ in cards}, False, pairs[0])
    others = len(left) - 1
    dragons: dict[str, int] = {}
    hermits: dict[str, int] = {}
    giants: dict[str, int] = {}
    for owner, card in left:
        if card is DRAGON:
            dragons[owner] = dragons.get(owner, 0) + 1
        elif card is HERMIT:
            hermits[owner] = hermits.get(owner, 0) + 1
        elif card is GIANT:
            giants[owner] = giants.get(owner, 0) + 1
    total_dragons = sum(dragons.values())
    beggar = False
    for k, (owner, card) in enumerate(left):
        if card is None:
            v = shrink * (guesses.get(owner, flat) if guesses is not None else flat)
        elif card is HERMIT:
            v = max(0, nums[card.index] - others)
        elif card is GIANT:
            v = nums[card.index] + 3 * others
        elif card is DOPPEL:
            below = next((c for _, c in left[k + 1 :] if c is not DOPPEL), DOPPEL)
            if below is DOPPEL:
                continue  # a Doppelgänger without a value lets its owner take no part (B26)
            v = shrink * flat if below is None else nums[below.index]
        elif card is ROMEO:
            v = 15 if any(c is JULIET and o == owner for o, c in left) else 5
        else:
            if card is BEGGAR:
                beggar = True
            v = nums[card.index]
        if total_dragons:
            cut = 2 * (total_dragons - dragons.get(owner, 0))
            if cut:
                v = max(0.0, v - cut)
        sums[owner] = sums.get(owner, 0.0) + v
    return Reckoning(sums, beggar, None, False, high_gone, low_gone, tuple(dragons.items()), tuple(hermits.items()), tuple(giants.items()))


def lead_of(player: str, r: Reckoning) -> float | None:
    """``player``'s lead in a reckoned column: their sum less the best other's (with a Beggar,
    the lowest other's less theirs); ``None`` when they have no card there. A pair decides
    outright (B21)."""
    if r.pair is not None:
        return 50.0 if r.pair == player else -50.0
    sums = r.sums
    if player not in sums:
        return None
    mine = sums[player]
    others = [v for o, v in sums.items() if o != player]
    if not others:
        return 10.0
    return min(others) - mine if r.beggar else mine - max(others)


def chance_of(lead: float | None) -> float:
    """The chance of taking a column with ``lead`` (``None``: no card there), on a logistic
    curve of scale :data:`SPREAD`."""
    if lead is None:
        return 0.0
    if lead >= 40:
        return 1.0
    if lead <= -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-lead / SPREAD))
