"""Ruse and Bruise: influence cards under goal cards in six areas, for 2-6 players (the
rulebook, rulings B1-B29), as a plug-in of the companion (:data:`GAME`).

- :mod:`.cards`: the 25 influence cards and their colours, the 36 goal cards (B1-B3, B5).
- :mod:`.values`: the values table each table enters once (B4).
- :mod:`.setup`: who plays, their colours, the values table, the deal as seen (B6).
- :mod:`.moves`: the events of a game as values (:class:`Round`, :class:`Place`, ...).
- :mod:`.whereabouts`: where each player's cards may be, as far as what was seen tells (B29).
- :mod:`.game`: the state (:class:`RabState`), every ruling checked.
- :mod:`.distribution`: one column's distribution, step by step (B18-B26).
- :mod:`.scoring`: the rounds' results and the scores (B27, B28).
- :mod:`.effects`, :mod:`.view`: what a move did and what the game waits for; what a player
  may know.
- :mod:`.record`: the ``rab-record/1`` codec.
- :mod:`.query`: the ``rop legal`` question (one column's distribution) as a pure function.
- :mod:`.policies`: players for simulated tables, and :func:`~.policies.simulate`.
- :mod:`.table_values`: the values table kept with the table's settings.
- :mod:`.commands`: ``rop cards``, ``rop legal`` and ``rop simulate`` for the game.
- :mod:`.samples`: the sample records shipped with the game.
- :mod:`.club`: its part of the club: standings, exports and the live page.

>>> GAME.name, GAME.codec.format, [o.name for o in GAME.options]
('ruse-and-bruise', 'rab-record/1', ['values'])
>>> state = GAME.new_state(GAME.make_setup(["ann", "bob"], values="example", colours="red,green"))
>>> state.setup.colours, GAME.summary(state)["finished"]
(('red', 'green'), False)
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.contract import Game, Sample
from companion.contract.cards import UNSEEN, Unseen
from companion.contract.options import Option, with_defaults
from companion.games.ruse_and_bruise.cards import CARDS, COLOURS, Goal, Influence, RabCards
from companion.games.ruse_and_bruise.effects import Effects, Waiting
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import (
    Assassinate,
    Cloak,
    Distribute,
    Explore,
    Move,
    Pass,
    Place,
    Reveal,
    Round,
    Storm,
    Swap,
    TurnOver,
)
from companion.games.ruse_and_bruise.record import CODEC, RabCodec
from companion.games.ruse_and_bruise.scoring import Outcome, RoundResult
from companion.games.ruse_and_bruise.setup import MAX_PLAYERS, MIN_PLAYERS, RabSetup, THE_GAME, default_colours
from companion.games.ruse_and_bruise.values import EXAMPLE, ValuesTable

if TYPE_CHECKING:
    from companion.club.parts import ClubPart
    from companion.coach.model import CoachModel
    from companion.commands.game_command import GameCommand
    from companion.contract import TableSpec
    from companion.games.ruse_and_bruise.tracking.reasoner import RabTracking
    from companion.dashboard.kit import DashboardKit

__all__ = [
    "GAME",
    "RuseAndBruise",
    "RabSetup",
    "RabState",
    "ValuesTable",
    "Influence",
    "Goal",
    "CARDS",
    "UNSEEN",
    "Round",
    "Place",
    "Pass",
    "TurnOver",
    "Explore",
    "Assassinate",
    "Storm",
    "Cloak",
    "Swap",
    "Reveal",
    "Distribute",
    "Phase",
    "Outcome",
    "RoundResult",
    "Effects",
    "Waiting",
]

_VALUES = Option(
    "values",
    "the values table (B4): table, the one this table entered with rop cards values; example, "
    "the rulings' example, to try the companion out (never the printed numbers)",
    "choice",
    "table",
    choices=("table", "example"),
)
_OPTIONS = (_VALUES,)

_ABSENT = object()


def _colours(given: Any, players: Sequence[str]) -> tuple[str, ...]:
    """The players' colours from ``"ann=blue,bob=white"``, ``"blue,white"``, a mapping or a
    list in seating order; the box's order when none is given (B1)."""
    if given is None:
        return default_colours(len(players))
    if isinstance(given, str):
        parts = [p.strip() for p in given.split(",") if p.strip()]
        if all("=" in p for p in parts):
            given = {n.strip(): c.strip() for n, _, c in (p.partition("=") for p in parts)}
        else:
            given = parts
    if isinstance(given, Mapping):
        unknown = [n for n in given if n not in players]
        if unknown:
            raise ValueError(f"colours: {unknown[0]!r} is not a player ({', '.join(players)})")
        missing = [p for p in players if p not in given]
        if missing:
            raise ValueError(f"colours: {missing[0]} has no colour (B6); the colours are {', '.join(COLOURS)}")
        return tuple(str(given[p]).lower() for p in players)
    return tuple(str(c).lower() for c in given)


