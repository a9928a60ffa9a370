"""Capture options: which centre cards a played card takes (R4, R5).

Pure functions on tuples of :class:`~companion.games.rule_of_power.engine.cards.Card`, used by the engine, the
``rop legal`` command and the teaching hints.

>>> from companion.games.rule_of_power.engine.cards import parse_cards
>>> centre = parse_cards("W002,W014,W035")
>>> [[c.id for c in option] for option in sort_options(centre, capture_options(centre, 6))]
[['W002', 'W014']]
>>> [[c.id for c in option] for option in capture_options(parse_cards("W006,W012,W024"), 6)]
[['W006']]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

from companion.games.rule_of_power.engine.cards import Card

__all__ = ["Refusal", "capture_options", "has_capture", "is_valid_capture", "refused_captures", "sort_options"]

Option = tuple[Card, ...]


def capture_options(centre: Sequence[Card], value: int, *, empowered: bool = False) -> list[Option]:
    """Every legal capture of a card of ``value`` played on ``centre``.

    - R5: an empowered Wizard (a value-1 card while a Mystic Crystal is in play) has one
      option, the whole centre; none when the centre is empty.
    - R4: if centre cards of the same value lie there, the options are exactly those single
      cards; otherwise every set of two or more centre cards whose values sum to ``value``.

    An empty list means the card cannot capture and stays in the centre. Options come in the
    order the search finds them (higher values first); :func:`sort_options` puts them in
    centre order for display.
    """
    if empowered:
        return [tuple(centre)] if centre else []
    singles: list[Option] = [(c,) for c in centre if c.value == value]
    if singles:
        return singles
    return _sum_options(centre, value)


def _sum_options(centre: Sequence[Card], target: int) -> list[Option]:
    # Group the usable cards by value, then choose how many of each value to take (a short
    # search over counts), and only then expand each count vector into concrete card sets.
    groups: dict[int, list[Card]] = {}
    for card in centre:
        v = card.value
        if v is not None and v < target:
            groups.setdefault(v, []).append(card)
    if not groups:
        return []
    values = sorted(groups, reverse=True)
    # reach[i]: the most the values from i on can add up to, to cut hopeless branches.
    reach = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        reach[i] = reach[i + 1] + values[i] * len(groups[values[i]])
    if reach[0] < target:
        return []
    out: list[Option] = []
    combo_cache: dict[tuple[int, int], list[Option]] = {}
    chosen: list[tuple[int, int]] = []

    def combos(v: int, k: int) -> list[Option]:
        key = (v, k)
        got = combo_cache.get(key)
        if got is None:
            got = combo_cache[key] = list(combinations(groups[v], k))
        return got

    def search(i: int, remaining: int) -> None:
        if remaining == 0:
            # No single card has the target value, so every set found has two or more cards.
            parts = [combos(v, k) for v, k in chosen]
            acc = parts[0]
            for part in parts[1:]:
                acc = [a + b for a in acc for b in part]
            out.extend(acc)
            return
        if i == len(values) or reach[i] < remaining:
            return
        v = values[i]
        for k in range(min(len(groups[v]), remaining // v), 0, -1):
            chosen.append((v, k))
            search(i + 1, remaining - v * k)
            chosen.pop()
        search(i + 1, remaining)

    search(0, target)
    return out


def has_capture(centre: Sequence[Card], value: int, *, empowered: bool = False) -> bool:
    """Whether a card of ``value`` has any capture option on ``centre`` (R4, R5), without
    listing them: a subset-sum reachability test on a bit set."""
    if not centre:
        return False
    if empowered:
        return True
    mask = (1 << (value + 1)) - 1
    reach = 1
    for card in centre:
        v = card.value
        if v == value:
            return True
        assert v is not None  # a card in the centre has a value (R20)
        if v < value:
            reach = (reach | (reach << v)) & mask
    return bool(reach >> value & 1)


def is_valid_capture(
    centre: Sequence[Card], value: int, capture: Sequence[Card], *, empowered: bool = False
) -> str | None:
    """Check one capture without listing the options. Returns ``None`` when ``capture`` is
    legal for a card of ``value`` on ``centre``, else the reason (naming R4/R5)."""
    if not _is_sub_multiset(capture, centre):
        missing = [c.label for c in capture if c not in centre]
        if missing:
            return f"R4: {', '.join(missing)} not in the centre"
        return "R4: a centre card is listed twice"
    if empowered:
        if len(capture) != len(centre):
            if not centre:
                return None
            return "R5: an empowered Wizard captures the whole centre"
        return None
    if not capture:
        if has_capture(centre, value):
            return f"R4: the {value} can capture, so it must ({_describe_options(centre, value)})"
        return None
    if any(c.value == value for c in centre):
        if len(capture) == 1 and capture[0].value == value:
            return None
        singles = ", ".join(c.label for c in centre if c.value == value)
        return f"R4: a card of the same value lies in the centre, so the {value} must take that single card ({singles})"
    if len(capture) < 2:
        return f"R4: {capture[0].label} (value {capture[0].value}) does not match the {value}"
    total = sum(c.value or 0 for c in capture)
    if total != value:
        return f"R4: the captured cards add up to {total}, not {value}"
    return None


def _is_sub_multiset(part: Sequence[Card], whole: Sequence[Card]) -> bool:
    if len(part) <= 1:
        return not part or part[0] in whole
    rest = list(whole)
    for card in part:
        try:
            rest.remove(card)
        except ValueError:
            return False
    return True


def _describe_options(centre: Sequence[Card], value: int) -> str:
    options = sort_options(centre, capture_options(centre, value))
    shown = [" + ".join(c.label for c in o) for o in options[:3]]
    more = f", or {len(options) - 3} more" if len(options) > 3 else ""
    return "take " + " or ".join(shown) + more


def sort_options(centre: Sequence[Card], options: Sequence[Option]) -> list[Option]:
    """Options in a stable order for display: each option's cards in centre order, the
    options ordered by the centre positions of their cards."""
    position: dict[Card, int] = {}
    for i, card in enumerate(centre):
        position.setdefault(card, i)
    keyed = [sorted(o, key=position.__getitem__) for o in options]
    keyed.sort(key=lambda o: [position[c] for c in o])
    return [tuple(o) for o in keyed]


class Refusal(NamedTuple):
    """A capture a player might expect that the rules refuse: the cards (none when the card
    takes nothing at all) and why, naming the ruling."""

    cards: Option
    reason: str
    rule: str


def _sum_text(cards: Sequence[Card]) -> str:
    return " + ".join(c.short for c in cards)


def refused_captures(
    centre: Sequence[Card], value: int, *, empowered: bool = False, limit: int = 20
) -> list[Refusal]:
    """Why the captures a player might try are not options, the way a table asks it:

    - R4: sums of two or more cards that add up to ``value`` while a single card of that
      value lies in the centre ("2P + 4M would make 6, but a single 6 lies in the centre,
      and a single card must be taken");
    - R5: with the Mystic Crystal an empowered Wizard takes the whole centre, so the
      captures it would have without the Crystal are not options;
    - R4: when nothing can be taken, why (no card of that value, no sum of that value).

    At most ``limit`` refusals, in centre order.

    >>> from companion.games.rule_of_power.engine.cards import parse_cards
    >>> [r.reason for r in refused_captures(parse_cards("2P,4M,6E"), 6)]
    ['2P + 4M would make 6, but a single 6 lies in the centre (6E W026), and a single card must be taken (R4)']
    """
    if not centre:
        return []
    if empowered:
        usual = sort_options(centre, capture_options(centre, value))
        return [
            Refusal(o, f"{_sum_text(o)} would be taken without the Crystal, but an empowered Wizard takes the whole centre (R5)", "R5")
            for o in usual[:limit]
            if len(o) < len(centre)
        ]
    singles = [c for c in centre if c.value == value]
    if singles:
        shown = ", ".join(c.label for c in singles)
        lie = f"a single {value} lies" if len(singles) == 1 else f"{len(singles)} single {value}s lie"
        sums = sort_options(centre, _sum_options(centre, value))
        return [
            Refusal(o, f"{_sum_text(o)} would make {value}, but {lie} in the centre ({shown}), and a single card must be taken (R4)", "R4")
            for o in sums[:limit]
        ]
    if has_capture(centre, value):
        return []
    smaller = [c for c in centre if c.value is not None and c.value < value]
    total = sum(c.value or 0 for c in smaller)
    if len(smaller) < 2:
        why = f"no centre card is a {value} and fewer than two are smaller than {value}"
    elif total < value:
        why = f"no centre card is a {value} and the smaller ones add up to only {total}"
    else:
        why = f"no centre card is a {value} and no two or more of them add up to exactly {value}"
    return [Refusal((), f"{why}: the card stays in the centre (R4)", "R4")]
