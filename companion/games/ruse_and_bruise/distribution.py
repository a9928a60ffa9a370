"""The distribution of one column's goal card at a round's end (B18-B26), as a sequence of
explained steps: what the Musketeers cancel, what the Wizard and the Witch remove (or that
they neutralize each other), the Prince & Squire pairs, each card's value and why, and the
winner with the tie to the card closest to (or, with a Beggar, furthest from) the goal card.

:func:`distribute` is pure: a goal card, the column's cards from the goal card down (each its
owner and card) and the values table in; a :class:`ColumnDistribution` out, which carries
every step, every card's value and removal and the reasons in words, for the round's end, the
dashboard, the club page and ``rop legal``.

The order (B18): (1) Musketeers (B19); (2) Wizard, (3) Witch (B20); (4) Prince & Squire (B21);
then the values of the cards left: Hermit, Small Giant (B23), Doppelgänger (B22), Dragon
(B25), Romeo (B24), in any order; last the winner (B26). A removed card is out of the column:
no value, no ability, not counted, not copied, never the card closest to or furthest from the
goal card.

>>> from companion.games.ruse_and_bruise.values import EXAMPLE
>>> column = distribute(Goal.from_id("music-3a"), [("blue", KING), ("white", WIZ), ("blue", DOPPEL), ("red", MINNE)], EXAMPLE)
>>> column.winner, column.why, [c.value for c in column.cards], [c.removed for c in column.cards]
('white', 'highest', [None, 2, None, None], ['WIZ', None, 'WIZ', 'WIZ'])
>>> print(column.steps[0].words)
white's Wizard (2) removes every card of 10 or more (B20): blue's King (1), blue's Doppelgänger (3) as red's Minnesinger (4), red's Minnesinger (4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.values import ValuesTable

__all__ = ["distribute", "ColumnDistribution", "CardOutcome", "Step", "WHY", "STEP_ORDER", "number_in"]

_card = Influence._by_id
KING, QUEEN, JULIET = _card["KING"], _card["QUEEN"], _card["JULIET"]
MINNE = _card["MINNE"]
MUSK, WIZ, WITCH = _card["MUSK"], _card["WIZ"], _card["WITCH"]
PRINCE, SQUIRE = _card["PRINCE"], _card["SQUIRE"]
HERMIT, GIANT, DOPPEL, DRAGON, ROMEO, BEGGAR = (_card[i] for i in ("HERMIT", "GIANT", "DOPPEL", "DRAGON", "ROMEO", "BEGGAR"))

STEP_ORDER: tuple[str, ...] = ("MUSK", "WIZ", "WITCH", "PAIR", "HERMIT", "GIANT", "DOPPEL", "DRAGON", "ROMEO", "BEGGAR")
"""The order of the steps (B18), as ``rop legal`` lists them."""

WHY: dict[str, str] = {
    "highest": "the single highest sum (B26)",
    "closest": "a tie for the highest sum, decided by the card closest to the goal card (B26)",
    "pair": "a Prince & Squire pair (B21)",
    "pair-closest": "several Prince & Squire pairs, decided by the card closest to the goal card (B21)",
    "beggar": "the single lowest sum, with a Beggar (B26)",
    "beggar-furthest": "a tie for the lowest sum with a Beggar, decided by the card furthest from the goal card (B26)",
    "none": "nobody takes part (B26): the goal card is out of the game",
}
"""Each way a column is won (the ``why`` of the record format), in words."""


def number_in(card: Influence, goal: Goal, values: ValuesTable) -> int | None:
    """The number of ``card`` in a column headed by ``goal``: the printed one (B2), a
    professional's 12 or 8 (B3), the values table's (B4); ``None`` for the Doppelgänger (B22)."""
    printed = card.number_under(goal)
    if printed is not None:
        return printed
    if card is DOPPEL:
        return None
    return values[card.id]


@dataclass(frozen=True, slots=True)
class CardOutcome:
    """One card of the column after the distribution: ``position`` (1 is the card closest to
    the goal card), ``owner``, ``card``, its ``number`` in this column (``None`` for the
    Doppelgänger), ``value`` (what it adds to its owner's sum after every ability: ``None``
    when removed, and for a Doppelgänger without value), ``removed`` (``"WIZ"``, ``"WITCH"`` or
    ``None``) and ``words``: its value and why."""

    position: int
    owner: str
    card: Influence
    number: int | None
    value: int | None
    removed: str | None
    words: str

    def to_json(self) -> dict[str, Any]:
        """``{"owner", "card", "value", "removed"}``, as the record format writes it."""
        return {"owner": self.owner, "card": self.card.id, "value": self.value, "removed": self.removed}


@dataclass(frozen=True, slots=True)
class Step:
    """One ability in force in the column (B18), in the order of :data:`STEP_ORDER`:

    - ``ability``: ``MUSK``, ``WIZ``, ``WITCH``, ``PAIR``, ``HERMIT``, ``GIANT``, ``DOPPEL``,
      ``DRAGON``, ``ROMEO`` or ``BEGGAR``;
    - ``cards``: the positions of the cards acting (1 is closest to the goal card);
    - ``neutralized`` and ``removed``: a Wizard's or a Witch's step (B20);
    - ``owner``: a pair's (B21);
    - ``copies``: a Doppelgänger's, the position of the nearest card left below it, ``None``
      when there is none (B22);
    - ``words``: what the step does, in a sentence.
    """

    ability: str
    cards: tuple[int, ...]
    words: str
    neutralized: bool = False
    removed: tuple[int, ...] = ()
    owner: str | None = None
    copies: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The step as ``rop legal --json`` prints it (record-format.md)."""
        out: dict[str, Any] = {"ability": self.ability, "cards": list(self.cards)}
        if self.ability in ("WIZ", "WITCH"):
            out["neutralized"] = self.neutralized
            out["removed"] = list(self.removed)
        elif self.ability == "PAIR":
            out["owner"] = self.owner
        elif self.ability == "DOPPEL":
            out["copies"] = self.copies
        return out


