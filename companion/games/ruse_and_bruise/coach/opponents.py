"""The rule-of-thumb players the coach is measured against (``opponents()``), each written from
the rules alone and reading its own view only (docs/coach.md describes them):

- **strongest**: its strongest card into the column it is most likely to win (its chance
  there with that card, the higher goal card among equals); a Cloak gets its strongest card
  where it is behind; a Traitor brings the highest goal card into a column it leads.
- **cautious**: saves the King and the Dragon for a goal card of 4 or 5 they turn from lost
  to won (or a hand of nothing else): otherwise it lays the weakest card that takes the lead
  somewhere, the higher goal card first, and with none it sheds its weakest card where the
  goal card is lowest; a Cloak gets the weakest card that takes the lead there; a Traitor
  exchanges only for a whole goal point more.
- **counting**: counts what was seen. A back is guessed not at a middling 7 but at the mean
  number of the cards its owner may still have face down, as the whole table can tell where
  each card is (cards seen face up, discarded or in the columns are out, B29); it lays the
  card that most raises the goal points it stands to take, and treats a Cloak and a Traitor
  the same way.
- **rule-of-thumb**: the simulated tables' newcomer
  (:class:`~companion.games.ruse_and_bruise.policies.RuleOfThumbPlayer`).

Each is a :data:`~companion.coach.model.Policy`: ``player(view, rng)`` is one of
``view.decisions``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from companion.games.ruse_and_bruise.cards import ROUNDS, Influence
from companion.games.ruse_and_bruise.coach.policies import column_cards, swap_gain
from companion.games.ruse_and_bruise.coach.reckon import UNKNOWN_WORTH, chance_of, lead_of, numbers_under, reckon
from companion.games.ruse_and_bruise.moves import Cloak, Move, Place, Swap
from companion.games.ruse_and_bruise.policies import RuleOfThumbPlayer
from companion.games.ruse_and_bruise.values import ValuesTable
from companion.games.ruse_and_bruise.view import RabView
from companion.games.ruse_and_bruise.whereabouts import bits

__all__ = ["OPPONENTS", "strongest", "cautious", "counting", "rule_of_thumb", "counted_guesses"]

Opponent = Callable[[RabView, random.Random], Move]

_SAVED = frozenset(("KING", "DRAGON"))


def _number(card: object, view: RabView, k: int, values: ValuesTable) -> float:
    """A card's number in column ``k`` (an unseen card of the hand at a middling worth)."""
    if not isinstance(card, Influence):
        return UNKNOWN_WORTH
    goal = view.goals[k]
    assert goal is not None
    return float(numbers_under(values, goal.area)[card.index])


def _chance(view: RabView, k: int, extra: object | None, values: ValuesTable, unknown: float | Mapping[str, float] = UNKNOWN_WORTH, at: int | None = None) -> float:
    """``view.player``'s chance in column ``k`` (from 0), with ``extra`` placed at its bottom
    (or right under position ``at``)."""
    goal = view.goals[k]
    assert goal is not None
    cards = column_cards(view, k)
    if extra is not None:
        card = extra if isinstance(extra, Influence) else None
        if at is None:
            cards.append((view.player, card))
        else:
            cards.insert(at + 1, (view.player, card))
    return chance_of(lead_of(view.player, reckon(goal, cards, values, unknown)))


def _decline(options: Sequence[Move]) -> Move:
    return next((d for d in options if (type(d) is Cloak and not d.placed) or (type(d) is Swap and d.swap is None)), options[0])


def _traitor(view: RabView, options: Sequence[Move], values: ValuesTable, least: float) -> Move:
    best, gain = _decline(options), least
    for d in options:
        if type(d) is Swap and d.swap is not None:
            g = swap_gain(view, d.swap, values)
            if g > gain:
                best, gain = d, g
    return best


def strongest(view: RabView, rng: random.Random) -> Move:
    """The strongest card in the column it is most likely to win (see the module's words)."""
    options = view.decisions
    if len(options) == 1:
        return options[0]
    values = view.values
    assert values is not None
    first = options[0]
    if type(first) is Place:
        best: tuple[float, int, float] | None = None
        chosen = first
        for k in {d.column - 1 for d in options if type(d) is Place}:
            here = [d for d in options if type(d) is Place and d.column == k + 1]
            top = max(here, key=lambda d: (_number(d.card, view, k, values), repr(d.card)))
            goal = view.goals[k]
            assert goal is not None
            key = (_chance(view, k, top.card, values), goal.value, -k)
            if best is None or key > best:
                best, chosen = key, top
        return chosen
    if type(first) is Cloak:
        at = view.at
        assert at is not None
        if _chance(view, at[0], None, values) >= 0.5:
            return _decline(options)
        k = at[0]
        placing = [d for d in options if type(d) is Cloak and d.placed]
        return max(placing, key=lambda d: _number(d.card, view, k, values)) if placing else _decline(options)
    if type(first) is Swap:
        at = view.at
        assert at is not None
        if _chance(view, at[0], None, values) < 0.5:
            return _decline(options)
        own = view.goals[at[0]]
        assert own is not None
        higher: list[tuple[int, int, Move]] = []
        for d in options:
            if type(d) is Swap and d.swap is not None and (g := view.goals[d.swap - 1]) is not None and g.value > own.value:
                higher.append((g.value, -d.swap, d))
        if not higher:
            return _decline(options)
        return max(higher, key=lambda x: x[:2])[2]
    return first


