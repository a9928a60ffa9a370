"""Circle of Power kept by keyboard at the dashboard: what a typed entry means (:mod:`.entry`),
what the table does next, and how a recorded event is corrected.

The table types what only it can see: each season's cities (the season dialog, :mod:`.screens.
season`), each city card turned up, each card played, a dummy's top card once turned over, and
the winner's act. The companion does the rest by itself, each time saying why in the log:

- a dummy's act, its one act by C11;
- the reshuffle after action 6 (C15), the dummies' new cards unseen;
- the bottom joker turned up when it is the city deck's last card (C7);
- a dummy's play, when its top card is known (a record that saw the piles).

Hands and piles stay unseen: a keyboard-kept game names only what is played.
"""

from __future__ import annotations

import random

from companion.dashboard.kit import Ask, Command, Step, Submit, Tell
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Move, Reshuffle, Season
from companion.games.circle_of_power.setup import is_dummy
from companion.games.circle_of_power.dashboard.entry import EntryChoice, EntryCommand, parse_entry
from companion.games.circle_of_power.dashboard.screens.pick import PickScreen
from companion.games.circle_of_power.dashboard.screens.season import SeasonScreen

__all__ = ["CircleManual", "automatic", "waiting_for"]


def automatic(state: CircleState) -> Move | None:
    """The move the companion makes by itself now, when the rules leave one only and the table
    has nothing to show: a dummy's act (C11), the reshuffle (C15), the bottom joker (C7), a
    dummy's top card when it is known (C8)."""
    phase = state.phase
    if phase is Phase.RESHUFFLE:
        return Reshuffle()
    if phase is Phase.REVEAL:
        return state.bottom_reveal()
    who = state.to_move
    if who is not None and is_dummy(who) and phase in (Phase.ACT, Phase.PLAY):
        moves = list(state.legal_moves)
        if len(moves) == 1:
            return moves[0]
    return None


def waiting_for(state: CircleState) -> str:
    """What the table does next, in words for the status line and the Action panel."""
    phase = state.phase
    who = state.to_move
    if phase is Phase.SEASON:
        return f"set up season {state.season_number + 1} (F5)"
    if phase is Phase.REVEAL:
        return "turn up the next city card and type it (C7)"
    if phase is Phase.RESHUFFLE:
        return "reshuffle the battle deck (C15)"
    if phase is Phase.OVER:
        return "the game is over"
    if phase is Phase.PLAY and who is not None:
        if is_dummy(who):
            return f"turn {who}'s top card over and type it (C8)"
        return f"{who} plays a card: type it"
    if phase is Phase.ACT and who is not None:
        if is_dummy(who):
            return f"{who} acts by C11 (F5)"
        return f"{who} acts: type a choice's number"
    return ""


class CircleManual:
    """Manual play of Circle of Power at one table; ``first_dealer`` deals the first season
    (C5); ``seed``: the companion's shuffle when the season dialog is asked to shuffle."""

    def __init__(self, *, seed: int | None = None, first_dealer: str | None = None, **_facts: object) -> None:
        self.first_dealer = first_dealer
        self.rng = random.Random(seed)

    @property
    def status(self) -> str:
        return "manual play"

    def parse(self, text: str, state: CircleState, *, correcting: bool, teaching: bool) -> Step | Command:
        """A card played or turned up, the winner's act (a trophy asked when several may be
        discarded), or a command (:mod:`.entry`)."""
        entry = parse_entry(text, state)
        if isinstance(entry, EntryCommand):
            return Command(entry.name)
        if isinstance(entry, EntryChoice):
            return Ask(PickScreen(entry.title, entry.moves))
        return Submit(entry.move)

    def season_screen(self, state: CircleState, given: Season | None = None) -> SeasonScreen:
        return SeasonScreen(state, first_dealer=self.first_dealer, rng=self.rng, given=given)

    def next_step(self, state: CircleState, *, asked: bool) -> Step | None:
        """The season dialog when a season is due; what the companion does by itself (a
        dummy's act, the reshuffle, the bottom joker); asked (F5), why the table is waiting."""
        if state.phase is Phase.SEASON:
            return Ask(self.season_screen(state))
        move = automatic(state)
        if move is not None:
            return Submit(move)
        if not asked:
            return None
        if state.phase is Phase.OVER:
            outcome = state.outcome()
            return Tell(f"The game is over: {outcome.explain() if outcome else ''}")
        return Tell(f"Waiting for the table: {waiting_for(state)}", "warning", 4)

    def correction(self, before: CircleState, move: Move) -> Ask | Tell | None:
        """A season is entered again in the season dialog; the reshuffle cannot be replaced (it
        follows action 6 by itself); any other event is typed again."""
        if type(move) is Season:
            return Ask(self.season_screen(before, move))
        if type(move) is Reshuffle:
            return Tell("The reshuffle cannot be replaced: it follows action 6 by itself (C15)", "warning", 4)
        return None
