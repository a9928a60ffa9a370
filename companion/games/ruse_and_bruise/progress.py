"""Where a game of Ruse and Bruise stands, in its words: the round, and what the game waits for
with its ruling (:attr:`~companion.games.ruse_and_bruise.game.RabState.waiting`: who places a
card, B8, whose Cloak or Traitor decides, B14, B15, which card acts, B10-B13, the reveal, B16,
the distribution, B18-B26). The dashboard's table panel and the club's live page both say it
from here.

>>> from companion.games.ruse_and_bruise import GAME
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob"], values="example"))
>>> progress(state).line
'New game · round 1 begins: the top goal card of each stack is turned over (B7)'
"""

from __future__ import annotations

from companion.contract.progress import Progress
from companion.games.ruse_and_bruise.game import RabState

__all__ = ["progress"]


def progress(state: RabState) -> Progress:
    """``state``'s round and what it waits for, in the ruling's words."""
    period = f"Round {state.round_number}" if state.round_number else "New game"
    return Progress(period, what=state.waiting.reason)
