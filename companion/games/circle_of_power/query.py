"""The ``rop legal`` question of Circle of Power, as a pure function: given the four emperors
with their cities, the next available city, the cards played so far and the lines of
victories, who holds the initiative and why (C9), each trump suit, what the winner may do and
why (C10-C14, C18, C19; a dummy's one act, C11), and whether the winner's city is under threat.

>>> answer = legal(parse_seats("ann=KH,bob=QS,cy=X1,@1=AC"), parse_next("JD"), parse_plays("bob=7H,cy=10S,@1=2C,ann=9H"))
>>> answer.to_json()
{'trumps': {'ann': 'H', 'bob': 'S', 'cy': 'D', '@1': 'C'}, 'winner': 'ann', 'choices': [{'act': 'conquer', 'victim': 'bob'}, {'act': 'retake', 'victim': 'bob'}], 'threatened': True}
>>> print("\\n".join(answer.lines()))
Initiative: ann, ann's 9H beats @1's 2C: both are trump for their players and 9 is higher than 2 (C9)
Trump suits: ann hearts (KH), bob spades (QS), cy diamonds (X1: the next available city JD), @1 clubs (AC)
ann may conquer bob: ann's KH may take bob's QS (K attacks Q); QS becomes ann's trophy and bob takes the next available city (C12)
ann may retake bob's city: ann's KH may take bob's QS (K attacks Q); bob has no trophy to lose; ann discards KH, takes QS, and bob takes the next available city (C13)
Threat: ann's city KH is under threat from cy's X1 and @1's AC
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.circle_of_power.cards import CARDS, SUIT_NAMES, Card
from companion.games.circle_of_power.rules import (
    Choice,
    act_choices,
    initiative,
    threat_words,
    threats,
    trump_suit,
    why_initiative,
)
from companion.games.circle_of_power.setup import VARIANTS, is_dummy
from companion.contract.errors import IllegalMoveError, InvalidMoveError

__all__ = ["LegalAnswer", "legal", "parse_seats", "parse_plays", "parse_next", "parse_trophies"]


@dataclass(frozen=True)
class LegalAnswer:
    """The answer to ``rop legal``: ``trumps`` (each emperor's trump suit letter or ``None``),
    the ``winner`` of the initiative so far and ``why``, the winner's ``choices`` (each with
    why), and whether the winner's city is ``threatened`` (and ``threat`` in words)."""

    seats: tuple[str, ...]
    cities: tuple[Card, ...]
    next_city: Card | None
    trumps: Mapping[str, str | None]
    winner: str
    why: str
    choices: tuple[Choice, ...]
    threatened: bool
    threat: str
    complete: bool = field(default=True)
    """Whether all four emperors have played: with fewer, the winner is the initiative's
    holder so far."""

    def to_json(self) -> dict[str, Any]:
        """The JSON of record-format.md: ``trumps``, ``winner``, ``choices`` (``act``,
        ``victim``, and ``keep`` in Coloured Cities' conquests), ``threatened``."""
        choices = []
        for choice in self.choices:
            item: dict[str, Any] = {"act": choice.act}
            if choice.victim is not None:
                item["victim"] = self.seats[choice.victim]
            if choice.keep is not None:
                item["keep"] = choice.keep
            choices.append(item)
        return {"trumps": dict(self.trumps), "winner": self.winner, "choices": choices, "threatened": self.threatened}

    def lines(self) -> list[str]:
        """The answer in words: the initiative, each trump suit, each choice with why, the
        threat."""
        so_far = "" if self.complete else " so far"
        out = [f"Initiative{so_far}: {self.winner}, {self.why} (C9)"]
        suits = []
        for name, city in zip(self.seats, self.cities):
            suit = self.trumps[name]
            words = SUIT_NAMES[suit] if suit else "none"
            if city.is_joker:
                nxt = f"the next available city {self.next_city.id}" if self.next_city else "no next available city"
                suits.append(f"{name} {words} ({city.id}: {nxt})")
            else:
                suits.append(f"{name} {words} ({city.id})")
        out.append("Trump suits: " + ", ".join(suits))
        for choice in self.choices:
            if choice.act == "regroup":
                out.append(f"{self.winner} must regroup: {choice.why}")
                continue
            victim = self.seats[choice.victim] if choice.victim is not None else ""
            if choice.act == "conquer":
                keep = " keeping their city" if choice.keep else ""
                out.append(f"{self.winner} may conquer {victim}{keep}: {choice.why}")
            else:
                out.append(f"{self.winner} may retake {victim}'s city: {choice.why}")
        out.append(f"Threat: {self.threat}")
        return out


def legal(
    seats: Sequence[tuple[str, Card]],
    next_city: Card | None,
    plays: Sequence[tuple[str, Card]],
    *,
    variant: str = "basic",
    trophies: Mapping[str, Sequence[Card]] | None = None,
) -> LegalAnswer:
    """Who wins the action and what they may do.

    ``seats``: the four emperors clockwise with their cities (dummies named ``@1``, ...);
    ``next_city``: the next available city, ``None`` in action 15; ``plays``: the battle cards
    in play order (1-4 of them, clockwise from the leader); ``trophies``: each emperor's line
    of victories. Raises :class:`~companion.contract.errors.IllegalMoveError` (naming the
    ruling) or :class:`~companion.contract.errors.InvalidMoveError` for a position the rules do
    not allow.
    """
    if variant not in VARIANTS:
        raise InvalidMoveError(f"unknown variant {variant!r}: one of {', '.join(VARIANTS)}")
    names = tuple(name for name, _ in seats)
    cities = tuple(city for _, city in seats)
    used = _check_cities(seats, names)
    _check_next_city(next_city, used)
    lines = _check_trophies(names, trophies, used)
    order = _check_plays(names, plays)
    trumps = tuple(trump_suit(city, next_city) for city in cities)
    k = initiative(order, trumps)
    w = order[k][0]
    dummy = tuple(is_dummy(n) for n in names)
    choices = act_choices(variant, names, dummy, cities, lines, w, last=next_city is None)
    return LegalAnswer(
        seats=names,
        cities=cities,
        next_city=next_city,
        trumps=dict(zip(names, trumps)),
        winner=names[w],
        why=why_initiative(names, cities, next_city, order, trumps),
        choices=tuple(choices),
        threatened=bool(threats(w, cities)),
        threat=threat_words(names, cities, w),
        complete=len(order) == 4,
    )


