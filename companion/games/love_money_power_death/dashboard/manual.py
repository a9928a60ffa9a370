"""Love, Money, Power, Death kept by keyboard at the dashboard: what a typed entry means
(:mod:`.entry`), what the table does next, and how a recorded event is corrected.

The table types what it does in the open: each commit as it is made (who, never which card:
the card stays face down, L6, and the screen is shared), the noble turned up (L7), and the
reveal, every card in one line. The companion records by itself, saying so in the log, what
nobody at the table sees:

- the deal: the nobles laid face down, the cards dealt face down into the piles, three to
  each hand (L5), none of them seen;
- the draw after each round but the last, each card unseen (L11);
- the last noble, once it is the only one left face down (L7).

Hands and piles stay unseen: a game kept by keyboard names a card only once it is face up.
"""

from __future__ import annotations

from companion.dashboard.kit import Ask, Command, Step, Submit, Tell
from companion.games.love_money_power_death.dashboard.entry import EntryCommand, parse_entry
from companion.games.love_money_power_death.dashboard.words import waiting_for
from companion.games.love_money_power_death.moves import Deal, Draw, Move, TurnUp
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["LmpdManual", "automatic"]


def automatic(state: LmpdState) -> Move | None:
    """The move the companion makes by itself now, when the table has nothing to show: the deal
    face down (L5), the draw (L11), the last noble (L7)."""
    phase = state.phase
    if phase is Phase.DEAL:
        return Deal()
    if phase is Phase.DRAW:
        return Draw.of(state.players)
    if phase is Phase.NOBLE:
        candidates = state.turn_candidates()
        if len(candidates) == 1:
            return TurnUp(candidates[0])
    return None


class LmpdManual:
    """Manual play of Love, Money, Power, Death at one table (it needs no option: the companion
    shuffles nothing, every card being dealt face down)."""

    def __init__(self, *, seed: int | None = None, **_options: object) -> None:
        self.seed = seed

    @property
    def status(self) -> str:
        return "manual play"

    def parse(self, text: str, state: LmpdState, *, correcting: bool, teaching: bool) -> Step | Command:
        """A commit, the noble, the reveal, or a command (:mod:`.entry`)."""
        entry = parse_entry(text, state)
        if isinstance(entry, EntryCommand):
            return Command(entry.name)
        return Submit(entry.move)

    def next_step(self, state: LmpdState, *, asked: bool) -> Step | None:
        """What the companion records by itself (the deal, a draw, the last noble); asked (F5),
        why the table is waiting."""
        move = automatic(state)
        if move is not None:
            return Submit(move)
        if not asked:
            return None
        if state.phase is Phase.OVER:
            outcome = state.outcome()
            return Tell(f"The game is over: {outcome.explain() if outcome else ''}")
        return Tell(f"Waiting for the table: {waiting_for(state)}", "warning", 4)

    def correction(self, before: LmpdState, move: Move) -> Ask | Tell | None:
        """The deal and the draws are the companion's own records of cards nobody saw: they
        cannot be replaced (undo takes them back); any other event is typed again."""
        if type(move) is Deal:
            return Tell("The deal cannot be replaced: every card was dealt face down, and nothing of it is typed (L5)", "warning", 4)
        if type(move) is Draw:
            return Tell("A draw cannot be replaced: it follows its round by itself, each card unseen (L11); correct the round's events", "warning", 4)
        return None
