"""The Circle of Power game state: seasons, seats and dummies, the city deck, hands and piles,
the plays of each action, the winner's act, the reshuffle, the scores (C1-C20).

Like a chess board, a :class:`CircleState` takes moves with :meth:`CircleState.push`
(checked against every ruling; an illegal move raises
:class:`~companion.contract.errors.IllegalMoveError` naming it) and takes them back with
:meth:`CircleState.pop`, restoring the state exactly.

The state can follow a game it cannot fully see: hands and dummies' piles dealt face down,
draws nobody saw. It checks everything that can be checked from what was seen (every card
played at most once where C6 and C15 forbid a second time, hand sizes, who plays, the
initiative, the acts) and the rest as the hidden cards are played.

>>> from companion.games.circle_of_power.moves import Season, Reveal, Play, Conquer
>>> game = CircleState(CircleSetup(("ann", "bob", "cy")))
>>> game.push(Season.make("ann", ["ann", "bob", "cy", "@1"], {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "X2"))
>>> game.push(Reveal.from_id("JD"))
>>> game.to_move, game.trump_suits
('bob', {'ann': 'H', 'bob': 'S', 'cy': 'D', '@1': 'C'})
>>> for move in (Play.from_ids("bob", "7H"), Play.from_ids("cy", "10S"), Play.from_ids("@1", "2S"), Play.from_ids("ann", "5H")):
...     game.push(move)
>>> game.initiative.reason
"ann's 5H is trump for ann (ann's city is KH) and beats cy's 10S"
>>> game.push(Conquer("bob", "cy"))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: C9: ann's 5H is trump for ann (ann's city is KH) and beats bob's 7H
>>> game.push(Conquer("ann", "bob"))
>>> game.trophies("ann"), game.city("bob"), game.next_city
((Card.from_id('QS'),), Card.from_id('JD'), None)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, NoReturn, TYPE_CHECKING, cast

from companion.games.circle_of_power.cards import (
    BATTLE_DECK,
    BATTLE_MASK,
    BLACK,
    CITY_DECK,
    CITY_MASK,
    JOKERS,
    Card,
    attack_range,
    cards_of_mask,
    colour_in_attack,
)
from companion.games.circle_of_power.effects import (
    BATTLE_DECK as BATTLE_DECK_ZONE,
)
from companion.games.circle_of_power.effects import (
    CITY,
    CITY_DECK as CITY_DECK_ZONE,
)
from companion.games.circle_of_power.effects import (
    DESTROYED,
    DISCARD,
    GATHERED,
    HAND,
    PILE,
    TABLE,
    TROPHIES,
    Effects,
    Initiative,
    Transfer,
)
from companion.games.circle_of_power.moves import (
    UNSEEN,
    Act,
    Conquer,
    Move,
    Play,
    Regroup,
    Reshuffle,
    Retake,
    Reveal,
    Season,
    _Unseen,
)
from companion.games.circle_of_power.rules import (
    TRUMP_BONUS,
    Choice,
    act_choices,
    attack_words,
    dummy_victim,
    initiative,
    threat_words,
    threats,
    trump_suit,
    victims,
    why_initiative,
)
from companion.games.circle_of_power.scoring import (
    KNOCK_OUT,
    Outcome,
    SeasonResult,
    Termination,
    decide_after_season,
    season_points,
)
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, CircleSetup, is_dummy
from companion.contract import registry
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.state import TurnBased

if TYPE_CHECKING:
    from companion.games.circle_of_power import CircleOfPower
    from companion.games.circle_of_power.view import CircleView

__all__ = [
    "CircleState",
    "CircleSetup",
    "Phase",
    "LegalMoves",
    "HAND_SIZE",
    "PILE_SIZE",
    "RESHUFFLE_PILE",
    "ACTIONS",
    "RESHUFFLE_AFTER",
    "CITY_DECK_SIZE",
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


class _Act(NamedTuple):
    """An act worked out before it is carried out: the cities after it, the trophies won and
    lost, the city destroyed, the cards discarded, the city card taken from the deck."""

    winner: int
    victim: int
    cities: tuple[Card | None, ...]
    gained: Card | None
    lost: tuple[int, Card] | None
    destroyed: Card | None
    discarded: tuple[Card, ...]
    took: Card | None


class CircleState(TurnBased[Move]):
    """A game of Circle of Power in progress (the protocol's :class:`~companion.contract.
    State`).

    Read it through properties (``phase``, ``to_move``, ``seats``, ``cities``, ``next_city``,
    ``trump_suits``, ``initiative``, ``choices()``, ``hand(p)``, ``trophies(p)``, ``results``,
    ``totals``, ``outcome()``) and change it with :meth:`push` and :meth:`pop`.
    ``keep_history=False`` drops the undo stack for fast one-way replays.
    """

    def __init__(self, setup: CircleSetup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players = setup.players
        self._variant = setup.variant
        self._coloured = setup.variant == COLOURED_CITIES
        self._lonely = setup.variant == LONELY_TYRANT
        self._keep = keep_history
        self.move_stack: list[Move] = []
        self._stack: list[_Core] = []
        self._core = _Core.before_first_season(setup.players)

    # ------------------------------------------------------------------ reading the state

    @property
    def game(self) -> CircleOfPower:
        """Circle of Power (found through the registry, so that the rules import none of the
        game's other parts)."""
        return cast("CircleOfPower", registry.game("circle-of-power"))

    @property
    def variant(self) -> str:
        return self._variant

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def to_move(self) -> str | None:
        """Who decides next: the emperor to play a card (a dummy included), the winner of the
        initiative for the act; ``None`` when the table acts (a season's set-up, a card turned
        up, the reshuffle) or the game is over."""
        c = self._core
        if c.phase is _PLAY or c.phase is _ACT:
            return c.seats[c.turn]
        return None

    @property
    def season_number(self) -> int:
        """The current (or last) season, from 1; 0 before the first."""
        return self._core.season

    @property
    def action_number(self) -> int:
        """The action under way, 1-15 (C16); after action 6 and before the reshuffle it is 7."""
        return self._core.action

    @property
    def seats(self) -> tuple[str, ...]:
        """This season's four emperors, clockwise (C4); empty before the first season."""
        return self._core.seats

    @property
    def dummies(self) -> tuple[str, ...]:
        """This season's dummies (C4, C11)."""
        c = self._core
        return tuple(n for n, d in zip(c.seats, c.dummy) if d)

    @property
    def emperors(self) -> tuple[str, ...]:
        """Every emperor seated so far: the players, then the dummies in order of number."""
        return self._core.emperors

    def is_dummy(self, name: str) -> bool:
        return is_dummy(name)

    @property
    def dealer(self) -> str | None:
        """This season's dealer (C5)."""
        return self._core.dealer_name

    @property
    def leader(self) -> str | None:
        """Who leads the current action (C5): the dealer's left in action 1, then the winner
        of the action before."""
        c = self._core
        return c.seats[c.leader] if c.leader >= 0 and c.seats else None

    def city(self, name: str) -> Card | None:
        """``name``'s city (``None`` after losing it in action 15)."""
        return self._core.cities[self._seat(name)]

    @property
    def cities(self) -> dict[str, Card | None]:
        c = self._core
        return dict(zip(c.seats, c.cities))

    @property
    def next_city(self) -> Card | None:
        """The next available city, face up on the city deck (C7); ``None`` before it is turned
        up and when the deck is empty."""
        return self._core.next_city

    @property
    def bottom(self) -> Card | None:
        """The joker face up at the bottom of the city deck this season (C6)."""
        return self._core.bottom

    @property
    def city_deck_count(self) -> int:
        """The cards in the city deck, the face-up one and the bottom joker included (C7)."""
        return self._core.city_left

    @property
    def city_discards(self) -> tuple[Card, ...]:
        """Cities and trophies discarded face down behind the city deck this season (C13, C14)."""
        return self._core.discards

    @property
    def battle_deck_count(self) -> int:
        """The cards left in the battle deck (C8, C15)."""
        return self._core.deck_count

    @property
    def reshuffled(self) -> bool:
        """Whether this season's battle deck has been made anew (C15)."""
        return self._core.reshuffled

    def trophies(self, name: str) -> tuple[Card, ...]:
        """``name``'s trophies, oldest first: the line of victories (C12), or the face-up part
        of the line of history in Coloured Cities (C19)."""
        return self._core.trophies[self._seat(name)]

    def destroyed_cities(self, name: str) -> tuple[Card, ...]:
        """``name``'s cities destroyed this season, face down: the line of destruction (C18),
        or the face-down part of the line of history (C19)."""
        return self._core.destroyed[self._seat(name)]

    def line(self, name: str) -> tuple[tuple[Card, bool], ...]:
        """``name``'s whole line, each card with whether it lies face up: the trophies (face up,
        C12) then the cities destroyed this season (face down, C18); in Coloured Cities this
        is the line of history (C19)."""
        i = self._seat(name)
        c = self._core
        return tuple((x, True) for x in c.trophies[i]) + tuple((x, False) for x in c.destroyed[i])

    def hand(self, name: str) -> tuple[Card, ...]:
        """The cards known to be in player ``name``'s hand."""
        return self._core.hands[self._seat(name)]

    def unseen_in_hand(self, name: str) -> int:
        """How many of ``name``'s hand cards the companion has not seen."""
        i = self._seat(name)
        return self._core.hidden[i] + self._core.hidden_old[i]

    def hand_size(self, name: str) -> int:
        """How many cards player ``name`` holds, or dummy ``name``'s pile."""
        i = self._seat(name)
        c = self._core
        return len(c.hands[i]) + c.hidden[i] + c.hidden_old[i] + len(c.piles[i])

    def pile(self, name: str) -> tuple[Card | _Unseen, ...]:
        """Dummy ``name``'s pile, top first, :data:`UNSEEN` where nobody saw the card."""
        return tuple(UNSEEN if isinstance(x, _Old) else x for x in self._core.piles[self._seat(name)])

    @property
    def played(self) -> tuple[tuple[str, Card], ...]:
        """The cards played in this action so far, in order, with who played them (C8)."""
        c = self._core
        return tuple((c.seats[(c.leader + k) % SEATS], card) for k, card in enumerate(c.plays))

    @property
    def season_plays(self) -> tuple[tuple[int, str, Card], ...]:
        """Every card played this season: (action, emperor, card), in order."""
        c = self._core
        return tuple((a, c.seats[i], card) for a, i, card in c.log)

    @property
    def trump_suits(self) -> dict[str, str | None]:
        """Each emperor's trump suit now (C9); ``None`` for none."""
        c = self._core
        if not c.seats:
            return {}
        return {name: trump_suit(city, c.next_city) for name, city in zip(c.seats, c.cities)}

    @property
    def initiative(self) -> Initiative | None:
        """Who holds the initiative of the current action so far and why (C9); ``None`` before
        its first card."""
        c = self._core
        if not c.plays or c.phase not in (_PLAY, _ACT):
            return None
        plays = self._plays_by_seat()
        k = initiative(plays, c.trumps)
        seat, card = plays[k]
        reason = why_initiative(c.seats, c.cities, c.next_city, plays, c.trumps)
        return Initiative(c.seats[seat], card, card.suit == c.trumps[seat], reason)

    def _plays_by_seat(self) -> list[tuple[int, Card]]:
        c = self._core
        return [((c.leader + k) % SEATS, card) for k, card in enumerate(c.plays)]

    def threatened(self, name: str) -> bool:
        """Whether ``name``'s city is under threat: another emperor's city may attack it (C3)."""
        return bool(threats(self._seat(name), self._core.cities))

    def threat(self, name: str) -> str:
        """Whether ``name``'s city is under threat, in words, naming who threatens it (C3)."""
        c = self._core
        return threat_words(c.seats, c.cities, self._seat(name))

    def choices(self) -> list[Choice]:
        """The acts the winner may choose now, each with why (C10-C14, C18, C19; a dummy's one
        act, C11); empty unless the winner is to act."""
        c = self._core
        if c.phase is not _ACT:
            return []
        return act_choices(self._variant, c.seats, c.dummy, c.cities, c.trophies, c.turn)

    @property
    def knocked_out(self) -> tuple[str, ...]:
        """The players knocked out so far, in order (C18)."""
        return self._core.knocked

    @property
    def results(self) -> tuple[SeasonResult, ...]:
        """The finished seasons (and one cut short by the Lonely Tyrant, C18)."""
        return self._core.results

    @property
    def totals(self) -> dict[str, int]:
        """Each emperor's points over the finished seasons (C16), dummies included."""
        c = self._core
        return dict(zip(c.emperors, c.totals))

    @property
    def destroyed_totals(self) -> dict[str, int]:
        """Each emperor's destroyed cities counting towards a knock-out, over the finished
        seasons (C18)."""
        c = self._core
        return dict(zip(c.emperors, c.destroyed_totals))

    def destroyed_count(self, name: str) -> int:
        """``name``'s destroyed cities counting towards a knock-out, the season in progress
        included (C18)."""
        c = self._core
        e = c.emp_index[name]
        return c.destroyed_totals[e] + c.season_destroyed[e]

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def is_game_over(self) -> bool:
        return self._core.outcome is not None

    def expected_seats(self) -> tuple[str, ...] | None:
        """The next season's seats, clockwise, as C4 places them; ``None`` before the first
        season, whose seats the table chooses (within C4)."""
        c = self._core
        if c.season == 0:
            return None
        seats = list(c.seats)
        if c.knocked:
            number = self._next_dummy_number()
            for name in c.knocked:
                if name in seats:
                    seats[seats.index(name)] = f"@{number}"
                    number += 1
            return tuple(seats)
        alone = [i for i, d in enumerate(c.dummy) if d]
        if len(alone) == 1:
            i = alone[0]
            j = (i - 1) % SEATS
            seats[i], seats[j] = seats[j], seats[i]
        return tuple(seats)

    def expected_dealer(self) -> str | None:
        """The next season's dealer (C5): the next player clockwise after the last dealer who
        is still in the game; ``None`` before the first season (chosen freely)."""
        c = self._core
        if c.dealer_name is None:
            return None
        players = self.players
        k = players.index(c.dealer_name)
        for step in range(1, len(players) + 1):
            name = players[(k + step) % len(players)]
            if name not in c.knocked:
                return name
        return None

    def _next_dummy_number(self) -> int:
        return 1 + max((int(e[1:]) for e in self._core.emperors if e.startswith("@")), default=0)

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

    # ------------------------------------------------------------------ legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of :attr:`to_move`, a lazy view (``move in state.legal_moves``,
        ``bool(...)``, ``.count()``).

        - A player to play: one :class:`Play` per card of their hand and per card they could
          draw (the companion never knows the battle deck's order, only what it may hold);
          without a draw due, one per card. Cards the companion has not seen are not listed:
          check such a move with :meth:`is_legal` (a ``Play`` naming no drawn card, for a draw
          nobody saw, is legal too).
        - A dummy to play: the top card of its pile, or, when nobody saw it, every card it may
          be (C8, C11: only a dummy's card comes from outside).
        - The winner: every act open to them (C10-C14), with every trophy they may discard; a
          dummy's one act (C11).
        - The table (a season, a reveal, the reshuffle): none listed;
          :meth:`random_table_move` draws one.
        """
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        """The moves :attr:`legal_moves` lists, one at a time."""
        c = self._core
        if c.phase is _PLAY:
            i = c.turn
            name = c.seats[i]
            if c.dummy[i]:
                top = c.piles[i][0]
                if isinstance(top, Card):
                    yield Play(name, top)
                else:
                    for x in cards_of_mask(c.pool if top is UNSEEN else c.old_pool):
                        yield Play(name, x)
                return
            draws: Sequence[Card | None] = cards_of_mask(c.pool) if c.deck_count else [None]
            for card in sorted(c.hands[i]):
                for drew in draws:
                    yield Play(name, card, drew)
        elif c.phase is _ACT:
            i = c.turn
            name = c.seats[i]
            for choice in act_choices(self._variant, c.seats, c.dummy, c.cities, c.trophies, i):
                if choice.act == "regroup":
                    if c.dummy[i] or threats(i, c.cities) or not c.trophies[i]:
                        yield self._dummy_act(i) if c.dummy[i] else Regroup(name)
                    else:
                        for t in dict.fromkeys(c.trophies[i]):
                            yield Regroup(name, t)
                elif choice.act == "conquer":
                    assert choice.victim is not None
                    yield Conquer(name, c.seats[choice.victim], bool(choice.keep))
                else:
                    assert choice.victim is not None
                    line = c.trophies[choice.victim]
                    if not line:
                        yield Retake(name, c.seats[choice.victim])
                    for t in dict.fromkeys(line):
                        yield Retake(name, c.seats[choice.victim], t)

    def decision(self, move: Move) -> Move:
        """What the emperor chose in ``move``: a :class:`Play` without the card drawn, which
        chance settles (C8); any other move as it is."""
        if type(move) is Play and move.drew is not None:
            return Play(move.player, move.card)
        return move

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (naming the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""
        self._check(move)

    # ------------------------------------------------------------------ push / pop

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``. With ``check`` (the default) it is validated first and an
        :class:`~companion.contract.errors.IllegalMoveError` names the ruling it breaks, leaving
        the state unchanged; ``check=False`` is the fast path for moves known to be legal
        (from :attr:`legal_moves`, or a record already replayed).

        The common move, a :class:`Play` of a card seen in the player's hand or on top of the
        dummy's pile (C8), is checked and carried out right here, in one pass (replays are made
        of them); any other move goes through :meth:`check` and :meth:`_carry_out`."""
        c = self._core
        if type(move) is Play and c.phase is _PLAY and move.player == c.seats[c.turn]:
            i = c.turn
            card = move.card
            drew = move.drew
            if c.dummy[i]:
                pile = c.piles[i]
                if pile[0] is card and drew is None:
                    if self._keep:
                        c = self._save(move)
                    c.piles[i] = pile[1:]
                    self._played(c, i, card)
                    return
            else:
                hand = c.hands[i]
                if card in hand and (drew is None or (c.deck_count and type(drew) is Card and c.pool & drew.bit)):
                    if self._keep:
                        c = self._save(move)
                    if len(hand) == 1:
                        hand = ()
                    else:
                        k = hand.index(card)
                        hand = hand[:k] + hand[k + 1 :]
                    if c.deck_count:
                        c.deck_count -= 1
                        if drew is None:
                            c.hidden[i] += 1
                        else:
                            hand += (drew,)
                            c.pool ^= drew.bit
                    c.hands[i] = hand
                    self._played(c, i, card)
                    return
        if check:
            self._check(move)
        if self._keep:
            self._save(move)
        self._carry_out(move)

    def _save(self, move: Move) -> _Core:
        """Keep the position before ``move`` for :meth:`pop`, and return the copy to change."""
        self._stack.append(self._core)
        new = self._core = self._core.copy()
        self.move_stack.append(move)
        return new

    def pop(self) -> Move:
        """Take back the last move, restoring the state exactly as it was before it."""
        if not self._keep:
            raise IndexError("pop: this game was created with keep_history=False")
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        self._core = self._stack.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def apply(self, move: Move) -> Effects:
        """Check and push ``move`` like :meth:`push`, and tell what it did (the season or the
        game it ended included)."""
        self._check(move)
        effects = self._effects(move)
        results = len(self._core.results)
        knocked = len(self._core.knocked)
        if self._keep:
            self._save(move)
        self._carry_out(move)
        c = self._core
        extra: dict[str, Any] = {}
        if len(c.results) > results:
            extra["result"] = c.results[-1]
        if len(c.knocked) > knocked:
            extra["knocked_out"] = c.knocked[knocked:]
        if c.outcome is not None:
            extra["outcome"] = c.outcome
        if type(move) is Play and c.phase is _ACT:
            extra["initiative"] = self.initiative
        return effects._replace(**extra) if extra else effects

    def effects(self, move: Move) -> Effects:
        """What ``move`` would do now, without doing it (checked like :meth:`push`); the season
        result, knock-outs and outcome it brings are told by :meth:`apply`."""
        self._check(move)
        return self._effects(move)

    def copy(self, *, keep_history: bool = True) -> CircleState:
        """An independent copy of the current position, for trying moves out; its move stack
        starts empty."""
        new = CircleState.__new__(CircleState)
        new.__dict__.update(self.__dict__)
        new._keep = keep_history
        new.move_stack = []
        new._stack = []
        new._core = self._core.copy()
        return new

    # ------------------------------------------------------------------ carrying out

    def _played(self, c: _Core, i: int, card: Card) -> None:
        """The bookkeeping of a card played by seat ``i`` (C6, C8, C9): the season's log, the
        action's cards and the initiative so far."""
        if c.reshuffled:
            c.played_b |= card.bit
        else:
            c.played_a |= card.bit
        c.log.append((c.action, i, card))
        plays = c.plays + (card,)
        c.plays = plays
        # C9: trump above plain, then the number; ">=" gives a tie to the card played last.
        key = card.number + TRUMP_BONUS if card.suit is c.trumps[i] else card.number
        if key >= c.best_key:
            c.best_key = key
            c.best = i
        if len(plays) == SEATS:
            c.phase = _ACT
            c.turn = c.best
        else:
            c.turn = (i + 1) % SEATS

    def _carry_out(self, move: Move) -> None:
        """Carry out a checked move (or one known to be legal)."""
        if type(move) is Play:
            self._apply_play(move)
        elif type(move) is Reveal:
            self._apply_reveal(move)
        elif type(move) is Conquer:
            self._commit(self._resolve_conquer(move))
        elif type(move) is Retake:
            self._commit(self._resolve_retake(move))
        elif type(move) is Regroup:
            self._commit(self._resolve_regroup(move))
        elif type(move) is Reshuffle:
            self._apply_reshuffle(move)
        elif type(move) is Season:
            self._apply_season(move)
        else:
            raise InvalidMoveError(f"not a move: {move!r}")

    def _apply_play(self, move: Play) -> None:
        """C8: the card leaves the top of the dummy's pile or the player's hand (a card the
        companion did not see leaves the cards it could be, C15), and a player draws while the
        battle deck has cards, unseen when the draw is not named."""
        c = self._core
        i = c.turn
        card = move.card
        bit = card.bit
        if c.dummy[i]:
            pile = c.piles[i]
            top = pile[0]
            c.piles[i] = pile[1:]
            if top is UNSEEN:
                c.pool &= ~bit
            elif top is OLD:
                c.old_pool &= ~bit
        else:
            hand = c.hands[i]
            if card in hand:
                k = hand.index(card)
                c.hands[i] = hand[:k] + hand[k + 1 :]
            elif c.hidden[i] and c.pool & bit:
                c.hidden[i] -= 1
                c.pool &= ~bit
            else:
                c.hidden_old[i] -= 1
                c.old_pool &= ~bit
            if c.deck_count:
                c.deck_count -= 1
                drew = move.drew
                if drew is None:
                    c.hidden[i] += 1
                else:
                    c.hands[i] += (drew,)
                    c.pool &= ~drew.bit
        self._played(c, i, card)

    def _apply_reveal(self, move: Reveal) -> None:
        """C7: the top card of the city deck is turned up, and the plays begin."""
        c = self._core
        c.next_city = move.card
        c.city_pool &= ~move.card.bit
        self._begin_plays()

    def _begin_action(self) -> None:
        """C7: the next available city is turned up first when the deck has one and none lies
        face up; then the plays begin."""
        c = self._core
        if c.next_city is None and c.city_left > 0:
            c.phase = _REVEAL
            c.turn = -1
        else:
            self._begin_plays()

    def _begin_plays(self) -> None:
        """C8, C9: the plays begin with the leader, each emperor's trump suit set for the
        action."""
        c = self._core
        nxt = c.next_city
        c.trumps = tuple([trump_suit(city, nxt) for city in c.cities])
        c.plays = ()
        c.best = -1
        c.best_key = -1
        c.turn = c.leader
        c.phase = _PLAY

    def _apply_season(self, move: Season) -> None:
        """A new season (C4-C6): the emperors take their seats, the cities and the battle cards
        are dealt, and the table turns up the first city of the city deck (C7)."""
        self._seat_emperors(move)
        self._deal_cities(move)
        self._deal_battle_cards(move)
        c = self._core
        c.played_a = 0
        c.played_b = 0
        c.reshuffled = False
        c.log = []
        c.plays = ()
        c.trumps = (None,) * SEATS
        c.best = -1
        c.best_key = -1
        c.turn = -1
        c.phase = _REVEAL

    def _seat_emperors(self, move: Season) -> None:
        """C4, C5: the season's four emperors in their seats, the new dummies counted among the
        emperors, the dealer, and the leader of action 1 on the dealer's left."""
        c = self._core
        seats = tuple(move.seats)
        # New emperors are dummies (C4, C18), kept in order of number.
        new = tuple(sorted((n for n in seats if n not in c.emp_index), key=lambda n: int(n[1:])))
        if new:
            c.emperors = c.emperors + new
            c.emp_index = {e: k for k, e in enumerate(c.emperors)}
            c.totals += (0,) * len(new)
            c.destroyed_totals += (0,) * len(new)
        c.season_destroyed = (0,) * len(c.emperors)
        c.knocked_before = len(c.knocked)
        c.season += 1
        c.action = 1
        c.seats = seats
        c.dummy = tuple(is_dummy(n) for n in seats)
        c.seat_of = {n: k for k, n in enumerate(seats)}
        c.dealer = c.seat_of[move.dealer]
        c.dealer_name = move.dealer
        c.leader = (c.dealer + 1) % SEATS

    def _deal_cities(self, move: Season) -> None:
        """C6: each emperor's city face up, the joker at the bottom of the city deck and 13
        cards face down on it; no line holds a card yet."""
        c = self._core
        cities = dict(move.cities)
        c.cities = [cities[n] for n in c.seats]
        c.bottom = move.bottom
        c.city_pool = CITY_MASK & ~sum(x.bit for x in c.cities if x is not None) & ~move.bottom.bit
        c.city_left = CITY_DECK_SIZE
        c.next_city = None
        c.discards = ()
        c.trophies = [()] * SEATS
        c.destroyed = [()] * SEATS

    def _deal_battle_cards(self, move: Season) -> None:
        """C6: three cards to each player's hand and nine to each dummy's pile, as far as they
        were seen (the rest unseen); the battle deck holds the cards left."""
        c = self._core
        pool = BATTLE_MASK
        hands: list[tuple[Card, ...]] = []
        hidden: list[int] = []
        piles: list[tuple[PileCard, ...]] = []
        for n, d in zip(c.seats, c.dummy):
            if d:
                pile = move.pile_of(n) or (UNSEEN,) * PILE_SIZE
                piles.append(pile)
                hands.append(())
                hidden.append(0)
                for x in pile:
                    if isinstance(x, Card):
                        pool &= ~x.bit
            else:
                given = move.hand_of(n) or (UNSEEN,) * HAND_SIZE
                known = tuple(x for x in given if isinstance(x, Card))
                hands.append(known)
                hidden.append(len(given) - len(known))
                piles.append(())
                for x in known:
                    pool &= ~x.bit
        c.hands = hands
        c.hidden = hidden
        c.hidden_old = [0] * SEATS
        c.piles = piles
        c.pool = pool
        c.old_pool = 0
        players = SEATS - sum(c.dummy)
        c.deck_count = len(BATTLE_DECK) - HAND_SIZE * players - PILE_SIZE * (SEATS - players)

    def _apply_reshuffle(self, move: Reshuffle) -> None:
        """C15: the 24 cards of actions 1-6 make the new battle deck; each dummy puts its top 6
        on its pile; the hands kept from before hold the 12 cards never played."""
        c = self._core
        c.old_pool = c.pool
        c.hidden_old = c.hidden[:]
        c.hidden = [0] * SEATS
        pool = c.played_a
        dummies = 0
        for i in range(SEATS):
            if not c.dummy[i]:
                continue
            dummies += 1
            old = tuple(OLD if x is UNSEEN else x for x in c.piles[i])
            given = move.pile_of(c.seats[i]) or (UNSEEN,) * RESHUFFLE_PILE
            for x in given:
                if isinstance(x, Card):
                    pool &= ~x.bit
            c.piles[i] = tuple(given) + old
        c.pool = pool
        # The 24 cards of actions 1-6, less six for each dummy's pile (C15).
        c.deck_count = bin(c.played_a).count("1") - RESHUFFLE_PILE * dummies
        c.reshuffled = True
        self._begin_action()

    def _resolve(self, move: Act) -> _Act:
        """Work out a (checked) act: C12-C14, with C18 and C19 for the variants."""
        if type(move) is Conquer:
            return self._resolve_conquer(move)
        if type(move) is Retake:
            return self._resolve_retake(move)
        return self._resolve_regroup(move)

    def _resolve_conquer(self, move: Conquer) -> _Act:
        """C12: the loser's city becomes the winner's trophy and the loser takes the next
        available city; C18: it is destroyed into the loser's line instead; C19: the loser's
        colour decides its fate, the attacker's who gets which city."""
        c = self._core
        w = c.seat_of[move.player]
        victim = c.seat_of[move.victim]
        cities = list(c.cities)
        mine = cities[w]
        theirs = cities[victim]
        assert mine is not None and theirs is not None
        # C7, C12: the city deck gives no card in action 15 (C19: even when it has one).
        nxt = c.next_city if c.action < ACTIONS else None
        gained: Card | None = None
        destroyed: Card | None = None
        took: Card | None = None
        if self._coloured:
            if colour_in_attack(theirs, mine) == BLACK:
                destroyed = theirs
            else:
                gained = theirs
            if move.keep:
                cities[victim] = took = nxt
            else:
                cities[victim] = mine
                cities[w] = took = nxt
        else:
            if self._lonely:
                destroyed = theirs  # C18
            else:
                gained = theirs  # C12
            cities[victim] = took = nxt
        return _Act(w, victim, tuple(cities), gained, None, destroyed, (), took)

    def _resolve_retake(self, move: Retake) -> _Act:
        """C13: the winner discards one of the loser's trophies (if any) and their own city,
        takes the loser's city, and the loser takes the next available city; C19: the winner
        gives their old city to the loser instead, and no card comes from the city deck."""
        c = self._core
        w = c.seat_of[move.player]
        victim = c.seat_of[move.victim]
        cities = list(c.cities)
        mine = cities[w]
        assert mine is not None
        theirs = cities[victim]
        lost: tuple[int, Card] | None = None
        discarded: tuple[Card, ...] = ()
        took: Card | None = None
        discard = move.discard
        if discard is not None:
            lost = (victim, discard)
            discarded += (discard,)
        cities[w] = theirs
        if self._coloured:
            cities[victim] = mine  # C19: no card from the city deck
        else:
            discarded += (mine,)  # C13
            # C7: the city deck gives no card in action 15.
            cities[victim] = took = c.next_city if c.action < ACTIONS else None
        return _Act(w, victim, tuple(cities), None, lost, None, discarded, took)

    def _resolve_regroup(self, move: Regroup) -> _Act:
        """C14: the winner discards their city and takes the next available city; a rebellion
        also costs the trophy they chose."""
        c = self._core
        w = c.seat_of[move.player]
        cities = list(c.cities)
        mine = cities[w]
        assert mine is not None
        lost: tuple[int, Card] | None = None
        discarded: tuple[Card, ...] = ()
        discard = move.discard
        if discard is not None:
            lost = (w, discard)  # C14: the rebellion
            discarded += (discard,)
        discarded += (mine,)
        # C7: the city deck gives no card in action 15.
        cities[w] = took = c.next_city if c.action < ACTIONS else None
        return _Act(w, -1, tuple(cities), None, lost, None, discarded, took)

    def _commit(self, act: _Act) -> None:
        """Carry out a worked-out act, then end the action: the season ends after action 15,
        or the game when the Lonely Tyrant is left (C16, C18); the battle deck is reshuffled
        after action 6 (C15); otherwise the winner leads the next action (C5)."""
        c = self._core
        w = act.winner
        c.cities = list(act.cities)
        if act.gained is not None:
            c.trophies[w] = c.trophies[w] + (act.gained,)
        if act.lost is not None:
            s, card = act.lost
            line = c.trophies[s]
            k = line.index(card)
            c.trophies[s] = line[:k] + line[k + 1 :]
        if act.discarded:
            c.discards = c.discards + act.discarded
        if act.took is not None:
            c.next_city = None
            c.city_left -= 1
        tyrant = None
        if act.destroyed is not None:
            tyrant = self._destroy(act.victim, act.destroyed)
        c.plays = ()
        if tyrant is not None:
            self._end_season(tyrant)
        elif c.action == ACTIONS:
            self._end_season(None)
        else:
            c.action += 1
            c.leader = w
            c.turn = w
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

    # ------------------------------------------------------------------ checking

    def _check(self, move: Move) -> None:
        """Raise the error of the first ruling ``move`` breaks now, if any."""
        if type(move) is Play:
            self._check_play(move)
        elif type(move) is Conquer or type(move) is Retake or type(move) is Regroup:
            self._check_act(move)
        elif type(move) is Reveal:
            self._check_reveal(move)
        elif type(move) is Reshuffle:
            self._check_reshuffle(move)
        elif type(move) is Season:
            self._check_season(move)
        else:
            raise InvalidMoveError(f"not a move of Circle of Power: {move!r}")

    def _phase_problem(self, what: str) -> IllegalMoveError:
        """The error of a move made while the game waits for another, citing the ruling of
        what it waits for."""
        c = self._core
        phase = c.phase
        if phase is _PLAY:
            return IllegalMoveError("C8", f"{what}: {c.seats[c.turn]} is to play a card in action {c.action}")
        if phase is _ACT:
            return IllegalMoveError("C10", f"{what}: {c.seats[c.turn]} won the initiative of action {c.action} and must act")
        if phase is _REVEAL:
            return IllegalMoveError("C7", f"{what}: the next available city must be turned up first")
        if phase is _RESHUFFLE:
            return IllegalMoveError("C15", f"{what}: the battle deck ran out in action 6 and must be reshuffled first")
        if phase is _SEASON:
            first = "the first season" if c.season == 0 else f"season {c.season + 1}"
            return IllegalMoveError("C16", f"{what}: {first} must be set up first")
        outcome = c.outcome
        rule = "C18" if outcome is not None and outcome.how is Termination.LONELY_TYRANT else "C17"
        return IllegalMoveError(rule, f"{what}: the game is over")

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

    def _check_play(self, move: Play) -> None:
        """C8: the emperor whose turn it is, clockwise from the leader, plays a battle card."""
        c = self._core
        if c.phase is not _PLAY:
            raise self._phase_problem(f"{move.player} cannot play a card")
        i = self._emperor(move.player)
        name = move.player
        card = move.card
        drew = move.drew
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if drew is not None and not isinstance(drew, Card):
            raise InvalidMoveError(f"not a card: {drew!r}")
        if i != c.turn:
            leader = c.seats[c.leader]
            raise IllegalMoveError(
                "C8",
                f"it is {c.seats[c.turn]}'s turn to play in action {c.action} "
                f"(clockwise from {leader}, who leads it), not {name}'s",
            )
        if not card.is_battle:
            raise IllegalMoveError("C8", f"{name} plays a battle card (2-10, C2), and {card.id} is a city card")
        if c.dummy[i]:
            self._check_pile_card(i, card, drew)
        else:
            self._check_hand_card(i, card, drew)

    def _check_pile_card(self, i: int, card: Card, drew: Card | None) -> None:
        """C8, C11: a dummy plays the top card of its pile and draws nothing (C6, C15)."""
        c = self._core
        name = c.seats[i]
        if drew is not None:
            raise IllegalMoveError("C8", f"{name} is a dummy and draws no card: its pile holds its cards (C6, C15)")
        top = c.piles[i][0]
        if isinstance(top, Card):
            if top is not card:
                raise IllegalMoveError("C8", f"{name} plays the top card of its pile, {top.id}, not {card.id}")
        elif not (c.pool if top is UNSEEN else c.old_pool) & card.bit:
            raise IllegalMoveError("C8", f"{card.id} cannot be the top card of {name}'s pile{self._where(card, top)}")

    def _check_hand_card(self, i: int, card: Card, drew: Card | None) -> None:
        """C8: a player plays a card of their hand (one they were dealt unseen, or drew unseen,
        may be any card still hidden) and draws from the battle deck while it has cards, which
        ran out with the draws of action 12 (C15)."""
        c = self._core
        name = c.seats[i]
        bit = card.bit
        pool = c.pool
        if card not in c.hands[i]:
            if c.hidden[i] and pool & bit:
                pool &= ~bit
            elif not (c.hidden_old[i] and c.old_pool & bit):
                raise IllegalMoveError("C8", f"{card.id} is not in {name}'s hand{self._where(card, None)}")
        if c.deck_count:
            if drew is not None:
                if drew is card:
                    raise IllegalMoveError("C8", f"{name} cannot draw {card.id}: it is the card {name} plays")
                if not drew.is_battle:
                    raise IllegalMoveError("C8", f"{name} draws from the battle deck, which holds no city card like {drew.id} (C2)")
                if not pool & drew.bit:
                    raise IllegalMoveError(
                        "C15" if c.reshuffled else "C8",
                        f"{name} cannot draw {drew.id}: it is not in the battle deck{self._where(drew, UNSEEN)}",
                    )
        elif drew is not None:
            raise IllegalMoveError("C15", f"the battle deck ran out with the draws of action 12: {name} draws nothing, not {drew.id}")

    def _where(self, card: Card, slot: object) -> str:
        """Where ``card`` is, as far as the companion knows, for a message: `` (it is in bob's
        hand)``; ``slot`` says where it was looked for (a pile's unseen card, the battle deck)."""
        c = self._core
        if not card.is_battle:
            return f" ({card.id} is a city card)"
        for j, name in enumerate(c.seats):
            if card in c.hands[j]:
                return f" (it is in {name}'s hand)"
            if card in c.piles[j]:
                return f" (it is in {name}'s pile)"
        for a, j, x in reversed(c.log):
            if x is card:
                if a == c.action:
                    return f" (it was played in this action by {c.seats[j]})"
                if c.reshuffled and a <= RESHUFFLE_AFTER:
                    break
                if c.reshuffled:
                    return f" (it was played in action {a} by {c.seats[j]}; cards of actions 7-15 are not reused, C15)"
                return f" (it was played in action {a} by {c.seats[j]}, C6)"
        if c.reshuffled and c.old_pool & card.bit:
            if slot is UNSEEN:
                return " (it was not played in actions 1-6, so it is not in the reshuffled battle deck, C15)"
            return ""
        if c.reshuffled and slot is not UNSEEN and c.pool & card.bit:
            return " (it was played in actions 1-6 and went into the reshuffled battle deck, C15)"
        return ""

    def _check_reveal(self, move: Reveal) -> None:
        """C7: the card turned up is a city card still in the city deck, the bottom joker
        last."""
        c = self._core
        if c.phase is not _REVEAL:
            raise self._phase_problem("no city card is turned up now")
        card = move.card
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if not card.is_city:
            raise IllegalMoveError("C7", f"{card.id} is a battle card: the city deck holds J, Q, K, A and jokers (C2)")
        if c.city_pool & card.bit:
            return
        if card is c.bottom:
            if c.city_pool:
                left = c.city_left - 1
                raise IllegalMoveError(
                    "C7", f"{card.id} lies at the bottom of the city deck and comes out last: {left} card{'s' if left != 1 else ''} lie above it"
                )
            return
        if c.city_pool == 0:
            raise IllegalMoveError("C7", f"only the bottom joker {c.bottom.id if c.bottom else ''} is left in the city deck, not {card.id}")
        raise IllegalMoveError("C7", f"{card.id} is not in the city deck: {self._city_where(card)}")

    def _city_where(self, card: Card) -> str:
        """Where a city card that is not in the city deck lies, for a message."""
        c = self._core
        for name, city in zip(c.seats, c.cities):
            if city is card:
                return f"it is {name}'s city"
        for name, line in zip(c.seats, c.trophies):
            if card in line:
                return f"it is {name}'s trophy"
        for name, line in zip(c.seats, c.destroyed):
            if card in line:
                return f"it was destroyed, in {name}'s line"
        if card in c.discards:
            return "it was discarded"
        if card is c.next_city:
            return "it is the next available city"
        return "it came out of the city deck this season"

    def _check_reshuffle(self, move: Reshuffle) -> None:
        """C15: once, after action 6; each dummy's six new cards come from the 24 played in
        actions 1-6, each card once."""
        c = self._core
        if c.phase is not _RESHUFFLE:
            raise self._phase_problem("the battle deck cannot be reshuffled now (C15: once, after action 6)")
        seen: set[str] = set()
        dealt = 0
        for name, cards in move.piles:
            i = self._emperor(name)
            if name in seen:
                raise InvalidMoveError(f"{name}'s new cards are given twice")
            seen.add(name)
            if not c.dummy[i]:
                raise IllegalMoveError("C15", f"{name} is a player and draws from the new battle deck; only dummies put six cards on their piles")
            if len(cards) != RESHUFFLE_PILE:
                raise IllegalMoveError("C15", f"each dummy puts {RESHUFFLE_PILE} cards on its pile, not {len(cards)} ({name})")
            for x in cards:
                if x is UNSEEN:
                    continue
                if not isinstance(x, Card):
                    raise InvalidMoveError(f"not a card: {x!r}")
                if x.bit & dealt:
                    raise IllegalMoveError("C15", f"{x.id} is put on a pile twice")
                if not x.bit & c.played_a:
                    raise IllegalMoveError(
                        "C15", f"the new battle deck holds the 24 cards played in actions 1-6, and {x.id} was not one of them"
                    )
                dealt |= x.bit

    def _check_season(self, move: Season) -> None:
        """C4-C6: between seasons, four emperors seated as C4 places them, the dealer, the
        cities, and the hands and piles dealt."""
        c = self._core
        if c.phase is not _SEASON:
            if c.phase is _OVER:
                raise self._phase_problem("no new season")
            raise self._phase_problem(f"season {c.season} is under way ({c.action} of {ACTIONS} actions)")
        seats = move.seats
        if not isinstance(seats, tuple) or len(seats) != SEATS or not all(isinstance(n, str) for n in seats):
            raise InvalidMoveError(f"a season seats four emperors, clockwise: {seats!r}")
        if len(set(seats)) != SEATS:
            raise IllegalMoveError("C4", f"each emperor sits once: {', '.join(seats)}")
        self._check_seating(seats)
        self._check_dealer(move.dealer, seats)
        self._check_cities(move)
        self._check_deal(move, seats)

    def _check_seating(self, seats: tuple[str, ...]) -> None:
        """C4: who sits where."""
        c = self._core
        players = self.players
        expected = self.expected_seats()
        if expected is None:
            dummies = self.setup.dummies
            if set(seats) != set(players) | set(dummies):
                who = ", ".join(players)
                them = f" and the dumm{'ies' if len(dummies) > 1 else 'y'} {' and '.join(dummies)}" if dummies else ""
                raise IllegalMoveError("C4", f"the emperors are the players {who}{them}, not {', '.join(seats)}")
            order = tuple(n for n in seats if n in players)
            if order not in _rotations(players):
                raise IllegalMoveError("C4", f"the players sit in their clockwise order {', '.join(players)}, not {', '.join(order)}")
            if len(dummies) == 2 and abs(seats.index(dummies[0]) - seats.index(dummies[1])) != 2:
                raise IllegalMoveError("C4", f"two dummies sit opposite each other: {', '.join(seats)}")
            return
        if seats in _rotations(expected):
            return
        why = ""
        if c.knocked and any(n in c.seats for n in c.knocked):
            out = [n for n in c.knocked if n in c.seats]
            why = f" ({' and '.join(out)} {'was' if len(out) == 1 else 'were'} knocked out: a new dummy takes each seat, and no dummy moves any more)"
        elif c.knocked:
            why = " (from the first knock-out on, no dummy moves)"
        elif sum(c.dummy) == 1:
            d = next(n for n, x in zip(c.seats, c.dummy) if x)
            why = f" ({d} moves one seat counter-clockwise, changing places with the emperor on its right)"
        elif sum(c.dummy) == 2:
            why = " (two dummies stay opposite each other)"
        raise IllegalMoveError("C4", f"this season the emperors sit {', '.join(expected)} clockwise{why}, not {', '.join(seats)}")

    def _check_dealer(self, dealer: object, seats: tuple[str, ...]) -> None:
        """C5: a player deals, the deal passing clockwise."""
        if not isinstance(dealer, str) or dealer not in seats:
            raise IllegalMoveError("C5", f"the dealer must be a player at the table, not {dealer!r}")
        if is_dummy(dealer):
            raise IllegalMoveError("C5", f"dummies never deal: {dealer} cannot deal")
        expected = self.expected_dealer()
        if expected is not None and dealer != expected:
            raise IllegalMoveError(
                "C5", f"the deal passes clockwise to the next player still in the game: {expected} deals, not {dealer}"
            )

    def _check_cities(self, move: Season) -> None:
        """C6: one city each, face up; one joker at the bottom of the city deck."""
        names: set[str] = set()
        cards = 0
        seats = move.seats
        for name, card in move.cities:
            if name not in seats:
                raise InvalidMoveError(f"cities: {name!r} is not seated this season ({', '.join(seats)})")
            if name in names:
                raise InvalidMoveError(f"cities: {name} is given two cities")
            names.add(name)
            if not isinstance(card, Card):
                raise InvalidMoveError(f"not a card: {card!r}")
            if not card.is_city:
                raise IllegalMoveError("C6", f"a city is a J, Q, K, A or a joker (C2), and {name}'s {card.id} is a battle card")
            if cards & card.bit:
                raise IllegalMoveError("C6", f"{card.id} is dealt as a city twice")
            cards |= card.bit
        missing = [n for n in seats if n not in names]
        if missing:
            raise IllegalMoveError("C6", f"every emperor gets a city: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} none")
        bottom = move.bottom
        if not isinstance(bottom, Card):
            raise InvalidMoveError(f"not a card: {bottom!r}")
        if not bottom.is_joker:
            raise IllegalMoveError("C6", f"a joker lies face up at the bottom of the city deck, not {bottom.id}")
        if cards & bottom.bit:
            raise IllegalMoveError("C6", f"{bottom.id} cannot be both a city and the bottom of the city deck")

    def _check_deal(self, move: Season, seats: tuple[str, ...]) -> None:
        """C6: three cards to each player, nine to each dummy's pile, every card once."""
        dealt = 0
        for label, entries, size, want_dummy in (("hands", move.hands, HAND_SIZE, False), ("piles", move.piles, PILE_SIZE, True)):
            named: set[str] = set()
            for name, cards in entries:
                if name not in seats:
                    raise InvalidMoveError(f"{label}: {name!r} is not seated this season ({', '.join(seats)})")
                if name in named:
                    raise InvalidMoveError(f"{label}: {name}'s cards are given twice")
                named.add(name)
                if is_dummy(name) != want_dummy:
                    what = (
                        f"{name} is a dummy: its cards form a face-down pile (piles), not a hand"
                        if not want_dummy
                        else f"{name} is a player: a player's cards are a hand (hands), not a pile"
                    )
                    raise IllegalMoveError("C6", what)
                if not isinstance(cards, tuple) or len(cards) != size:
                    count = len(cards) if isinstance(cards, tuple) else cards
                    whose = "a dummy's pile holds" if want_dummy else "a player's hand holds"
                    raise IllegalMoveError("C6", f"{whose} {size} cards, and {name} is given {count}")
                for x in cards:
                    if x is UNSEEN:
                        continue
                    if not isinstance(x, Card):
                        raise InvalidMoveError(f"not a card: {x!r}")
                    if not x.is_battle:
                        raise IllegalMoveError("C6", f"hands and piles are dealt from the battle deck (2-10, C2), not {x.id}")
                    if dealt & x.bit:
                        raise IllegalMoveError("C6", f"{x.id} is dealt twice")
                    dealt |= x.bit

    def _check_act(self, move: Act) -> None:
        """C9-C14, C18, C19: the winner, and only the winner, does one act open to them; a
        dummy the one act C11 leaves it."""
        c = self._core
        if c.phase is not _ACT or move.player != c.seats[c.turn]:
            self._refuse_act(move)
        w = c.turn
        if c.dummy[w]:
            expected = self._dummy_act(w)
            if move != expected:
                raise IllegalMoveError("C11", self._dummy_words(w, expected))
        elif type(move) is Regroup:
            self._check_regroup(w, move)
        else:
            self._check_attack(w, move)

    def _refuse_act(self, move: Act) -> NoReturn:
        """C9, C10: an act comes after the action's four plays, from the winner of the
        initiative only; raise the error of ``move``, which comes at another time or from
        another emperor."""
        c = self._core
        player = move.player
        if c.phase is not _ACT:
            verb = {Conquer: "conquer", Retake: "retake a city", Regroup: "regroup"}[type(move)]
            raise self._phase_problem(f"{player} cannot {verb}")
        w = self._emperor(player)
        plays = self._plays_by_seat()
        raise IllegalMoveError("C9", why_initiative(c.seats, c.cities, c.next_city, plays, c.trumps, against=w))

    def _check_regroup(self, w: int, move: Regroup) -> None:
        """C10, C14: the winner regroups only when their city may attack none of the others,
        and pays for a rebellion with a trophy."""
        c = self._core
        discard = move.discard
        if discard is not None and not isinstance(discard, Card):
            raise InvalidMoveError(f"not a card: {discard!r}")
        found = victims(w, c.cities)
        if found:
            may = "; ".join(attack_words(c.seats, c.cities, w, v) for v in found)
            raise IllegalMoveError("C10", f"{c.seats[w]} must attack: {may}")
        self._check_rebellion(w, discard)

    def _check_attack(self, w: int, move: Conquer | Retake) -> None:
        """C3, C10: the winner takes over a city their city may attack; C13: a retake costs the
        loser a trophy, and C18 has none; C19: only a black attacker may keep their city."""
        c = self._core
        name = c.seats[w]
        victim = move.victim
        if type(move) is Retake and self._lonely:
            raise IllegalMoveError("C18", "retaking is not available in Lonely Tyrant: a city taken over is destroyed, never conquered")
        if type(move) is Conquer:
            keep = move.keep
            if not isinstance(keep, bool):
                raise InvalidMoveError(f"keep must be true or false, not {keep!r}")
            if keep and not self._coloured:
                raise IllegalMoveError("C19", "only in Coloured Cities may an attacker keep their city")
        v = self._emperor(victim)
        if v == w:
            raise IllegalMoveError("C10", f"{name} cannot take over {name}'s own city")
        mine = c.cities[w]
        assert mine is not None
        found = victims(w, c.cities)
        if not found:
            raise IllegalMoveError(
                "C10",
                f"{name}'s {mine.id} may take none of the other cities ({attack_range(mine)}): {name} must regroup",
            )
        if v not in found:
            raise IllegalMoveError("C3", attack_words(c.seats, c.cities, w, v))
        if type(move) is Conquer and move.keep:
            theirs = c.cities[v]
            assert theirs is not None
            if colour_in_attack(mine, theirs) != BLACK:
                raise IllegalMoveError("C19", f"{name}'s {mine.id} is red in this attack: {name} must give it to {victim}")
        if type(move) is Retake:
            self._check_retake_discard(w, v, move.discard)

    def _check_rebellion(self, w: int, discard: Card | None) -> None:
        """C14: a city not under threat rebels and costs a trophy of the winner's choice."""
        c = self._core
        name = c.seats[w]
        line = c.trophies[w]
        if threats(w, c.cities):
            if discard is not None:
                raise IllegalMoveError("C14", f"{threat_words(c.seats, c.cities, w).replace(' is under', ' was under')}: no rebellion")
            return
        if not line:
            if discard is not None:
                if self._lonely:
                    raise IllegalMoveError("C18", "in Lonely Tyrant there are no trophies: a rebellion costs nothing")
                raise IllegalMoveError("C14", f"{name} has no trophy to lose: the rebellion costs nothing")
            return
        city = c.cities[w]
        assert city is not None
        if discard is None:
            raise IllegalMoveError(
                "C14",
                f"{name}'s city {city.id} was under threat from nobody: it rebels, and {name} must discard one of "
                f"{name}'s trophies ({', '.join(x.id for x in line)})",
            )
        if discard not in line:
            other = " (a destroyed city is never lost to rebellion, C19)" if discard in c.destroyed[w] else ""
            raise IllegalMoveError("C14", f"{discard.id} is not one of {name}'s trophies ({', '.join(x.id for x in line)}){other}")

    def _check_retake_discard(self, w: int, v: int, discard: object) -> None:
        """C13: the winner discards one of the loser's trophies, none when the line is empty."""
        c = self._core
        loser = c.seats[v]
        line = c.trophies[v]
        if discard is not None and not isinstance(discard, Card):
            raise InvalidMoveError(f"not a card: {discard!r}")
        if not line:
            if discard is not None:
                raise IllegalMoveError("C13", f"{loser} has no trophy: the retake costs {loser} nothing, so no discard")
            return
        if discard is None:
            raise IllegalMoveError(
                "C13", f"{c.seats[w]} discards one of {loser}'s trophies ({', '.join(x.id for x in line)})"
            )
        if discard not in line:
            raise IllegalMoveError("C13", f"{discard.id} is not one of {loser}'s trophies ({', '.join(x.id for x in line)})")

    def _dummy_act(self, w: int) -> Move:
        """The one act C11 leaves a dummy: conquer the first city counter-clockwise it may
        attack (keeping a black city in Coloured Cities), or regroup, giving up the trophy it
        won last when its city rebels."""
        c = self._core
        name = c.seats[w]
        v = dummy_victim(w, c.cities)
        if v is not None:
            keep = False
            if self._coloured:
                mine, theirs = c.cities[w], c.cities[v]
                assert mine is not None and theirs is not None
                keep = colour_in_attack(mine, theirs) == BLACK
            return Conquer(name, c.seats[v], keep)
        line = c.trophies[w]
        if line and not threats(w, c.cities):
            return Regroup(name, line[-1])
        return Regroup(name)

    def _dummy_words(self, w: int, act: Move) -> str:
        """C11: the one act a dummy has, in words."""
        c = self._core
        name = c.seats[w]
        if type(act) is Conquer:
            v = c.seat_of[act.victim]
            keep = " and keeps its city" if act.keep else ""
            return (
                f"{name} is a dummy: it conquers {act.victim}{keep}, the first emperor counter-clockwise whose city it "
                f"may take ({attack_words(c.seats, c.cities, w, v)})"
            )
        assert type(act) is Regroup
        lost = f", giving up {act.discard.id}, the trophy it won last" if act.discard is not None else ""
        return f"{name} is a dummy: it regroups{lost}"

    # ------------------------------------------------------------------ effects

    def _effects(self, move: Move) -> Effects:
        """What a (checked) move does, before it is carried out."""
        c = self._core
        if type(move) is Play:
            i = c.turn
            name = c.seats[i]
            card = move.card
            drawn = not c.dummy[i] and c.deck_count > 0
            drew = move.drew if drawn else None
            transfers = [Transfer(card, PILE if c.dummy[i] else HAND, name, TABLE, name)]
            if drawn:
                transfers.append(Transfer(drew if drew is not None else UNSEEN, BATTLE_DECK_ZONE, None, HAND, name))
            return Effects(name, kind="play", action=c.action, card=card, drew=drew, drawn=drawn, transfers=tuple(transfers))
        if type(move) is Conquer or type(move) is Retake or type(move) is Regroup:
            act = self._resolve(move)
            return self._act_effects(move, act)
        if type(move) is Reveal:
            return Effects(None, kind="reveal", action=c.action, card=move.card)
        if type(move) is Reshuffle:
            return self._reshuffle_effects(move)
        assert type(move) is Season
        return self._season_effects(move)

    def _reshuffle_effects(self, move: Reshuffle) -> Effects:
        """C15: the cards gathered in actions 1-6 become the battle deck, and each dummy puts
        six of them on its pile."""
        c = self._core
        transfers = [Transfer(x, GATHERED, None, BATTLE_DECK_ZONE, None) for x in cards_of_mask(c.played_a)]
        for i, name in enumerate(c.seats):
            if c.dummy[i]:
                given = move.pile_of(name) or (UNSEEN,) * RESHUFFLE_PILE
                transfers.extend(Transfer(x, BATTLE_DECK_ZONE, None, PILE, name) for x in given)
        return Effects(None, kind="reshuffle", action=c.action, transfers=tuple(transfers))

    def _season_effects(self, season: Season) -> Effects:
        """C6: each emperor's city from the city deck, each player's hand and each dummy's pile
        from the battle deck."""
        transfers = [Transfer(card, CITY_DECK_ZONE, None, CITY, name) for name, card in season.cities]
        for name in season.seats:
            if is_dummy(name):
                for x in season.pile_of(name) or (UNSEEN,) * PILE_SIZE:
                    transfers.append(Transfer(x, BATTLE_DECK_ZONE, None, PILE, name))
            else:
                for x in season.hand_of(name) or (UNSEEN,) * HAND_SIZE:
                    transfers.append(Transfer(x, BATTLE_DECK_ZONE, None, HAND, name))
        return Effects(None, kind="season", transfers=tuple(transfers))

    def _act_effects(self, move: Act, act: _Act) -> Effects:
        """The cards an act moves (C12-C14, C18, C19): trophies won and lost, cities destroyed,
        discarded and changing hands, the city taken from the deck, and the action's played
        cards gathered (C8)."""
        c = self._core
        w = act.winner
        name = c.seats[w]
        before = c.cities
        transfers: list[Transfer] = []
        victim = c.seats[act.victim] if act.victim >= 0 else None
        if act.lost is not None:
            s, card = act.lost
            transfers.append(Transfer(card, TROPHIES, c.seats[s], DISCARD, None))
        if act.gained is not None:
            transfers.append(Transfer(act.gained, CITY, victim, TROPHIES, name))
        if act.destroyed is not None:
            transfers.append(Transfer(act.destroyed, CITY, victim, DESTROYED, victim))
        for x in [x for x in act.discarded if any(x is y for y in before)]:
            owner = c.seats[next(k for k, y in enumerate(before) if y is x)]
            transfers.append(Transfer(x, CITY, owner, DISCARD, None))
        for k, (old, new) in enumerate(zip(before, act.cities)):
            if new is None or new is old:
                continue
            if new is act.took:
                transfers.append(Transfer(new, CITY_DECK_ZONE, None, CITY, c.seats[k]))
            else:
                j = next(j for j, y in enumerate(before) if y is new)
                transfers.append(Transfer(new, CITY, c.seats[j], CITY, c.seats[k]))
        for k, card in enumerate(c.plays):
            owner = c.seats[(c.leader + k) % SEATS]
            transfers.append(Transfer(card, TABLE, owner, GATHERED, None))
        kind = {Conquer: "conquer", Retake: "retake", Regroup: "regroup"}[type(move)]
        rebellion = kind == "regroup" and act.lost is not None
        return Effects(
            name,
            kind=kind,
            action=c.action,
            victim=victim,
            transfers=tuple(transfers),
            rebellion=rebellion,
            lost=act.lost[1] if act.lost is not None and kind == "regroup" else None,
            threatened=bool(threats(w, before)),
        )

    # ------------------------------------------------------------------ the table's moves

    def random_table_move(self, rng: random.Random) -> Move:
        """A random legal move of the table (:attr:`to_move` is ``None``): a whole season's
        set-up with every card dealt face up to the companion, the next city card turned up,
        or the reshuffle with the dummies' new cards."""
        c = self._core
        if c.phase is _SEASON:
            seats = self.expected_seats() or self._first_seats()
            dealer = self.expected_dealer() or rng.choice(self.players)
            bottom = rng.choice(JOKERS)
            cities = [x for x in CITY_DECK if x is not bottom]
            rng.shuffle(cities)
            battle = list(BATTLE_DECK)
            rng.shuffle(battle)
            hands: dict[str, list[Card]] = {}
            piles: dict[str, list[Card]] = {}
            for name in seats:
                if is_dummy(name):
                    piles[name] = [battle.pop() for _ in range(PILE_SIZE)]
                else:
                    hands[name] = [battle.pop() for _ in range(HAND_SIZE)]
            return Season.make(dealer, seats, dict(zip(seats, cities)), bottom, hands, piles)
        if c.phase is _REVEAL:
            left = cards_of_mask(c.city_pool)
            assert c.bottom is not None
            return Reveal(rng.choice(left) if left else c.bottom)
        if c.phase is _RESHUFFLE:
            deck = cards_of_mask(c.played_a)
            rng.shuffle(deck)
            piles = {}
            for name in self.dummies:
                piles[name] = [deck.pop() for _ in range(RESHUFFLE_PILE)]
            return Reshuffle.make(piles)
        raise ValueError(f"the table has no move now: the game is {'over' if c.phase is _OVER else 'waiting for ' + str(self.to_move)}")

    def _first_seats(self) -> tuple[str, ...]:
        """The first season's seats the companion proposes (C4): the players in order, one
        dummy last, or two dummies each between two players."""
        players = self.players
        dummies = self.setup.dummies
        if len(dummies) == 2:
            return (players[0], dummies[0], players[1], dummies[1])
        return players + dummies

    # ------------------------------------------------------------------ views

    def view(self, player: str) -> CircleView:
        """What ``player`` may know, and nothing more: the public table, their own hand as the
        companion saw it, and the battle cards they cannot place."""
        from companion.games.circle_of_power.view import make_view

        return make_view(self, player)

    def resample(self, player: str, rng: random.Random) -> CircleState:
        """A copy of this position (its move stack empty) in which every card ``player`` cannot
        see is dealt again at random, consistently with their view: the other hands, the
        dummies' piles, and the battle deck. Cards of ``player``'s own hand that the companion
        never saw stay unseen (the view does not hold them). After the reshuffle, cards kept
        from before it and cards of the new deck stay apart (C15)."""
        new = self.copy(keep_history=False)
        c = new._core
        if c.phase is _SEASON or c.phase is _OVER or not c.seats:
            return new
        me = c.seat_of.get(player, -1)
        if c.reshuffled:
            new._redeal_after_reshuffle(me, rng)
        else:
            new._redeal_before_reshuffle(me, rng)
        return new

    def _cards_of_others(self, me: int) -> int:
        """The cards the companion saw in the hands and piles of every seat but ``me``."""
        c = self._core
        cards = 0
        for s in range(SEATS):
            if s == me:
                continue
            for x in c.hands[s]:
                cards |= x.bit
            for y in c.piles[s]:
                if isinstance(y, Card):
                    cards |= y.bit
        return cards

    def _redeal_before_reshuffle(self, me: int, rng: random.Random) -> None:
        """Before the reshuffle (C6, C8): the cards seat ``me`` cannot see, in the other hands
        and piles and in the battle deck, are shuffled together and dealt again, as many to
        each hand and pile as it holds."""
        c = self._core
        cards = cards_of_mask(c.pool | self._cards_of_others(me))
        rng.shuffle(cards)
        for s in range(SEATS):
            if s == me:
                continue
            if c.dummy[s]:
                c.piles[s] = tuple(cards.pop() for _ in c.piles[s])
            else:
                n = len(c.hands[s]) + c.hidden[s]
                c.hands[s] = tuple(cards.pop() for _ in range(n))
                c.hidden[s] = 0
        c.pool = sum(x.bit for x in cards)

    def _redeal_after_reshuffle(self, me: int, rng: random.Random) -> None:
        """After the reshuffle (C15) the same, keeping apart the cards of the new battle deck
        (the 24 of actions 1-6) and those from before it, which hands and piles kept: each
        card seat ``me`` cannot see is dealt again from its own kind."""
        c = self._core
        played_a = c.played_a
        others = self._cards_of_others(me)
        olds = cards_of_mask(c.old_pool | (others & ~played_a))
        news = cards_of_mask(c.pool | (others & played_a))
        rng.shuffle(olds)
        rng.shuffle(news)
        for s in range(SEATS):
            if s == me:
                continue
            if c.dummy[s]:
                pile: list[PileCard] = []
                for y in c.piles[s]:
                    is_new = y is UNSEEN or (isinstance(y, Card) and y.bit & played_a)
                    pile.append(news.pop() if is_new else olds.pop())
                c.piles[s] = tuple(pile)
            else:
                known_new = sum(1 for x in c.hands[s] if x.bit & played_a)
                n_new = known_new + c.hidden[s]
                n_old = len(c.hands[s]) - known_new + c.hidden_old[s]
                c.hands[s] = tuple(olds.pop() for _ in range(n_old)) + tuple(news.pop() for _ in range(n_new))
                c.hidden[s] = 0
                c.hidden_old[s] = 0
        c.old_pool = sum(x.bit for x in olds)
        c.pool = sum(x.bit for x in news)

    def __repr__(self) -> str:
        c = self._core
        where = f"season {c.season} action {c.action} {c.phase.value}"
        who = self.to_move
        return f"<CircleState {'/'.join(self.players)} {self._variant} {where}{' ' + who if who else ''}>"


def _rotations(names: Sequence[str]) -> set[tuple[str, ...]]:
    names = tuple(names)
    return {names[k:] + names[:k] for k in range(len(names))}


class LegalMoves:
    """A lazy view of the legal moves (python-chess style)."""

    __slots__ = ("_state",)

    def __init__(self, state: CircleState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return self._state.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        # A move of the table is legal too when it is, though none is listed.
        return isinstance(move, (Play, Conquer, Retake, Regroup, Reveal, Reshuffle, Season)) and self._state.is_legal(move)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()})>"

