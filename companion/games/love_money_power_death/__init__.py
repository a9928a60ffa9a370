"""Love, Money, Power, Death: the simple way to play Balance of Power, for two or more players
(rulings L1-L14), as a plug-in of the companion (:data:`GAME`). Every round each player commits
a card face down, all at once; the top noble is turned; the cards are revealed, and the card
of the noble's suit with the highest rank wins it, unless an agent does.

- :mod:`.cards`: the 52 cards of a deck and the twelve noble identifiers, the catalogue (L1-L3).
- :mod:`.setup`: the players and the nobles in use (L4), the piles' sizes (L5).
- :mod:`.moves`: the events as values (:class:`Deal`, :class:`Commit`, :class:`TurnUp`,
  :class:`Reveal`, :class:`Draw`).
- :mod:`.state`: the state (:class:`LmpdState`), every ruling checked, hidden cards included
  (L14).
- :mod:`.scoring`: who wins a noble (L8-L10) and the game (L13).
- :mod:`.effects`, :mod:`.view`: what a move did; what a player may know.
- :mod:`.record`: the ``lmpd-record/1`` codec.
- :mod:`.summary`, :mod:`.words`: the scores as JSON and in words.
- :mod:`.query`: the ``rop legal`` question as a pure function.
- :mod:`.policies`: players for simulated tables, and :func:`~.policies.simulate`.
- :mod:`.commands`: ``rop legal`` and ``rop simulate``; :mod:`.samples`: the sample records.
- :mod:`.coach`: what the coach knows of the game (``GAME.coach()``); :mod:`.dashboard`: the
  table at the dashboard (``GAME.dashboard()``); :mod:`.club`: its games at the club
  (``GAME.club()``).

>>> GAME.name, GAME.codec.format, [o.name for o in GAME.options]
('love-money-power-death', 'lmpd-record/1', ['nobles', 'fives'])
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy", "dee", "eve"]))
>>> GAME.summary(state)["finished"], state.setup.pile_size, len(state.setup.nobles)
(False, 8, 8)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.contract import Game, Sample
from companion.contract.options import Option, with_defaults
from companion.games.love_money_power_death.cards import CARDS, Card, LmpdCards
from companion.games.love_money_power_death.effects import Effects
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move, Reveal, TurnUp
from companion.games.love_money_power_death.record import CODEC, LmpdCodec
from companion.games.love_money_power_death.scoring import Outcome, RoundResult, TieBreak, Why
from companion.games.love_money_power_death.setup import DEFAULT_FIVES, FIVES, MOST, LmpdSetup, THE_GAME
from companion.games.love_money_power_death.state import LmpdState, Phase
from companion.games.love_money_power_death.view import LmpdView

if TYPE_CHECKING:
    from companion.club.parts import ClubPart
    from companion.coach.model import CoachModel
    from companion.commands.game_command import GameCommand
    from companion.contract import TableSpec
    from companion.games.love_money_power_death.tracking.reasoner import LmpdTracking
    from companion.dashboard.kit import DashboardKit

__all__ = [
    "GAME",
    "LoveMoneyPowerDeath",
    "LmpdSetup",
    "LmpdState",
    "LmpdView",
    "Card",
    "CARDS",
    "UNSEEN",
    "Deal",
    "Commit",
    "TurnUp",
    "Reveal",
    "Draw",
    "Move",
    "Phase",
    "Effects",
    "RoundResult",
    "Why",
    "Outcome",
    "TieBreak",
]

_OPTIONS = (
    Option(
        "nobles",
        "how many nobles are in play (L4: nobles x players <= 42): 1 to 10, kept in the order rank 2s, 3s, 5s; "
        "0 for as many as the players allow (10 for 2-4 players, 8 for 5, 7 for 6, ...)",
        "int",
        MOST,
        low=0,
        high=10,
    ),
    Option("fives", "the suits of the deck's two rank-5 nobles (L1)", "choice", DEFAULT_FIVES, choices=FIVES),
)


class LoveMoneyPowerDeath(Game[LmpdState, Move]):
    """The plug-in object of Love, Money, Power, Death (the contract's :class:`~companion.
    contract.Game`): the fixed facts of the game, and the states it makes."""

    name = "love-money-power-death"
    title = "Love, Money, Power, Death"
    rulings = "L1-L14"
    min_players = 2
    max_players = 10
    """L4: two or more players; the deck rule allows up to 42 with a single noble, but the
    companion's tables (its screens, layouts and readers) seat at most ten, as far as L4's own
    table of players and nobles goes."""
    rules_modules = tuple(
        f"companion.games.love_money_power_death.{name}"
        for name in ("cards", "setup", "moves", "scoring", "effects", "state", "view", "query", "policies", "table")
    )

    @property
    def cards(self) -> LmpdCards:
        return CARDS

    @property
    def codec(self) -> LmpdCodec:
        return CODEC

    @property
    def table(self) -> TableSpec:
        """What a Love, Money, Power, Death table needs: the shared deck with its backs, each
        seat's pile, commit place and court, the nobles in the middle, the commit and centre
        readers, its seal ids and NFC records (:mod:`.table`)."""
        from companion.games.love_money_power_death.table import TABLE

        return TABLE

    @property
    def options(self) -> tuple[Option, ...]:
        return _OPTIONS

    def make_setup(self, players: Sequence[str], **options: Any) -> LmpdSetup:
        """The set-up of a table of ``players`` (seating order) with ``nobles`` (how many of the
        deck's, 0 for as many as the players allow, or a list of identifiers) and ``fives`` (the suits of the deck's rank-5
        nobles); :class:`ValueError` naming the ruling (L4) for a table the rules do not allow:
        nobles x players <= 42."""
        chosen = with_defaults(_OPTIONS, options)
        return LmpdSetup.make(tuple(players), chosen["nobles"], chosen["fives"])

    def new_state(self, setup: LmpdSetup, *, keep_history: bool = True) -> LmpdState:
        return LmpdState(setup, keep_history=keep_history)

    def chance_move(self, state: LmpdState, rng: random.Random) -> Move:
        """A random legal move of the table: the deal (L5), the top noble turned (L7), the
        reveal (L7) or the draw (L11)."""
        return state.random_table_move(rng)

    def summary(self, state: LmpdState) -> dict[str, Any]:
        """The scores as ``rop replay --json`` prints them (record-format.md, "Scores")."""
        from companion.games.love_money_power_death.summary import summary

        return summary(state)

    def score_lines(self, state: LmpdState) -> list[str]:
        """The scores in words, as ``rop replay`` prints them: the table, each round, the
        courts, the totals and the result."""
        from companion.games.love_money_power_death.words import score_lines

        return score_lines(state)

    def describe(self, move: Move) -> str:
        """A move in a few words, as the table may read it: ``"ann commits a card face down"``
        (never the card, L6), ``"N3P is turned up"``."""
        from companion.games.love_money_power_death.words import describe

        return describe(move)

    def narrate(self, state: LmpdState, move: Move, effects: Effects) -> str:
        """What the move did, for the event log; a commit never names its card (L6)."""
        from companion.games.love_money_power_death.words import narrate

        return narrate(state, move, effects)

    def period_json(self, state: LmpdState, result: RoundResult) -> dict[str, Any]:
        """A decided round, for ``rop track``."""
        from companion.games.love_money_power_death.summary import period_json

        return period_json(state, result)

    def samples(self) -> tuple[Sample, ...]:
        """The sample records shipped with the game (:mod:`.samples`)."""
        from companion.games.love_money_power_death.samples import SAMPLES, sample_path

        return tuple(Sample(name, sample.description, sample_path(name)) for name, sample in SAMPLES.items())

    def tracking(self) -> LmpdTracking:
        """Following a table by its camera and NFC readers: no table facts, the commit and
        centre readers, and the reasoning (docs/tracker.md)."""
        from companion.games.love_money_power_death.tracking.reasoner import LmpdTracking

        return LmpdTracking()

    def commands(self) -> tuple[GameCommand, ...]:
        """``rop legal`` and ``rop simulate`` for Love, Money, Power, Death."""
        from companion.games.love_money_power_death.commands import COMMANDS

        return COMMANDS

    def coach(self) -> CoachModel:
        """What the coach knows of the game (:mod:`.coach`): the commit judged from the
        player's view alone, played out to the game's end."""
        from companion.games.love_money_power_death.coach.model import MODEL

        return MODEL

    def dashboard(self) -> DashboardKit:
        """Its table screen, the round's settlement, manual play by keyboard and the demo table
        (:mod:`.dashboard`)."""
        from companion.games.love_money_power_death.dashboard.kit import KIT

        return KIT

    def club(self) -> ClubPart:
        """What the club keeps of a game, its standings' columns and its words for the live
        page (:mod:`.club`)."""
        from companion.games.love_money_power_death.club.part import PART

        return PART

    def __repr__(self) -> str:
        return "GAME"


GAME = LoveMoneyPowerDeath()
THE_GAME.hand_over(GAME)
"""Love, Money, Power, Death, as the registry finds it
(``companion.games.love_money_power_death:GAME``)."""
