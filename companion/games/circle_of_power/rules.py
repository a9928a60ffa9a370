"""The rules of one action as pure functions, shared by the game state and the ``rop legal``
query: trump suits and the initiative (C9), who may attack whom and who is under threat
(C3, C10), the dummies' choice (C11), and the words that say why.

Seats are numbered 0-3 clockwise; ``cities[i]`` is seat ``i``'s city.

>>> from companion.games.circle_of_power.cards import Card
>>> cities = [Card.from_id(c) for c in ("KH", "QS", "X1", "AC")]
>>> [trump_suit(c, Card.from_id("JD")) for c in cities]
['H', 'S', 'D', 'C']
>>> victims(0, cities), threats(0, cities)    # KH takes QS; X1 and AC threaten KH
([1], [2, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.games.circle_of_power.cards import BLACK, Card, attack_range, attack_reason, colour_in_attack, may_attack

__all__ = [
    "TRUMP_BONUS",
    "trump_suit",
    "strength",
    "initiative",
    "why_initiative",
    "trump_words",
    "victims",
    "threats",
    "dummy_victim",
    "attack_words",
    "threat_words",
    "Choice",
    "act_choices",
    "regroup_words",
]

TRUMP_BONUS = 16
"""Added to a trump card's number so that one integer orders the cards of an action (C9):
every trump card above every card that is not, numbers deciding within each."""


def trump_suit(city: Card | None, next_city: Card | None) -> str | None:
    """An emperor's trump suit (C9): their city's suit; for a joker city the suit of the next
    available city, none when that is a joker or there is none."""
    if city is None:
        return None
    if city.suit is not None:
        return city.suit
    return next_city.suit if next_city is not None else None


def strength(card: Card, trump: str | None) -> int:
    """The card's standing in the action (C9): its number, raised above every plain card when
    its suit is its player's trump suit."""
    return card.number + TRUMP_BONUS if trump is not None and card.suit == trump else card.number


def initiative(plays: Sequence[tuple[int, Card]], trumps: Sequence[str | None]) -> int:
    """The index in ``plays`` (seat, card in play order) of the card that wins the initiative
    (C9): trump beats plain, the higher number beats the lower, and of equal cards the one
    played last wins. ``-1`` when nothing was played."""
    best, best_key = -1, -1
    for k, (seat, card) in enumerate(plays):
        key = strength(card, trumps[seat])
        if key >= best_key:
            best, best_key = k, key
    return best


def trump_words(name: str, city: Card | None, next_city: Card | None) -> str:
    """Where ``name``'s trump suit comes from, for messages: ``"ann's city is KH"``."""
    if city is None:
        return f"{name} holds no city"
    if not city.is_joker:
        return f"{name}'s city is {city.id}"
    if next_city is None:
        return f"{name}'s city is {city.id} and there is no next available city"
    return f"{name}'s city is {city.id} and the next available city is {next_city.id}"


def why_initiative(
    names: Sequence[str],
    cities: Sequence[Card | None],
    next_city: Card | None,
    plays: Sequence[tuple[int, Card]],
    trumps: Sequence[str | None],
    against: int | None = None,
) -> str:
    """Why the initiative is where it is (C9), in a player's words, comparing the winning card
    with seat ``against``'s card (by default the strongest other card):
    ``"ann's 5H is trump for ann (ann's city is KH) and beats bob's 10S"``."""
    k = initiative(plays, trumps)
    if k < 0:
        return "no card is played yet"
    seat, card = plays[k]
    w = names[seat]
    others = [(j, (s, c)) for j, (s, c) in enumerate(plays) if j != k]
    if not others:
        return f"{w}'s {card.id} is the only card played"
    if against is not None and any(s == against for _, (s, _c) in others):
        j, (o_seat, o_card) = next((j, p) for j, p in others if p[0] == against)
    else:
        j, (o_seat, o_card) = max(others, key=lambda x: (strength(x[1][1], trumps[x[1][0]]), x[0]))
    o = names[o_seat]
    w_trump = strength(card, trumps[seat]) > card.number
    o_trump = strength(o_card, trumps[o_seat]) > o_card.number
    if w_trump and not o_trump:
        return f"{w}'s {card.id} is trump for {w} ({trump_words(w, cities[seat], next_city)}) and beats {o}'s {o_card.id}"
    both = "both are trump for their players" if w_trump else "neither is trump for its player"
    if card.number == o_card.number:
        return f"{w}'s {card.id} and {o}'s {o_card.id} are equal ({both}) and {w}'s was played last"
    return f"{w}'s {card.id} beats {o}'s {o_card.id}: {both} and {card.number} is higher than {o_card.number}"


