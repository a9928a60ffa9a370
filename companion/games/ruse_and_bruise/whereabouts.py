"""Where one player's 25 influence cards may be, as far as what was seen tells (B29).

A player's cards are in their hand, their stack, their discard pile, face up in a column, or
face down in a column (each face-down card a place of its own, a *slot*). Hands, stacks and
face-down cards are hidden: a record may leave them unknown, and every player but their owner
sees none of them. :class:`Whereabouts` keeps, for each hidden place, the cards that may lie
there (:attr:`~Whereabouts.cands`) and how many cards it holds; a face-up card is in no hidden
place. A card is *known* where it may lie in one place only.

Every card seen moving keeps the whereabouts exact: a card placed unseen from the hand may be
any card that may have been in the hand; a card drawn unseen any that may have been in the
stack. Whether a card named somewhere (a card turned over, a draw, a card revealed) may be
there is decided by matching the other uncertain cards to the other places
(:meth:`Whereabouts.may_be`), so that a card named where it cannot be is found as soon as what
was seen tells it (B29).

The companion keeps two of these per player: what its record tells (the checks), and what
every other player can tell (the views and the worlds resampled from them).

>>> from companion.games.ruse_and_bruise.cards import Influence
>>> king, queen = Influence.from_id("KING"), Influence.from_id("QUEEN")
>>> w = Whereabouts.dealt([king, None, None])
>>> w.known(HAND) == king.bit, w.may_be(queen.index, HAND), w.may_be(king.index, STACK)
(True, True, False)
>>> w = w.placed(None, 0)             # a card placed face down, unseen: the King or another
>>> w.may_be(king.index, 0), w.may_be(queen.index, 0)
(True, True)
>>> w = w.turned_up(queen.index, 0)   # it was the Queen: the King is still in the hand
>>> w.known(HAND) == king.bit
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from companion.games.ruse_and_bruise.cards import HAND_SIZE, INFLUENCE, Influence

__all__ = ["Whereabouts", "Trail", "HAND", "STACK", "DISCARD", "PILES", "ALL_CARDS", "bits", "place_words"]

HAND = -1
"""A player's hand."""
STACK = -2
"""A player's stack (its order never known: the companion keeps what it holds)."""
DISCARD = -3
"""A player's discard pile."""
PILES = (HAND, STACK, DISCARD)
"""The places that hold many cards; every other place is a slot (a face-down card in a
column, numbered from 0 within a round), which holds one."""

ALL_CARDS = (1 << len(INFLUENCE)) - 1
_BY_INDEX = INFLUENCE


def bits(cards: int) -> Iterator[int]:
    """The card indices of a card set kept as an integer."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def place_words(place: int) -> str:
    """A pile in words: ``"hand"``, ``"stack"``, ``"discard pile"``; a slot's number."""
    return {HAND: "hand", STACK: "stack", DISCARD: "discard pile"}.get(place, f"face-down card #{place}")


