"""Players for simulated tables, each choosing a commit from what its view shows (L14: nothing
hidden), and :func:`simulate`, which plays a whole game with them.

- :class:`RandomPlayer` commits any card of its hand.
- :class:`RuleOfThumbPlayer` plays by two rules of thumb: an agent wins a noble alone (L9), so
  keep the agents for the end, but never finish with one unplayed; otherwise commit the
  resource most likely to win the nobles still face down: its rank, weighed by the share of
  those nobles' crowns in its suit (L8).

>>> setup, moves = simulate(["ann", "bob", "cy"], seed=4)
>>> len(moves), type(moves[0]).__name__
(60, 'Deal')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import Commit, Move
from companion.games.love_money_power_death.setup import DEFAULT_FIVES, MOST, LmpdSetup
from companion.games.love_money_power_death.state import LmpdState
from companion.games.love_money_power_death.view import LmpdView

__all__ = ["Player", "RandomPlayer", "RuleOfThumbPlayer", "POLICIES", "simulate"]


class Player:
    """A simulated player: chooses one of its legal commits from its view."""

    name: ClassVar[str] = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: LmpdView, moves: Sequence[Commit]) -> Commit:
        raise NotImplementedError


class RandomPlayer(Player):
    """Commits a card of its hand at random."""

    name = "random"

    def choose(self, view: LmpdView, moves: Sequence[Commit]) -> Commit:
        return moves[self.rng.randrange(len(moves))]


class RuleOfThumbPlayer(Player):
    """Keeps its agents for the end, unless it has as many agents as rounds left; otherwise
    commits the resource whose rank, weighed by the share of crowns still face down in its
    suit, is highest."""

    name = "rule-of-thumb"

    def choose(self, view: LmpdView, moves: Sequence[Commit]) -> Commit:
        cards = [(m, m.card) for m in moves if type(m.card) is Card]
        if not cards:
            return moves[0]
        agents = [m for m, c in cards if c.is_agent]
        resources = [(m, c) for m, c in cards if not c.is_agent]
        rounds_left = view.noble_pile
        if agents and (len(agents) >= rounds_left or not resources):
            return agents[0]
        crowns = sum(c.rank for c in view.nobles_left) or 1
        share = {s: sum(c.rank for c in view.nobles_left if c.suit == s) / crowns for s in "LMPD"}
        best = max(c.rank * (1 + 2 * share[c.suit or "L"]) for _, c in resources)
        choices = [m for m, c in resources if c.rank * (1 + 2 * share[c.suit or "L"]) == best]
        return choices[self.rng.randrange(len(choices))]


POLICIES: dict[int, type[Player]] = {0: RandomPlayer, 1: RuleOfThumbPlayer}
"""The simulated players by level: 0 random, 1 rule of thumb."""


def simulate(
    players: Sequence[str],
    nobles: int | str | Sequence[str | Card] = MOST,
    seed: int = 0,
    level: int = 0,
    *,
    fives: str = DEFAULT_FIVES,
) -> tuple[LmpdSetup, list[Move]]:
    """A whole legal game on a virtual table: the table's moves by chance (every card seen),
    each commit chosen by a player of ``level`` from its own view. Repeatable by ``seed``.
    Raises :class:`~companion.contract.errors.IllegalMoveError` (L4) for a table the rules do
    not allow."""
    setup = LmpdSetup.make(players, nobles, fives)
    rng = random.Random(seed)
    state = LmpdState(setup, keep_history=False)
    seats = {p: POLICIES[level](random.Random(rng.getrandbits(32))) for p in setup.players}
    moves: list[Move] = []
    while not state.is_game_over():
        deciding = state.deciding
        if deciding:
            player = deciding[rng.randrange(len(deciding))]  # commits come in any order (L6)
            move: Move = seats[player].choose(state.view(player), state.moves_of(player))
        else:
            move = state.random_table_move(rng)
        state.push(move)
        moves.append(move)
    return setup, moves
