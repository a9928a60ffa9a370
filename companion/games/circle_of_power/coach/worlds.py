"""Worlds sampled from one player's view, the way chance falls in them, and the playout state
that tallies what each act of a playout did.

A player sees the cities, the next available city, the lines, every card played this season,
their own hand and how many cards each other hand and pile holds. A *world* deals every
battle card they cannot place again at random, consistently with that view (the engine's
:meth:`~companion.games.circle_of_power.game.CircleState.resample`: the other hands, the
dummies' piles, the battle deck, the cards kept from before the reshuffle apart from those
of the new deck, C15), and draws the order of what is still face down:

- the battle deck, whose top card the next player to play draws (C8);
- the city deck under the next available city, the bottom joker last (C6, C7);
- the order in which the reshuffle stacks the cards of actions 1-6 (C15), given as a rank of
  every battle card, so that two playouts of one sample reshuffle alike however the cards
  of actions 1-6 differ between them.

That is a :class:`Chance`; a sample is the world's state and its chance
(:class:`~companion.coach.model.World`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.coach.model import CoachError, World
from companion.games.circle_of_power.cards import BATTLE_DECK, BLACK, CITY_DECK, Card, colour_in_attack
from companion.games.circle_of_power.game import RESHUFFLE_AFTER, CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Reshuffle, Retake, Reveal
from companion.games.circle_of_power.rules import trump_suit
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT

__all__ = ["Chance", "CircleWorlds", "PlayoutState", "Tally", "battle_deck_of", "city_deck_of", "reveal", "reshuffle"]


@dataclass(slots=True)
class Chance:
    """How chance falls in one world: the battle deck and the face-down city deck, each with
    its top card last, and the rank by which a reshuffle stacks the cards of actions 1-6
    (indexed by :attr:`Card.index`; the lowest rank lies on top)."""

    battle: list[Card]
    cities: list[Card]
    rank: tuple[int, ...] = field(default=())

    def copy(self) -> Chance:
        """A copy whose decks can be drawn from without touching this one (the rank is shared:
        it never changes)."""
        return Chance(self.battle[:], self.cities[:], self.rank)


def battle_deck_of(state: CircleState) -> list[Card]:
    """The cards of the battle deck of a complete world (every hand and pile known), in
    catalogue order: the battle cards neither held, nor in a pile, nor out of play this season
    (before the reshuffle every card played is out; after it, the cards played since, C15)."""
    out = 0
    reshuffled = state.reshuffled
    for action, _, card in state.season_plays:
        if not reshuffled or action > RESHUFFLE_AFTER:
            out |= card.bit
    for name in state.seats:
        for x in state.hand(name):
            out |= x.bit
        for y in state.pile(name):
            if isinstance(y, Card):
                out |= y.bit
    return [x for x in BATTLE_DECK if not out & x.bit]


def city_deck_of(state: CircleState) -> list[Card]:
    """The face-down city deck in catalogue order (the next available city, face up, is not
    part of it; the bottom joker is, until it is turned up): the city cards neither held,
    nor in a line, nor discarded, nor face up (C6, C7, C14)."""
    out = 0
    for name in state.seats:
        city = state.city(name)
        if city is not None:
            out |= city.bit
        for x in state.trophies(name):
            out |= x.bit
        for x in state.destroyed_cities(name):
            out |= x.bit
    for x in state.city_discards:
        out |= x.bit
    if state.next_city is not None:
        out |= state.next_city.bit
    return [x for x in CITY_DECK if not out & x.bit]


class CircleWorlds:
    """Worlds drawn from ``player``'s view of ``state`` (of which it keeps a copy), reading
    nothing else: the engine's resampling keeps the view and deals the rest again.

    A card is judged from the hand it comes from: :class:`CoachError` when the companion has
    not seen the whole hand. An act is not (the table, the lines and the next available city
    decide what it does, C10-C14): cards of the player's own hand the companion has not seen
    are then dealt in each world as the public table allows."""

    def __init__(self, state: CircleState, player: str) -> None:
        if player not in state.seats:
            raise CoachError(f"{player} is not seated this season")
        unseen = state.unseen_in_hand(player)
        acting = state.phase is Phase.ACT and state.to_move == player
        if unseen and not acting:
            held = len(state.hand(player)) + unseen
            raise CoachError(
                f"the companion has not seen {unseen} of the {held} cards in {player}'s hand: "
                f"the coach judges {player}'s card from the cards {player} holds (an act is judged from what is public)"
            )
        self.state = state.copy(keep_history=False)
        self.player = player
        self.own_unseen = bool(unseen)
        """The player's own hand is partly unseen: each world deals it from what is public."""
        view = state.view(player)
        self.unseen: tuple[Card, ...] = tuple(sorted(view.unseen))
        """The battle cards the player cannot place (the other hands, the piles, the deck)."""
        self.hand = view.hand

    def sample(self, rng: random.Random) -> World:
        """One world: the hidden cards dealt again, both decks in a random order, and the
        reshuffle's order (the same ``rng`` state, the same world)."""
        state = self.state.resample(self.player, rng, own_unseen=self.own_unseen)
        battle = battle_deck_of(state)
        if len(battle) != state.battle_deck_count:
            raise CoachError(
                f"the view does not add up: the battle deck holds {state.battle_deck_count} cards, "
                f"and {len(battle)} are unaccounted for"
            )
        rng.shuffle(battle)
        cities = city_deck_of(state)
        bottom = state.bottom
        rest = [x for x in cities if x is not bottom]
        rng.shuffle(rest)
        deck = ([bottom] if bottom in cities else []) + rest  # top last: the bottom joker comes out last
        order = list(range(len(BATTLE_DECK) + len(CITY_DECK)))
        rng.shuffle(order)
        return World(state, Chance(battle, deck, tuple(order)))