class Whereabouts:
    """Where one player's cards may be (see the module's text). Immutable: every change
    returns a new object, so that a state keeps them as they are for its undo stack.

    - ``cands``: for each hidden place (:data:`HAND`, :data:`STACK`, :data:`DISCARD`, a slot
      number), the cards that may lie there, as a card set (an integer of ``Influence.bit``);
    - ``hand``, ``stack``, ``discard``: how many cards each pile holds (a slot holds one);
    - ``unsure``: the cards that may lie in more than one place (0 when everything is known).
    """

    __slots__ = ("cands", "hand", "stack", "discard", "_unsure", "exact", "_placing")

    cands: dict[int, int]
    hand: int
    stack: int
    discard: int
    exact: bool
    """Whether what the counts tell is worked out after every change (:meth:`_settle`): the
    record's whereabouts are, for the checks; the whole table's (for views and resampled
    worlds) are not, since a random world is drawn by matching anyway."""

    def __init__(self, cands: dict[int, int], hand: int, stack: int, discard: int, *, exact: bool = True, unsure: int = -1) -> None:
        self.cands = cands
        self.hand = hand
        self.stack = stack
        self.discard = discard
        self.exact = exact
        self._unsure = unsure
        self._placing: dict[int, int] | None = None
        if exact:
            if unsure < 0:
                self._unsure = _multi(cands)
            if self._unsure:
                self._settle()

    @property
    def unsure(self) -> int:
        """The cards that may lie in more than one place (0 when everything is known)."""
        if self._unsure < 0:
            self._unsure = _multi(self.cands)
        return self._unsure

    @classmethod
    def dealt(cls, hand: Sequence[Influence | Any] | None = None) -> Whereabouts:
        """A player's cards after the deal (B6): 3 in hand (those of ``hand`` that are
        :class:`Influence` cards known), 22 in the stack."""
        known = 0
        for card in hand or ():
            if isinstance(card, Influence):
                known |= card.bit
        unknown = HAND_SIZE - known.bit_count()
        rest = ALL_CARDS & ~known
        return cls({HAND: known | (rest if unknown else 0), STACK: rest}, HAND_SIZE, len(INFLUENCE) - HAND_SIZE, 0)

    @classmethod
    def everywhere(cls) -> Whereabouts:
        """A player's cards after the deal as every other player sees them."""
        return cls({HAND: ALL_CARDS, STACK: ALL_CARDS}, HAND_SIZE, len(INFLUENCE) - HAND_SIZE, 0, exact=False)

    # ------------------------------------------------------------------ reading

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Whereabouts):
            return NotImplemented
        return self.hand == other.hand and self.stack == other.stack and self.discard == other.discard and _nonzero(self.cands) == _nonzero(other.cands)

    def __hash__(self) -> int:
        return hash((self.hand, self.stack, self.discard, frozenset(_nonzero(self.cands).items())))

    def __repr__(self) -> str:
        parts = [f"{place_words(p)}: {'/'.join(_BY_INDEX[i].id for i in bits(c))}" for p, c in sorted(self.cands.items()) if c]
        return f"<Whereabouts hand {self.hand}, stack {self.stack}, discard {self.discard}; {'; '.join(parts)}>"

    def capacity(self, place: int) -> int:
        if place == HAND:
            return self.hand
        if place == STACK:
            return self.stack
        if place == DISCARD:
            return self.discard
        return 1 if place in self.cands else 0

    def at(self, place: int) -> int:
        """The cards that may lie at ``place``."""
        return self.cands.get(place, 0)

    def known(self, place: int) -> int:
        """The cards known to lie at ``place`` (there and nowhere else)."""
        return self.cands.get(place, 0) & ~self.unsure

    def slots(self) -> list[int]:
        """The player's face-down cards in the columns (their slot numbers)."""
        return [p for p in self.cands if p >= 0]

    def certain(self, place: int) -> bool:
        """Whether every card at ``place`` is known."""
        return self.known(place).bit_count() == self.capacity(place)

    def places_of(self, index: int) -> list[int]:
        """Every hidden place where card ``index`` may lie (none for a face-up card)."""
        bit = 1 << index
        return [p for p, c in self.cands.items() if c & bit]

    def hidden(self) -> int:
        """Every card in a hidden place."""
        out = 0
        for c in self.cands.values():
            out |= c
        return out

    def may_be(self, index: int, place: int) -> bool:
        """Whether card ``index`` may lie at ``place``, every other card still finding a place
        (B29)."""
        bit = 1 << index
        if not self.cands.get(place, 0) & bit:
            return False
        if not self.unsure & bit:
            return True
        placing = self._arrangement()
        start = placing[index]
        if start == place:
            return True
        # Card ``index`` may move to ``place`` when a chain of uncertain cards can make room
        # there: one of ``place``'s cards to another place, one of that one's further on, ...
        # ending at the place the card leaves (an augmenting path of the matching).
        held: dict[int, list[int]] = {}
        for card, at in placing.items():
            if card != index:
                held.setdefault(at, []).append(card)
        seen = {place}
        todo = [place]
        cands = self.cands
        while todo:
            at = todo.pop()
            for card in held.get(at, ()):
                for other, cards in cands.items():
                    if other in seen or not cards >> card & 1:
                        continue
                    if other == start:
                        return True
                    seen.add(other)
                    todo.append(other)
        return False

    def _arrangement(self) -> dict[int, int]:
        """One place for every uncertain card, every place as full as it is (worked out once
        for these whereabouts)."""
        if self._placing is None:
            found = _matching(self.cands, self._capacities(), self.unsure)
            if found is None:  # pragma: no cover - the checks keep the whereabouts consistent
                raise ValueError("these whereabouts hold no arrangement of the cards")
            unsure = self.unsure
            self._placing = {i: p for p, cards in found.items() for i in bits(cards & unsure)}
        return self._placing

    # ------------------------------------------------------------------ changes

    def _with(self, cands: dict[int, int], hand: int, stack: int, discard: int, *, named: bool) -> Whereabouts:
        """The whereabouts after a change; ``named``: a change that names every card it
        moves, so that what was known stays known."""
        if hand == 0:
            cands[HAND] = 0
        if stack == 0:
            cands[STACK] = 0
        if discard == 0:
            cands[DISCARD] = 0
        certain = named and self._unsure == 0
        return Whereabouts(cands, hand, stack, discard, exact=self.exact, unsure=0 if certain else -1)

    def placed(self, index: int | None, slot: int) -> Whereabouts:
        """A card from the hand placed face down at ``slot``: card ``index``, or one nobody
        saw (``None``)."""
        cands = self.cands.copy()
        if index is None:
            cands[slot] = cands.get(HAND, 0)
        else:
            bit = 1 << index
            if self._unsure:
                _remove(cands, bit)
            else:
                cands[HAND] &= ~bit
            cands[slot] = bit
        return self._with(cands, self.hand - 1, self.stack, self.discard, named=index is not None)

    def drew(self, index: int | None) -> Whereabouts:
        """A card drawn from the stack into the hand: card ``index`` or one nobody saw. The
        stack must hold a card (:meth:`reshuffled` first when it is empty, B9)."""
        cands = self.cands.copy()
        if index is None:
            cands[HAND] = cands.get(HAND, 0) | cands.get(STACK, 0)
        else:
            bit = 1 << index
            if self._unsure:
                _remove(cands, bit)
            else:
                cands[STACK] &= ~bit
            cands[HAND] = cands.get(HAND, 0) | bit
        return self._with(cands, self.hand + 1, self.stack - 1, self.discard, named=index is not None)

    def reshuffled(self) -> Whereabouts:
        """The discard pile shuffled into an empty stack (B9)."""
        cands = self.cands.copy()
        cands[STACK] = cands.get(DISCARD, 0)
        return self._with(cands, self.hand, self.discard, 0, named=True)

    def turned_up(self, index: int, slot: int) -> Whereabouts:
        """The face-down card at ``slot`` turned face up: card ``index``."""
        cands = self.cands.copy()
        del cands[slot]
        if self._unsure:
            _remove(cands, 1 << index)
        return self._with(cands, self.hand, self.stack, self.discard, named=True)

    def laid_down(self, index: int, slot: int) -> Whereabouts:
        """Face-up card ``index`` laid face down at ``slot``, everyone seeing which (an
        Explorer moving, B11)."""
        cands = self.cands.copy()
        cands[slot] = 1 << index
        return self._with(cands, self.hand, self.stack, self.discard, named=True)

    def discarded(self, index: int | None, slot: int) -> Whereabouts:
        """The face-down card at ``slot`` put on the discard pile unturned (the Assassin's
        victim, B12): card ``index`` or one nobody saw."""
        cands = self.cands.copy()
        at = cands.pop(slot)
        if index is None:
            cands[DISCARD] = cands.get(DISCARD, 0) | at
        else:
            if self._unsure:
                _remove(cands, 1 << index)
            cands[DISCARD] = cands.get(DISCARD, 0) | 1 << index
        return self._with(cands, self.hand, self.stack, self.discard + 1, named=index is not None or at & (at - 1) == 0)

    def gathered(self, cards: Iterable[int]) -> Whereabouts:
        """Face-up cards of the columns put on the discard pile (B27)."""
        cands = self.cands.copy()
        got = 0
        count = 0
        for index in cards:
            got |= 1 << index
            count += 1
        cands[DISCARD] = cands.get(DISCARD, 0) | got
        return self._with(cands, self.hand, self.stack, self.discard + count, named=True)

    def known_to_be(self, arrangement: dict[int, int]) -> Whereabouts:
        """The same counts with every hidden card known: ``arrangement`` gives each place's
        cards (from :meth:`sample`)."""
        return Whereabouts({p: arrangement.get(p, 0) for p in self.cands}, self.hand, self.stack, self.discard, unsure=0)

    # ------------------------------------------------------------------ what follows

    def _capacities(self) -> dict[int, int]:
        return {p: self.capacity(p) for p in self.cands}

    def _settle(self) -> None:
        """What the counts tell: a place whose known cards fill it holds no other card; a
        place with as many possible cards as it holds holds every one of them. Repeated until
        nothing more follows."""
        cands = self.cands
        changed = True
        while changed and self._unsure:
            changed = False
            unsure = self._unsure
            for place, cards in cands.items():
                if not cards & unsure:
                    continue
                room = self.capacity(place)
                if (cards & ~unsure).bit_count() == room:
                    cands[place] = cards & ~unsure
                    changed = True
                elif cards.bit_count() == room:
                    for other in cands:
                        if other != place:
                            cands[other] &= ~cards
                    changed = True
                if changed:
                    self._unsure = _multi(cands)
                    break

    def sample(self, rng: random.Random) -> dict[int, int]:
        """Every hidden card given a place at random, each place as full as it is: a world
        consistent with these whereabouts (``place -> cards``)."""
        found = _matching(self.cands, self._capacities(), self.unsure, rng=rng)
        if found is None:  # pragma: no cover - the checks keep the whereabouts consistent
            raise ValueError("these whereabouts hold no arrangement of the cards")
        return found

    def sample_at(self, place: int, rng: random.Random) -> int:
        """One card that may lie at ``place`` (a slot), chosen at random among those that
        may, every other card still finding a place."""
        candidates = list(bits(self.cands.get(place, 0)))
        rng.shuffle(candidates)
        for index in candidates:
            if self.may_be(index, place):
                return index
        raise ValueError(f"no card may lie at {place_words(place)}")  # pragma: no cover


