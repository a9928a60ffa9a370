"""Worlds sampled from one player's view, and the playout state that remembers what the
decision played out was.

A player sees every face-up card, their own hand and face-down cards (as far as the
companion saw them), and of the others the backs of their face-down cards, how many cards
each holds in hand, stack and discard pile, and where each of their cards may still be as
the whole table can tell (B29). A *world* deals every other player's hidden cards again at
random, consistently with that (the engine's :meth:`~companion.games.ruse_and_bruise.game.
RabState.resample`: their hands, stacks, face-down cards and unseen discards, the card one
of them draws at the end of this turn, the goal stacks), and leaves the player's own cards as
the record knows them: a card of theirs the companion never saw stays unseen in the world
too, and is drawn at random where the play needs it (a card turned over, the reveal, B10,
B16), from what it may be.

Chance has no form of its own here: a card drawn (B9) is drawn in the world from the cards
the drawer's stack may hold, with the playout's seed.
"""

from __future__ import annotations

import random

from companion.coach.model import CoachError, World
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Pass, Place, Swap

__all__ = ["RabWorlds", "PlayoutState"]


class RabWorlds:
    """Worlds drawn from ``player``'s view of ``state`` (of which it keeps a copy), reading
    nothing else. :class:`CoachError` for a card to place or to put under a Cloak when the
    companion has seen none of the player's hand (a table kept by keyboard names no hand): the
    coach judges which card goes where from the cards held (B8, B14); a Traitor's exchange
    (B15) is judged at any table."""

    def __init__(self, state: RabState, player: str) -> None:
        if player not in state.players:
            raise CoachError(f"unknown player {player!r}; the players are {', '.join(state.players)}")
        if state.values is None:
            raise CoachError("the game has no values table yet (B4): nothing can be judged")
        self.state = state.copy(keep_history=False)
        self.player = player
        self.view = view = state.view(player)
        if view.to_move == player and view.waiting in ("place", "cloak") and not view.hand and view.hand_unseen:
            rule = "B8" if view.waiting == "place" else "B14"
            raise CoachError(
                f"the companion has not seen any of the {view.hand_unseen} cards in {player}'s hand (a table kept by "
                f"keyboard names no hand: the screen is shared, {rule}): the coach judges which card goes where from the "
                f"cards {player} holds"
            )

    def sample(self, rng: random.Random) -> World:
        """One world (the same ``rng`` state, the same world)."""
        return World(self.state.resample(self.player, rng), None)


class PlayoutState(RabState):
    """A world's state for one playout: the engine's state, which also notes the first
    player's move pushed on it, the decision played out: the move, who made it and the
    column it was about, ``decided_in`` (a card placed, a Cloak's card, a Traitor's column;
    ``None`` for a pass)."""

    played: Move | None
    decider: str | None
    decided_in: int | None

    @classmethod
    def of(cls, state: RabState) -> PlayoutState:
        """A copy of ``state`` without history, nothing noted yet."""
        base = state.copy(keep_history=False)
        new = cls.__new__(cls)
        new.__dict__.update(base.__dict__)
        new.played = None
        new.decider = None
        new.decided_in = None
        return new

    def push(self, move: Move, *, check: bool = True) -> None:
        if self.played is None and isinstance(move, (Place, Pass, Cloak, Swap)):
            self.played = move
            self.decider = move.player
            if type(move) is Place:
                self.decided_in = move.column
            elif self.phase is Phase.ABILITY:
                at = self._core.at
                self.decided_in = at[0] + 1 if at is not None else None
        RabState.push(self, move, check=check)
