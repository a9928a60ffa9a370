"""The rule-of-thumb players the coach is measured against (``./run bench coach``), each
written from the rulebook alone and reading its own view only (:class:`~companion.games.
circle_of_power.view.CircleView`: its hand, the public table, its decisions).

Four styles a table meets, besides the random player the bench adds:

- ``rule-of-thumb`` (:class:`~companion.games.circle_of_power.policies.RuleOfThumbPlayer`):
  a newcomer's habits (its docstring lists them);
- ``greedy`` (:func:`greedy_player`): whenever its city may take another (C10) it plays its
  strongest card, to win the initiative as often as it can; otherwise its weakest. After
  winning it takes the most at once: a trophy or a destroyed city (C12, C18, C19), else a
  trophy back from the leader (C13);
- ``cautious`` (:func:`cautious_player`): saves its strong cards. It fights for the initiative
  only when it is cheap: as the last to play (C9: the last of equal cards wins) with the
  lowest card that wins, or earlier with a plain card or a low trump; otherwise it plays its
  weakest card. After winning it keeps its city safe: it prefers an act after which no city
  threatens its own (C3) and holds cards of the city's suit;
- ``counter`` (:func:`counting_player`): counts the cards seen so far. For each card it works
  out the chance that nobody still to play beats it, from the battle cards it cannot place
  (C9: every later emperor holding a card of their trump suit, or a higher one, who wants the
  initiative), and plays the cheapest card that wins more often than not; after winning it
  looks ahead, as the rulebook's strategy section says: the city it holds afterwards is worth
  what it may still attack, less what may still attack it, counted over the cities in play
  and the city cards not yet seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb

from companion.games.circle_of_power.cards import BATTLE_DECK, BLACK, CITY_DECK, CITY_MASK, Card, colour_in_attack, may_attack
from companion.games.circle_of_power.moves import Conquer, Move, Play, Retake
from companion.games.circle_of_power.policies import RuleOfThumbPlayer
from companion.games.circle_of_power.rules import strength, threats, trump_suit, victims
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.view import CircleView

__all__ = ["greedy_player", "cautious_player", "counting_player", "OPPONENTS", "city_after"]

Player = Callable[[CircleView, random.Random], Move]


def _mine(view: CircleView) -> tuple[int, str | None, list[Card]]:
    """The player's seat, trump suit (C9) and hand, weakest first (plain before trump, C9)."""
    seat = view.seats.index(view.player)
    trump = trump_suit(view.cities_by_seat[seat], view.next_city)
    hand = sorted(set(view.held), key=lambda c: (strength(c, trump), c.index))
    return seat, trump, hand


def _to_beat(view: CircleView) -> int:
    """The strength a card must reach to win the initiative now (C9: equal cards, the later
    wins): the strongest card played so far in this action, -1 when none."""
    trumps = view.trump_suits
    return max((strength(c, trumps[p]) for p, c in view.played), default=-1)


def _wants(view: CircleView, seat: int) -> bool:
    """Winning takes a city only when the player's city may attack one (C10)."""
    return bool(victims(seat, view.cities_by_seat))


def city_after(view: CircleView, move: Move) -> Card | None:
    """The city the player holds after act ``move`` (C12-C14, C19)."""
    me = view.player
    mine = view.city(me)
    if type(move) is Conquer:
        if view.variant == COLOURED_CITIES and not move.keep:
            return view.next_city
        return mine
    if type(move) is Retake:
        return view.city(move.victim)
    return view.next_city


def _trophy_gain(view: CircleView, move: Move) -> float:
    """What an act takes at once: a trophy won or a player's city destroyed (C12, C18, C19),
    a dummy's destroyed city a little; a retake's trophy taken from its owner (C13)."""
    me = view.player
    if type(move) is Conquer:
        mine, theirs = view.city(me), view.city(move.victim)
        assert mine is not None and theirs is not None
        destroys = view.variant == LONELY_TYRANT or (view.variant == COLOURED_CITIES and colour_in_attack(theirs, mine) == BLACK)
        if destroys and is_dummy(move.victim):
            return 0.3
        return 1.0
    if type(move) is Retake and move.discard is not None:
        return 0.5
    return 0.0


