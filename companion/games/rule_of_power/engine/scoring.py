"""Round scoring (R6-R14): the points of each side, and the reasons behind every point.

A side is a player, or a team whose members pool their captures. Only World cards score
(R8): Fate cards in a capture stack are ignored here.

>>> from companion.games.rule_of_power.engine.cards import parse_cards
>>> score = score_round({"ann": parse_cards("W001,W002,W003,W004,W007,W016"), "bob": parse_cards("W027,W026")})
>>> score.sides["ann"].to_json()
{'world_cards': 1, 'power_cards': 1, 'fire_dragon': 1, 'pride_of_dragons': 1, 'power_master': 3, 'power_points': 1, 'sweeps': 0, 'total': 8}
>>> score.pride.explain()
'Pride of Dragons: ann; level with bob on the 7s, 6s, 5s, ahead on the 4s (1 against 0)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TypeVar

from companion.games.rule_of_power.engine.cards import FIRE_DRAGON, POWER_RING, Card, power_cards

__all__ = [
    "SidePoints",
    "Race",
    "PrideOfDragons",
    "PowerRing",
    "FireDragon",
    "RoundScore",
    "score_round",
    "PRIDE_VALUES",
]

#: The values compared for the Pride of Dragons, strongest first (R11).
PRIDE_VALUES: tuple[int, ...] = (7, 6, 5, 4, 3, 2, 1)
_PRIDE_COUNTS = itemgetter(*PRIDE_VALUES)  # counts by value -> the Pride sequence (R11)

POINT_KEYS = (
    "world_cards",
    "power_cards",
    "fire_dragon",
    "pride_of_dragons",
    "power_master",
    "power_points",
    "sweeps",
)


@dataclass(frozen=True, slots=True)
class SidePoints:
    """One side's points for a round, in the score JSON of ``rop-record/1``."""

    world_cards: int = 0
    power_cards: int = 0
    fire_dragon: int = 0
    pride_of_dragons: int = 0
    power_master: int = 0
    power_points: int = 0
    sweeps: int = 0

    @property
    def total(self) -> int:
        return (
            self.world_cards
            + self.power_cards
            + self.fire_dragon
            + self.pride_of_dragons
            + self.power_master
            + self.power_points
            + self.sweeps
        )

    def to_json(self) -> dict[str, int]:
        out = {key: getattr(self, key) for key in POINT_KEYS}
        out["total"] = self.total
        return out


@dataclass(frozen=True, slots=True)
class Race:
    """A "most cards" cardinal point (R9): each side's count and the side with strictly more
    than every other, ``None`` when the most is shared."""

    name: str
    counts: Mapping[str, int]
    winner: str | None

    def explain(self) -> str:
        counts = ", ".join(f"{side} {n}" for side, n in self.counts.items())
        if self.winner:
            return f"{self.name}: {self.winner} ({counts})"
        return f"{self.name}: nobody, the most is shared ({counts})"


@dataclass(frozen=True, slots=True)
class PrideOfDragons:
    """The Pride of Dragons (R11). ``sequences`` holds each side's counts of 7s, 6s, ..., 1s;
    ``winner`` the side with the unique greatest sequence; ``decided_at`` the value (7..1) at
    which the winner pulled ahead of the best other side (7 when it simply had most Dragons),
    ``None`` when nobody won."""

    sequences: Mapping[str, tuple[int, ...]]
    winner: str | None
    decided_at: int | None
    runner_up: str | None = None

    def explain(self) -> str:
        if self.winner is None:
            tied = [s for s, seq in self.sequences.items() if seq == max(self.sequences.values(), default=())]
            if len(tied) >= 2:
                names = " and ".join([", ".join(tied[:-1]), tied[-1]]) if len(tied) > 2 else " and ".join(tied)
                return f"Pride of Dragons: nobody ({names} tie on every value from the 7s down to the 1s)"
            return "Pride of Dragons: nobody"
        assert self.decided_at is not None
        seq = self.sequences[self.winner]
        pos = PRIDE_VALUES.index(self.decided_at)
        if self.runner_up is None:
            return f"Pride of Dragons: {self.winner} (the only side with cards)"
        other = self.sequences[self.runner_up]
        # Every side that shares the runner-up's counts is beaten at the same place (R11).
        runners = [s for s, q in self.sequences.items() if s != self.winner and q == other]
        names = " and ".join([", ".join(runners[:-1]), runners[-1]]) if len(runners) > 1 else runners[0]
        if pos == 0:
            dragons = "Dragon" if seq[0] == 1 else "Dragons"
            each = " each" if len(runners) > 1 else ""
            return f"Pride of Dragons: {self.winner}, {seq[0]} {dragons} against {other[0]}{each} ({names})"
        level = ", ".join(f"{v}s" for v in PRIDE_VALUES[:pos])
        return (
            f"Pride of Dragons: {self.winner}; level with {names} on the {level}, "
            f"ahead on the {self.decided_at}s ({seq[pos]} against {other[pos]})"
        )


