"""Where a game of Love, Money, Power, Death stands, in its words: the round of as many as there
are nobles, and who is still to commit (everyone decides at once, face down, L6), or what the
table does itself: turn the noble up once all have committed, reveal every card (L7), draw
(L11). The dashboard's status line and the club's live page both say it from here.

>>> from companion.games.love_money_power_death import GAME
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
>>> progress(state).line
'New game'
"""

from __future__ import annotations

from companion.contract.progress import Progress
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["progress"]


def progress(state: LmpdState, *, narrow: bool = False) -> Progress:
    """``state``'s round and what is due (see the module's words); the deal and a game that is
    over say the period alone (the result is said apart, L13)."""
    phase = state.phase
    rounds = state.setup.rounds
    if phase is Phase.DEAL:
        return Progress("New game")
    period = f"Round {state.round_number}/{rounds}" if narrow else f"Round {state.round_number} of {rounds}"
    if phase is Phase.COMMIT:
        return Progress(period, "To commit", who=", ".join(state.deciding))
    if phase is Phase.NOBLE:
        return Progress(period, "Next", what="turn the noble up")
    if phase is Phase.REVEAL:
        return Progress(period, "Next", what="reveal")
    if phase is Phase.DRAW:
        return Progress(period, "Next", what="the draw")
    return Progress(period)