class RuseAndBruise(Game[RabState, Move]):
    """The plug-in object of Ruse and Bruise (the protocol's :class:`~companion.contract.
    Game`): the fixed facts of the game, and the states it makes."""

    name = "ruse-and-bruise"
    title = "Ruse and Bruise"
    rulings = "B1-B29"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    rules_modules = tuple(
        f"companion.games.ruse_and_bruise.{name}"
        for name in (
            "cards", "values", "setup", "moves", "whereabouts", "distribution", "scoring", "effects", "game", "view", "record", "query", "policies",
            "table",  # its cards know their seals
        )
    )

    @property
    def cards(self) -> RabCards:
        return CARDS

    @property
    def codec(self) -> RabCodec:
        return CODEC

    @property
    def options(self) -> tuple[Option, ...]:
        return _OPTIONS

    @property
    def table(self) -> TableSpec:
        """What a Ruse and Bruise table needs: the influence cards in the box's six colours with
        their backs, the goal cards, the columns and the players' places, a reader at each
        column, its seal ids and NFC records (:mod:`.table`)."""
        from companion.games.ruse_and_bruise.table import TABLE

        return TABLE

    def make_setup(self, players: Sequence[str], **options: Any) -> RabSetup:
        """The set-up of a table of ``players`` in turn order (B6), refused naming the ruling.

        - ``values``: ``"table"``, the table's own values table, kept by ``rop cards values``
          (refused, saying how to enter it, when the table has none); ``"example"``, the
          rulings' example (B4); or a :class:`ValuesTable`, a mapping or ``"ASSN=6,..."``.
          Left out: the table's own, or none yet, and a game without one cannot begin (B4).
        - ``colours``: ``"ann=blue,bob=white"``, ``"blue,white"``, a mapping or a list in
          seating order (B1); the box's order when left out.
        - ``goals``, ``hands``: the deal as seen (goal stacks top first; starting hands by
          player), for simulated tables; unseen when left out.
        - ``calibration``: the directory of the table's settings (where ``"table"`` is read).
        """
        given = dict(options)
        values_given = given.pop("values", _ABSENT)
        colours = given.pop("colours", None)
        goals = given.pop("goals", None)
        hands = given.pop("hands", None)
        calibration = given.pop("calibration", None)
        with_defaults(_OPTIONS, given)  # an option the game does not have is refused
        names = tuple(players)
        if isinstance(hands, Mapping):
            unknown = [n for n in hands if n not in names]
            if unknown:
                raise ValueError(f"hands: {unknown[0]!r} is not a player")
            hands = tuple(hands.get(p) for p in names)
        return RabSetup(
            names,
            _colours(colours, names),
            self._values(values_given, calibration),
            None if goals is None else tuple(tuple(_goal(g) for g in stack) for stack in goals),
            None if hands is None else tuple(None if h is None else tuple(_influence(c) for c in h) for h in hands),
        )

    @staticmethod
    def _values(given: Any, calibration: str | os.PathLike[str] | None) -> ValuesTable | None:
        from companion.games.ruse_and_bruise.table_values import load_values, require_values

        if given is _ABSENT:
            return load_values(calibration)
        if isinstance(given, ValuesTable):
            return given
        if given == "table":
            return require_values(calibration)
        if given == "example":
            return EXAMPLE
        if isinstance(given, Mapping):
            return ValuesTable.from_mapping(given)
        if isinstance(given, str) and "=" in given:
            return ValuesTable.parse(given)
        raise ValueError(f"values: table, example or CARD=NUMBER,... (B4), not {given!r}")

    def new_state(self, setup: RabSetup, *, keep_history: bool = True) -> RabState:
        return RabState(setup, keep_history=keep_history)

    def chance_move(self, state: RabState, rng: random.Random) -> Move:
        """A random legal move of the table: a round's goal cards and draws, a card turned
        over, an Explorer's, an Assassin's or a Storm's move, the reveal, the distribution."""
        return state.random_table_move(rng)

    def summary(self, state: RabState) -> dict[str, Any]:
        """The scores as ``rop replay --json`` prints them (record-format.md, "Scores")."""
        outcome = state.outcome()
        from companion.games.ruse_and_bruise.scoring import score

        return {
            "game": self.name,
            "rounds": [r.to_json() for r in state.results],
            "goal_cards": {p: [g.id for g in state.won(p)] for p in state.players},
            "scores": {p: score(state.won(p)).to_json() for p in state.players},
            "finished": outcome is not None,
            "winner": outcome.winner if outcome else None,
            "draw": outcome.draw if outcome else False,
        }

    def score_lines(self, state: RabState) -> list[str]:
        """The scores in words, as ``rop replay`` prints them: the table, each round's goal
        cards and who took them, every player's goal cards and score, and the result."""
        from companion.games.ruse_and_bruise.scoring import score

        setup = state.setup
        table = ", ".join(f"{p} ({c})" for p, c in zip(setup.players, setup.colours))
        values = setup.values.text() if setup.values is not None else "no values table (B4)"
        lines = [f"{table}; values {values}"]
        for r in state.results:
            lines.append(f"Round {r.number}: {r.words()}")
        for p in state.players:
            won = state.won(p)
            lines.append(f"{p}: {' '.join(g.id for g in won) or 'no goal card'}; score {score(won).words()}")
        outcome = state.outcome()
        if outcome is None:
            lines.append(f"Not finished: round {state.round_number}, {state.waiting.reason}")
        else:
            lines.append(f"Result: {outcome.explain()}")
        return lines

    def describe(self, move: Move) -> str:
        """A move in a few words: ``"ann places EXPL in column 2 and draws QUEEN"``."""
        if isinstance(move, Place):
            what = "a card face down" if isinstance(move.card, Unseen) else move.card.id
            drew = f" and draws {move.drew.id}" if move.drew is not None else ""
            return f"{move.player} places {what} in column {move.column}{drew}"
        if isinstance(move, Pass):
            return f"{move.player} holds no card and passes"
        if isinstance(move, TurnOver):
            return f"{move.card.id} is turned over in column {move.column}"
        if isinstance(move, Explore):
            return "the Explorer stays: the next column is closed by a Storm" if move.to is None else f"the Explorer moves to column {move.to}"
        if isinstance(move, Assassinate):
            what = "the card" if isinstance(move.discard, Unseen) else move.discard.id
            return f"the Assassin sends {what} that arrived below him to its owner's discard pile"
        if isinstance(move, Storm):
            return f"the Storm closes column {move.column}"
        if isinstance(move, Cloak):
            if not move.placed:
                return f"{move.player} places nothing under the Invisibility Cloak"
            what = "a card" if move.card is None or isinstance(move.card, Unseen) else move.card.id
            drew = f" and draws {move.drew.id}" if move.drew is not None else ""
            return f"{move.player} places {what} under the Invisibility Cloak{drew}"
        if isinstance(move, Swap):
            return f"{move.player} keeps the goal cards where they are" if move.swap is None else f"{move.player}'s Traitor exchanges the goal card with column {move.swap}'s"
        if isinstance(move, Round):
            drew = "".join(
                f"; {name} draws {', '.join(c.id if isinstance(c, Influence) else 'a card' for c in cards)}" for name, cards in move.drew if cards
            )
            return f"a round begins: {', '.join(g.id for g in move.goals)}{drew}"
        if isinstance(move, Reveal):
            return "every face-down card is turned over"
        if isinstance(move, Distribute):
            return "the goal cards go to " + ", ".join(w or "nobody" for w in move.winners)
        return repr(move)

    def narrate(self, state: RabState, move: Move, effects: Effects) -> str:
        """What the move did: the card and its ability now due (B10-B15), the columns it made
        complete (B16), the round's end, the distribution with each goal card's winner and
        why (B18-B26), the game's end (B28)."""
        text = self.describe(move)
        if effects.ability is not None:
            text += f"; {state.waiting.reason}"
        for k in effects.completed:
            col = state.column(k)
            why = "closed by a Storm" if col.closed else f"{col.holds} of {col.needs} cards"
            text += f"; column {k} is complete ({why}, B16)"
        if effects.round_over:
            text += "; the round is over (B16)"
        if effects.result is not None:
            text += f"; round {effects.result.number}: {effects.result.words()}"
        if effects.outcome is not None:
            text += f"; {effects.outcome.explain()}"
        return text

    def period_json(self, state: RabState, result: RoundResult) -> dict[str, Any]:
        """A distributed round: each column's cards, sums, winner and why, every player's goal
        cards and score after it, and the winner once the game is over."""
        outcome = state.outcome()
        return {
            "kind": "round",
            "round": result.number,
            **result.to_json(),
            "goal_cards": {p: [g.id for g in state.won(p)] for p in state.players},
            "totals": state.totals,
            "winner": outcome.winner if outcome else None,
        }

    def samples(self) -> tuple[Sample, ...]:
        """The sample records shipped with the game (:mod:`.samples`)."""
        from companion.games.ruse_and_bruise.samples import SAMPLES, sample_path

        return tuple(Sample(name, sample.description, sample_path(name)) for name, sample in SAMPLES.items())

    def commands(self) -> tuple[GameCommand, ...]:
        """``rop cards``, ``rop legal`` and ``rop simulate`` for Ruse and Bruise."""
        from companion.games.ruse_and_bruise.commands import COMMANDS

        return COMMANDS

    def tracking(self) -> RabTracking:
        """Following a table by its NFC readers (a reader at each column: every card placed is
        tapped, so that every face-down card is known) and its camera (the cards turned face up),
        docs/ruse-and-bruise.md, "At the table"."""
        from companion.games.ruse_and_bruise.tracking.reasoner import RabTracking

        return RabTracking()

    def dashboard(self) -> DashboardKit:
        """Ruse and Bruise at the table by keyboard (:mod:`~companion.games.ruse_and_bruise.dashboard`)."""
        from companion.games.ruse_and_bruise.dashboard.kit import RabKit

        return RabKit(self)

    def coach(self) -> CoachModel:
        """What the coach knows of Ruse and Bruise (:mod:`~companion.games.ruse_and_bruise.coach.model`)."""
        from companion.games.ruse_and_bruise.coach.model import MODEL

        return MODEL

    def club(self) -> ClubPart:
        """What the club keeps of a game, its standings' columns and its words for the live
        page: the columns with face-down cards as their owners' backs, the distribution step by
        step (:mod:`.club`)."""
        from companion.games.ruse_and_bruise.club.part import PART

        return PART

    def __repr__(self) -> str:
        return "GAME"


def _goal(g: Any) -> Goal | Unseen:
    if g is None or isinstance(g, Unseen):
        return UNSEEN
    return g if isinstance(g, Goal) else Goal.from_id(g)


def _influence(c: Any) -> Influence | Unseen:
    if c is None or isinstance(c, Unseen):
        return UNSEEN
    return c if isinstance(c, Influence) else Influence.from_id(c)


GAME = RuseAndBruise()
THE_GAME.hand_over(GAME)
"""Ruse and Bruise, as the registry finds it (``companion.games.ruse_and_bruise:GAME``)."""