def _standing(view: CircleView, name: str) -> int:
    return view.totals.get(name, 0) + len(view.trophies_by_seat[view.seats.index(name)])


# -- greedy


def greedy_player(view: CircleView, rng: random.Random) -> Move:
    """Its strongest card when its city may take another (C10), else its weakest; after
    winning, the act that takes most at once (ties: the victim standing highest)."""
    if view.phase == "play":
        seat, _, hand = _mine(view)
        return Play(view.player, hand[-1] if _wants(view, seat) else hand[0])
    return max(view.decisions, key=lambda m: (_trophy_gain(view, m), _standing(view, getattr(m, "victim", None) or view.player)))


# -- cautious


def _safe_after(view: CircleView, move: Move) -> bool:
    """Whether no other emperor's city may attack the player's city after act ``move`` (C3),
    the other cities as they stand (the loser's new city unknown but for the next one)."""
    seats = view.seats
    seat = seats.index(view.player)
    cities = list(view.cities_by_seat)
    victim = getattr(move, "victim", None)
    held = city_after(view, move)
    if victim is not None:
        v = seats.index(victim)
        if type(move) is Retake:
            cities[v] = view.city(view.player) if view.variant == COLOURED_CITIES else view.next_city
        elif view.variant == COLOURED_CITIES and not getattr(move, "keep", False):
            cities[v] = view.city(view.player)
        else:
            cities[v] = view.next_city
    cities[seat] = held
    return held is not None and not threats(seat, cities)


def cautious_player(view: CircleView, rng: random.Random) -> Move:
    """Fights for the initiative only cheaply, keeps its city safe (the module says how)."""
    me = view.player
    if view.phase == "play":
        seat, trump, hand = _mine(view)
        if _wants(view, seat):
            need = _to_beat(view)
            winners = [c for c in hand if strength(c, trump) >= need]
            last = len(view.played) == len(view.seats) - 1
            # cheap: as the last to play, or with a plain card, or a low trump
            if winners and (last or winners[0].suit != trump or winners[0].number <= 6):
                return Play(me, winners[0])
        return Play(me, hand[0])
    suits = {c.suit for c in view.held}

    def score(move: Move) -> tuple[float, int]:
        value = 3.0 * _trophy_gain(view, move)
        if _safe_after(view, move):
            value += 2.0
        held = city_after(view, move)
        if held is not None and held.suit in suits:
            value += 1.0
        return value, _standing(view, getattr(move, "victim", None) or me)

    return max(view.decisions, key=score)


# -- counter


def _unseen_cities(view: CircleView) -> int:
    """The city cards not yet seen this season (the face-down city deck, C6, C7), as a card set
    kept as an integer."""
    seen = 0
    for line in (view.cities_by_seat, view.city_discards, (view.next_city,), *view.trophies_by_seat, *view.destroyed_by_seat):
        for c in line:
            if c is not None:
                seen |= c.bit
    return CITY_MASK & ~seen


_ATTACKERS = {city: sum(c.bit for c in CITY_DECK if may_attack(c, city)) for city in CITY_DECK}
"""For each city card, the city cards that may attack it (C3), as a card set."""


_TRUMPS = {c.suit for c in BATTLE_DECK} | {None}
_STRONGEST = max(strength(c, trump) for c in BATTLE_DECK for trump in _TRUMPS)


def _weaker_than(trump: str | None) -> tuple[int, ...]:
    """For a trump suit, by strength ``s`` (C9; any card's, whatever its trump): the battle
    cards weaker than ``s``, as a card set kept as an integer, so that counting them among the
    unseen cards is a bit count."""
    return tuple(sum(c.bit for c in BATTLE_DECK if strength(c, trump) < s) for s in range(_STRONGEST + 1))


_WEAKER = {trump: _weaker_than(trump) for trump in _TRUMPS}