class Trail:
    """Whereabouts worked out only when asked: the whereabouts before, and the change since
    (a :class:`Whereabouts` method's name and arguments). The whole table's whereabouts of
    every player change with every move but are read only for a view or a resampled world,
    so a replay records the changes and works nothing out. Immutable, like the whereabouts."""

    __slots__ = ("_before", "_change", "_args", "_value")

    def __init__(self, value: Whereabouts | None, before: Trail | None = None, change: str = "", args: tuple[Any, ...] = ()) -> None:
        self._value = value
        self._before = before
        self._change = change
        self._args = args

    def then(self, change: str, *args: Any) -> Trail:
        """These whereabouts after ``change`` (``"placed"``, ``"drew"``, ...) with ``args``."""
        return Trail(None, self, change, args)

    @property
    def value(self) -> Whereabouts:
        if self._value is None:
            todo: list[Trail] = []
            node: Trail | None = self
            while node is not None and node._value is None:
                todo.append(node)
                node = node._before
            assert node is not None and node._value is not None
            w = node._value
            for step in reversed(todo):
                w = getattr(w, step._change)(*step._args)
                step._value = w
                step._before = None  # worked out: what came before is no longer needed
        assert self._value is not None
        return self._value


def _nonzero(cands: dict[int, int]) -> dict[int, int]:
    return {p: c for p, c in cands.items() if c}