def victims(seat: int, cities: Sequence[Card | None]) -> list[int]:
    """The seats whose city ``seat``'s city may attack (C3, C10), clockwise from its left."""
    mine = cities[seat]
    if mine is None:
        return []
    n = len(cities)
    out = []
    for step in range(1, n):
        j = (seat + step) % n
        other = cities[j]
        if other is not None and mine.victims & other.bit:
            out.append(j)
    return out


def threats(seat: int, cities: Sequence[Card | None]) -> list[int]:
    """The seats whose city may attack ``seat``'s city: it is under threat when there is one
    (C3, C14)."""
    mine = cities[seat]
    if mine is None:
        return []
    return [j for j in range(len(cities)) if j != seat and (other := cities[j]) is not None and other.victims & mine.bit]


def dummy_victim(seat: int, cities: Sequence[Card | None]) -> int | None:
    """The victim a dummy at ``seat`` must choose (C11): the first emperor counter-clockwise
    from it (its right-hand neighbour first) whose city it may attack; ``None`` if none."""
    mine = cities[seat]
    if mine is None:
        return None
    n = len(cities)
    for step in range(1, n):
        j = (seat - step) % n
        other = cities[j]
        if other is not None and mine.victims & other.bit:
            return j
    return None


def attack_words(names: Sequence[str], cities: Sequence[Card | None], attacker: int, defender: int) -> str:
    """``"ann's QH may take bob's JS (Q attacks J)"`` or why not (C3)."""
    a, d = cities[attacker], cities[defender]
    if a is None or d is None:
        holder = names[attacker] if a is None else names[defender]
        return f"{holder} holds no city"
    verb = "may take" if may_attack(a, d) else "may not take"
    return f"{names[attacker]}'s {a.id} {verb} {names[defender]}'s {d.id} ({attack_reason(a, d)})"


def threat_words(names: Sequence[str], cities: Sequence[Card | None], seat: int) -> str:
    """Whether ``seat``'s city is under threat, and from whom (C3, C14): ``"ann's city KH is
    under threat from cy's AS"``, ``"ann's city KH is under threat from nobody"``."""
    city = cities[seat]
    if city is None:
        return f"{names[seat]} holds no city"
    found = threats(seat, cities)
    if not found:
        return f"{names[seat]}'s city {city.id} is under threat from nobody"
    who = " and ".join(f"{names[j]}'s {other.id}" for j, other in enumerate(cities) if j in found and other is not None)
    return f"{names[seat]}'s city {city.id} is under threat from {who}"


class Choice(NamedTuple):
    """One act the winner may choose (C10-C14, C18, C19): ``act`` (``"conquer"``,
    ``"retake"``, ``"regroup"``), the ``victim``'s seat, ``keep`` (in Coloured Cities, whether a
    conquering attacker keeps their city; ``None`` in the other variants and for other acts),
    and ``why`` in words. A trophy to discard is not part of it: :func:`act_choices` lists the
    acts, the state lists every discard."""

    act: str
    victim: int | None
    keep: bool | None
    why: str


def regroup_words(names: Sequence[str], cities: Sequence[Card | None], trophies: Sequence[Sequence[Card]], seat: int) -> str:
    """What a regroup by ``seat`` means now (C14): whether the city is under threat and what a
    rebellion costs."""
    w = names[seat]
    threat = threat_words(names, cities, seat)
    if threats(seat, cities):
        return f"{threat}: no rebellion (C14)"
    line = trophies[seat]
    if not line:
        return f"{threat}: it rebels, but {w} has no trophy to lose (C14)"
    return f"{threat}: it rebels and {w} discards a trophy of {w}'s choice ({', '.join(c.id for c in line)}) (C14)"


def act_choices(
    variant: str,
    names: Sequence[str],
    dummy: Sequence[bool],
    cities: Sequence[Card | None],
    trophies: Sequence[Sequence[Card]],
    winner: int,
    *,
    last: bool = False,
) -> list[Choice]:
    """Every act the winner at seat ``winner`` may choose (C10): a conquest or a retake of each
    city they may attack, or, with none, the regroup; for a dummy the one act C11 leaves. In the
    season's ``last`` action the city deck gives no card (C7): whoever would take the next
    available city takes none."""
    if dummy[winner]:
        return [_dummy_choice(variant, names, cities, trophies, winner)]
    found = victims(winner, cities)
    if not found:
        return [_regroup_choice(names, cities, trophies, winner)]
    out = []
    for v in found:
        attack = attack_words(names, cities, winner, v)
        out.extend(_conquer_choices(variant, names, cities, winner, v, attack, last))
        if variant != "lonely-tyrant":
            out.append(_retake_choice(variant, names, cities, trophies[v], winner, v, attack, last))
    return out