@dataclass(frozen=True, slots=True)
class ColumnDistribution:
    """One column distributed (B18-B26): the ``goal`` card heading it, its ``cards`` from the
    goal card down (:class:`CardOutcome`), the ``steps`` in force (:class:`Step`), ``sums``
    (every owner with a card in the column, removed ones included, in the order they first
    appear, as (owner, sum) pairs), ``taking_part`` (the owners with a card left other than a
    Doppelgänger without value, B26), the ``winner`` (``None`` when nobody takes part), ``why``
    (a key of :data:`WHY`) and ``reason`` (the decision in words)."""

    goal: Goal
    cards: tuple[CardOutcome, ...]
    steps: tuple[Step, ...]
    sum_pairs: tuple[tuple[str, int], ...]
    taking_part: tuple[str, ...]
    winner: str | None
    why: str
    reason: str
    musketeers: bool = field(default=False)

    @property
    def sums(self) -> dict[str, int]:
        """Every owner with a card in the column, removed ones included, and their sum."""
        return dict(self.sum_pairs)

    def to_json(self, column: int | None = None) -> dict[str, Any]:
        """The column as ``rop replay --json`` prints it (with ``column``, its number) or as
        ``rop legal --json`` does (without: ``goal``, ``cards``, ``steps``, ``sums``,
        ``winner``, ``why``)."""
        cards = [c.to_json() for c in self.cards]
        if column is not None:
            return {"column": column, "goal": self.goal.id, "cards": cards, "sums": self.sums, "winner": self.winner, "why": self.why}
        return {
            "goal": self.goal.id,
            "cards": cards,
            "steps": [s.to_json() for s in self.steps],
            "sums": self.sums,
            "winner": self.winner,
            "why": self.why,
        }

    def lines(self) -> list[str]:
        """The distribution step by step, in words: each step, each card's value, the sums and
        the winner."""
        out = [f"Goal card {self.goal.id} ({self.goal.title}, {self.goal.value} point{'s' if self.goal.value != 1 else ''})"]
        if not self.cards:
            out.append("  no card in the column")
        for s in self.steps:
            out.append(f"  {s.ability}: {s.words}")
        for c in self.cards:
            out.append(f"  {c.position}. {c.owner}'s {c.card.name}: {c.words}")
        if self.sum_pairs:
            out.append("  sums: " + ", ".join(f"{o} {n}" for o, n in self.sum_pairs))
        out.append(f"  {self.reason}")
        return out


# ---------------------------------------------------------------------- the work