class _Odds:
    """What the chance of each card of the hand to win the initiative rests on, worked out
    once for the decision (:func:`win_chance` says what the chance is): the strength a card
    must reach, the unseen cards (a card set kept as an integer), and for each emperor still
    to play who would fight for the initiative, the unseen cards weaker than each strength for
    their trump suit, and how many cards they hold."""

    __slots__ = ("trump", "to_beat", "pool", "unseen", "rivals")

    def __init__(self, view: CircleView, unseen: int) -> None:
        seats = view.seats
        n = len(seats)
        seat = seats.index(view.player)
        cities = view.cities_by_seat
        trumps = view.trump_suits_by_seat
        self.trump = trumps[seat]
        self.to_beat = _to_beat(view)
        self.unseen = unseen
        self.pool = pool = unseen.bit_count()
        sizes = view.hand_sizes_by_seat
        self.rivals: list[tuple[tuple[int, ...], int]] = []
        for k in range(1, n - len(view.played)):
            j = (seat + k) % n
            dummy = is_dummy(seats[j])
            if not dummy and not victims(j, cities):
                continue
            hand = 1 if dummy else min(sizes[j], pool)
            self.rivals.append((_WEAKER[trumps[j]], hand))

    def chance(self, card: Card) -> float:
        mine = strength(card, self.trump)
        if mine < self.to_beat:
            return 0.0
        pool = self.pool
        if not pool:
            return 1.0
        unseen = self.unseen
        chance = 1.0
        for weaker, hand in self.rivals:
            lower = (unseen & weaker[mine]).bit_count()  # the unseen cards this one beats; the rest beat it
            chance *= comb(lower, hand) / comb(pool, hand) if lower >= hand else 0.0
        return chance


def win_chance(view: CircleView, card: Card, unseen: Sequence[Card]) -> float:
    """The chance that ``card``, played now, wins the initiative (C9): it must beat the cards
    played so far, and no emperor still to play may hold a card at least as strong for their
    trump suit, unless their city takes nobody (a player then plays low; a dummy plays the
    top of its pile whatever it is, C8). Each hand is drawn from the unseen cards."""
    return _Odds(view, sum(c.bit for c in unseen)).chance(card)


def _city_prospects(view: CircleView, held: Card | None, pool: int) -> float:
    """The rulebook's look-ahead: the cities ``held`` may attack, less those that may attack it,
    among the other cities in play and the cities still to come (``pool``, a card set; each of
    these half as much)."""
    if held is None:
        return 0.0
    me = view.player
    value = 0.0
    for name, city in zip(view.seats, view.cities_by_seat):
        if name == me or city is None:
            continue
        value += (held.victims & city.bit != 0) - (city.victims & held.bit != 0)
    return value + 0.5 * ((held.victims & pool).bit_count() - (_ATTACKERS[held] & pool).bit_count())


def counting_player(view: CircleView, rng: random.Random) -> Move:
    """Counts the cards seen (the module says how)."""
    me = view.player
    if view.phase == "play":
        seat, trump, hand = _mine(view)
        if _wants(view, seat):
            odds = _Odds(view, view.unseen_mask)
            chances = [(odds.chance(c), c) for c in hand]
            good = [c for p, c in chances if p >= 0.5]
            if good:
                return Play(me, good[0])
            best_p, best_card = max(chances, key=lambda t: (t[0], -strength(t[1], trump)))
            if best_p >= 0.25:
                return Play(me, best_card)
        return Play(me, hand[0])
    pool = _unseen_cities(view)
    suits = [c.suit for c in view.held]

    def score(move: Move) -> tuple[float, int]:
        value = 2.0 * _trophy_gain(view, move)
        held = city_after(view, move)
        value += 0.25 * _city_prospects(view, held, pool)
        if held is not None and held.suit is not None:
            value += 0.3 * min(2, suits.count(held.suit))
        return value, _standing(view, getattr(move, "victim", None) or me)

    return max(view.decisions, key=score)


OPPONENTS: dict[str, Player] = {
    "rule-of-thumb": RuleOfThumbPlayer().choose,
    "greedy": greedy_player,
    "cautious": cautious_player,
    "counter": counting_player,
}
"""The rule-of-thumb players by name, as :meth:`~.model.CircleOfPowerCoach.opponents` gives
them."""
