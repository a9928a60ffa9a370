"""Players for simulated tables, and :func:`simulate`, which plays a whole game.

A policy chooses the decision of the emperor to move (a :class:`~.moves.Play` without its
drawn card, or an act); dummies need none, their one move is the rules' (C8, C11). Policies
are handed their player's view alone (:class:`~.view.CircleView`: their own hand, their
decisions and the public table), never the state.

>>> setup, moves = simulate(["ann", "bob", "cy"], "coloured-cities", seed=3)
>>> state = setup.game.new_state(setup)
>>> for move in moves:
...     state.push(move)
>>> state.is_game_over(), type(moves[0]).__name__
(True, 'Season')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from companion.games.circle_of_power.cards import BLACK, CITY_DECK, Card, cards_of_mask, colour_in_attack
from companion.games.circle_of_power.game import RESHUFFLE_PILE, CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Play, Reshuffle, Retake, Reveal, Season
from companion.games.circle_of_power.rules import strength, trump_suit, victims
from companion.games.circle_of_power.setup import CircleSetup, is_dummy
from companion.games.circle_of_power.view import CircleView

__all__ = ["Policy", "RandomPlayer", "RuleOfThumbPlayer", "POLICIES", "simulate", "Table"]


class Policy(Protocol):
    """A player: chooses the decision of the player (not a dummy) to move, from their view."""

    name: str

    def choose(self, view: CircleView, rng: random.Random) -> Move: ...


class RandomPlayer:
    """Chooses uniformly among the distinct decisions open to it."""

    name = "random"

    def choose(self, view: CircleView, rng: random.Random) -> Move:
        return rng.choice(view.decisions)


class RuleOfThumbPlayer:
    """A player of simple habits, the level of a table's newcomer:

    Playing a card (C8, C9):

    1. Try to win the initiative only when the city can attack someone (C10): winning with
       nothing to attack forces a regroup, which may rebel (C14).
    2. Trying to win: play the lowest card that beats every card played so far (trump cards
       counting above plain ones, a tie going to the later card); if none does, or when not
       trying, play the lowest card (plain before trump, then by number).

    Acting after winning (C10-C14, C18, C19), each open act is scored and the best taken:

    - +4 for a trophy won (a conquest in the basic game, a red city in Coloured Cities);
    - +4 for destroying a player's city, +1 for a dummy's (Lonely Tyrant, Coloured Cities);
    - +2 for a retake that takes a trophy from the emperor with the highest total;
    - +2 when the city held after the act has a suit the hand holds cards of, so that the
      next action has trump cards (the rulebook's "winning strikes");
    - ties: the victim with the highest total, then the order listed.

    A trophy to discard (a retake's, a rebellion's) is the first in the line.
    """

    name = "rule-of-thumb"

    def choose(self, view: CircleView, rng: random.Random) -> Move:
        if view.phase == Phase.PLAY.value:
            return self._play(view)
        return self._act(view)

    def _play(self, view: CircleView) -> Move:
        me = view.player
        hand = sorted(set(view.hand))
        trumps = view.trump_suits
        mine = trump_suit(view.city(me), view.next_city)
        played = view.played
        best = max((strength(c, trumps[p]) for p, c in played), default=-1)
        wants = bool(victims(view.seats.index(me), view.cities_by_seat))
        by_strength = sorted(hand, key=lambda c: (strength(c, mine), c.index))
        if wants:
            winners = [c for c in by_strength if strength(c, mine) >= best]
            if winners:
                return Play(me, winners[0])
        return Play(me, by_strength[0])

    def _act(self, view: CircleView) -> Move:
        me = view.player
        options = view.decisions
        totals = view.totals
        hand_suits = {c.suit for c in view.hand}
        lonely = view.variant != "basic"
        leader = max(totals.values(), default=0)

        def score(move: Move) -> tuple[int, int]:
            value = 0
            victim = getattr(move, "victim", None)
            mine = view.city(me)
            assert mine is not None
            theirs = view.city(victim) if victim else None
            city_after: Card | None = mine
            if type(move) is Conquer:
                assert theirs is not None
                if view.variant == "coloured-cities":
                    if colour_in_attack(theirs, mine) == BLACK:
                        value += 4 if not is_dummy(victim or "") else 1
                    else:
                        value += 4
                    city_after = mine if move.keep else view.next_city
                elif lonely:
                    value += 4 if not is_dummy(victim or "") else 1
                else:
                    value += 4
            elif type(move) is Retake:
                if move.discard is not None and totals.get(victim or "", 0) == leader:
                    value += 2
                city_after = theirs
            else:
                city_after = view.next_city
            if city_after is not None and city_after.suit in hand_suits:
                value += 2
            return value, totals.get(victim or "", -1)

        return max(options, key=score)


POLICIES: dict[int, type[RandomPlayer] | type[RuleOfThumbPlayer]] = {0: RandomPlayer, 1: RuleOfThumbPlayer}
"""The players by level: 0 plays at random, 1 by rules of thumb."""


class Table:
    """The cards of a simulated table, whose order the table knows: the city deck (the bottom
    joker last), the battle deck, and each season's deal (C6), reshuffle (C15) and draws."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cities: list[Card] = []
        self.battle: list[Card] = []

    def season(self, state: CircleState) -> Season:
        move = state.random_table_move(self.rng)
        assert type(move) is Season
        bottom = move.bottom
        rest = [x for x in CITY_DECK if x is not bottom and x not in dict(move.cities).values()]
        self.rng.shuffle(rest)
        self.cities = rest + [bottom]
        dealt = {x for _, cards in move.hands + move.piles for x in cards}
        self.battle = [x for x in state.game.cards if x.is_battle and x not in dealt]
        self.rng.shuffle(self.battle)
        return move

    def reveal(self) -> Reveal:
        return Reveal(self.cities.pop(0))

    def reshuffle(self, state: CircleState) -> Reshuffle:
        deck = cards_of_mask(state._core.played_a)
        self.rng.shuffle(deck)
        piles = {name: [deck.pop() for _ in range(RESHUFFLE_PILE)] for name in state.dummies}
        self.battle = deck
        return Reshuffle.make(piles)

    def draw(self) -> Card | None:
        return self.battle.pop() if self.battle else None


def simulate(
    players: Sequence[str],
    variant: str = "basic",
    seed: int = 0,
    target: int = 6,
    level: int | Sequence[int] = 1,
    *,
    max_seasons: int = 200,
) -> tuple[CircleSetup, list[Move]]:
    """Play a complete legal game: every player by the policy of ``level`` (one level, or one
    per player), the dummies by the rules (C8, C11), the table shuffling and dealing with a
    random generator seeded with ``seed``. Returns the set-up and every move, fully seen.

    ``max_seasons`` guards against a game that would not end (:class:`RuntimeError`)."""
    rng = random.Random(seed)
    setup = CircleSetup(tuple(players), variant, target)
    levels = [level] * len(setup.players) if isinstance(level, int) else list(level)
    policies = {p: POLICIES[min(lv, max(POLICIES))]() for p, lv in zip(setup.players, levels)}
    state = CircleState(setup, keep_history=False)
    table = Table(rng)
    moves: list[Move] = []
    while not state.is_game_over():
        phase = state.phase
        move: Move
        if phase is Phase.SEASON:
            if state.season_number >= max_seasons:
                raise RuntimeError(f"no end after {max_seasons} seasons")
            move = table.season(state)
        elif phase is Phase.REVEAL:
            move = table.reveal()
        elif phase is Phase.RESHUFFLE:
            move = table.reshuffle(state)
        else:
            me = state.to_move
            assert me is not None
            if is_dummy(me):
                move = next(iter(state.legal_moves))
            else:
                move = policies[me].choose(state.view(me), rng)
                if type(move) is Play and state.battle_deck_count:
                    move = Play(me, move.card, table.draw())
        state.push(move, check=False)
        moves.append(move)
    return setup, moves