def _remove(cands: dict[int, int], bit: int) -> None:
    for place, cards in cands.items():
        if cards & bit:
            cands[place] = cards & ~bit


def _multi(cands: dict[int, int]) -> int:
    """The cards that may lie in two places or more."""
    seen = 0
    multi = 0
    for c in cands.values():
        multi |= seen & c
        seen |= c
    return multi


def _matching(
    cands: dict[int, int], capacity: dict[int, int], unsure: int, *, fix: tuple[int, int] | None = None, rng: random.Random | None = None
) -> dict[int, int] | None:
    """A place for every card (each place holding as many as it holds), the known cards
    where they are; ``fix`` (card bit, place) puts one uncertain card there first. ``None``
    when there is none. With ``rng`` the cards go to their places at random.

    Uncertain cards that may lie in the same places are alike, so the cards are matched by
    kinds (a flow from each kind, as many as its cards, to the places with room; augmenting
    paths where the first choices leave a kind short), then the cards of each kind are dealt
    to the places its flow reaches."""
    room = dict(capacity)
    placed: dict[int, int] = {}
    for place, cards in cands.items():
        known = cards & ~unsure
        n = known.bit_count()
        if n > room[place]:
            return None
        room[place] -= n
        placed[place] = known
    todo = unsure
    if fix is not None:
        bit, place = fix
        if room.get(place, 0) < 1:
            return None
        room[place] -= 1
        placed[place] |= bit
        todo &= ~bit
    places = [p for p in cands if room[p] > 0]
    # The kinds: cards told apart by the places they may lie in (refined place by place).
    blocks: list[tuple[int, int]] = [(todo, 0)] if todo else []
    for k, p in enumerate(places):
        here = cands[p] & todo
        if not here:
            continue
        refined = []
        for cards, kind in blocks:
            inside = cards & here
            if inside:
                refined.append((inside, kind | 1 << k))
                if cards != inside:
                    refined.append((cards & ~here, kind))
            else:
                refined.append((cards, kind))
        blocks = refined
    kinds: dict[int, int] = {}
    for cards, kind in blocks:
        if not kind:
            return None  # a card with no place left
        kinds[kind] = kinds.get(kind, 0) | cards
    free = [room[p] for p in places]
    into: list[dict[int, int]] = [{} for _ in places]  # place -> kind -> cards sent
    order = list(kinds)
    if rng is not None:
        rng.shuffle(order)
    short: dict[int, int] = {}
    for kind in order:
        need = kinds[kind].bit_count()
        targets = list(bits(kind))
        if rng is not None:
            rng.shuffle(targets)
        for k in targets:
            take = min(need, free[k])
            if take:
                free[k] -= take
                into[k][kind] = into[k].get(kind, 0) + take
                need -= take
                if not need:
                    break
        if need:
            short[kind] = need

    def augment(kind: int, seen: set[int]) -> bool:
        for k in bits(kind):
            if k in seen:
                continue
            seen.add(k)
            if free[k] > 0:
                free[k] -= 1
                into[k][kind] = into[k].get(kind, 0) + 1
                return True
            for other, sent in list(into[k].items()):
                if sent and other != kind and augment(other, seen):
                    into[k][other] -= 1
                    into[k][kind] = into[k].get(kind, 0) + 1
                    return True
        return False

    for kind, need in short.items():
        for _ in range(need):
            if not augment(kind, set()):
                return None
    if any(free):
        return None
    for kind, members in kinds.items():
        dealt = list(bits(members))
        if rng is not None:
            rng.shuffle(dealt)
        at = 0
        for k, p in enumerate(places):
            sent = into[k].get(kind, 0)
            for i in dealt[at : at + sent]:
                placed[p] |= 1 << i
            at += sent
    return placed
