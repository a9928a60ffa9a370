"""What a position of Circle of Power holds, and the first questions every part of the state
asks of it.

- The constants of the deal: a hand of three, a dummy's pile of nine (C6), six more after the
  reshuffle (C15), fifteen actions (C16), four emperors (C4).
- :class:`Phase`: what the game waits for next.
- :data:`OLD`: a card of a dummy's pile that nobody saw, dealt before the reshuffle (C15).
- ``_Core``: the mutable facts, copied on every push so that pop restores them exactly.
- :class:`CircleBase`: what the state's parts share: the set-up, the position, whose seat a
  name is and why a move comes at the wrong time. :class:`~companion.games.circle_of_power.
  game.CircleState` is made of it and its parts, as python-chess's ``Board`` is made of its
  ``BaseBoard``.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.moves import Move, _Unseen
from companion.games.circle_of_power.scoring import Outcome, SeasonResult, Termination
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from companion.games.circle_of_power.setup import CircleSetup

__all__ = [
    "HAND_SIZE",
    "PILE_SIZE",
    "RESHUFFLE_PILE",
    "ACTIONS",
    "RESHUFFLE_AFTER",
    "CITY_DECK_SIZE",
    "SEATS",
    "Phase",
    "OLD",
    "PileCard",
    "CircleBase",
]

HAND_SIZE = 3
"""A player's hand (C6)."""
PILE_SIZE = 9
"""A dummy's pile at the start of a season: its 3 hand cards and the 6 it would draw (C6)."""
RESHUFFLE_PILE = 6
"""The cards each dummy puts on its pile from the reshuffled battle deck (C15)."""
ACTIONS = 15
"""Actions in a season (C16)."""
RESHUFFLE_AFTER = 6
"""The battle deck runs out with the draws of action 6 (C15)."""
CITY_DECK_SIZE = 14
"""The city deck after the four cities are dealt: 13 face down on the bottom joker (C6)."""
SEATS = 4
"""There are always four emperors (C4)."""


class Phase(enum.Enum):
    """What the game waits for next."""

    SEASON = "season"
    """A season's set-up (:class:`Season`), by the table."""
    REVEAL = "reveal"
    """The top card of the city deck turned up (:class:`Reveal`, C7), by the table."""
    PLAY = "play"
    """An emperor plays a battle card (:class:`Play`, C8)."""
    ACT = "act"
    """The winner of the initiative acts (:class:`Conquer`, :class:`Retake`, :class:`Regroup`,
    C10-C14)."""
    RESHUFFLE = "reshuffle"
    """The battle deck is made anew after action 6 (:class:`Reshuffle`, C15), by the table."""
    OVER = "over"
    """The game has ended (C17, C18)."""


_SEASON = Phase.SEASON
_REVEAL = Phase.REVEAL
_PLAY = Phase.PLAY
_ACT = Phase.ACT
_RESHUFFLE = Phase.RESHUFFLE
_OVER = Phase.OVER


class _Old:
    """A card in a dummy's pile dealt before the reshuffle and never seen: it comes from the
    cards that were not played in actions 1-6 (C15), unlike an unseen card put on the pile at
    the reshuffle, which is one of them."""

    _instance: _Old | None = None
    __slots__ = ()

    def __new__(cls) -> _Old:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSEEN"


OLD = _Old()
PileCard = Card | _Unseen | _Old