def reveal(chance: Chance) -> Reveal:
    """The next city card turned up (C7): the top of the world's city deck."""
    return Reveal(chance.cities.pop())


def reshuffle(state: CircleState, chance: Chance) -> Reshuffle:
    """The reshuffle after action 6 (C15): the 24 cards of actions 1-6 stacked by the world's
    rank; each dummy, clockwise, puts the top six on its pile; the rest is the new battle deck
    (which ``chance`` then holds, top last)."""
    rank = chance.rank
    cards = sorted((x for a, _, x in state.season_plays if a <= RESHUFFLE_AFTER), key=lambda x: rank[x.index])
    piles: dict[str, list[Card]] = {}
    k = 0
    for name in state.dummies:
        piles[name] = cards[k : k + 6]
        k += 6
    rest = cards[k:]
    rest.reverse()
    chance.battle = rest
    return Reshuffle.make(piles)


class Tally:
    """What the acts of one playout did, from the decision on (C12-C14, C18, C19): per emperor,
    the trophies won by conquest, lost to retakes and to rebellions, and the cities destroyed;
    and the acts in order, each (winner, act, victim)."""

    __slots__ = ("started", "player", "action", "decision_act", "acts", "gained", "retaken", "rebelled", "destroyed", "trump_ready")

    def __init__(self) -> None:
        self.started = False
        self.player = ""
        """Who made the decision played out."""
        self.action = 0
        """The action it was made in."""
        self.decision_act = False
        """Whether the decision played out was an act (else a card)."""
        self.trump_ready: bool | None = None
        """Whether the player held a card of their trump suit when the next action began (C9);
        ``None`` before it began (or when the season ended first)."""
        self.acts: list[tuple[str, str, str | None]] = []
        self.gained: dict[str, int] = {}
        self.retaken: dict[str, int] = {}
        self.rebelled: dict[str, int] = {}
        self.destroyed: dict[str, int] = {}

    def note(self, state: CircleState, move: Move) -> None:
        """``move`` is about to be pushed on ``state``."""
        if not self.started:
            self.started = True
            self.decision_act = type(move) is not Play
            self.player = getattr(move, "player", "")
            self.action = state.action_number
        t = type(move)
        if t is Conquer:
            assert isinstance(move, Conquer)
            w, v = move.player, move.victim
            variant = state.variant
            if variant == LONELY_TYRANT:
                _add(self.destroyed, v)
            elif variant == COLOURED_CITIES:
                mine, theirs = state.city(w), state.city(v)
                assert mine is not None and theirs is not None
                if colour_in_attack(theirs, mine) == BLACK:
                    _add(self.destroyed, v)  # a black city is destroyed (C19)
                else:
                    _add(self.gained, w)  # a red one becomes a trophy
            else:
                _add(self.gained, w)
            self.acts.append((w, "conquer", v))
        elif t is Retake:
            assert isinstance(move, Retake)
            if move.discard is not None:
                _add(self.retaken, move.victim)
            self.acts.append((move.player, "retake", move.victim))
        elif t is Regroup:
            assert isinstance(move, Regroup)
            if move.discard is not None:
                _add(self.rebelled, move.player)
            self.acts.append((move.player, "regroup", None))

    def look_ahead(self, state: CircleState) -> None:
        """The first card of the next action is about to be played: note whether the player
        holds a card of their trump suit (C9), the city they hold and the next available city
        deciding it."""
        me = self.player
        suit = trump_suit(state.city(me), state.next_city)
        self.trump_ready = suit is not None and any(x.suit == suit for x in state.hand(me))

    @property
    def window(self) -> tuple[str, str, str | None] | None:
        """The first act after the decision: the act of the action under way after a card, the
        next action's after an act (``None`` when the season ended first)."""
        k = 1 if self.decision_act else 0
        return self.acts[k] if len(self.acts) > k else None


def _add(counts: dict[str, int], name: str) -> None:
    counts[name] = counts.get(name, 0) + 1


class PlayoutState(CircleState):
    """A world's state for one playout: the engine's state, which also tallies what each act
    does (:class:`Tally`), for the value's categories and feats."""

    tally: Tally

    @classmethod
    def of(cls, state: CircleState) -> PlayoutState:
        """A copy of ``state`` without history, with an empty tally."""
        base = state.copy(keep_history=False)
        new = cls.__new__(cls)
        new.__dict__.update(base.__dict__)
        new.tally = Tally()
        return new

    def push(self, move: Move, *, check: bool = True) -> None:
        tally = self.tally
        if type(move) is not Play or not tally.started:
            tally.note(self, move)
        elif tally.trump_ready is None and self.action_number != tally.action:
            tally.look_ahead(self)
        CircleState.push(self, move, check=check)
