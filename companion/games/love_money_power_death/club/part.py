"""Love, Money, Power, Death's part of the club (:class:`companion.club.parts.ClubPart`): what
the archive keeps of a game, the columns of its standings, and its words for the live page.

Every player is a side of their own. Figures, each a whole number
(:class:`~companion.club.parts.Figures`):

- each round, per player: ``crowns``, the crowns of the noble they won (its rank, L10; 0 for
  the others, and for everybody when it was discarded); the round itself in words: its
  ``noble``, every card revealed (``plays``), the ``winner``, ``why`` (as ``rop replay
  --json`` says it: agent, suit, rank, tie, all-agents) and the ``reasons``;
- the whole game, per player: ``crowns`` (the score, L13), ``nobles`` (how many in the court,
  L13's tie-break), ``rounds`` (the rounds decided), ``agent_wins`` (nobles won with a lone
  agent, L9) and ``shared_wins`` (1 when the player shares the win, L13).

Finishing places (which ratings rank): the winners first (a shared win shares the first
place, L13), then the others by their score and, among equal scores, the fewest nobles; equal
in both, they share a place. A side that wins or shares the win is counted as winning
(:attr:`~companion.club.parts.Side.won`); the game's single ``winner`` is ``None`` for a shared
win, which ends with the tie-break ``shared``.

>>> part = LmpdClub()
>>> [c.figure for c in part.columns]
['crowns', 'nobles', 'agent_wins', 'shared_wins']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.club import filling
from companion.club.parts import Column, Figures, Period, Result, Seat, Side
from companion.games.love_money_power_death.club.describe import Replay, TableView, describe_event, page_words, round_reasons
from companion.games.love_money_power_death.scoring import TieBreak, Why
from companion.games.love_money_power_death.setup import LmpdSetup
from companion.games.love_money_power_death.state import LmpdState

__all__ = ["LmpdClub", "PART", "fills_in", "finishing_places"]

#: A player's figures for the whole game.
GAME_FIGURES = ("crowns", "nobles", "rounds", "agent_wins", "shared_wins")


class _NoTally:
    """Nothing to count move by move: the decided rounds tell everything."""

    def after(self, state: Any) -> None:
        return None


def finishing_places(state: LmpdState) -> dict[str, int]:
    """Each player's finishing place in a finished game (see the module's words)."""
    outcome = state.outcome()
    if outcome is None:
        return {}
    totals, counts = state.totals, state.counts
    place = dict.fromkeys(outcome.winners, 1)
    others = sorted((p for p in state.players if p not in place), key=lambda p: (-totals[p], counts[p]))
    first = len(place) + 1
    for i, p in enumerate(others):
        before = others[i - 1] if i else None
        if before is not None and (totals[p], counts[p]) == (totals[before], counts[before]):
            place[p] = place[before]
        else:
            place[p] = first + i
    return place


_FILLABLE = {"deal": ("order", "piles", "aside", "hands"), "commit": ("card",), "draw": ("cards",)}


def fills_in(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """``new`` is the event ``old`` with cards that were unseen when it was recorded now named
    (a commit once its card was revealed, a draw or a deal once the game told its cards),
    and nothing else changed."""
    return filling.fills_in(old, new, _FILLABLE)


class LmpdClub:
    """Love, Money, Power, Death as the club sees it (``GAME.club()``)."""

    period = "round"
    periods = "rounds"
    columns = (
        Column("crowns", "crn", 4, "crowns", "crowns in court, the score (L13)"),
        Column("nobles", "nbl", 4, "nobles", "nobles won (L10)"),
        Column("agent_wins", "agt", 4, "agent wins", "nobles won with a lone agent (L9)"),
        Column("shared_wins", "shr", 4, "shared wins", "wins shared on equal score and nobles (L13)"),
    )
    order = ("crowns",)
    history = ("crowns", "nobles", "rounds")
    history_text = "crn {crowns:>2} nbl {nobles:>2}"
    history_heading = "figures"
    endings = {
        TieBreak.SCORE.value: "",
        TieBreak.FEWEST_NOBLES.value: ", on the fewest nobles (L13)",
        TieBreak.SHARED.value: "",
    }
    score = "crowns"

    def page_words(self) -> dict[str, Any]:
        """What the live page needs to draw the game's cards in their suits' colours."""
        return page_words()

    def tally(self, setup: LmpdSetup) -> _NoTally:
        return _NoTally()

    def result(self, state: LmpdState, tally: Any) -> Result:
        outcome = state.outcome()
        players = state.players
        totals, counts = state.totals, state.counts
        winners = set(outcome.winners) if outcome is not None else set()
        shared = outcome is not None and outcome.tiebreak is TieBreak.SHARED
        place = finishing_places(state)
        agent_wins = dict.fromkeys(players, 0)
        periods = []
        for r in state.rounds:
            if r.winner is not None and r.why is Why.AGENT:
                agent_wins[r.winner] += 1
            periods.append(
                Period(
                    r.number,
                    Figures(sides={p: {"crowns": r.noble.rank if p == r.winner else 0} for p in players}),
                    {
                        "noble": r.noble.id,
                        "plays": {p: c.id for p, c in r.plays},
                        "winner": r.winner,
                        "why": r.why.value,
                        "reasons": round_reasons(r),
                    },
                )
            )
        figures = {
            p: {
                "crowns": totals[p],
                "nobles": counts[p],
                "rounds": len(state.rounds),
                "agent_wins": agent_wins[p],
                "shared_wins": int(shared and p in winners),
            }
            for p in players
        }
        return Result(
            seats=tuple(Seat(p, p) for p in players),
            sides=tuple(Side(p, won=p in winners, place=place.get(p)) for p in players),
            finished=outcome is not None,
            winner=outcome.winner if outcome is not None else None,
            termination=outcome.tiebreak.value if outcome is not None else None,
            figures=Figures(sides=figures, players=figures),
            periods=tuple(periods),
        )

    def describe(self, event: Mapping[str, Any]) -> str:
        return describe_event(event)

    def table_view(self) -> TableView:
        return TableView()

    def steps(self) -> Replay:
        return Replay()

    def fills_in(self, old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
        return fills_in(old, new)

    def starter(self, events: list[Mapping[str, Any]]) -> str | None:
        """Nobody: every player commits at once, in no order that counts (L6)."""
        return None

    def __repr__(self) -> str:
        return "<ClubPart love-money-power-death>"


PART = LmpdClub()
"""Love, Money, Power, Death's club part, as ``GAME.club()`` gives it."""