class _Core:
    """The mutable part of the state, copied on every push so that pop restores it. Per-seat
    facts and the season's log of plays are lists (copied; a replay without undo appends in
    place); the rest are immutable values, shared by copies."""

    __slots__ = (
        "phase",
        "season",
        "action",
        "seats",
        "dummy",
        "seat_of",
        "dealer",
        "dealer_name",
        "leader",
        "turn",
        "cities",
        "next_city",
        "city_left",
        "city_pool",
        "bottom",
        "discards",
        "trophies",
        "destroyed",
        "hands",
        "hidden",
        "hidden_old",
        "piles",
        "pool",
        "old_pool",
        "deck_count",
        "played_a",
        "played_b",
        "reshuffled",
        "log",
        "plays",
        "trumps",
        "best",
        "best_key",
        "emperors",
        "emp_index",
        "totals",
        "destroyed_totals",
        "season_destroyed",
        "knocked",
        "knocked_before",
        "results",
        "outcome",
    )

    phase: Phase
    season: int
    action: int
    seats: tuple[str, ...]
    dummy: tuple[bool, ...]
    seat_of: dict[str, int]
    dealer: int
    dealer_name: str | None
    leader: int
    turn: int
    cities: list[Card | None]
    next_city: Card | None
    city_left: int
    city_pool: int
    bottom: Card | None
    discards: tuple[Card, ...]
    trophies: list[tuple[Card, ...]]
    destroyed: list[tuple[Card, ...]]
    hands: list[tuple[Card, ...]]
    hidden: list[int]
    hidden_old: list[int]
    piles: list[tuple[PileCard, ...]]
    pool: int
    old_pool: int
    deck_count: int
    played_a: int
    played_b: int
    reshuffled: bool
    log: list[tuple[int, int, Card]]
    plays: tuple[Card, ...]
    trumps: tuple[str | None, ...]
    best: int
    best_key: int
    emperors: tuple[str, ...]
    emp_index: dict[str, int]
    totals: tuple[int, ...]
    destroyed_totals: tuple[int, ...]
    season_destroyed: tuple[int, ...]
    knocked: tuple[str, ...]
    knocked_before: int
    results: tuple[SeasonResult, ...]
    outcome: Outcome | None

    @classmethod
    def before_first_season(cls, players: tuple[str, ...]) -> _Core:
        """The game before its first season: nobody seated, no card dealt, every total 0."""
        c = cls()
        c.phase = _SEASON
        c.season = 0
        c.action = 0
        c.seats = ()
        c.dummy = ()
        c.seat_of = {}
        c.dealer = -1
        c.dealer_name = None
        c.leader = -1
        c.turn = -1
        c.cities = []
        c.next_city = None
        c.city_left = 0
        c.city_pool = 0
        c.bottom = None
        c.discards = ()
        c.trophies = []
        c.destroyed = []
        c.hands = []
        c.hidden = []
        c.hidden_old = []
        c.piles = []
        c.pool = 0
        c.old_pool = 0
        c.deck_count = 0
        c.played_a = 0
        c.played_b = 0
        c.reshuffled = False
        c.log = []
        c.plays = ()
        c.trumps = ()
        c.best = -1
        c.best_key = -1
        c.emperors = players
        c.emp_index = {p: k for k, p in enumerate(players)}
        c.totals = (0,) * len(players)
        c.destroyed_totals = c.totals
        c.season_destroyed = c.totals
        c.knocked = ()
        c.knocked_before = 0
        c.results = ()
        c.outcome = None
        return c

    def copy(self) -> _Core:
        """A copy for the undo stack: the lists copied, the immutable values shared."""
        new = _Core.__new__(_Core)
        new.phase = self.phase
        new.season = self.season
        new.action = self.action
        new.seats = self.seats
        new.dummy = self.dummy
        new.seat_of = self.seat_of
        new.dealer = self.dealer
        new.dealer_name = self.dealer_name
        new.leader = self.leader
        new.turn = self.turn
        new.cities = self.cities[:]
        new.next_city = self.next_city
        new.city_left = self.city_left
        new.city_pool = self.city_pool
        new.bottom = self.bottom
        new.discards = self.discards
        new.trophies = self.trophies[:]
        new.destroyed = self.destroyed[:]
        new.hands = self.hands[:]
        new.hidden = self.hidden[:]
        new.hidden_old = self.hidden_old[:]
        new.piles = self.piles[:]
        new.pool = self.pool
        new.old_pool = self.old_pool
        new.deck_count = self.deck_count
        new.played_a = self.played_a
        new.played_b = self.played_b
        new.reshuffled = self.reshuffled
        new.log = self.log[:]
        new.plays = self.plays
        new.trumps = self.trumps
        new.best = self.best
        new.best_key = self.best_key
        new.emperors = self.emperors
        new.emp_index = self.emp_index
        new.totals = self.totals
        new.destroyed_totals = self.destroyed_totals
        new.season_destroyed = self.season_destroyed
        new.knocked = self.knocked
        new.knocked_before = self.knocked_before
        new.results = self.results
        new.outcome = self.outcome
        return new


class CircleBase:
    """What every part of the state shares: the set-up, the position (``_core``) and its undo
    stack, and the first questions a check asks: whose seat a name is, and what the game waits
    for when a move comes at the wrong time."""

    setup: CircleSetup
    players: tuple[str, ...]
    move_stack: list[Move]
    _variant: str
    _coloured: bool
    _lonely: bool
    _keep: bool
    _stack: list[_Core]
    _core: _Core

    def _seat(self, name: str) -> int:
        i = self._core.seat_of.get(name) if isinstance(name, str) else None
        if i is None:
            raise InvalidMoveError(self._stranger(name))
        return i

    def _stranger(self, name: object) -> str:
        c = self._core
        if not c.seats:
            return f"{name!r} is not seated: no season is set up yet"
        return f"unknown emperor {name!r}: this season's emperors are {', '.join(c.seats)}"

    def _emperor(self, name: object) -> int:
        """The seat of ``name`` this season; a player knocked out earlier is refused citing
        C18, a stranger as malformed."""
        c = self._core
        i = c.seat_of.get(name) if isinstance(name, str) else None
        if i is not None:
            return i
        if name in c.knocked:
            raise IllegalMoveError("C18", f"{name} was knocked out: a dummy sits in {name}'s seat now")
        raise InvalidMoveError(self._stranger(name))

    def _phase_problem(self, what: str, rule: str | None = None) -> IllegalMoveError:
        """The error of a move made while the game waits for another. It cites the ruling the
        move breaks: ``rule``, the ruling that says when a move of the table comes (a city card
        turned up, C7; a new season, C16; the reshuffle, C15), or else the ruling of what the
        game waits for; once the game is over, the ruling that ended it."""
        c = self._core
        if c.phase is _OVER:
            outcome = c.outcome
            ended = "C18" if outcome is not None and outcome.how is Termination.LONELY_TYRANT else "C17"
            return IllegalMoveError(ended, f"{what}: the game is over")
        return IllegalMoveError(rule or _WAITED_RULE[c.phase], f"{what}: {self._waiting()}")

    def _waiting(self) -> str:
        """What the game waits for, in words."""
        c = self._core
        phase = c.phase
        if phase is _PLAY:
            return f"{c.seats[c.turn]} is to play a card in action {c.action}"
        if phase is _ACT:
            return f"{c.seats[c.turn]} won the initiative of action {c.action} and must act"
        if phase is _REVEAL:
            return "the next available city must be turned up first"
        if phase is _RESHUFFLE:
            return "the battle deck ran out in action 6 and must be reshuffled first"
        if phase is _SEASON:
            return f"{'the first season' if c.season == 0 else f'season {c.season + 1}'} must be set up first"
        return "the game is over"


_WAITED_RULE = {_PLAY: "C8", _ACT: "C10", _REVEAL: "C7", _RESHUFFLE: "C15", _SEASON: "C16"}
"""The ruling of what the game waits for, in each phase but the end."""