@dataclass(frozen=True, slots=True)
class PowerRing:
    """The Power Ring (R12): who holds each Ring card, the Power Master (holding all three)
    and the chain of consecutive Power cards from W004 that it scores."""

    ring: Mapping[Card, str | None]
    master: str | None
    chain: tuple[Card, ...] = ()

    @property
    def points(self) -> int:
        return 3 + len(self.chain) if self.master else 0

    def explain(self) -> str:
        """In a player's words, cards named as the README names them (``1P W001 Cosmic
        Power``): ``"Power Ring: no side holds a Ring card, so no Power Master (R12)"``."""
        if self.master is None:
            holders: dict[str, list[Card]] = {}
            for card, side in self.ring.items():
                if side is not None:
                    holders.setdefault(side, []).append(card)
            if not holders:
                return "Power Ring: no side holds a Ring card, so no Power Master (R12)"
            held = ", ".join(f"{side} holds {' and '.join(c.long_label for c in cards)}" for side, cards in holders.items())
            return f"Power Ring: no Power Master, the Ring cards are split (R12): {held}"
        if self.chain:
            first, last = self.chain[0], self.chain[-1]
            chain = f"{first.short} {first.id}" + (f" to {last.short} {last.id}" if len(self.chain) > 1 else "")
            return f"Power Ring: {self.master} is Power Master (3, R12) with the chain {chain} (+{len(self.chain)})"
        return f"Power Ring: {self.master} is Power Master (3, R12); without 4P W004 no chain"


