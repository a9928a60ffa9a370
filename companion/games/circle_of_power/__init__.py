"""Circle of Power: a card game about four warring emperors, for 2-4 players (rulebook 3.1,
rulings C1-C20), as a plug-in of the companion (:data:`GAME`).

- :mod:`.cards`: the 54 cards, the battle and city decks, the circle (C1-C3), the catalogue.
- :mod:`.moves`: the events of a game as values (:class:`Season`, :class:`Reveal`,
  :class:`Play`, :class:`Conquer`, :class:`Retake`, :class:`Regroup`, :class:`Reshuffle`).
- :mod:`.game`: the state (:class:`CircleState`), every ruling checked; it is made of one module
  per part of the rules: :mod:`.position`, :mod:`.reading`, :mod:`.seasons` (C4-C6), :mod:`.plays`
  (C7-C9), :mod:`.acts` and :mod:`.act_resolution` (C10-C14, C18, C19), :mod:`.reshuffle` (C15),
  :mod:`.ending` (C16-C20), :mod:`.hidden`.
- :mod:`.rules`: trump suits, the initiative, attacks and threats as pure functions.
- :mod:`.scoring`: season results, totals, knock-outs, the outcome (C16-C20).
- :mod:`.effects`, :mod:`.view`: what a move did; what a player may know.
- :mod:`.record`: the ``cop-record/1`` codec.
- :mod:`.query`: the ``rop legal`` question as a pure function.
- :mod:`.policies`: players for simulated tables, and :func:`~.policies.simulate`.
- :mod:`.dashboard`: the table screen, manual play and the demo in the dashboard.
- :mod:`.samples`: the sample records shipped with the game.
- :mod:`.coach`: what the coach knows of the game (``GAME.coach()``).
- :mod:`.tracking`: following a table by its camera and NFC readers; :mod:`.simulation`: what
  a game looks like to them.

>>> GAME.name, GAME.codec.format, [o.name for o in GAME.options]
('circle-of-power', 'cop-record/1', ['variant', 'target'])
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob"], variant="lonely-tyrant"))
>>> GAME.summary(state)["finished"]
False
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.games.circle_of_power.cards import CARDS, Card, CircleCards
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import (
    UNSEEN,
    Conquer,
    Move,
    Play,
    Regroup,
    Reshuffle,
    Retake,
    Reveal,
    Season,
)
from companion.games.circle_of_power.record import CODEC, CircleCodec
from companion.games.circle_of_power.effects import Effects
from companion.games.circle_of_power.scoring import Outcome, SeasonResult, Termination
from companion.games.circle_of_power.setup import MAX_TARGET, VARIANTS, CircleSetup, THE_GAME
from companion.contract.options import Option, with_defaults

if TYPE_CHECKING:
    from companion.coach.model import CoachModel
    from companion.contract import TableSpec
    from companion.commands.game_command import GameCommand
    from companion.games.circle_of_power.club.part import CircleOfPowerClub
    from companion.dashboard.kit import DashboardKit
    from companion.games.circle_of_power.tracking.reasoner import CircleTracking
from companion.contract import Game, Sample

__all__ = [
    "GAME",
    "CircleOfPower",
    "CircleSetup",
    "CircleState",
    "Card",
    "CARDS",
    "UNSEEN",
    "Season",
    "Reveal",
    "Play",
    "Conquer",
    "Retake",
    "Regroup",
    "Reshuffle",
    "Phase",
    "Outcome",
    "SeasonResult",
    "Termination",
]

_OPTIONS = (
    Option(
        "variant",
        "the rules: basic, lonely-tyrant (C18: knock every other player out) or coloured-cities (C19: the full game)",
        "choice",
        "basic",
        choices=VARIANTS,
    ),
    Option("target", "trophies that end the game (C17; ignored by lonely-tyrant)", "int", 6, low=1, high=MAX_TARGET),
)


class CircleOfPower(Game[CircleState, Move]):
    """The plug-in object of Circle of Power (the protocol's :class:`~companion.contract.
    Game`): the fixed facts of the game, and the states it makes."""

    name = "circle-of-power"
    title = "Circle of Power"
    rulings = "C1-C20"
    min_players = 2
    max_players = 4
    rules_modules = tuple(
        f"companion.games.circle_of_power.{name}"
        for name in (
            "cards", "effects", "game", "moves", "rules", "scoring", "setup", "view", "query", "policies",
            # the state's parts (game.CircleState is made of them)
            "position", "reading", "seasons", "plays", "acts", "act_resolution", "reshuffle", "ending", "hidden",
            "table",  # its cards know their seals
        )
    )

    @property
    def cards(self) -> CircleCards:
        return CARDS

    @property
    def codec(self) -> CircleCodec:
        return CODEC

    @property
    def table(self) -> TableSpec:
        """What a Circle of Power table needs: the standard deck, four seats and the city deck,
        the play, city and line readers, its seal ids and NFC records (:mod:`.table`)."""
        from companion.games.circle_of_power.table import TABLE

        return TABLE

    @property
    def options(self) -> tuple[Option, ...]:
        return _OPTIONS

    def make_setup(self, players: Sequence[str], **options: Any) -> CircleSetup:
        """The set-up of a table of ``players`` (clockwise) with ``variant`` and ``target``;
        :class:`ValueError` naming the ruling (C4) for a table the rules do not allow."""
        chosen = with_defaults(_OPTIONS, options)
        return CircleSetup(tuple(players), chosen["variant"], chosen["target"], game=self)

    def new_state(self, setup: CircleSetup, *, keep_history: bool = True) -> CircleState:
        return CircleState(setup, keep_history=keep_history)

    def chance_move(self, state: CircleState, rng: random.Random) -> Move:
        """A random legal move of the table: a season's set-up (C4-C6), the next city card
        turned up (C7), or the reshuffle (C15)."""
        return state.random_table_move(rng)

    def summary(self, state: CircleState) -> dict[str, Any]:
        """The scores as ``rop replay --json`` prints them (record-format.md, "Scores")."""
        outcome = state.outcome()
        return {
            "game": self.name,
            "seasons": [r.to_json() for r in state.results],
            "totals": state.totals,
            "destroyed": state.destroyed_totals,
            "knocked_out": list(state.knocked_out),
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "draw": outcome.draw if outcome else False,
            "how": outcome.how.value if outcome else None,
        }

    def score_lines(self, state: CircleState) -> list[str]:
        """The scores in words, as ``rop replay`` prints them: the table, each season, the
        totals, the knock-outs and the result."""
        lonely = state.variant != "basic"
        setup = state.setup
        target = "" if setup.variant == "lonely-tyrant" else f", target {setup.target}"
        lines = [f"{', '.join(setup.players)}; {setup.variant}{target}"]
        for r in state.results:
            short = ", cut short by the Lonely Tyrant" if r.cut_short else ""
            points = ", ".join(f"{n} {r.explain(n)}" for n in r.seats)
            lines.append(f"Season {r.number} (dealt by {r.dealer}{short}): {points}")
            if lonely and any(r.destroyed.values()):
                lost = ", ".join(f"{n} {k}" for n, k in r.destroyed.items() if k)
                lines.append(f"  destroyed cities that count: {lost}")
            if r.knocked_out:
                lines.append(f"  knocked out: {', '.join(r.knocked_out)}")
        totals = state.totals
        lines.append("Totals: " + ", ".join(f"{n} {t}" for n, t in totals.items()))
        if lonely:
            lines.append("Destroyed: " + ", ".join(f"{n} {t}" for n, t in state.destroyed_totals.items()))
        if state.knocked_out:
            lines.append(f"Knocked out: {', '.join(state.knocked_out)}")
        outcome = state.outcome()
        if outcome is None:
            lines.append(f"Not finished: season {state.season_number}, action {state.action_number}")
        else:
            lines.append(f"Result: {outcome.explain()}")
        return lines

    def describe(self, move: Move) -> str:
        """A move in a few words: ``"ann plays 9H and draws 3H"``, ``"ann conquers bob"``."""
        if isinstance(move, Play):
            drew = f" and draws {move.drew.id}" if isinstance(move.drew, Card) else ""
            return f"{move.player} plays {move.card.id}{drew}"
        if isinstance(move, Conquer):
            keep = ", keeping their city" if move.keep else ""
            return f"{move.player} conquers {move.victim}{keep}"
        if isinstance(move, Retake):
            lost = f", discarding {move.discard.id}" if move.discard is not None else ""
            return f"{move.player} retakes {move.victim}'s city{lost}"
        if isinstance(move, Regroup):
            lost = f", losing {move.discard.id} to rebellion" if move.discard is not None else ""
            return f"{move.player} regroups{lost}"
        if isinstance(move, Reveal):
            return f"{move.card.id} is turned up"
        if isinstance(move, Reshuffle):
            return "the battle deck is reshuffled"
        if isinstance(move, Season):
            return f"a season dealt by {move.dealer}: {', '.join(move.seats)}"
        return repr(move)

    def narrate(self, state: CircleState, move: Move, effects: Effects) -> str:
        """What the move did: the card played (trump or not), who won the action and why (C9),
        what the winner's act took (C12-C14), a rebellion, knock-outs, the season's end."""
        text = self.describe(move)
        if effects.initiative is not None:
            text += f"; {effects.initiative.reason}"
        if effects.rebellion and effects.lost is not None:
            text += f"; the city rebels: {effects.lost.id} is lost (C14)"
        if effects.knocked_out:
            text += f"; knocked out: {', '.join(effects.knocked_out)} (C18)"
        if effects.result is not None:
            text += f"; season {effects.result.number} is over"
        return text

    def period_json(self, state: CircleState, result: SeasonResult) -> dict[str, Any]:
        """A finished season: each emperor's points (C16), the destroyed cities that count
        (C18), the totals after it, and the winner once the game is over."""
        outcome = state.outcome()
        return {
            "kind": "season",
            "season": result.number,
            **result.to_json(),
            "totals": state.totals,
            "winner": outcome.winner if outcome else None,
        }

    def samples(self) -> tuple[Sample, ...]:
        """The sample records shipped with the game: one of each variant, and one as a table
        keeps it by keyboard (:mod:`.samples`)."""
        from companion.games.circle_of_power.samples import SAMPLES, sample_path

        return tuple(Sample(name, sample.description, sample_path(name)) for name, sample in SAMPLES.items())

    def dashboard(self) -> DashboardKit:
        """The game's panels, dialogs and words for the dashboard (:mod:`.dashboard`)."""
        from companion.games.circle_of_power.dashboard.kit import KIT

        return KIT

    def commands(self) -> tuple[GameCommand, ...]:
        """``rop legal`` and ``rop simulate`` for Circle of Power."""
        from companion.games.circle_of_power.commands import COMMANDS

        return COMMANDS

    def club(self) -> CircleOfPowerClub:
        """What the club keeps of a Circle of Power game (seasons, trophies, draws; dummies
        kept but never rated), its standings' columns and its words for the live page
        (:class:`companion.club.parts.ClubPart`)."""
        from companion.games.circle_of_power.club.part import PART

        return PART

    def tracking(self) -> CircleTracking:
        """Following a table by its camera and NFC readers: the table facts (the first season's
        seats) and the reasoning (docs/tracker.md)."""
        from companion.games.circle_of_power.tracking.reasoner import CircleTracking

        return CircleTracking()

    def coach(self) -> CoachModel:
        """What the coach knows of Circle of Power (:mod:`~companion.games.circle_of_power.coach.model`)."""
        from companion.games.circle_of_power.coach.model import MODEL

        return MODEL

    def __repr__(self) -> str:
        return "GAME"


GAME = CircleOfPower()
"""Circle of Power, as the registry finds it (``companion.games.circle_of_power:GAME``)."""
THE_GAME.hand_over(GAME)