def _name(owner: str, card: Influence, k: int) -> str:
    return f"{owner}'s {card.name} ({k + 1})"


def distribute(goal: Goal, cards: Sequence[tuple[str, Influence]], values: ValuesTable) -> ColumnDistribution:
    """Distribute the goal card ``goal`` of a column holding ``cards`` (owner, card), from the
    goal card down, with the table's ``values`` (B18-B26)."""
    n = len(cards)
    owners = [o for o, _ in cards]
    kinds = [c for _, c in cards]
    numbers = [number_in(c, goal, values) for c in kinds]
    removed: list[str | None] = [None] * n
    steps: list[Step] = []
    names = [_name(o, c, k) for k, (o, c) in enumerate(cards)]

    musk = [k for k in range(n) if kinds[k] is MUSK]
    if musk:
        return _with_musketeers(goal, cards, numbers, names, musk)

    # (2) the Wizard, (3) the Witch (B20): each judged on the cards left as its step begins;
    # a Doppelgänger goes with the card whose role it takes.
    for ability, card in (("WIZ", WIZ), ("WITCH", WITCH)):
        acting = [k for k in range(n) if kinds[k] is card and removed[k] is None]
        if not acting:
            continue
        who = ", ".join(names[k] for k in acting)
        if len(acting) > 1:
            steps.append(Step(ability, _positions(acting), f"{who} neutralize each other: no {card.name}'s removal (B20)", neutralized=True))
            continue
        actor = acting[0]
        roles = _roles(kinds, removed)
        gone: list[int] = []
        for k in range(n):
            if removed[k] is not None or k == actor:
                continue
            role = roles[k]
            if role is None:
                continue  # a Doppelgänger without value: removed by neither (B20)
            number = numbers[role]
            assert number is not None
            if role == actor:
                continue  # a Doppelgänger copying the Witch goes with her (B20)
            if (number >= 10) if ability == "WIZ" else (number <= 9):
                gone.append(k)
        bound = "of 10 or more" if ability == "WIZ" else "of 9 or less but herself"
        listed = ", ".join(_as_role(names, kinds, roles, k) for k in gone)
        words = f"{names[actor]} removes every card {bound} (B20): {listed}" if gone else f"{names[actor]} removes every card {bound} (B20): there is none"
        for k in gone:
            removed[k] = ability
        steps.append(Step(ability, (actor + 1,), words, removed=_positions(gone)))

    left = [k for k in range(n) if removed[k] is None]

    # (4) Prince & Squire (B21): a player whose pair is left wins the goal card.
    pairs: list[tuple[str, tuple[int, int]]] = []
    for owner in dict.fromkeys(owners[k] for k in left):
        prince = next((k for k in left if owners[k] == owner and kinds[k] is PRINCE), None)
        squire = next((k for k in left if owners[k] == owner and kinds[k] is SQUIRE), None)
        if prince is not None and squire is not None:
            first, second = sorted((prince, squire))
            pairs.append((owner, (first, second)))
    pairs.sort(key=lambda p: p[1][0])
    for owner, (first, second) in pairs:
        steps.append(Step("PAIR", (first + 1, second + 1), f"{owner}'s Prince and Squire are both left: {owner} wins unless another pair is closer (B21)", owner=owner))

    # The values of the cards left (B22-B25).
    value: list[int | None] = [None] * n
    card_words: list[str] = [""] * n
    others = len(left) - 1
    roles = _roles(kinds, removed)
    dragons = [k for k in left if kinds[k] is DRAGON]
    value_steps: dict[str, list[Step]] = {a: [] for a in ("HERMIT", "GIANT", "DOPPEL", "DRAGON", "ROMEO", "BEGGAR")}
    for k in range(n):
        card = kinds[k]
        if removed[k] is not None:
            card_words[k] = f"removed by the {'Wizard' if removed[k] == 'WIZ' else 'Witch'} (B20): no value"
            continue
        number = numbers[k]
        if card is HERMIT:
            assert number is not None
            v = max(0, number - others)
            value[k] = v
            card_words[k] = f"{number} less 1 for each of the {others} other cards left = {v} (B23)"
            value_steps["HERMIT"].append(Step("HERMIT", (k + 1,), f"{names[k]} loses 1 for each of the {others} other cards left: {v} (B23)"))
        elif card is GIANT:
            assert number is not None
            v = number + 3 * others
            value[k] = v
            card_words[k] = f"{number} and 3 for each of the {others} other cards left = {v} (B23)"
            value_steps["GIANT"].append(Step("GIANT", (k + 1,), f"{names[k]} gains 3 for each of the {others} other cards left: {v} (B23)"))
        elif card is DOPPEL:
            below = next((j for j in range(k + 1, n) if removed[j] is None), None)
            role = roles[k]
            if role is None:
                card_words[k] = "no card left below it: no value (B22)"
                step_words = f"{names[k]} has no card left below it: no value (B22)"
            else:
                value[k] = numbers[role]
                card_words[k] = f"takes the number of {names[role]}: {numbers[role]} (B22)"
                via = f" (through {names[below]})" if below is not None and below != role else ""
                step_words = f"{names[k]} takes the number of {names[role]}{via}: {numbers[role]} (B22)"
            value_steps["DOPPEL"].append(Step("DOPPEL", (k + 1,), step_words, copies=None if below is None else below + 1))
        elif card is ROMEO:
            juliet = next((j for j in left if kinds[j] is JULIET and owners[j] == owners[k]), None)
            if juliet is not None:
                value[k] = 15
                card_words[k] = f"15 with {owners[k]}'s Juliet ({juliet + 1}) in the column (B24)"
                value_steps["ROMEO"].append(Step("ROMEO", (k + 1,), f"{names[k]} is 15 with {names[juliet]} (B24)"))
            else:
                value[k] = 5
                card_words[k] = f"5: no Juliet of {owners[k]}'s left in the column (B24)"
                value_steps["ROMEO"].append(Step("ROMEO", (k + 1,), f"{names[k]} is 5: no Juliet of {owners[k]}'s is left (B24)"))
        else:
            value[k] = number
            card_words[k] = _plain_words(card, goal, number)
            if card is BEGGAR:
                value_steps["BEGGAR"].append(Step("BEGGAR", (k + 1,), f"{names[k]}: the lowest sum wins this column, a tie going to the card furthest from the goal card (B26)"))
    for d in dragons:
        value_steps["DRAGON"].append(Step("DRAGON", (d + 1,), f"{names[d]} cuts every card of the other players by 2, never below 0 (B25)"))
    if dragons:
        for k in left:
            before = value[k]
            if before is None:
                continue
            cut = 2 * sum(1 for d in dragons if owners[d] != owners[k])
            if cut:
                value[k] = max(0, before - cut)
                by = len([d for d in dragons if owners[d] != owners[k]])
                card_words[k] += f"; less {cut} for {by} Dragon{'s' if by > 1 else ''} of another player = {value[k]} (B25)"
    for ability in ("HERMIT", "GIANT", "DOPPEL", "DRAGON", "ROMEO", "BEGGAR"):
        steps.extend(value_steps[ability])

    outcomes = tuple(CardOutcome(k + 1, owners[k], kinds[k], numbers[k], value[k], removed[k], card_words[k]) for k in range(n))
    sums = _sums(owners, value)
    taking = tuple(dict.fromkeys(owners[k] for k in left if value[k] is not None or kinds[k] is not DOPPEL))
    beggar = any(kinds[k] is BEGGAR for k in left)
    winner, why, reason = _winner(owners, left, sums, taking, pairs, beggar)
    return ColumnDistribution(goal, outcomes, tuple(steps), tuple(sums.items()), taking, winner, why, reason)


