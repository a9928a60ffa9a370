"""Worlds sampled from one player's view, the table's moves in them, and the playout state.

A player sees their own hand, the nobles still face down (not their order), every card
revealed so far, the courts, who has committed (never what) and how many cards lie in each
pile and hand. A *world* deals everything else again at random, consistently with that view
(the engine's :meth:`~companion.games.love_money_power_death.state.LmpdState.resample`): the
other hands and the cards the others committed face down this round (L6), every pile, their
own included (nobody looks at a pile, L5), the cards set aside and the order of the noble
pile. Nothing is left to chance after that: the noble turned is the top of the world's noble
pile (L7), a draw the top of each pile (L11). So a world is its state alone, and its chance
is ``None``.

A playout runs on a :class:`PlayoutState`, which remembers the round it began in (so that its
value can tell this round's noble from the later ones).
"""

from __future__ import annotations

import random

from companion.coach.model import CoachError, World
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import UNSEEN, Draw, Move, Reveal, TurnUp
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["LmpdWorlds", "PlayoutState", "table_move"]


class PlayoutState(LmpdState):
    """A world's state for one playout: the engine's state, and the round the playout began
    in (:attr:`first_round`)."""

    first_round: int

    @classmethod
    def of(cls, state: LmpdState) -> PlayoutState:
        """A copy of ``state`` without history, beginning in its round."""
        base = state.copy(keep_history=False)
        new = cls.__new__(cls)
        new.__dict__.update(base.__dict__)
        new.first_round = state.round_number
        return new

    def withdraw(self, player: str) -> None:
        """Take back ``player``'s commit this round, the card back in their hand: a world
        deals it at random among their cards (nobody else saw which it was, L6), and the
        coach's world has them commit again in their style instead."""
        i = self.players.index(player)
        if self._commits[i] is None or self.phase is not Phase.COMMIT:
            raise CoachError(f"{player} has no commit to take back")
        self._commits = self._commits[:i] + (None,) + self._commits[i + 1 :]
        self._waiting += 1


class LmpdWorlds:
    """Worlds drawn from ``player``'s view of ``state`` (of which it keeps a copy), reading
    nothing else. :class:`CoachError` when the companion never saw the player's hand (a table
    kept by keyboard names no hand): the coach judges a commit from the cards held."""

    def __init__(self, state: LmpdState, player: str) -> None:
        if player not in state.players:
            raise CoachError(f"unknown player {player!r}; the players are {', '.join(state.players)}")
        unseen = state.hand_unseen(player)
        if unseen:
            held = len(state.hand(player)) + unseen
            raise CoachError(
                f"the companion has not seen {unseen} of the {held} cards in {player}'s hand (a table kept by "
                f"keyboard names no hand, L14): the coach judges {player}'s commit from the cards {player} holds"
            )
        self.state = state.copy(keep_history=False)
        self.player = player

    def sample(self, rng: random.Random) -> World:
        """One world: every card the player cannot see dealt again (the same ``rng`` state,
        the same world)."""
        return World(self.state.resample(self.player, rng), None)


def table_move(state: LmpdState) -> Move:
    """The table's move in a world where every card is known: the top noble turned (L7), every
    committed card revealed (L7), the top card of each pile drawn (L11)."""
    phase = state.phase
    players = state.players
    if phase is Phase.NOBLE:
        top = state.noble_pile[0]
        assert isinstance(top, Card), "a world knows its noble pile"
        return TurnUp(top)
    if phase is Phase.REVEAL:
        revealed = []
        for p in players:
            card = state.commit_of(p)
            assert isinstance(card, Card), "a world knows every commit"
            revealed.append((p, card))
        return Reveal(tuple(revealed))
    if phase is Phase.DRAW:
        return Draw(tuple((p, pile[0] if pile else UNSEEN) for p, pile in ((p, state.pile(p)) for p in players)))
    raise CoachError(f"the table has no move now: the game waits for {phase.value}")
