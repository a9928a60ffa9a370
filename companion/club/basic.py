"""The basic club part: what the club keeps of any game from the contract alone, for a game to
start from (:class:`BasicClubPart`).

Every player is a side of their own; the figures are each player's ``points`` (the game's
totals) and ``rounds`` (the periods played), per period the points of that period; finishing
places follow the totals, the winner first (:func:`~companion.club.parts.places`). The live page
shows the players, the totals, what the table waits for and the game's score lines; a stored
game replays step by step with the same. A game replaces what it says better: its figures and
columns, :meth:`BasicClubPart.describe` (an event as a sentence: the basic one names the event
and its fields, so a game whose events carry a face-down card must say it in its own words,
never showing that card before its reveal) and the page's table (:meth:`BasicClubPart.notes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.club.parts import Column, Figures, Period, Result, Seat, Side, places
from companion.contract import Game

__all__ = ["BasicClubPart"]


class _NoTally:
    """Nothing to count move by move: the final state tells everything."""

    def after(self, state: Any) -> None:
        return None


class BasicTable:
    """The live page's table: the players, the totals and the part's notes."""

    def __init__(self, part: BasicClubPart) -> None:
        self.part = part

    def state(self, game: Any, header: Mapping[str, Any]) -> dict[str, Any]:
        outcome = game.outcome()
        deciding = list(game.deciding)
        return {
            "players": list(game.players),
            "sides": list(game.players),
            "totals": dict(game.totals),
            "turn": deciding[0] if len(deciding) == 1 and not game.simultaneous else None,
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "termination": self.part.termination(game) if outcome else None,
            "notes": self.part.notes(game),
        }


class BasicReplay:
    """A stored game step by step: the totals and the notes after every event."""

    def __init__(self, part: BasicClubPart) -> None:
        self.part = part

    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        return {"totals": {}}

    def after(self, game: Any) -> dict[str, Any]:
        return {"totals": dict(game.totals), "notes": self.part.notes(game)}


class BasicClubPart:
    """A club part made from ``game``'s contract alone."""

    period = "round"
    periods = "rounds"
    columns = (Column("points", "pts", 5, "points", "points scored"),)
    order = ("points",)
    history = ("points", "rounds")
    history_text = "pts {points:>3}"
    history_heading = "points"
    endings: Mapping[str, str] = {}
    score = "points"

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    def tally(self, setup: Any) -> _NoTally:
        return _NoTally()

    def termination(self, state: Any) -> str | None:
        """How a finished game ended, in the game's word (``None``: the only way it ends)."""
        return None

    def period_points(self, state: Any, result: Any) -> Mapping[str, int]:
        """Each player's points in the finished period ``result`` (none told by default)."""
        return {}

    def periods_of(self, state: Any) -> tuple[Any, ...]:
        """The finished periods of ``state``: its ``results`` where it keeps them."""
        return tuple(getattr(state, "results", ()))

    def result(self, state: Any, tally: Any) -> Result:
        outcome = state.outcome()
        totals = dict(state.totals)
        players = tuple(state.players)
        winner = outcome.winner if outcome else None
        place = places(totals, winner, players) if outcome is not None else {}
        finished = self.periods_of(state)
        figures = {p: {"points": totals.get(p, 0), "rounds": len(finished)} for p in players}
        periods = tuple(
            Period(n, Figures(sides={p: {"points": v} for p, v in self.period_points(state, r).items()}))
            for n, r in enumerate(finished, 1)
        )
        return Result(
            seats=tuple(Seat(p, p) for p in players),
            sides=tuple(Side(p, won=p == winner, place=place.get(p)) for p in players),
            finished=outcome is not None,
            winner=winner,
            termination=self.termination(state) if outcome else None,
            figures=Figures(sides=figures, players=figures),
            periods=periods,
        )

    def describe(self, event: Mapping[str, Any]) -> str:
        """An event in plain words: a new game and its players, or the event's name and
        fields."""
        kind = event.get("event")
        if kind == "game":
            return f"New game of {self.game.title}: {', '.join(map(str, event.get('players', [])))}"
        fields = ", ".join(f"{k} {v}" for k, v in event.items() if k != "event" and v is not None)
        return f"{kind}: {fields}" if fields else str(kind)

    def notes(self, state: Any) -> list[str]:
        """The page's lines under the table: who is deciding and the game's score lines."""
        deciding = list(state.deciding)
        waiting = (f"{', '.join(deciding)} to decide" + (" (at once, face down)" if state.simultaneous else "")) if deciding else ""
        return [line for line in (waiting, *self.game.score_lines(state)) if line]

    def table_view(self) -> BasicTable:
        return BasicTable(self)

    def steps(self) -> BasicReplay:
        return BasicReplay(self)

    def fills_in(self, old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
        """``new`` is ``old`` with values that were ``null`` now given, nothing else changed
        (a face-down card named once it was seen)."""
        if old.get("event") != new.get("event") or old.keys() - new.keys():
            return False
        named = 0
        for key, value in new.items():
            before = old.get(key)
            if before is None and value is not None:
                named += 1
            elif before != value:
                return False
        return named > 0

    def starter(self, events: list[Mapping[str, Any]]) -> str | None:
        """The first player named by an event after the header."""
        for event in events[1:]:
            who = event.get("player")
            if isinstance(who, str):
                return who
        return None

    def __repr__(self) -> str:
        return f"<ClubPart {self.game.name}>"
