"""The event log's lines for a move just applied: the move in words, never a card face down
(a commit says who committed, L6; a draw names no card, L11), and, once a round is decided,
each card, who won the noble and why (L8-L10), the totals and, at the end, the winner (L13)."""

from __future__ import annotations

from companion.dashboard.widgets.event_log import LogEntry
from companion.games.love_money_power_death.moves import Reveal
from companion.games.love_money_power_death.state import LmpdState
from companion.games.love_money_power_death.words import narrate
from companion.session import Applied

__all__ = ["log_entries"]


def log_entries(state: LmpdState, event: Applied) -> list[LogEntry]:
    """The log's lines for ``event``, just applied to ``state``."""
    fx = event.effects
    kind = "deal" if fx.kind == "deal" else "round" if fx.kind == "noble" else "move"
    lines = [LogEntry(narrate(state, event.move, fx), event.index, kind)]
    if type(event.move) is Reveal and fx.result is not None:
        counts = state.counts
        totals = ", ".join(f"{p} {t} ({counts[p]} noble{'s' if counts[p] != 1 else ''})" for p, t in state.totals.items())
        lines.append(LogEntry(f"Round {fx.result.number}: totals {totals}", event.index, "result"))
    return lines
