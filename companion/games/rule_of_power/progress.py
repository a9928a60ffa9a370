"""Where a game of Rule of Power stands, in its words: the round, and whose turn it is to move,
or what the table does itself: deal, begin a new round. The dashboard's status line and the
club's live page both say it from here.

>>> from companion.games.rule_of_power import GAME
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob"]))
>>> progress(state).line
'New game · Next: a new round'
"""

from __future__ import annotations

from companion.contract.progress import Progress
from companion.games.rule_of_power.engine.game import GameState, Phase

__all__ = ["progress"]


def progress(state: GameState) -> Progress:
    """``state``'s round and what is due (see the module's words); a game that is over says
    its round alone (its winner is said apart)."""
    period = f"Round {state.round_number}" if state.round_number else "New game"
    if state.outcome() is not None:
        return Progress(period)
    if state.phase is Phase.TURN and state.turn is not None:
        return Progress(period, "To move", who=state.turn)
    if state.phase is Phase.DEAL:
        return Progress(period, "Next", what="deal")
    if state.phase is Phase.ROUND:
        return Progress(period, "Next", what="a new round")
    return Progress(period)