def _check_cities(seats: Sequence[tuple[str, Card]], names: tuple[str, ...]) -> int:
    """C4: four emperors, each seated once; C6: each holds a city card of their own. Returns
    the cities as a card set."""
    if len(seats) != 4:
        raise IllegalMoveError("C4", f"there are always four emperors, and {len(seats)} are given")
    if len(set(names)) != 4:
        raise IllegalMoveError("C4", f"each emperor sits once: {', '.join(names)}")
    used = 0
    for name, city in seats:
        if not city.is_city:
            raise IllegalMoveError("C6", f"{name}'s city {city.id} is a battle card: a city is a J, Q, K, A or a joker (C2)")
        if used & city.bit:
            raise IllegalMoveError("C6", f"{city.id} is the city of two emperors")
        used |= city.bit
    return used


def _check_next_city(next_city: Card | None, used: int) -> None:
    """C7: the next available city is a city card that no emperor holds (``used``)."""
    if next_city is not None:
        if not next_city.is_city:
            raise IllegalMoveError("C7", f"the next available city is a city card, not {next_city.id}")
        if used & next_city.bit:
            raise IllegalMoveError("C7", f"{next_city.id} is an emperor's city, not the next available city")


def _check_trophies(names: tuple[str, ...], trophies: Mapping[str, Sequence[Card]] | None, used: int) -> list[tuple[Card, ...]]:
    """C12: the trophies are city cards, of seated emperors, none of them a city (``used``) or
    another trophy. Returns each seat's line."""
    lines = [tuple(trophies.get(name, ())) if trophies else () for name in names]
    for name in trophies or {}:
        if name not in names:
            raise InvalidMoveError(f"trophies: {name!r} is not seated ({', '.join(names)})")
    for name, line in zip(names, lines):
        for card in line:
            if not card.is_city:
                raise IllegalMoveError("C12", f"a trophy is a city card, and {name}'s {card.id} is a battle card")
            if used & card.bit:
                raise IllegalMoveError("C12", f"{card.id} is given twice (as a city or a trophy)")
            used |= card.bit
    return lines


def _check_plays(names: tuple[str, ...], plays: Sequence[tuple[str, Card]]) -> list[tuple[int, Card]]:
    """C8: one to four battle cards, each played once, clockwise by seated emperors. Returns
    them as (seat, card) in play order."""
    if not plays:
        raise IllegalMoveError("C8", "no card is played yet: the initiative goes to the winner of the plays")
    if len(plays) > 4:
        raise IllegalMoveError("C8", f"each emperor plays one card per action: {len(plays)} cards are given")
    order: list[tuple[int, Card]] = []
    played = 0
    for k, (name, card) in enumerate(plays):
        if name not in names:
            raise InvalidMoveError(f"plays: {name!r} is not seated ({', '.join(names)})")
        seat = names.index(name)
        if not card.is_battle:
            raise IllegalMoveError("C8", f"{name} plays a battle card (2-10, C2), and {card.id} is a city card")
        if played & card.bit:
            raise IllegalMoveError("C6", f"{card.id} is played twice")
        played |= card.bit
        if k and seat != (order[-1][0] + 1) % 4:
            after = names[order[-1][0]]
            raise IllegalMoveError("C8", f"play goes clockwise: after {after} comes {names[(order[-1][0] + 1) % 4]}, not {name}")
        order.append((seat, card))
    return order


def _pairs(text: str, what: str) -> list[tuple[str, str]]:
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InvalidMoveError(f"{what}: write name=card, not {part!r}")
        out.append((name.strip(), value.strip()))
    return out


def parse_seats(text: str) -> list[tuple[str, Card]]:
    """``--seats ann=KH,bob=QS,cy=X1,@1=AC``: the emperors clockwise with their cities; a
    bare ``joker`` is the first joker not yet named."""
    pairs = _pairs(text, "--seats")
    cards = CARDS.parse_many([value for _, value in pairs])
    return [(name, card) for (name, _), card in zip(pairs, cards)]


def parse_plays(text: str) -> list[tuple[str, Card]]:
    """``--plays bob=7H,cy=10S,@1=2C,ann=9H``: the battle cards in play order."""
    return [(name, CARDS.parse(value)) for name, value in _pairs(text, "--plays")]


def parse_next(text: str) -> Card | None:
    """``--next JD``, or ``none`` in action 15."""
    t = text.strip().lower()
    if t in ("none", "-", ""):
        return None
    return CARDS.parse(text)


def parse_trophies(text: str) -> dict[str, tuple[Card, ...]]:
    """``--trophies bob=QD+JH,cy=KS``: each line of victories."""
    out: dict[str, tuple[Card, ...]] = {}
    for name, value in _pairs(text, "--trophies"):
        if name in out:
            raise InvalidMoveError(f"--trophies: {name} is given twice")
        out[name] = CARDS.parse_many([v for v in value.split("+") if v.strip()])
    return out
