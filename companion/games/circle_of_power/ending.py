"""The end of an action, of a season and of the game: the winner leads the next action (C5),
the battle deck runs out after action 6 (C15), the season ends after action 15 (C16) with its
points and the totals (C16, C19); a destroyed city counts towards a player's knock-out (C18),
and the game ends at the target (C17, C20) or with the Lonely Tyrant (C18)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.position import _OVER, _RESHUFFLE, _SEASON, ACTIONS, RESHUFFLE_AFTER, CircleBase
from companion.games.circle_of_power.scoring import KNOCK_OUT, Outcome, SeasonResult, Termination, decide_after_season, season_points

__all__ = ["Ending"]


class Ending(CircleBase):
    """The state's part for what follows an act (C5, C15-C20)."""

    if TYPE_CHECKING:

        def _begin_action(self) -> None: ...

    def _end_action(self, winner: int, tyrant: str | None) -> None:
        """The action is over: the season ends after action 15, or the game when the Lonely
        Tyrant is left (C16, C18); the battle deck is reshuffled after action 6 (C15);
        otherwise the winner leads the next action (C5)."""
        c = self._core
        c.plays = ()
        if tyrant is not None:
            self._end_season(tyrant)
        elif c.action == ACTIONS:
            self._end_season(None)
        else:
            c.action += 1
            c.leader = winner
            c.turn = winner
            if c.action == RESHUFFLE_AFTER + 1:
                c.phase = _RESHUFFLE
                c.turn = -1
            else:
                self._begin_action()

    def _destroy(self, seat: int, card: Card) -> str | None:
        """C18: ``seat``'s city is destroyed into its own line; it counts towards a player's
        knock-out up to the fifth, never a dummy's. Returns the Lonely Tyrant when the
        knock-out leaves one player in the game."""
        c = self._core
        c.destroyed[seat] = c.destroyed[seat] + (card,)
        name = c.seats[seat]
        if c.dummy[seat] or name in c.knocked:
            return None
        e = c.emp_index[name]
        counted = list(c.season_destroyed)
        counted[e] += 1
        c.season_destroyed = tuple(counted)
        if c.destroyed_totals[e] + counted[e] >= KNOCK_OUT:
            c.knocked = c.knocked + (name,)
            left = [p for p in self.players if p not in c.knocked]
            if len(left) == 1:
                return left[0]
        return None

    def _end_season(self, tyrant: str | None) -> None:
        """C16-C20: the season's points, the totals, and whether the game ends."""
        c = self._core
        points = season_points(self._variant, c.trophies)
        totals = list(c.totals)
        for i, name in enumerate(c.seats):
            totals[c.emp_index[name]] += points[i]
        destroyed_totals = tuple(a + b for a, b in zip(c.destroyed_totals, c.season_destroyed))
        c.totals = tuple(totals)
        c.destroyed_totals = destroyed_totals
        totals_map = dict(zip(c.emperors, c.totals))
        result = SeasonResult(
            number=c.season,
            dealer=c.dealer_name or "",
            seats=c.seats,
            points={name: points[i] for i, name in enumerate(c.seats)},
            trophies={name: c.trophies[i] for i, name in enumerate(c.seats)},
            destroyed={name: c.season_destroyed[c.emp_index[name]] for name in c.seats},
            destroyed_cards={name: c.destroyed[i] for i, name in enumerate(c.seats)},
            knocked_out=c.knocked[c.knocked_before :],
            totals=totals_map,
            destroyed_totals=dict(zip(c.emperors, destroyed_totals)),
            cut_short=tyrant is not None,
        )
        c.season_destroyed = (0,) * len(c.emperors)
        c.results = c.results + (result,)
        if tyrant is not None:
            c.outcome = Outcome(tyrant, False, Termination.LONELY_TYRANT, totals_map)
        elif not self._lonely:
            c.outcome = decide_after_season(totals_map, self.players, c.knocked, self.setup.target)
        c.turn = -1
        c.phase = _OVER if c.outcome is not None else _SEASON