def _dummy_choice(
    variant: str, names: Sequence[str], cities: Sequence[Card | None], trophies: Sequence[Sequence[Card]], winner: int
) -> Choice:
    """C11: a dummy conquers the first city counter-clockwise it may take (keeping a black
    city in Coloured Cities, C19), or regroups."""
    w = names[winner]
    mine = cities[winner]
    v = dummy_victim(winner, cities)
    if v is None:
        return Choice("regroup", None, None, f"{w} is a dummy with no city to take: {regroup_words(names, cities, trophies, winner)}")
    keep = None
    rest = ""
    if variant == "coloured-cities":
        theirs = cities[v]
        assert mine is not None and theirs is not None
        keep = colour_in_attack(mine, theirs) == BLACK
        rest = f"; {w} keeps {mine.id}" if keep else f"; {w} gives {mine.id} to {names[v]}"
    why = (
        f"{w} is a dummy and conquers the first city counter-clockwise it may take: "
        f"{attack_words(names, cities, winner, v)}{rest} (C11)"
    )
    return Choice("conquer", v, keep, why)


def _regroup_choice(names: Sequence[str], cities: Sequence[Card | None], trophies: Sequence[Sequence[Card]], winner: int) -> Choice:
    """C10: a winner whose city may attack none of the others must regroup (C14)."""
    w = names[winner]
    mine = cities[winner]
    reach = attack_range(mine) if mine is not None else f"{w} holds no city"
    why = f"{w}'s {mine.id if mine else 'city'} may take none of the other cities ({reach}): {w} must regroup (C10); "
    return Choice("regroup", None, None, why + regroup_words(names, cities, trophies, winner))


def takes_city(last: bool) -> str:
    """What an emperor left without a city takes: the next available city, or, in the season's
    ``last`` action, none (C7)."""
    return "takes no city, as the season's last action gives none (C7)" if last else "takes the next available city"


def _conquer_choices(
    variant: str, names: Sequence[str], cities: Sequence[Card | None], winner: int, v: int, attack: str, last: bool
) -> list[Choice]:
    """The conquests of seat ``v``'s city, whose ``attack`` is told in words: its city becomes
    a trophy (C12) or is destroyed (C18); in Coloured Cities its colour decides, and a black
    attacker may keep their city (C19)."""
    w = names[winner]
    mine = cities[winner]
    theirs = cities[v]
    assert mine is not None and theirs is not None
    loser = names[v]
    taken = f"{loser} {takes_city(last)}"
    if variant == "lonely-tyrant":
        return [Choice("conquer", v, None, f"{attack}; {theirs.id} is destroyed into {loser}'s line of destruction and {taken} (C18)")]
    if variant != "coloured-cities":
        return [Choice("conquer", v, None, f"{attack}; {theirs.id} becomes {w}'s trophy and {taken} (C12)")]
    fate = (
        f"{theirs.id} is black and is destroyed into {loser}'s line of history"
        if colour_in_attack(theirs, mine) == BLACK
        else f"{theirs.id} is red and becomes {w}'s trophy"
    )
    if colour_in_attack(mine, theirs) != BLACK:
        why = f"{attack}; {fate}; {w}'s {mine.id} is red in this attack, so {w} gives it to {loser} and {takes_city(last)} (C19)"
        return [Choice("conquer", v, False, why)]
    return [
        Choice("conquer", v, False, f"{attack}; {fate}; {w} gives {mine.id} to {loser} and {takes_city(last)} (C19)"),
        Choice("conquer", v, True, f"{attack}; {fate}; {w}'s {mine.id} is black, so {w} may keep it and {taken} (C19)"),
    ]


def _retake_choice(
    variant: str, names: Sequence[str], cities: Sequence[Card | None], line: Sequence[Card], winner: int, v: int, attack: str, last: bool
) -> Choice:
    """The retake of seat ``v``'s city, whose ``attack`` is told in words (C13): one of the
    loser's trophies (their ``line``), if any, is discarded; the winner's old city is
    discarded too, or in Coloured Cities goes to the loser (C19)."""
    w = names[winner]
    mine = cities[winner]
    theirs = cities[v]
    assert mine is not None and theirs is not None
    loser = names[v]
    cost = f"{w} discards one of {loser}'s trophies ({', '.join(c.id for c in line)})" if line else f"{loser} has no trophy to lose"
    if variant == "coloured-cities":
        swap = f"{w} takes {theirs.id} and gives {mine.id} to {loser} (C19)"
    else:
        swap = f"{w} discards {mine.id}, takes {theirs.id}, and {loser} {takes_city(last)} (C13)"
    return Choice("retake", v, None, f"{attack}; {cost}; {swap}")