def cautious(view: RabView, rng: random.Random) -> Move:
    """Saves the King and the Dragon; the weakest card that takes the lead (see the module's
    words)."""
    options = view.decisions
    if len(options) == 1:
        return options[0]
    values = view.values
    assert values is not None
    first = options[0]
    if type(first) is Place:
        places = [d for d in options if type(d) is Place]
        spare = [d for d in places if not (isinstance(d.card, Influence) and d.card.id in _SAVED)]
        last = view.round >= ROUNDS
        for d in places:
            if d in spare:
                continue
            k = d.column - 1
            goal = view.goals[k]
            assert goal is not None
            if (goal.value >= 4 or last) and _chance(view, k, None, values) < 0.5 <= _chance(view, k, d.card, values):
                spare.append(d)
        pool = spare or places
        leading = []
        for d in pool:
            k = d.column - 1
            if _chance(view, k, d.card, values) >= 0.5:
                goal = view.goals[k]
                assert goal is not None
                leading.append((-goal.value, _number(d.card, view, k, values), k, d))
        if leading:
            return min(leading, key=lambda x: x[:3])[3]
        def weakest(d: Place) -> tuple[float, int, int]:
            goal = view.goals[d.column - 1]
            return (_number(d.card, view, d.column - 1, values), goal.value if goal is not None else 0, d.column)

        return min(pool, key=weakest)
    if type(first) is Cloak:
        at = view.at
        assert at is not None
        k, pos = at
        taking = [d for d in options if type(d) is Cloak and d.placed and _chance(view, k, d.card, values, at=pos) >= 0.5]
        if not taking or _chance(view, k, None, values) >= 0.5:
            return _decline(options)
        return min(taking, key=lambda d: _number(d.card, view, k, values))
    if type(first) is Swap:
        return _traitor(view, options, values, 1.0)
    return first


def counted_guesses(view: RabView, values: ValuesTable, k: int) -> dict[str, float]:
    """Each other player's back in column ``k`` (from 0), guessed at the mean number there of
    the cards that player may still have face down, as the whole table can tell (B29)."""
    goal = view.goals[k]
    assert goal is not None
    nums = numbers_under(values, goal.area)
    out: dict[str, float] = {}
    for name, w in view.others.items():
        may = 0
        for slot in w.slots():
            may |= w.at(slot)
        cards = list(bits(may))
        out[name] = sum(nums[i] for i in cards) / len(cards) if cards else UNKNOWN_WORTH
    return out


def counting(view: RabView, rng: random.Random) -> Move:
    """Counts what was seen (see the module's words)."""
    options = view.decisions
    if len(options) == 1:
        return options[0]
    values = view.values
    assert values is not None
    first = options[0]
    if type(first) is Place:
        places = [d for d in options if type(d) is Place]
        gains = []
        for p in places:
            k = p.column - 1
            goal = view.goals[k]
            assert goal is not None
            guesses = counted_guesses(view, values, k)
            before = goal.value * _chance(view, k, None, values, guesses)
            after = goal.value * _chance(view, k, p.card, values, guesses)
            gains.append(after - before - 0.02 * _number(p.card, view, k, values))
        return places[max(range(len(places)), key=gains.__getitem__)]
    if type(first) is Cloak:
        at = view.at
        assert at is not None
        k, pos = at
        guesses = counted_guesses(view, values, k)
        before = _chance(view, k, None, values, guesses)
        best: Move = _decline(options)
        gain = 0.0
        for d in options:
            if type(d) is Cloak and d.placed:
                g = _chance(view, k, d.card, values, guesses, at=pos) - before
                if g > gain:
                    best, gain = d, g
        return best
    if type(first) is Swap:
        return _traitor(view, options, values, 0.25)
    return first


def rule_of_thumb(view: RabView, rng: random.Random) -> Move:
    """The simulated tables' newcomer (:class:`~companion.games.ruse_and_bruise.policies.
    RuleOfThumbPlayer`), from the view alone."""
    values = view.values
    assert values is not None
    return _THUMB.choose(view, view.decisions, values, rng)


_THUMB = RuleOfThumbPlayer()

OPPONENTS: dict[str, Opponent] = {"strongest": strongest, "cautious": cautious, "counting": counting, "rule-of-thumb": rule_of_thumb}
"""The rule-of-thumb players by name."""
