"""Rule of Power's part of the club (:class:`companion.club.parts.ClubPart`): what the archive
keeps of a game, the columns of its standings, and its words for the live page.

Figures, each a whole number (:class:`~companion.club.parts.Figures`):

- each round, per side, its points (R6-R14): ``world_cards``, ``power_cards``,
  ``fire_dragon``, ``pride_of_dragons``, ``power_master``, ``power_points``, ``sweeps`` and
  ``total``; the round itself in words: its ``dealer``, who held the ``rule_of_power`` (R13)
  and the settlement's ``reasons``;
- the whole game, per side: ``points_for`` (its game total), ``points_against`` (the other
  sides' totals), ``sweeps`` (R7) and ``rule_of_power_wins`` (1 when it won by the Rule of
  Power, R13); per player the same, their side's, except ``sweeps``: the clean sweeps the
  player made, with a card they laid (in a team game the side's figure is its members' sum).

>>> part = RuleOfPowerClub()
>>> [c.figure for c in part.columns]
['points_for', 'points_against', 'sweeps', 'rule_of_power_wins']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from companion.club.parts import Column, Figures, Period, Result, Seat, Side, places
from companion.games.rule_of_power.club.describe import TableView, card_label, describe_event, page_words
from companion.games.rule_of_power.engine.game import GameSetup, GameState, Phase, Termination
from companion.games.rule_of_power.progress import progress

__all__ = ["RuleOfPowerClub", "Replay", "SweepCount", "fills_in", "PART"]

#: A side's points in a round (R6-R14), as :meth:`SidePoints.to_json` names them.
ROUND_POINTS = (
    "world_cards", "power_cards", "fire_dragon", "pride_of_dragons", "power_master", "power_points", "sweeps", "total",
)
#: A side's and a player's figures for the whole game.
GAME_FIGURES = ("points_for", "points_against", "sweeps", "rule_of_power_wins")


class SweepCount:
    """Each player's own clean sweeps (R7: a capture is the sweep of the player who laid the
    card) in the rounds that ended, kept as a game is played: :meth:`after` each move."""

    def __init__(self, players: Iterable[str]) -> None:
        self.sweeps: dict[str, int] = dict.fromkeys(players, 0)
        self._rounds = 0

    def after(self, game: GameState) -> None:
        if len(game.results) != self._rounds:
            # The round just ended; its sweeps stay with the players until the next round.
            self._rounds = len(game.results)
            for player in self.sweeps:
                self.sweeps[player] += len(game.sweeps(player))


class Replay:
    """A stored game step by step for the page: after each event the centre, the totals,
    the round's running score, and at the end of each round its settlement with the reasons."""

    def __init__(self) -> None:
        self._rounds = 0

    def first(self, header: Mapping[str, Any]) -> dict[str, Any]:
        return {"centre": [], "totals": {}}

    def after(self, game: GameState) -> dict[str, Any]:
        step: dict[str, Any] = {
            "centre": [card_label(c.id) for c in game.centre],
            "totals": game.totals,
            "progress": progress(game)._asdict(),
        }
        if game.phase in (Phase.DEAL, Phase.TURN):
            step["running"] = {s: p.total for s, p in game.provisional_score().sides.items()}
        if len(game.results) > self._rounds:
            self._rounds = len(game.results)
            result = game.results[-1]
            step["settlement"] = {
                "round": result.number,
                "points": {s: p.to_json() for s, p in result.score.sides.items()},
                "reasons": result.score.reasons(),
            }
        return step


def fills_in(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """``new`` is the deal ``old`` with some of the cards written face down (``null``) now
    named, and nothing else changed: the hands completed at a round's end
    (:mod:`companion.games.rule_of_power.completion`)."""
    if not old.get("event") == new.get("event") == "deal" or old.keys() != new.keys():
        return False
    if any(old[k] != new[k] for k in old if k != "hands"):
        return False
    before, after = old.get("hands"), new.get("hands")
    if not isinstance(before, dict) or not isinstance(after, dict) or before.keys() != after.keys():
        return False
    named = 0
    for player, cards in before.items():
        now = after[player]
        if not isinstance(cards, list) or not isinstance(now, list) or len(cards) != len(now):
            return False
        try:
            # Every card named before is still there; the rest were face down.
            if Counter(c for c in cards if c is not None) - Counter(c for c in now if c is not None):
                return False
        except TypeError:
            return False
        named += cards.count(None) - now.count(None)
    return named > 0


class RuleOfPowerClub:
    """Rule of Power as the club sees it (``GAME.club()``)."""

    period = "round"
    periods = "rounds"
    columns = (
        Column("points_for", "for", 5, "for", "points scored"),
        Column("points_against", "agst", 5, "against", "points scored against"),
        Column("sweeps", "swp", 4, "sweeps", "clean sweeps (R7)"),
        Column("rule_of_power_wins", "RoP", 3, "Rule of Power", "wins by the Rule of Power (R13)"),
    )
    order = ("points_for",)
    history = ("points_for", "points_against")
    history_text = "{points_for:>3}-{points_against:<3}"
    history_heading = "score"
    endings = {Termination.RULE_OF_POWER.value: " by the Rule of Power (R13)"}
    score = "points_for"

    def page_words(self) -> dict[str, Any]:
        """What the live page needs to draw the game's cards as cards and lay out a round's
        settlement as the dashboard does (:func:`.describe.page_words`)."""
        return page_words()

    def tally(self, setup: GameSetup) -> SweepCount:
        return SweepCount(setup.players)

    def result(self, state: GameState, tally: SweepCount) -> Result:
        setup = state.setup
        outcome = state.outcome()
        totals = state.totals
        grand = sum(totals.values())
        winner = outcome.winner if outcome else None
        by_rule = outcome is not None and outcome.termination is Termination.RULE_OF_POWER
        side_sweeps = dict.fromkeys(setup.sides, 0)
        periods = []
        for result in state.results:
            score = result.score
            periods.append(
                Period(
                    result.number,
                    Figures(sides={side: pts.to_json() for side, pts in score.sides.items()}),
                    {"dealer": result.dealer, "rule_of_power": score.rule_of_power, "reasons": score.reasons()},
                )
            )
            for side, n in score.sweeps.items():
                side_sweeps[side] = side_sweeps.get(side, 0) + n
        place = places(totals, winner, setup.sides) if outcome else {}
        is_team = setup.teams is not None
        sides = {
            side: {
                "points_for": totals[side],
                "points_against": grand - totals[side],
                "sweeps": side_sweeps.get(side, 0),
                "rule_of_power_wins": int(by_rule and side == winner),
            }
            for side in setup.sides
        }
        players = {}
        for player in setup.players:
            own = dict(sides[setup.side_of(player)])
            own["sweeps"] = tally.sweeps.get(player, 0)
            players[player] = own
        return Result(
            seats=tuple(Seat(p, setup.side_of(p)) for p in setup.players),
            sides=tuple(Side(s, is_team=is_team, won=s == winner, place=place.get(s)) for s in setup.sides),
            finished=outcome is not None,
            winner=winner,
            termination=outcome.termination.value if outcome else None,
            figures=Figures(sides=sides, players=players),
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
        """Who began the game: the player of its first turn (a card laid or a pass)."""
        for event in events:
            if event.get("event") in ("play", "pass", "draw_fate"):
                who = event.get("player")
                return str(who) if who is not None else None
        return None

    def __repr__(self) -> str:
        return "<ClubPart rule-of-power>"


PART = RuleOfPowerClub()
"""Rule of Power's club part, as ``GAME.club()`` gives it."""
