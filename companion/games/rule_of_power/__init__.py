"""Rule of Power, the companion's first game: a fishing card game of the World deck and each
player's Fate deck (rulings R1-R25, records ``rop-record/1``).

:data:`GAME` is the game as the companion's protocol sees it
(:class:`~companion.contract.Game`); the rules themselves are in
:mod:`~companion.games.rule_of_power.engine`. The parts other layers ask of the game (the
tracker's table, the coach, the club (:meth:`RuleOfPower.club`), the dashboard, the game's
commands) are imported only when asked for, so that the rules load without them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.contract.options import Option, with_defaults
from companion.contract import Game, Sample
from companion.games.rule_of_power.catalogue import CATALOGUE, RuleOfPowerCards
from companion.games.rule_of_power.engine.cards import FATE_CARDS
from companion.games.rule_of_power.engine.effects import Effects
from companion.games.rule_of_power.engine.game import FATE_DECK_SIZE, GameSetup, GameState, Phase, RoundResult, deal_from
from companion.games.rule_of_power.engine.setup import THE_GAME
from companion.games.rule_of_power.engine.moves import Deal, Move, NewRound

if TYPE_CHECKING:
    from companion.coach.model import CoachModel
    from companion.contract import TableSpec
    from companion.commands.game_command import GameCommand
    from companion.dashboard.kit import DashboardKit
    from companion.games.rule_of_power.club.part import RuleOfPowerClub
    from companion.games.rule_of_power.record import RuleOfPowerRecord
    from companion.games.rule_of_power.tracking.reasoner import RuleOfPowerTracking

__all__ = ["GAME", "RuleOfPower", "MAX_TARGET"]

MAX_TARGET = 101
"""The highest target the companion's tables are offered: any 11 + 5k is allowed by agreement
(R14), and a simulated table reaches every target up to this one within its bounded moves."""


class RuleOfPower(Game[GameState, Move]):
    """Rule of Power as a :class:`~companion.contract.Game`."""

    name = "rule-of-power"
    title = "Rule of Power"
    rulings = "R1-R25"
    min_players = 2
    max_players = 6
    rules_modules = ("companion.games.rule_of_power.engine",)
    options = (
        Option("teams", "number of teams, whose members sit alternately; 0 for everyone alone (R16)", "int", 0, low=0, high=3),
        Option("target", "points to win: 11, 16, 21, ... (R14)", "int", 11, low=11, high=MAX_TARGET),
        Option("expansion", "the Higher Powers expansion (R2)", "flag", False),
    )

    @property
    def cards(self) -> RuleOfPowerCards:
        return CATALOGUE

    @property
    def table(self) -> TableSpec:
        """What a Rule of Power table needs: the World and Fate decks, the seat and table zones
        and standard mats, the centre and Fate readers, its seal ids and NFC records
        (:mod:`companion.games.rule_of_power.table`)."""
        from companion.games.rule_of_power.table import TABLE

        return TABLE

    @property
    def codec(self) -> RuleOfPowerRecord:
        from companion.games.rule_of_power.record import CODEC

        return CODEC

    def make_setup(self, players: Sequence[str], **options: Any) -> GameSetup:
        """Seat ``players`` (options ``teams``, ``target``, ``expansion``) in ``teams`` teams
        whose members sit alternately (R16): team ``i`` is every ``teams``-th player from seat
        ``i``."""
        chosen = with_defaults(self.options, options)
        teams, target, expansion = chosen["teams"], chosen["target"], chosen["expansion"]
        names = tuple(players)
        team_list = None
        if teams:
            if len(names) % teams:
                raise ValueError(f"{len(names)} players cannot form {teams} teams of equal size (R16)")
            team_list = tuple(names[i::teams] for i in range(teams))
        return GameSetup(names, team_list, target, expansion, game=self)

    def new_state(self, setup: GameSetup, *, keep_history: bool = True) -> GameState:
        return GameState(setup, keep_history=keep_history)

    def chance_move(self, state: GameState, rng: random.Random) -> Move:
        """The table's next move, at random: a new round dealt by the next dealer (R15; the
        first dealer drawn at random), with each player's Fate deck shuffled (R18; on the first
        round the whole table plays with Fate decks or without, at random); or the next deal
        from the cards nobody holds (R15), face down where the game already has unseen
        hands."""
        if state.phase is Phase.ROUND:
            players = state.players
            if state.round_number == 0:
                dealer = rng.choice(players)
                fate = rng.random() < 0.5
                decks = {p: rng.sample(FATE_CARDS, FATE_DECK_SIZE) if fate else [] for p in players}
            else:
                assert state.dealer is not None
                dealer = players[(players.index(state.dealer) + 1) % len(players)]
                decks = {p: rng.sample(sorted(state.fate_set(p)), FATE_DECK_SIZE) if state.fate_set(p) else [] for p in players}
            return NewRound.make(dealer, {p: d for p, d in decks.items() if d})
        if state.phase is Phase.DEAL:
            if any(state.unseen_in_hand(p) for p in state.players):
                centre = tuple(rng.sample(sorted(state.unlocated), 4)) if state.deal_number == 0 else ()
                return Deal(state.unseen_deal().hands, centre)
            deck = sorted(state.unlocated)
            rng.shuffle(deck)
            return deal_from(deck, state)
        raise ValueError(f"the table has no move now: {state.phase.value}")

    def summary(self, state: GameState) -> dict[str, Any]:
        from companion.games.rule_of_power.summary import summary_json

        return summary_json(state)

    def score_lines(self, state: GameState) -> list[str]:
        from companion.games.rule_of_power.summary import score_lines

        return score_lines(state)

    def describe(self, move: Move) -> str:
        from companion.games.rule_of_power.words import attempt_text

        return attempt_text(move)

    def narrate(self, state: GameState, move: Move, effects: Effects) -> str:
        from companion.games.rule_of_power.dashboard.commentary import describe_move

        return describe_move(state, move, effects)

    def period_json(self, state: GameState, result: RoundResult) -> dict[str, Any]:
        """A finished round: its number, each side's points with the reasons, the totals
        after it, and the winner once the game is over (R6-R14)."""
        outcome = state.outcome()
        return {
            "kind": "round",
            "round": result.number,
            "scores": {s: points.to_json() for s, points in result.score.sides.items()},
            "reasons": list(result.score.reasons()),
            "totals": dict(result.totals),
            "winner": outcome.winner if outcome else None,
        }

    def samples(self) -> tuple[Sample, ...]:
        from companion.games.rule_of_power.samples import SAMPLES, sample_path

        out = []
        for name, (players, teams, fate, expansion, _seed) in SAMPLES.items():
            what = f"{players} players" + (f" in {teams} teams" if teams else "")
            what += ", Fate decks" if fate else ""
            what += ", Higher Powers expansion" if expansion else ""
            out.append(Sample(name, what, sample_path(name)))
        return tuple(out)

    def tracking(self) -> RuleOfPowerTracking:
        """How a Rule of Power table is followed by its sensors."""
        from companion.games.rule_of_power.tracking.reasoner import RuleOfPowerTracking

        return RuleOfPowerTracking()

    def club(self) -> RuleOfPowerClub:
        """What the club keeps of a Rule of Power game, its standings' columns and its words
        for the live page (:class:`companion.club.parts.ClubPart`)."""
        from companion.games.rule_of_power.club.part import PART

        return PART

    def dashboard(self) -> DashboardKit:
        """What Rule of Power brings to the dashboard: its panels, dialogs and words."""
        from companion.games.rule_of_power.dashboard.kit import KIT

        return KIT

    def commands(self) -> tuple[GameCommand, ...]:
        """``rop legal``, ``rop score`` and ``rop simulate`` for Rule of Power."""
        from companion.games.rule_of_power.commands import COMMANDS

        return COMMANDS

    def coach(self) -> CoachModel:
        """What the coach knows of Rule of Power (:mod:`~companion.games.rule_of_power.coach.model`)."""
        from companion.games.rule_of_power.coach.model import MODEL

        return MODEL

    def __repr__(self) -> str:
        return "<Game rule-of-power>"


GAME = RuleOfPower()
"""Rule of Power, as the registry finds it (``companion.contract.registry.game("rule-of-power")``)."""
THE_GAME.hand_over(GAME)