def _with_musketeers(goal: Goal, cards: Sequence[tuple[str, Influence]], numbers: list[int | None], names: list[str], musk: list[int]) -> ColumnDistribution:
    """(1) Musketeers (B19): no ability counts in the column, theirs included; every card
    counts its number, the Doppelgänger nothing; nothing is removed; the highest sum wins."""
    owners = [o for o, _ in cards]
    kinds = [c for _, c in cards]
    n = len(cards)
    who = ", ".join(names[k] for k in musk)
    step = Step("MUSK", _positions(musk), f"{who}: no card's ability counts in this column; every card counts its number (B19)")
    value: list[int | None] = list(numbers)
    words = []
    for k in range(n):
        card = kinds[k]
        if card is DOPPEL:
            words.append("no value: the Musketeers cancel its ability (B19)")
        else:
            words.append(_plain_words(card, goal, numbers[k]) + ("" if card.kind == "number" or card is MUSK else "; its ability cancelled (B19)"))
    outcomes = tuple(CardOutcome(k + 1, owners[k], kinds[k], numbers[k], value[k], None, words[k]) for k in range(n))
    sums = _sums(owners, value)
    left = list(range(n))
    taking = tuple(dict.fromkeys(owners[k] for k in left if value[k] is not None))
    winner, why, reason = _winner(owners, left, sums, taking, [], False)
    return ColumnDistribution(goal, outcomes, (step,), tuple(sums.items()), taking, winner, why, reason, True)


