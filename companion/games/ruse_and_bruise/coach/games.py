"""Whole games of a world, the luck of the cards fixed, for measuring the coach: a game played
twice from the same deal with the players' seats swapped meets the same cards whatever the
players decide, so that the luck of the cards cancels out.

A deal's luck (:class:`Luck`) is each player's own cards in the order they come off their
stack: a draw takes the first card of that order the stack holds, the discard pile's likewise
once it is shuffled into a new stack (B9); and the order in which goal cards the world does
not name are turned over (B7). The table's other moves (a card turned over, an ability, the
reveal, the distribution) follow the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.ruse_and_bruise.cards import GOALS, HAND_SIZE, INFLUENCE, Goal, Influence
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Round
from companion.games.ruse_and_bruise.view import RabView
from companion.games.ruse_and_bruise.whereabouts import DISCARD, STACK, bits

__all__ = ["Luck", "realize", "round_move", "play_game"]


@dataclass(frozen=True)
class Luck:
    """How chance falls in a whole game: each player's own cards in the order they come off
    their stack (B9), and the order of the goal cards the world does not name (B7)."""

    orders: Mapping[str, tuple[Influence, ...]]
    goals: tuple[Goal, ...] = tuple(GOALS)

    @classmethod
    def drawn(cls, players: Sequence[str], rng: random.Random) -> Luck:
        """Each player's order and the goal cards' at random."""
        orders = {}
        for p in players:
            order = list(INFLUENCE)
            rng.shuffle(order)
            orders[p] = tuple(order)
        goals = list(GOALS)
        rng.shuffle(goals)
        return cls(orders, tuple(goals))

    def draw(self, player: str, may: Sequence[Influence | None]) -> Influence | None:
        """The card ``player`` draws, of those they ``may`` draw: the first of their order."""
        rank = self.orders[player]
        known = [c for c in may if c is not None]
        if not known:
            return None
        return min(known, key=rank.index)


def realize(state: RabState, decision: Move, luck: Luck) -> Move:
    """``decision`` (a move standing for it) with the card drawn after it by ``luck`` (B9):
    of the legal moves making that decision, the one whose draw comes first."""
    key = state.decision(decision)
    moves = [m for m in state.legal_moves if state.decision(m) == key]
    if not moves:
        # A card under one's own Cloak when the stack holds one card only, which the turn's
        # draw, named with the placement, has taken already (B9, B14): the Cloak stays empty.
        assert type(decision) is Cloak, decision
        return Cloak(decision.player, False)
    if len(moves) == 1:
        return moves[0]
    player = state.to_move
    assert player is not None
    drawn = luck.draw(player, [getattr(m, "drew", None) for m in moves])
    return next(m for m in moves if getattr(m, "drew", None) is drawn)


def round_move(state: RabState, luck: Luck) -> Round:
    """A round begins (B7): the top of each goal stack (one the world does not name by
    ``luck``'s order of goal cards), each short hand filled by ``luck`` (B9, the discard pile
    shuffled into a new stack when the stack runs out)."""
    c = state._core  # the table is played whole here: it knows every card, as the dealer does
    taken = c.seen_goals
    for stack in c.stacks:
        for g in stack:
            if isinstance(g, Goal):
                taken |= g.bit
    free = [g for g in luck.goals if not taken & g.bit]
    goals = []
    for stack in c.stacks:
        top = stack[0]
        goals.append(top if isinstance(top, Goal) else free.pop(0))
    drew: dict[str, list[Influence | None]] = {}
    if c.round > 0:
        for p, name in enumerate(state.players):
            w = c.known[p]
            short = min(HAND_SIZE - w.hand, w.stack + w.discard)
            cards: list[Influence | None] = []
            for _ in range(max(0, short)):
                if w.stack == 0:
                    w = w.reshuffled()
                pile = STACK if w.stack else DISCARD
                x = luck.draw(name, [INFLUENCE[i] for i in bits(w.known(pile))])
                cards.append(x)
                w = w.drew(None if x is None else x.index)
            if cards:
                drew[name] = cards
    return Round.make(goals, drew)


def play_game(state: RabState, luck: Luck, rng: random.Random, decide: Callable[[RabState, RabView, random.Random], Move]) -> None:
    """Play a complete world on to the game's end (B28): each player's decision by
    ``decide(state, their view, rng)``, with what they draw after it by ``luck``; the rounds'
    goal cards and draws by ``luck``; the table's other moves by the rules."""
    while not state.is_game_over():
        who = state.to_move
        if who is not None:
            move = realize(state, decide(state, state.view(who), rng), luck)
        elif state.phase is Phase.ROUND:
            move = round_move(state, luck)
        else:
            move = state.random_table_move(rng)  # settled by the rules: every card is known here
        state.push(move, check=False)
