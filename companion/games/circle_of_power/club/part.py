"""Circle of Power's part of the club (:class:`companion.club.parts.ClubPart`): what the archive
keeps of a game, the columns of its standings, and its words for the live page.

Every emperor is a side of their own: the players, and the dummies (``@1``, ``@2``, C4), which
are automatic seats: their figures are kept, but they are nobody, never rated and never in the
standings (C11: they play by the rules alone; C17: they never win).

Figures, each a whole number (:class:`~companion.club.parts.Figures`):

- each season, per emperor seated in it: ``trophies`` (its points, one a trophy, C16) and
  ``destroyed`` (its cities destroyed that count towards a knock-out, C18); the season itself in
  words: its ``dealer``, ``seats``, each emperor's trophies and destroyed cities as cards, the
  knock-outs, whether the Lonely Tyrant cut it short, and the settlement's ``reasons``;
- the whole game, per emperor: ``seasons`` (the seasons it sat in), ``trophies`` (its total),
  ``destroyed``, ``knocked_out`` (1 when knocked out, C18), ``actions_won`` (the actions whose
  initiative it won, C9), ``draws`` (1 when the game ended in a draw it shares, C17) and
  ``lonely_tyrant_wins`` (1 when it won as the Lonely Tyrant, C18); per player the same.

Finishing places (which ratings rank): the winner first; then the players still in the game by
their totals, a draw sharing the first place (C17); then the players knocked out, the last one
out first (C18); the dummies after every player, by their totals.

>>> part = CircleOfPowerClub()
>>> [c.figure for c in part.columns]
['seasons', 'trophies', 'draws', 'lonely_tyrant_wins']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.club import filling
from companion.club.parts import Column, Figures, Period, Result, Seat, Side, places
from companion.games.circle_of_power.club.describe import Replay, TableView, describe_event, page_words, season_reasons
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.scoring import Termination
from companion.games.circle_of_power.setup import CircleSetup, is_dummy

__all__ = ["CircleOfPowerClub", "ActionCount", "PART", "fills_in", "finishing_places", "starter"]

#: An emperor's figures for a season.
SEASON_FIGURES = ("trophies", "destroyed")
#: An emperor's and a player's figures for the whole game.
GAME_FIGURES = ("seasons", "trophies", "destroyed", "knocked_out", "actions_won", "draws", "lonely_tyrant_wins")


class ActionCount:
    """The actions each emperor won (C9), counted as a game is played: the final state no
    longer tells who acted. :meth:`after` each move: an act follows a state in which the
    winner is to act."""

    def __init__(self) -> None:
        self.won: dict[str, int] = {}
        self._acting: str | None = None

    def after(self, state: CircleState) -> None:
        acting = state.to_move if state.phase is Phase.ACT else None
        if self._acting is not None and acting is None:
            self.won[self._acting] = self.won.get(self._acting, 0) + 1
        self._acting = acting


def finishing_places(state: CircleState) -> dict[str, int]:
    """Each emperor's finishing place in a finished game (see the module's words)."""
    outcome = state.outcome()
    if outcome is None:
        return {}
    totals = state.totals
    out = list(state.knocked_out)
    still = [p for p in state.setup.players if p not in out]
    place = places({p: totals.get(p, 0) for p in still}, outcome.winner, still)
    last = len(still)
    for k, name in enumerate(reversed(out)):  # the last one knocked out lasted longest
        place[name] = last + 1 + k
    dummies = [e for e in state.emperors if is_dummy(e)]
    ranked = places({d: totals.get(d, 0) for d in dummies}, None, dummies)
    for d in dummies:
        place[d] = len(state.setup.players) + ranked[d]
    return place


def starter(events: list[Mapping[str, Any]]) -> str | None:
    """Who began the game: the first player to play a card in its first action (the dealer's
    left leads, C5; when that seat is a dummy's, the first player after it); ``None`` when no
    player has played yet."""
    for event in events:
        if event.get("event") == "play":
            who = event.get("player")
            if isinstance(who, str) and not is_dummy(who):
                return who
    return None


_FILLABLE = {"season": ("hands", "piles"), "play": ("drew",), "reshuffle": ("piles",)}


def fills_in(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """``new`` is the event ``old`` with cards that were unseen when it was recorded now named
    (a season's hands or a dummy's pile, a drawn card, the reshuffled piles),
    and nothing else changed."""
    return filling.fills_in(old, new, _FILLABLE)


class CircleOfPowerClub:
    """Circle of Power as the club sees it (``GAME.club()``)."""

    period = "season"
    periods = "seasons"
    columns = (
        Column("seasons", "seas", 5, "seasons", "seasons played"),
        Column("trophies", "trph", 5, "trophies", "trophies won"),
        Column("draws", "drw", 4, "draws", "games drawn (C17)"),
        Column("lonely_tyrant_wins", "LT", 3, "Lonely Tyrant", "wins as the Lonely Tyrant (C18)"),
    )
    order = ("trophies",)
    history = ("trophies", "seasons", "actions_won")
    history_text = "trph {trophies:>2} seas {seasons:>2}"
    history_heading = "figures"
    endings = {
        Termination.ONE_TRUE_EMPEROR.value: ", the One True Emperor (C17)",
        Termination.LONELY_TYRANT.value: ", the Lonely Tyrant (C18)",
    }
    score = "trophies"

    def page_words(self) -> dict[str, Any]:
        """What the live page needs to draw the game's cards on their colours (C1, C3)."""
        return page_words()

    def tally(self, setup: CircleSetup) -> ActionCount:
        return ActionCount()

    def result(self, state: CircleState, tally: ActionCount) -> Result:
        outcome = state.outcome()
        totals = state.totals
        destroyed = state.destroyed_totals
        emperors = state.emperors
        winner = outcome.winner if outcome else None
        drawn = outcome is not None and outcome.draw
        tyrant = outcome is not None and outcome.how is Termination.LONELY_TYRANT
        place = finishing_places(state)
        seasons = dict.fromkeys(emperors, 0)
        periods = []
        for r in state.results:
            for name in r.seats:
                seasons[name] = seasons.get(name, 0) + 1
            periods.append(
                Period(
                    r.number,
                    Figures(sides={n: {"trophies": r.points.get(n, 0), "destroyed": r.destroyed.get(n, 0)} for n in r.seats}),
                    {
                        "dealer": r.dealer,
                        "seats": list(r.seats),
                        "trophies": {n: [c.id for c in r.trophies.get(n, ())] for n in r.seats},
                        "destroyed_cities": {n: [c.id for c in r.destroyed_cards.get(n, ())] for n in r.seats},
                        "knocked_out": list(r.knocked_out),
                        "cut_short": r.cut_short,
                        "reasons": season_reasons(r),
                    },
                )
            )
        knocked = set(state.knocked_out)
        figures = {
            e: {
                "seasons": seasons.get(e, 0),
                "trophies": totals.get(e, 0),
                "destroyed": destroyed.get(e, 0),
                "knocked_out": int(e in knocked),
                "actions_won": tally.won.get(e, 0),
                "draws": int(drawn and place.get(e) == 1 and not is_dummy(e)),
                "lonely_tyrant_wins": int(tyrant and e == winner),
            }
            for e in emperors
        }
        return Result(
            seats=tuple(Seat(e, e, automatic=is_dummy(e)) for e in emperors),
            sides=tuple(Side(e, won=e == winner, place=place.get(e)) for e in emperors),
            finished=outcome is not None,
            winner=winner,
            termination=outcome.how.value if outcome else None,
            figures=Figures(sides=figures, players={p: figures[p] for p in state.setup.players}),
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
        return starter(events)

    def __repr__(self) -> str:
        return "<ClubPart circle-of-power>"


PART = CircleOfPowerClub()
"""Circle of Power's club part, as ``GAME.club()`` gives it."""