@dataclass(frozen=True, slots=True)
class FireDragon:
    """The Fire Dragon (R10): the side holding ``W007``, else why no side does. At a round's
    end every World card is captured (R6) but one discarded to a Dark Decay (``lost`` is
    ``"discarded"``, R21) or one left in the centre after a round without a capture
    (``"left"``, R6); ``lost`` is ``None`` when the card is simply in no side's captures, as
    during a round or in captures given by hand."""

    holder: str | None
    lost: str | None = None

    def explain(self) -> str:
        """In a player's words, the card named as the README names it: ``"Fire Dragon: ann
        holds 7P W007 Fire Dragon (+1, R10)"``."""
        card = FIRE_DRAGON.long_label
        if self.holder is not None:
            return f"Fire Dragon: {self.holder} holds {card} (+1, R10)"
        if self.lost == "discarded":
            return f"Fire Dragon: nobody holds {card}, it was discarded (R21), so no point (R10)"
        if self.lost == "left":
            return f"Fire Dragon: nobody holds {card}, it was left in the centre with no capture this round (R6), so no point (R10)"
        return f"Fire Dragon: no side has captured {card}, so no point (R10)"


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The points of a round per side, with the reasons (R9-R13)."""

    sides: Mapping[str, SidePoints]
    world_cards: Race
    power_cards: Race
    dragon: FireDragon
    pride: PrideOfDragons
    power_ring: PowerRing
    sweeps: Mapping[str, int]
    rule_of_power: str | None = None
    captured: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)

    @property
    def fire_dragon(self) -> str | None:
        """The side holding the Fire Dragon (R10), if one does."""
        return self.dragon.holder

    def totals(self) -> dict[str, int]:
        return {side: pts.total for side, pts in self.sides.items()}

    def reasons(self) -> list[str]:
        """The settlement in words, one line per point."""
        lines = [
            self.world_cards.explain(),
            self.power_cards.explain(),
            self.dragon.explain(),
            self.pride.explain(),
            self.power_ring.explain(),
        ]
        sweeps = [f"{side} {n}" for side, n in self.sweeps.items() if n]
        lines.append("Clean sweeps: " + (", ".join(sweeps) if sweeps else "none"))
        if self.rule_of_power:
            lines.append(f"RULE OF POWER: {self.rule_of_power} holds every Power card and wins the game (R13)")
        return lines

    def to_json(self) -> dict[str, object]:
        return {
            "sides": {side: pts.to_json() for side, pts in self.sides.items()},
            "rule_of_power": self.rule_of_power,
        }

    def reasons_json(self) -> dict[str, object]:
        """The counts behind the points, for machine readers."""
        return {
            "world_cards": dict(self.world_cards.counts),
            "power_cards": dict(self.power_cards.counts),
            "fire_dragon": self.fire_dragon,
            "pride_of_dragons": {
                "sequences": {side: list(seq) for side, seq in self.pride.sequences.items()},
                "winner": self.pride.winner,
                "decided_at": self.pride.decided_at,
            },
            "power_ring": {
                "ring": {c.id: side for c, side in self.power_ring.ring.items()},
                "master": self.power_ring.master,
                "chain": [c.id for c in self.power_ring.chain],
            },
            "explanation": self.reasons(),
        }


_Count = TypeVar("_Count", int, tuple[int, ...])


def _unique_max(counts: Mapping[str, _Count]) -> str | None:
    """The side with strictly the greatest value, else ``None`` (R9, R11)."""
    best: str | None = None
    best_value: _Count | None = None
    shared = False
    for side, value in counts.items():
        if best_value is None or value > best_value:
            best, best_value, shared = side, value, False
        elif value == best_value:
            shared = True
    return None if shared else best


def score_round(
    captured: Mapping[str, Iterable[Card]],
    sweeps: Mapping[str, int] | None = None,
    *,
    expansion: bool = False,
    discarded: Iterable[Card] = (),
    left: Iterable[Card] = (),
) -> RoundScore:
    """Score a round from each side's captured cards and clean sweeps (R8-R13).

    Every side that takes part must be a key of ``captured`` (an empty stack is fine), since
    ties are decided among all sides. ``discarded`` are the cards out of play for the round
    (R21) and ``left`` those left in the centre at its end with nobody to take them (R6):
    they score for nobody, and say why nobody holds the Fire Dragon (R10).
    """
    sweeps = dict(sweeps or {})
    cards: dict[str, tuple[Card, ...]] = {side: tuple([c for c in stack if c.is_world]) for side, stack in captured.items()}
    for side in sweeps:
        cards.setdefault(side, ())
    sides = list(cards)
    ladder = power_cards(expansion)

    world_counts = {s: len(cards[s]) for s in sides}
    world = Race("Most World cards", world_counts, _unique_max(world_counts))
    power_counts = {s: len([c for c in cards[s] if c.is_power]) for s in sides}
    power = Race("Most Power cards", power_counts, _unique_max(power_counts))

    holder: dict[Card, str] = {}
    for s in sides:
        holder.update(dict.fromkeys(cards[s], s))
    fire = holder.get(FIRE_DRAGON)
    lost = "discarded" if FIRE_DRAGON in set(discarded) else "left" if FIRE_DRAGON in set(left) else None
    dragon = FireDragon(fire, None if fire else lost)
    pride = _pride(cards)
    ring = _power_ring(holder, ladder)
    rule = _rule_of_power(power_counts, holder, ladder)
    points = {}
    for s in sides:
        points[s] = SidePoints(
            world_cards=int(world.winner == s),
            power_cards=int(power.winner == s),
            fire_dragon=int(fire == s),
            pride_of_dragons=int(pride.winner == s),
            power_master=3 if ring.master == s else 0,
            power_points=len(ring.chain) if ring.master == s else 0,
            sweeps=sweeps.get(s, 0),
        )
    return RoundScore(
        sides=points,
        world_cards=world,
        power_cards=power,
        dragon=dragon,
        pride=pride,
        power_ring=ring,
        sweeps={s: sweeps.get(s, 0) for s in sides},
        rule_of_power=rule,
        captured=cards,
    )


def _rule_of_power(power_counts: Mapping[str, int], holder: Mapping[Card, str], ladder: Sequence[Card]) -> str | None:
    """R13: the side that holds every Power card, if one does."""
    for side, count in power_counts.items():
        if count == len(ladder) and all(holder.get(c) == side for c in ladder):
            return side
    return None


def _pride(cards: Mapping[str, Sequence[Card]]) -> PrideOfDragons:
    """R11: compare the counts of 7s, 6s, ..., 1s lexicographically."""
    sequences: dict[str, tuple[int, ...]] = {}
    for side, stack in cards.items():
        counts = [0] * 14  # by value: World cards are worth 1 to 13 (R1, R2)
        for c in stack:
            counts[c.value or 0] += 1  # a captured card has a value: a World card's or its Fate role's (R20)
        sequences[side] = _PRIDE_COUNTS(counts)
    winner = _unique_max(sequences)
    if winner is None:
        return PrideOfDragons(sequences, None, None)
    others = [seq for side, seq in sequences.items() if side != winner]
    if not others:
        return PrideOfDragons(sequences, winner, PRIDE_VALUES[0])
    best_other = max(others)
    runner_up = next(side for side, seq in sequences.items() if side != winner and seq == best_other)
    mine = sequences[winner]
    at = next(i for i in range(len(PRIDE_VALUES)) if mine[i] != best_other[i])
    return PrideOfDragons(sequences, winner, PRIDE_VALUES[at], runner_up)


def _power_ring(holder: Mapping[Card, str], ladder: Sequence[Card]) -> PowerRing:
    """R12: all three Ring cards make a Power Master; the chain runs on from W004."""
    ring = {c: holder.get(c) for c in POWER_RING}
    owners = set(ring.values())
    if len(owners) != 1 or None in owners:
        return PowerRing(ring, None)
    master = next(iter(owners))
    chain = []
    for card in ladder[3:]:
        if holder.get(card) != master:
            break
        chain.append(card)
    return PowerRing(ring, master, tuple(chain))
