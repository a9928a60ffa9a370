"""Where a game of Circle of Power stands, in its words: the season and its action (C8, 15 a
season), and who is to play a battle card, who is to act on the initiative won (C9, C10), or
what the table does itself: turn up the next city (C7), reshuffle the battle deck (C15), set
up the next season. The dashboard's status line and the club's live page both say it from
here.

>>> from companion.games.circle_of_power import GAME
>>> from companion.games.circle_of_power.moves import Reveal, Season
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
>>> progress(state).line
'New game · Next: season 1'
>>> _ = state.apply(Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2"))
>>> progress(state).line
'Season 1, action 1 of 15 · Next: turn up a city'
>>> _ = state.apply(Reveal.from_id("JD"))
>>> progress(state).line, progress(state, narrow=True).period
('Season 1, action 1 of 15 · To play: bob', 'Season 1, action 1/15')
"""

from __future__ import annotations

from companion.contract.progress import Progress
from companion.games.circle_of_power.game import ACTIONS, CircleState, Phase

__all__ = ["progress"]


def progress(state: CircleState, *, narrow: bool = False) -> Progress:
    """``state``'s season and what is due (see the module's words); a game that is over says
    its season alone (its result is said apart, C17, C18)."""
    phase = state.phase
    if state.season_number == 0:
        period = "New game"
    else:
        period = f"Season {state.season_number}"
        if phase is not Phase.SEASON and phase is not Phase.OVER:
            action = state.action_number
            period += f", action {action}/{ACTIONS}" if narrow else f", action {action} of {ACTIONS}"
    who = state.to_move
    if state.outcome() is not None:
        return Progress(period)
    if phase is Phase.PLAY and who is not None:
        return Progress(period, "To play", who=who)
    if phase is Phase.ACT and who is not None:
        return Progress(period, "To act", who=who)
    if phase is Phase.REVEAL:
        return Progress(period, "Next", what="turn up a city")
    if phase is Phase.RESHUFFLE:
        return Progress(period, "Next", what="reshuffle")
    if phase is Phase.SEASON:
        return Progress(period, "Next", what=f"season {state.season_number + 1}")
    return Progress(period)