def _as_role(names: list[str], kinds: list[Influence], roles: list[int | None], k: int) -> str:
    """A card's name, and for a Doppelgänger the card whose role it takes."""
    role = roles[k]
    return names[k] + (f" as {names[role]}" if kinds[k] is DOPPEL and role is not None else "")


def _plain_words(card: Influence, goal: Goal, number: int | None) -> str:
    if card.area is not None:
        own = card.area == goal.area
        return f"{number}: {'under a goal card of its own area' if own else 'not under its own area'}, {card.area} (B3)"
    if card.printed is not None:
        return f"{number}, its printed number (B2)"
    return f"{number}, from the values table (B4)"


def _roles(kinds: list[Influence], removed: list[str | None]) -> list[int | None]:
    """For each card left, the card whose number it counts: itself, or for a Doppelgänger the
    nearest card left below it, through any Doppelgänger there (B22); ``None`` for a
    Doppelgänger with no such card, and for removed cards."""
    n = len(kinds)
    roles: list[int | None] = [None] * n
    below: int | None = None  # the role of the nearest card left below, scanning upwards
    for k in range(n - 1, -1, -1):
        if removed[k] is not None:
            continue
        roles[k] = below if kinds[k] is DOPPEL else k
        below = roles[k]
    return roles


def _positions(ks: Sequence[int]) -> tuple[int, ...]:
    return tuple(k + 1 for k in ks)


def _sums(owners: list[str], value: list[int | None]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for owner, v in zip(owners, value):
        sums[owner] = sums.get(owner, 0) + (v or 0)
    return sums


def _winner(
    owners: list[str], left: list[int], sums: Mapping[str, int], taking: tuple[str, ...], pairs: list[tuple[str, tuple[int, int]]], beggar: bool
) -> tuple[str | None, str, str]:
    """The winner, the way it was decided and why in words (B21, B26)."""
    closest = {o: min(k for k in left if owners[k] == o) for o in dict.fromkeys(owners[k] for k in left)}
    furthest = {o: max(k for k in left if owners[k] == o) for o in closest}
    if pairs:
        if len(pairs) == 1:
            owner = pairs[0][0]
            return owner, "pair", f"{owner} wins with a Prince & Squire pair, whatever the sums (B21)"
        holders = [o for o, _ in pairs]
        owner = min(holders, key=lambda o: closest[o])
        return owner, "pair-closest", f"{_and(holders)} each have a pair; {owner}'s card {closest[owner] + 1} is the closest to the goal card (B21)"
    if not taking:
        return None, "none", "nobody takes part: the goal card is out of the game (B26)"
    if beggar:
        low = min(sums[o] for o in taking)
        tied = [o for o in taking if sums[o] == low]
        if len(tied) == 1:
            return tied[0], "beggar", f"{tied[0]} has the lowest sum, {low}: with a Beggar, the lowest sum wins (B26)"
        owner = max(tied, key=lambda o: furthest[o])
        return owner, "beggar-furthest", f"{_and(tied)} tie with the lowest sum, {low}; {owner}'s card {furthest[owner] + 1} is the furthest from the goal card (B26)"
    high = max(sums[o] for o in taking)
    tied = [o for o in taking if sums[o] == high]
    if len(tied) == 1:
        return tied[0], "highest", f"{tied[0]} has the highest sum, {high} (B26)"
    owner = min(tied, key=lambda o: closest[o])
    return owner, "closest", f"{_and(tied)} tie with the highest sum, {high}; {owner}'s card {closest[owner] + 1} is the closest to the goal card (B26)"


def _and(names: Sequence[str]) -> str:
    """``"ann, bob and cy"``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
