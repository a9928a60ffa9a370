"""Ruse and Bruise's part of the club (:class:`companion.club.parts.ClubPart`): what the
archive keeps of a game, the columns of its standings, and its words for the live page.

Every player is a side of their own. Figures, each a whole number
(:class:`~companion.club.parts.Figures`):

- each round, per player: ``goal_cards``, the goal cards they won in it, and ``goal_points``,
  those cards' values (B27); the round itself in words: its ``goals``, their ``winners`` and
  ``why`` (as ``rop replay --json`` says it) and the ``reasons``, the distribution column by
  column and step by step (B18-B26);
- the whole game, per player: ``score`` (the final score, the better of the plain and the
  doubled, B28), ``plain`` (the sum of their goal cards), ``doubled`` (1 when the doubling for
  all six areas made the score, B28), ``goal_cards`` (how many they hold), ``rounds`` (the
  rounds distributed) and ``draws`` (1 when the player shares the highest score, B28).

Finishing places (which ratings rank): by the score, the highest first; equal scores share a
place, so a draw shares the first (B28). A side is counted as winning only when it wins alone;
a draw has no ``winner`` and ends with ``draw``.

>>> [c.figure for c in PART.columns]
['score', 'goal_cards', 'doubled', 'draws']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.club import filling
from companion.club.parts import Column, Figures, Period, Result, Seat, Side, places
from companion.games.ruse_and_bruise.club.describe import Replay, TableView, describe_event, page_words, round_points, round_reasons
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.scoring import score_of
from companion.games.ruse_and_bruise.setup import RabSetup

__all__ = ["RabClub", "PART", "fills_in"]


class _NoTally:
    """Nothing to count move by move: the distributed rounds tell everything."""

    def after(self, state: Any) -> None:
        return None


_FILLABLE = {
    "game": ("goals", "hands"),
    "round": ("drew",),
    "place": ("card", "drew"),
    "cloak": ("card", "drew"),
    "assassin": ("discard",),
}


def fills_in(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """``new`` is the event ``old`` with cards that were unseen when it was recorded now named
    (a card placed face down once revealed, a card drawn, the Assassin's victim, the goal stacks
    or the hands of the header), and nothing else changed (B29)."""
    return filling.fills_in(old, new, _FILLABLE)


class RabClub:
    """Ruse and Bruise as the club sees it (``GAME.club()``)."""

    period = "round"
    periods = "rounds"
    columns = (
        Column("score", "pts", 4, "score", "the final score, plain or doubled (B28)"),
        Column("goal_cards", "gls", 4, "goal cards", "goal cards won (B27)"),
        Column("doubled", "dbl", 4, "doubled", "games scored doubled, with goal cards of all six areas (B28)"),
        Column("draws", "drw", 4, "draws", "games ending in a draw on the highest score (B28)"),
    )
    order = ("score",)
    history = ("score", "goal_cards")
    history_text = "pts {score:>3} gls {goal_cards:>2}"
    history_heading = "figures"
    endings = {"score": " with the highest score (B28)", "draw": ""}
    score = "score"

    def page_words(self) -> dict[str, Any]:
        """What the live page needs to draw the cards: each colour's cards and backs, the goal
        cards."""
        return page_words()

    def tally(self, setup: RabSetup) -> _NoTally:
        return _NoTally()

    def result(self, state: RabState, tally: Any) -> Result:
        outcome = state.outcome()
        players = state.players
        totals = state.totals
        draw = outcome is not None and outcome.draw
        best = max(totals.values()) if totals else 0
        place = places(totals, outcome.winner, players) if outcome is not None else {}
        periods = []
        for r in state.results:
            periods.append(
                Period(
                    r.number,
                    Figures(sides=round_points(r, players)),
                    {
                        "goals": [c.goal.id for c in r.columns],
                        "winners": list(r.winners),
                        "why": [c.why for c in r.columns],
                        "reasons": round_reasons(r.columns),
                    },
                )
            )
        figures = {}
        for p in players:
            s = score_of(state.won(p))
            figures[p] = {
                "score": s.score,
                "plain": s.plain,
                "doubled": int(s.doubled is not None and s.doubled > s.plain),
                "goal_cards": len(state.won(p)),
                "rounds": len(state.results),
                "draws": int(draw and totals[p] == best),
            }
        return Result(
            seats=tuple(Seat(p, p) for p in players),
            sides=tuple(Side(p, won=outcome is not None and p == outcome.winner, place=place.get(p)) for p in players),
            finished=outcome is not None,
            winner=outcome.winner if outcome is not None else None,
            termination=("draw" if draw else "score") if outcome is not None else None,
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
        """The first player of the header: they start round 1 (B6)."""
        players = events[0].get("players") if events else None
        return str(players[0]) if isinstance(players, list) and players and len(events) > 1 else None

    def __repr__(self) -> str:
        return "<ClubPart ruse-and-bruise>"


PART = RabClub()
"""Ruse and Bruise's club part, as ``GAME.club()`` gives it."""
