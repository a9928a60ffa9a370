"""The Rule of Power game state: seating, deals, turns, hands, the centre, capture stacks,
Fate cards, and the scores of finished rounds.

Like a chess board, a :class:`GameState` takes moves with :meth:`GameState.push` (checked
against every rule; an illegal move raises :class:`IllegalMoveError` naming the rule) and
takes them back with :meth:`GameState.pop`, restoring the state exactly.

The state can follow a game it cannot fully see: a hand dealt face down holds
:data:`~companion.games.rule_of_power.engine.moves.UNSEEN` cards, which become known as they are played; a Fate deck's
order can be unknown. Every rule that needs no hidden card is still checked.

>>> game = GameState(GameSetup(("ann", "bob")))
>>> game.push(NewRound("bob"))
>>> game.push(Deal.make({"ann": ["W012", "W033", "W005"], "bob": ["W016", "W021", "W040"]},
...                     ["W004", "W024", "W038", "W009"]))
>>> game.turn
'ann'
>>> sorted(" ".join(c.id for c in m.capture) for m in game.legal_moves if m.card.id == "W012")
['']
>>> game.push(Play.from_ids("ann", "W012"))
>>> game.push(Play.from_ids("bob", "W016"))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: R4: Servant of Men (6) played by bob: the 6 can capture, so it must (take 4P W004 + 2M W012 or 4E W024 + 2M W012)
>>> game.push(Play.from_ids("bob", "W016", ["W024", "W012"]))
>>> [c.id for c in game.stack("bob")]
['W024', 'W012', 'W016']
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, TypeGuard, TypeVar, cast
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from companion.games.rule_of_power.engine.captures import capture_options, has_capture, is_valid_capture
from companion.games.rule_of_power.engine.cards import DARK_DECAY, EXORCIST, MYSTIC_CRYSTAL, RENEWAL, Card, world_deck
from companion.games.rule_of_power.engine.effects import CENTRE, FRONT, HAND, Effects, Spent
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.state import TurnBased
from companion.contract import registry
from companion.games.rule_of_power.engine.fate import FATE_RULES, FateRule, check_details, fate_rule
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, DrawFate, HandCard, Move, NewRound, Pass, Play, _Unseen
from companion.games.rule_of_power.engine.scoring import RoundScore, score_round

if TYPE_CHECKING:
    import random

    from companion.games.rule_of_power import RuleOfPower
    from companion.games.rule_of_power.engine.view import PlayerView

__all__ = [
    "GameSetup",
    "GameState",
    "Phase",
    "IllegalMoveError",
    "InvalidMoveError",
    "RoundResult",
    "Outcome",
    "Termination",
    "deal_sizes",
    "deal_from",
    "FATE_DECK_SIZE",
]

FATE_DECK_SIZE = 7
# A Play of a World card carries none of the Fate details (DETAILS): its tail is all empty.
_NO_DETAILS = Play("", world_deck()[0])[3:]
_NOTHING = Effects(None)
_T = TypeVar("_T")
_TOUCHED: dict[tuple[tuple[int, Card], ...], frozenset[Card]] = {}
"""The World cards that the Fate cards in play touch (FateRule.touches), remembered: the rules
never change, and the fast path asks for every World card played."""


def _touched_by(in_play: tuple[tuple[int, Card], ...]) -> frozenset[Card]:
    touched = _TOUCHED.get(in_play)
    if touched is None:
        rules = {FATE_RULES[card] for _, card in in_play}
        touched = _TOUCHED[in_play] = frozenset(x for x in world_deck(True) if any(r.touches(x) for r in rules))
    return touched


class Phase(enum.Enum):
    """What the game waits for next."""

    ROUND = "round"
    """A new round: the dealer and the Fate decks (:class:`NewRound`)."""
    DEAL = "deal"
    """The next deal (:class:`Deal`)."""
    TURN = "turn"
    """The player to move plays, draws a Fate card or passes."""
    OVER = "over"
    """The game has a winner."""


class Termination(enum.Enum):
    """How a game ended."""

    TARGET = "target"
    """A side reached the target with a total greater than every other side's (R14)."""
    RULE_OF_POWER = "rule_of_power"
    """A side held every Power card at the end of a round (R13)."""


_TURN = Phase.TURN


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: str


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The fixed facts of a game: seating (clockwise), teams, target and expansion.

    Teams (R16) are tuples of player names; members must sit alternately, so that team
    ``i`` holds seats ``i``, ``i + k``, ``i + 2k``, ... for ``k`` teams.
    """

    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...] | None = None
    target: int = 11
    expansion: bool = False
    # Each player's side and the side names, worked out once: rules and scoring ask often.
    _side: dict[str, str] = field(init=False, repr=False, compare=False)
    _sides: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        if not 2 <= len(players) <= 6:
            raise IllegalMoveError("R16", f"a game has 2 to 6 players, not {len(players)}")
        for name in players:
            if not isinstance(name, str) or not name or "+" in name:
                raise InvalidMoveError(f"player names must be non-empty and without '+': {name!r}")
        if len(set(players)) != len(players):
            raise IllegalMoveError("R16", "each player sits once: duplicate names in the seating")
        if self.target < 11 or (self.target - 11) % 5:
            raise IllegalMoveError("R14", f"the target is 11, 16, 21, 26, ... not {self.target}")
        if self.teams:
            teams = tuple(tuple(t) for t in self.teams)
            object.__setattr__(self, "teams", teams)
            flat = [p for t in teams for p in t]
            if not all(isinstance(p, str) for p in flat):
                raise InvalidMoveError(f"a team is a list of player names: {[list(t) for t in teams]!r}")
            if sorted(flat) != sorted(players):
                raise IllegalMoveError("R16", "the teams must hold every player exactly once")
            k = len(teams)
            sizes = {len(t) for t in teams}
            if k < 2 or len(sizes) != 1 or sizes == {1}:
                raise IllegalMoveError("R16", "teams are two or more teams of equal size, two or more players each")
            for t in teams:
                seats = [players.index(p) for p in t]
                if any((seats[0] + i * k) % len(players) not in seats for i in range(len(t))):
                    raise IllegalMoveError(
                        "R16", f"team members sit alternately around the table: {'+'.join(t)} do not"
                    )
        else:
            object.__setattr__(self, "teams", None)
        sides = tuple("+".join(t) for t in self.teams) if self.teams else players
        object.__setattr__(self, "_sides", sides)
        object.__setattr__(self, "_side", {p: side for t, side in zip(self.teams or (), sides) for p in t})

    @property
    def game(self) -> RuleOfPower:
        """Rule of Power, the game this is a set-up of (found through the registry, so that
        the rules import none of the game's other parts)."""
        return cast("RuleOfPower", registry.game("rule-of-power"))

    @property
    def sides(self) -> tuple[str, ...]:
        """Side names: the players, or the teams joined with ``+`` (``ann+cy``)."""
        return self._sides

    def side_of(self, player: str) -> str:
        """The side ``player`` plays for: their team's name, or their own."""
        return self._side.get(player, player)

    def is_opponent(self, a: str, b: str) -> bool:
        side = self._side
        return a != b and side.get(a, a) != side.get(b, b)

    @property
    def deck_size(self) -> int:
        return 52 if self.expansion else 40


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: its dealer, the scores with their reasons, what the last capturer
    swept up at the end (R6), and the game totals after it."""

    number: int
    dealer: str
    score: RoundScore
    last_capturer: str | None
    leftover: tuple[Card, ...]
    totals: Mapping[str, int]


def deal_sizes(players: int, deck: int, first: bool) -> list[int]:
    """How many cards each player gets in a deal, from the dealer's left (R15): three each,
    or one at a time until the deck runs out; four more go to the centre on a round's first
    deal."""
    left = deck - (4 if first else 0)
    if left >= 3 * players:
        return [3] * players
    left = max(left, 0)
    return [min(3, left // players + (1 if i < left % players else 0)) for i in range(players)]


def deal_from(deck: list[Card], game: GameState) -> Deal:
    """The next deal of ``game`` from the top of ``deck`` (its last card), taken off it: one
    card at a time, clockwise from the dealer's left, three each or what is left, and four to
    the centre on a round's first deal (R15). For a table that knows its deck's order (a
    virtual table, the companion as dealer, a sampled deal)."""
    players = game.players
    n = len(players)
    first = game.deal_number == 0
    sizes = deal_sizes(n, len(deck), first)
    start = players.index(game.dealer or players[0]) + 1
    order = [players[(start + k) % n] for k in range(n)]
    hands: dict[str, list[Card]] = {p: [] for p in players}
    for r in range(3):
        for k, p in enumerate(order):
            if sizes[k] > r:
                hands[p].append(deck.pop())
    centre = [deck.pop() for _ in range(4)] if first else []
    return Deal.make(hands, centre)


class _Core:
    """The mutable part of the state, copied on every push so that pop restores it."""

    __slots__ = (
        "phase",
        "round_no",
        "dealer",
        "deal_no",
        "last_deal",
        "turn",
        "hands",
        "hidden",
        "fate_hands",
        "fate_hidden",
        "fate_decks",
        "fate_order_known",
        "fate_sets",
        "drew_fate",
        "centre",
        "centre_fate",
        "stacks",
        "sweeps",
        "in_play",
        "discards",
        "pool",
        "deck_count",
        "last_capturer",
        "revealed",
        "results",
        "totals",
        "outcome",
    )

    phase: Phase
    round_no: int
    dealer: int
    deal_no: int
    last_deal: bool
    turn: int
    hands: list[tuple[Card, ...]]
    hidden: tuple[int, ...]
    fate_hands: list[tuple[Card, ...]]
    fate_hidden: tuple[int, ...]
    fate_decks: list[tuple[Card, ...]]
    fate_order_known: bool
    fate_sets: tuple[frozenset[Card], ...] | None
    drew_fate: tuple[bool, ...]
    centre: tuple[Card, ...]
    centre_fate: tuple[tuple[int, Card], ...]
    stacks: list[tuple[Card, ...]]
    sweeps: tuple[tuple[Card, ...], ...]
    in_play: tuple[tuple[int, Card], ...]
    discards: tuple[Card, ...]
    pool: frozenset[Card]
    deck_count: int
    last_capturer: int | None
    revealed: tuple[tuple[int, Card, int], ...]
    results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    outcome: Outcome | None

    def copy(self) -> _Core:
        new = _Core.__new__(_Core)
        new.phase = self.phase
        new.round_no = self.round_no
        new.dealer = self.dealer
        new.deal_no = self.deal_no
        new.last_deal = self.last_deal
        new.turn = self.turn
        new.hands = self.hands[:]
        new.hidden = self.hidden
        new.fate_hands = self.fate_hands[:]
        new.fate_hidden = self.fate_hidden
        new.fate_decks = self.fate_decks[:]
        new.fate_order_known = self.fate_order_known
        new.fate_sets = self.fate_sets
        new.drew_fate = self.drew_fate
        new.centre = self.centre
        new.centre_fate = self.centre_fate
        new.stacks = self.stacks[:]
        new.sweeps = self.sweeps
        new.in_play = self.in_play
        new.discards = self.discards
        new.pool = self.pool
        new.deck_count = self.deck_count
        new.last_capturer = self.last_capturer
        new.revealed = self.revealed
        new.results = self.results
        new.totals = self.totals
        new.outcome = self.outcome
        return new


def _put(values: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """``values`` with the ``i``-th replaced: per-seat facts that change rarely are tuples, which
    a copy of the state shares instead of copying."""
    return values[:i] + (value,) + values[i + 1 :]


def _add(counts: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return counts[:i] + (counts[i] + n,) + counts[i + 1 :]


def _remove(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _remove_all(cards: tuple[Card, ...], taken: Sequence[Card]) -> tuple[Card, ...]:
    rest = list(cards)
    for c in taken:
        rest.remove(c)
    return tuple(rest)


class GameState(TurnBased[Move]):
    """A game of Rule of Power in progress.

    Read it through properties (``phase``, ``turn``, ``dealer``, ``centre``, ``hand(p)``,
    ``stack(p)``, ``legal_moves``, ``results``, ``totals``, ``outcome()``), change it with
    :meth:`push` and :meth:`pop`. ``keep_history=False`` drops the undo stack for fast
    one-way replays.
    """

    def __init__(self, setup: GameSetup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players = setup.players
        self._n = len(setup.players)
        self._seat = {p: i for i, p in enumerate(setup.players)}
        self._touched_in_play: tuple[tuple[int, Card], ...] = ()
        self._touched: frozenset[Card] = frozenset()
        self._side_index = [setup.sides.index(setup.side_of(p)) for p in setup.players]
        self._deck = world_deck(setup.expansion)
        self._keep = keep_history
        self.move_stack: list[Move] = []
        self._stack: list[_Core] = []
        n = self._n
        core = _Core()
        core.phase = Phase.ROUND
        core.round_no = 0
        core.dealer = -1
        core.deal_no = 0
        core.last_deal = False
        core.turn = -1
        core.hands = [()] * n
        core.hidden = (0,) * n
        core.fate_hands = [()] * n
        core.fate_hidden = (0,) * n
        core.fate_decks = [()] * n
        core.fate_order_known = True
        core.fate_sets = None
        core.drew_fate = (False,) * n
        core.centre = ()
        core.centre_fate = ()
        core.stacks = [()] * n
        core.sweeps = ((),) * n
        core.in_play = ()
        core.discards = ()
        core.pool = frozenset()
        core.deck_count = 0
        core.last_capturer = None
        core.revealed = ()
        core.results = ()
        core.totals = tuple(0 for _ in setup.sides)
        core.outcome = None
        self._core = core

    # ------------------------------------------------------------------ reading the state

    @property
    def game(self) -> RuleOfPower:
        """Rule of Power, the game this is a state of."""
        return self.setup.game

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def to_move(self) -> str | None:
        """Whose decision comes next: the player to move, or ``None`` when the table deals or
        starts a round, or the game is over (the protocol's name for :attr:`turn`)."""
        c = self._core
        return self.players[c.turn] if c.phase is _TURN else None

    @property
    def turn(self) -> str | None:
        """The player to move, or ``None`` between deals and rounds."""
        c = self._core
        return self.players[c.turn] if c.phase is Phase.TURN else None

    @property
    def dealer(self) -> str | None:
        d = self._core.dealer
        return self.players[d] if d >= 0 else None

    @property
    def round_number(self) -> int:
        return self._core.round_no

    @property
    def deal_number(self) -> int:
        """The deal of the current round, from 1; 0 before the first deal."""
        return self._core.deal_no

    @property
    def deals_in_round(self) -> int:
        """How many deals this round has, as things stand (a Renewal can shorten it)."""
        c = self._core
        left = c.deck_count
        deals = c.deal_no
        first = c.deal_no == 0
        while left > 0:
            left -= sum(deal_sizes(self._n, left, first)) + (4 if first else 0)
            first = False
            deals += 1
        return deals

    @property
    def is_last_deal(self) -> bool:
        """The current deal emptied the deck when dealt: the dealer announces "last hand" (R7)."""
        return self._core.last_deal

    @property
    def centre(self) -> tuple[Card, ...]:
        return self._core.centre

    @property
    def deck_count(self) -> int:
        return self._core.deck_count

    @property
    def discards(self) -> tuple[Card, ...]:
        return self._core.discards

    def hand(self, player: str) -> tuple[Card, ...]:
        """The World cards known to be in ``player``'s hand."""
        return self._core.hands[self._seat[player]]

    def unseen_in_hand(self, player: str) -> int:
        """How many of ``player``'s World cards are face down, unknown to the companion."""
        return self._core.hidden[self._seat[player]]

    def hand_size(self, player: str) -> int:
        i = self._seat[player]
        c = self._core
        return len(c.hands[i]) + c.hidden[i] + len(c.fate_hands[i]) + c.fate_hidden[i]

    def world_cards_in_hand(self, player: str) -> int:
        i = self._seat[player]
        return len(self._core.hands[i]) + self._core.hidden[i]

    def fate_hand(self, player: str) -> tuple[Card, ...]:
        return self._core.fate_hands[self._seat[player]]

    def fate_deck(self, player: str) -> tuple[Card, ...]:
        """The cards left in ``player``'s Fate deck, top first when the order is known."""
        return self._core.fate_decks[self._seat[player]]

    def fate_deck_count(self, player: str) -> int:
        i = self._seat[player]
        return len(self._core.fate_decks[i]) - self._core.fate_hidden[i]

    def fate_set(self, player: str) -> frozenset[Card]:
        """The seven Fate cards ``player`` chose for the whole game (R18), empty before the
        first round and for a player without a Fate deck."""
        sets = self._core.fate_sets
        return sets[self._seat[player]] if sets is not None else frozenset()

    def has_drawn_fate(self, player: str) -> bool:
        return self._core.drew_fate[self._seat[player]]

    def stack(self, player: str) -> tuple[Card, ...]:
        """``player``'s capture stack, bottom first: its last card is the top (R23)."""
        return self._core.stacks[self._seat[player]]

    def sweeps(self, player: str) -> tuple[Card, ...]:
        """The cards with which ``player`` made clean sweeps this round (R7)."""
        return self._core.sweeps[self._seat[player]]

    @property
    def in_play(self) -> tuple[tuple[str, Card], ...]:
        """Fate cards lying in front of their owners: Mystic Crystal, Exorcist (R19, R24)."""
        return tuple((self.players[i], card) for i, card in self._core.in_play)

    @property
    def centre_fate(self) -> tuple[tuple[str, Card], ...]:
        """The Fate cards lying in the centre (a Warlock, a Vampire), each with who laid it."""
        return tuple((self.players[i], card) for i, card in self._core.centre_fate)

    @property
    def crystal_in_play(self) -> bool:
        return any(card is MYSTIC_CRYSTAL for _, card in self._core.in_play)

    @property
    def exorcist_in_play(self) -> bool:
        return any(card is EXORCIST for _, card in self._core.in_play)

    def _rules_in_play(self) -> list[FateRule]:
        """The rules of the Fate cards in play, once each however many copies lie there."""
        in_play = self._core.in_play
        if len(in_play) == 1:
            return [FATE_RULES[in_play[0][1]]]
        return list(dict.fromkeys(FATE_RULES[card] for _, card in in_play))

    @property
    def last_capturer(self) -> str | None:
        lc = self._core.last_capturer
        return None if lc is None else self.players[lc]

    @property
    def unlocated(self) -> frozenset[Card]:
        """World cards whose place the companion does not know: the deck and face-down hands."""
        return self._core.pool

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return self._core.results

    @property
    def totals(self) -> dict[str, int]:
        return dict(zip(self.setup.sides, self._core.totals))

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def is_game_over(self) -> bool:
        return self._core.outcome is not None

    def captured_by_side(self) -> dict[str, tuple[Card, ...]]:
        """Each side's captured cards so far this round, team stacks pooled."""
        sides = self.setup.sides
        out: dict[str, tuple[Card, ...]] = dict.fromkeys(sides, ())
        for k, stack in zip(self._side_index, self._core.stacks):
            out[sides[k]] += stack
        return out

    def sweeps_by_side(self) -> dict[str, int]:
        sides = self.setup.sides
        out = dict.fromkeys(sides, 0)
        for k, sweeps in zip(self._side_index, self._core.sweeps):
            out[sides[k]] += len(sweeps)
        return out

    def provisional_score(self) -> RoundScore:
        """The round's points as if it ended now (the running scores a dashboard shows)."""
        return score_round(self.captured_by_side(), self.sweeps_by_side(), expansion=self.setup.expansion, discarded=self._core.discards)

    def capture_options(self, card: Card) -> list[tuple[Card, ...]]:
        """The capture options of ``card`` played now on the centre (R4, R5)."""
        if card.value is None:
            return []
        return capture_options(self._core.centre, card.value, empowered=self.is_empowered(card))

    def is_empowered(self, card: Card) -> bool:
        """A card played to the centre while a Fate card in play empowers it: a value-1 card
        while a Mystic Crystal is in play (R5)."""
        return bool(self._core.in_play) and card.to_centre and any(r.empowers(card) for r in self._rules_in_play())

    def player_seat(self, name: str) -> int:
        """``name``'s seat (0 is the first listed); :class:`InvalidMoveError` for a stranger."""
        try:
            return self._seat[name]
        except (KeyError, TypeError):
            raise InvalidMoveError(f"unknown player {name!r}; the players are {', '.join(self.players)}") from None

    def may_hold(self, player: str, card: Card) -> bool:
        """Whether ``card`` is, or may be (among face-down cards), in ``player``'s hand."""
        return self._holds(self.player_seat(player), card)

    def _holds(self, i: int, card: Card) -> bool:
        c = self._core
        if card.is_world:
            return card in c.hands[i] or bool(c.hidden[i] and card in c.pool)
        return card in c.fate_hands[i] or bool(c.fate_hidden[i] and card in c.fate_decks[i])

    # ------------------------------------------------------------------ legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to move, as a lazy view (``move in
        game.legal_moves``, ``bool(...)``, ``.count()``). Cards still face down are not
        listed; check such a move with :meth:`is_legal`. Between deals and rounds there are
        no moves: the table deals (:class:`Deal`) or starts a round (:class:`NewRound`)."""
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        c = self._core
        if c.phase is not Phase.TURN:
            return
        i = c.turn
        me = self.players[i]
        seen: set[Card] = set()
        for card in c.hands[i] + c.fate_hands[i]:
            if card in seen or (c.in_play and self._forbidden(card) is not None):
                continue
            seen.add(card)
            if card.to_centre:
                yield from self._centre_plays(me, card)
            else:
                yield from fate_rule(card).plays(self, me)
        holds_world = bool(c.hands[i]) or c.hidden[i] > 0
        if holds_world and not c.drew_fate[i] and len(c.fate_decks[i]) - c.fate_hidden[i] > 0:
            yield DrawFate(me)
        if not holds_world:
            yield Pass(me)

    def _centre_plays(self, me: str, card: Card) -> Iterator[Play]:
        options = self.capture_options(card)
        if not options:
            yield Play(me, card)
        for option in options:
            yield Play(me, card, option)

    def _forbidden(self, card: Card) -> IllegalMoveError | None:
        """Why a Fate card in play forbids playing ``card`` now (R24), or ``None``."""
        for rule in self._rules_in_play():
            problem = rule.forbids(self, card)
            if problem is not None:
                return problem
        return None

    def decision(self, move: Move) -> tuple[str, str | None, tuple[str, ...], str | None]:
        """What the player chose in ``move``, without what chance or others settle: the card
        a Renewal draws (R25) and what each opponent discards to a Dark Decay (R21) are not
        the player's; which card, which capture and which target are."""
        if type(move) is Play:
            card = move.card
            if card is RENEWAL or card is DARK_DECAY:
                return ("play", card.id, (), None)
            return ("play", card.id, tuple(sorted(c.id for c in move.capture)), move.target)
        return (type(move).__name__.lower(), None, (), None)

    def unseen_deal(self) -> Deal:
        """The next deal with every hand face down, as a camera sees it (R15's sizes), and no
        centre cards."""
        players = self.players
        n = self._n
        c = self._core
        sizes = deal_sizes(n, c.deck_count, c.deal_no == 0)
        start = max(c.dealer, 0) + 1
        hands = {players[(start + k) % n]: (UNSEEN,) * sizes[k] for k in range(n)}
        return Deal(tuple((p, hands[p]) for p in players))

    def resample(self, player: str, rng: random.Random) -> GameState:
        """A copy of this position (its move stack empty) with every card ``player`` cannot
        see drawn at random from their view (:mod:`~companion.games.rule_of_power.engine.
        sampling`): the other hands, the World deck, every Fate deck's order."""
        from companion.games.rule_of_power.engine.sampling import Sampler

        world = Sampler(self, player).sample(rng)
        return self.with_hidden_cards(world.hands, world.fate_hands, world.fate_decks, world.deck, known_by=player)

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` (with the rule) if ``move`` is not legal now."""
        self._check(move)

    # ------------------------------------------------------------------ push / pop

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``. With ``check`` (the default) it is validated first and an
        :class:`IllegalMoveError` names the rule it breaks, leaving the state unchanged;
        ``check=False`` is the fast path for moves known to be legal (from
        :attr:`legal_moves`)."""
        if type(move) is Play:
            if move.card.is_world and self._push_world_card(move, check):
                return
            if check:
                self._check_turn(move.player, "play")
                self._check_play(move)
            # Only a play needs its effects worked out to be carried out.
            effects = self._play_effects(move)
        else:
            if check:
                self._check(move)
            effects = _NOTHING
        if self._keep:
            self._stack.append(self._core)
            self._core = self._core.copy()
            self.move_stack.append(move)
        self._carry_out(move, effects)

    def apply(self, move: Move) -> Effects:
        """Check and push ``move`` like :meth:`push`, and tell what it did (the round it
        ended included)."""
        self._check(move)
        effects = self._effects(move)
        rounds = len(self._core.results)
        self._save(move)
        self._carry_out(move, effects)
        if len(self._core.results) > rounds:
            effects = effects._replace(round_result=self._core.results[-1])
        return effects

    def effects(self, move: Move) -> Effects:
        """What ``move`` would do now, without doing it (checked like :meth:`push`)."""
        self._check(move)
        return self._effects(move)

    def _save(self, move: Move) -> None:
        if self._keep:
            self._stack.append(self._core)
            self._core = self._core.copy()
            self.move_stack.append(move)

    def _push_world_card(self, move: Play, check: bool) -> bool:
        """The most common move, a World card from a known hand that no Fate card in play
        touches (R5, R24), checked and applied in one pass. Returns ``False``, having
        changed nothing, for anything else, which the general path then checks and applies
        (with its messages). A property test keeps the two paths in agreement."""
        c = self._core
        i = self._seat.get(move.player)
        card = move.card
        if i is None or i != c.turn or c.phase is not _TURN:
            return False
        in_play = c.in_play
        if in_play:
            if in_play is not self._touched_in_play:  # the last answer stands while in play is unchanged
                self._touched_in_play = in_play
                self._touched = _touched_by(in_play)
            if card in self._touched:
                return False
        hand = c.hands[i]
        try:
            k = hand.index(card)
        except ValueError:
            return False
        capture = move.capture
        if check:
            n = len(capture)
            if move[3:] != _NO_DETAILS:
                return False
            centre = c.centre
            value = card.value
            assert value is not None  # every World card has one (R1)
            if n == 0:
                if has_capture(centre, value):
                    return False
            elif n == 1:
                if capture[0].value != value or capture[0] not in centre:
                    return False
            elif not _is_sum_capture(centre, value, capture):
                return False
        if self._keep:
            self._stack.append(c)
            c = self._core = c.copy()
            self.move_stack.append(move)
        c.hands[i] = hand[:k] + hand[k + 1 :]
        _lay_in_centre(c, i, card, capture, True)
        self._next_turn()
        return True

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

    def copy(self, *, keep_history: bool = True) -> GameState:
        """An independent copy of the current position, for trying moves out (push and pop
        on it); its move stack starts empty."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new._keep = keep_history
        new.move_stack = []
        new._stack = []
        new._core = self._core.copy()
        return new

    def with_hidden_cards(
        self,
        hands: Mapping[str, tuple[Card, ...]],
        fate_hands: Mapping[str, tuple[Card, ...]],
        fate_decks: Mapping[str, tuple[Card, ...]],
        deck: Iterable[Card],
        *,
        known_by: str | None = None,
    ) -> GameState:
        """A copy of this position (its move stack empty) in which every card nobody can see is
        placed: each player's World hand, Fate hand and Fate deck (top first) as given, and the
        World deck holding ``deck``. The public table stays as it is: centre, capture stacks,
        sweeps, Fate cards in play, discards, scores.

        This is for searches that sample what one player cannot see and play the samples out
        (the coach's determinized playouts). Each World hand must hold as many cards as that
        player holds now (:class:`InvalidMoveError` otherwise); the Fate decks, once placed,
        are known in order. Of what players know to have been passed on (R22), only
        ``known_by``'s knowledge stays, where the sample keeps those cards with their holder.
        """
        c = self._core
        for i, p in enumerate(self.players):
            if len(hands[p]) != len(c.hands[i]) + c.hidden[i]:
                raise InvalidMoveError(f"{p} holds {len(c.hands[i]) + c.hidden[i]} World cards, not {len(hands[p])}")
        new = self.copy(keep_history=False)
        core = new._core
        n = self._n
        core.hands = [tuple(hands[p]) for p in self.players]
        core.hidden = (0,) * n
        core.fate_hands = [tuple(fate_hands.get(p, ())) for p in self.players]
        core.fate_hidden = (0,) * n
        core.fate_decks = [tuple(fate_decks.get(p, ())) for p in self.players]
        core.fate_order_known = True
        core.fate_sets = None
        core.pool = frozenset(deck)
        viewer = self._seat.get(known_by) if known_by is not None else None
        # What the viewer still knows (the card is where they saw it go), and the sample kept.
        core.revealed = tuple(r for r in c.revealed if r[0] == viewer and r[1] in c.hands[r[2]] and r[1] in core.hands[r[2]])
        return new

    # ------------------------------------------------------------------ validation

    def _check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` naming the ruling if ``move`` is not legal now, and
        :class:`InvalidMoveError` if it is no move at all: one check per kind of move."""
        if type(move) is Play:
            self._check_turn(move.player, "play")
            self._check_play(move)
        elif type(move) is DrawFate:
            self._check_draw_fate(move)
        elif type(move) is Pass:
            self._check_pass(move)
        elif type(move) is Deal:
            self._check_deal(move)
        elif type(move) is NewRound:
            self._check_round(move)
        else:
            raise InvalidMoveError(f"not a move: {move!r}")

    def _check_turn(self, player: str, what: str) -> int:
        c = self._core
        i = self._seat.get(player) if type(player) is str else None
        if i is None:
            i = self.player_seat(player)
        if c.phase is not _TURN:
            raise IllegalMoveError(*_phase_problem(c.phase, f"{player} cannot {what}"))
        if i != c.turn:
            raise IllegalMoveError("R17", f"it is {self.players[c.turn]}'s turn, not {player}'s")
        return i

    def _check_draw_fate(self, move: DrawFate) -> None:
        """R17: on their turn, once per deal, a player holding World cards may draw the top card
        of their own Fate deck instead of playing, while that deck holds one."""
        c = self._core
        i = self._check_turn(move.player, "draw a Fate card")
        if not (c.hands[i] or c.hidden[i]):
            raise IllegalMoveError("R17", f"{move.player} holds no World card, so cannot draw a Fate card")
        if c.drew_fate[i]:
            raise IllegalMoveError("R17", f"{move.player} already drew a Fate card in this deal (once per deal)")
        if len(c.fate_decks[i]) - c.fate_hidden[i] <= 0:
            if not any(c.fate_sets or ()):
                raise IllegalMoveError("R17", "this game is played without Fate decks, so there is no Fate card to draw (R3)")
            raise IllegalMoveError("R17", f"{move.player}'s Fate deck is empty")

    def _check_pass(self, move: Pass) -> None:
        """R17: only a player without World cards passes; whoever holds one must play."""
        c = self._core
        i = self._check_turn(move.player, "pass")
        if c.hands[i] or c.hidden[i]:
            raise IllegalMoveError("R17", f"{move.player} holds World cards and must play one, not pass")

    def _check_play(self, move: Play) -> None:
        """Check a play whose turn is checked: the details its card carries, the hand (R17),
        what the Fate cards in play forbid (R24), then the capture (R4, R5) or the Fate card's
        own rule."""
        c = self._core
        card = move.card
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if move[3:] != _NO_DETAILS or (move.capture and not card.to_centre):
            check_details(move)
        i = self._seat[move.player]  # known: the turn was checked
        if card.is_world:
            if card.is_expansion and not self.setup.expansion:
                raise IllegalMoveError("R2", f"{card.id} belongs to the Higher Powers expansion, not in this game")
            if card not in c.hands[i] and not (c.hidden[i] and card in c.pool):
                raise IllegalMoveError("R17", f"{card.long_label} is not in {move.player}'s hand{self.whereabouts(card)}")
        elif card not in c.fate_hands[i] and not (c.fate_hidden[i] and card in c.fate_decks[i]):
            raise IllegalMoveError("R17", f"{card.long_label} is not among the Fate cards in {move.player}'s hand")
        empowered = False
        if c.in_play:
            # _forbidden and is_empowered in one pass over the rules in play: every checked
            # play comes this way, and two passes cost a measurable 0.7 % of a Fate replay.
            for rule in self._rules_in_play():
                problem = rule.forbids(self, card)
                if problem is not None:
                    raise problem
                empowered = empowered or rule.empowers(card)
        if card.to_centre:
            assert card.value is not None
            problem_text = is_valid_capture(c.centre, card.value, move.capture, empowered=empowered)
            if problem_text:
                rule_id, _, text = problem_text.partition(": ")
                raise IllegalMoveError(rule_id, f"{card.title} played by {move.player}: {text}")
        else:
            FATE_RULES[card].check(self, move)

    def whereabouts(self, card: Card) -> str:
        """Where a card really is, in words, to make an error message useful."""
        c = self._core
        if card in c.centre:
            return " (it lies in the centre)"
        for j, p in enumerate(self.players):
            if card in c.hands[j]:
                return f" (it is in {p}'s hand)"
            if card in c.stacks[j]:
                return f" (it is in {p}'s capture stack)"
        if card in c.discards:
            return " (it was discarded)"
        if card.is_world and card not in self._deck:
            return " (it is not in this game's deck)"
        if card in c.pool and not any(c.hidden):
            return " (it is still in the World deck)"
        return ""

    def _check_deal(self, move: Deal) -> None:
        c = self._core
        if c.phase is not Phase.DEAL:
            raise IllegalMoveError(*_phase_problem(c.phase, "no deal is due now"))
        n = self._n
        by_seat: list[tuple[Card | _Unseen, ...] | None] = [None] * n
        seat = self._seat
        for name, cards in move.hands:
            i = seat.get(name) if type(name) is str else None
            if i is None:
                i = self.player_seat(name)
            if by_seat[i] is not None:
                raise InvalidMoveError(f"{name} is dealt twice in one deal")
            by_seat[i] = cards
        first = c.deal_no == 0
        sizes = deal_sizes(n, c.deck_count, first)
        dealt: list[object] = []
        for k in range(n):
            i = (c.dealer + 1 + k) % n
            cards = by_seat[i] or ()
            if len(cards) != sizes[k]:
                raise IllegalMoveError(
                    "R15", f"{self.players[i]} must be dealt {sizes[k]} card{'s' if sizes[k] != 1 else ''}, not {len(cards)}"
                )
            dealt.extend(cards)
        if first:
            if len(move.centre) != 4:
                raise IllegalMoveError("R15", f"the first deal of a round puts 4 cards in the centre, not {len(move.centre)}")
            dealt.extend(move.centre)
        elif move.centre:
            raise IllegalMoveError("R15", "only the first deal of a round puts cards in the centre")
        known = [x for x in dealt if x is not UNSEEN]
        # The pool holds only World cards of this game's deck, so one subset test covers it all.
        if len(set(known)) == len(known) and c.pool.issuperset(known):
            return
        seen: set[object] = set()
        for card in known:
            if not isinstance(card, Card) or not card.is_world:
                raise IllegalMoveError("R15", f"only World cards are dealt, not {card}")
            if card in seen:
                raise IllegalMoveError("R15", f"{card.id} is dealt twice")
            seen.add(card)
            if card not in c.pool:
                raise IllegalMoveError("R15", f"{card.id} is not in the World deck{self.whereabouts(card)}")

    def _check_round(self, move: NewRound) -> None:
        c = self._core
        if c.phase is not Phase.ROUND:
            raise IllegalMoveError(*_phase_problem(c.phase, "a new round cannot start now"))
        d = self.player_seat(move.dealer)
        if c.round_no > 0:
            expected = (c.dealer + 1) % self._n
            if d != expected:
                raise IllegalMoveError(
                    "R15", f"the deal moves to the left: {self.players[expected]} deals this round, not {move.dealer}"
                )
        decks = {}
        for name, cards in move.fate_decks:
            self.player_seat(name)
            if name in decks:
                raise InvalidMoveError(f"{name}'s Fate deck is given twice")
            decks[name] = cards
            if not cards:
                continue
            if any(not x.is_fate for x in cards):
                raise IllegalMoveError("R18", f"{name}'s Fate deck holds a World card")
            if len(set(cards)) != len(cards):
                raise IllegalMoveError("R18", f"{name}'s Fate deck holds two copies of a card")
            if len(cards) != FATE_DECK_SIZE:
                raise IllegalMoveError("R18", f"a Fate deck has {FATE_DECK_SIZE} cards; {name}'s has {len(cards)}")
        if c.fate_sets is not None:
            for k, name in enumerate(self.players):
                if frozenset(decks.get(name, ())) != c.fate_sets[k]:
                    raise IllegalMoveError("R18", f"{name}'s Fate deck must stay the same for the whole game")

    # ------------------------------------------------------------------ applying moves

    def _effects(self, move: Move) -> Effects:
        """What a (checked) move does: the rules of the card played decide (R4-R7, R19-R25)."""
        if type(move) is Play:
            return self._play_effects(move)
        if type(move) is DrawFate:
            return Effects(move.player, drew_fate=True)
        if type(move) is Pass:
            return Effects(move.player)
        return Effects(None)

    def _play_effects(self, move: Play) -> Effects:
        """What a (checked) play does: a Fate card's own rule, or for a card laid in the centre
        R4, R5, R7, capturing or not, and what the Fate cards in play do when it is laid (R24:
        a Minion sends the Exorcists away)."""
        card = move.card
        if not card.to_centre:
            return FATE_RULES[card].effects(self, move)
        c = self._core
        capture = tuple(move.capture)
        if not c.in_play:
            return Effects(move.player, card, not capture, capture, _is_sweep(c, capture, card.is_world))
        empowered = False
        spent: tuple[Spent, ...] = ()
        # A plain loop: a comprehension here would make every play build closures.
        for rule in self._rules_in_play():
            if rule.empowers(card):
                empowered = True
            spent += rule.reacts(self, card)
        return Effects(
            move.player,
            card,
            laid=not capture,
            captured=capture,
            sweep=_is_sweep(c, capture, card.is_world and not empowered),
            empowered=empowered,
            spent=spent,
        )

    def _carry_out(self, move: Move, fx: Effects) -> None:
        """Change the state as ``fx`` says ``move`` does: one method per kind of move."""
        if type(move) is Play:
            self._carry_out_play(move, fx)
        elif type(move) is DrawFate:
            self._carry_out_draw_fate(move)
        elif type(move) is Pass:
            self._carry_out_pass(move)
        elif type(move) is Deal:
            self._carry_out_deal(move)
        elif type(move) is NewRound:
            self._carry_out_round(move)

    def _carry_out_play(self, move: Play, fx: Effects) -> None:
        """R17: the player plays one card from hand, and the turn passes on. A card for the
        centre captures or is laid there (R4-R7, R20); a Fate card is laid in front of its
        owner (R19, R24) or does its one deed (R21-R23, R25); the cards ``fx`` spends leave
        play for the round, the played event card among them (R18)."""
        i = self._seat[move.player]
        card = move.card
        self._take_from_hand(i, card)
        if card.to_centre:
            self._play_to_centre(i, card, fx)
            if fx.spent:  # R24: a Minion sends the Exorcists away
                self._spend(fx.spent)
        else:
            # What only Fate cards do; each of them does one or two of these.
            if fx.in_front:
                self._put_in_front(fx.in_front)
            if fx.spent:
                self._spend(fx.spent)
            if fx.exchanged:
                self._exchange(fx.exchanged)
            if fx.stolen is not None:
                self._steal(i, fx.stolen)
            if fx.drawn is not None:
                self._draw_world(i, fx.drawn)
        self._next_turn()

    def _play_to_centre(self, i: int, card: Card, fx: Effects) -> None:
        """Player ``i``'s ``card`` captures what ``fx`` says or stays in the centre (R4, R5); only a
        natural World card can make a clean sweep (R7). A Warlock or Vampire left lying there
        (R20) is remembered with who laid it: an Exorcist puts it out of play as its owner's
        card (R24)."""
        c = self._core
        _lay_in_centre(c, i, card, fx.captured, card.is_world and not fx.empowered)
        if card.is_fate and fx.laid:
            c.centre_fate = c.centre_fate + ((i, card),)

    def _put_in_front(self, in_front: tuple[tuple[str, Card], ...]) -> None:
        """A Mystic Crystal or an Exorcist stays in front of its owner until the round ends
        (R19), or for the Exorcist until a Minion sends it away (R24)."""
        c = self._core
        seat = self._seat
        for player, card in in_front:
            c.in_play = c.in_play + ((seat[player], card),)

    def _spend(self, spent: tuple[Spent, ...]) -> None:
        """Cards out of play for the rest of the round, onto the discards (R18): the event card
        just played, a card each opponent discards from hand (R21), Creatures the Exorcist
        sends from the centre (R24), Crystals that meet (R19) and Exorcists a Minion sends
        away (R24) from in front of their owners."""
        c = self._core
        seat = self._seat
        for s in spent:
            card = s.card
            j = seat[s.player] if s.player is not None else -1
            if s.zone == HAND:
                self._take_from_hand(j, card)
            elif s.zone == CENTRE:
                c.centre = _remove(c.centre, card)
                if card.is_fate:
                    c.centre_fate = _remove_owned(c.centre_fate, (card,), j)
            elif s.zone == FRONT:
                k = c.in_play.index((j, card))
                c.in_play = c.in_play[:k] + c.in_play[k + 1 :]
            c.discards = c.discards + (card,)

    def _exchange(self, exchanged: tuple[tuple[str, str, HandCard], ...]) -> None:
        """Mirror Swap: World cards change hands (R22). A card the companion saw moves from one
        known hand to the other; one it did not see only changes the two counts of cards
        held face down."""
        c = self._core
        seat = self._seat
        for giver, receiver, card in exchanged:
            src, dst = seat[giver], seat[receiver]
            if isinstance(card, Card):
                self._take_from_hand(src, card)
                c.hands[dst] = c.hands[dst] + (card,)
                # The one who gave it away now knows where it is.
                c.revealed = c.revealed + ((src, card, dst),)
            else:
                c.hidden = _add(_add(c.hidden, src, -1), dst, 1)

    def _steal(self, i: int, stolen: tuple[str, Card]) -> None:
        """Thief: player ``i`` takes the top card of the victim's capture stack onto the top of
        their own (R23). It is no capture: the last capturer (R6) and the sweeps (R7) stay."""
        c = self._core
        victim, card = stolen
        j = self._seat[victim]
        c.stacks[j] = c.stacks[j][:-1]
        c.stacks[i] = c.stacks[i] + (card,)

    def _draw_world(self, i: int, drawn: HandCard) -> None:
        """Renewal: player ``i`` takes the top card of the World deck into hand (R25), face up or
        face down; it is played in this deal like the others."""
        c = self._core
        if drawn is UNSEEN:
            c.hidden = _add(c.hidden, i, 1)
            c.deck_count -= 1
        elif isinstance(drawn, Card):
            c.hands[i] = c.hands[i] + (drawn,)
            c.pool = c.pool - {drawn}
            c.deck_count -= 1

    def _carry_out_draw_fate(self, move: DrawFate) -> None:
        """R17: instead of playing, the player takes the top card of their own Fate deck, once
        per deal; the turn passes on. When the deck's order is unknown, the card is unknown
        too."""
        c = self._core
        i = self._seat[move.player]
        drew = c.drew_fate
        c.drew_fate = drew[:i] + (True,) + drew[i + 1 :]
        if c.fate_order_known:
            deck = c.fate_decks[i]
            c.fate_hands[i] = c.fate_hands[i] + (deck[0],)
            c.fate_decks[i] = deck[1:]
        else:
            c.fate_hidden = _add(c.fate_hidden, i, 1)
        self._next_turn()

    def _carry_out_pass(self, move: Pass) -> None:
        """R17: a player without a World card who plays no Fate card passes: the turn passes on."""
        self._next_turn()

    def _take_from_hand(self, i: int, card: Card) -> None:
        """``card`` leaves player ``i``'s hand: from the cards known to be there, or else from
        those held face down (a World card then leaves the unlocated ones, a Fate card its
        owner's deck)."""
        c = self._core
        if card.is_world:
            hand = c.hands[i]
            if card in hand:
                c.hands[i] = _remove(hand, card)
            else:
                c.hidden = _add(c.hidden, i, -1)
                c.pool = c.pool - {card}
        else:
            hand = c.fate_hands[i]
            if card in hand:
                c.fate_hands[i] = _remove(hand, card)
            else:
                c.fate_hidden = _add(c.fate_hidden, i, -1)
                c.fate_decks[i] = _remove(c.fate_decks[i], card)

    def _next_turn(self) -> None:
        c = self._core
        turn = (c.turn + 1) % self._n
        # The next player's hand, asked first, settles it nearly always.
        if c.hands[turn] or any(c.hands) or any(c.hidden):
            c.turn = turn
            return
        # R17: the deal ends as soon as nobody holds a World card.
        c.turn = -1
        if c.deck_count > 0:
            c.phase = Phase.DEAL
        else:
            self._end_round()

    def _carry_out_deal(self, move: Deal) -> None:
        """R15: the cards dealt go to the hands, face up or face down, and on a round's first
        deal four to the centre; the deal that empties the deck is the last (R7). Every
        player may draw a Fate card again (R17), and the dealer's left plays first."""
        c = self._core
        seat = self._seat
        dealt: list[Card] = []
        for name, cards in move.hands:
            i = seat[name]
            known: tuple[Card, ...]
            if _all_seen(cards):
                known = cards
            else:
                known = tuple(x for x in cards if not isinstance(x, _Unseen))
                c.hidden = _add(c.hidden, i, len(cards) - len(known))
            c.hands[i] = c.hands[i] + known
            dealt.extend(known)
            c.deck_count -= len(cards)
        if move.centre:
            c.centre = c.centre + move.centre
            dealt.extend(move.centre)
            c.deck_count -= len(move.centre)
        c.pool = c.pool.difference(dealt)
        c.deal_no += 1
        c.last_deal = c.deck_count == 0
        c.drew_fate = (False,) * self._n
        c.turn = (c.dealer + 1) % self._n
        c.phase = Phase.TURN

    def _carry_out_round(self, move: NewRound) -> None:
        """R15, R18: a new round starts with every card back: the dealer, each player's Fate
        deck (fixed for the game, reshuffled), the whole World deck, and nothing on the
        table; the first deal is due."""
        c = self._core
        n = self._n
        c.round_no += 1
        c.dealer = self._seat[move.dealer]
        c.deal_no = 0
        c.last_deal = False
        c.turn = -1
        c.hands = [()] * n
        c.hidden = (0,) * n
        c.fate_hands = [()] * n
        c.fate_hidden = (0,) * n
        c.fate_decks = [move.deck_of(p) for p in self.players]
        c.fate_order_known = move.fate_order_known
        if c.fate_sets is None:
            c.fate_sets = tuple(frozenset(d) for d in c.fate_decks)
        c.drew_fate = (False,) * n
        c.centre = ()
        c.centre_fate = ()
        c.stacks = [()] * n
        c.sweeps = ((),) * n
        c.in_play = ()
        c.discards = ()
        c.pool = frozenset(self._deck)
        c.deck_count = len(self._deck)
        c.last_capturer = None
        c.revealed = ()
        c.phase = Phase.DEAL

    def _end_round(self) -> None:
        """R6 then R8-R14: the last capturer takes the centre, the round is scored, and the
        game may be won."""
        c = self._core
        leftover = c.centre
        if leftover and c.last_capturer is not None:
            lc = c.last_capturer
            c.stacks[lc] = c.stacks[lc] + leftover
            c.centre = ()
            c.centre_fate = ()
        # What is still in the centre had nobody to take it (R6).
        score = score_round(self.captured_by_side(), self.sweeps_by_side(), expansion=self.setup.expansion, discarded=c.discards, left=c.centre)
        sides = self.setup.sides
        totals = tuple(t + score.sides[s].total for t, s in zip(c.totals, sides))
        c.totals = totals
        result = RoundResult(
            number=c.round_no,
            dealer=self.players[c.dealer],
            score=score,
            last_capturer=None if c.last_capturer is None else self.players[c.last_capturer],
            leftover=leftover,
            totals=dict(zip(sides, totals)),
        )
        c.results = c.results + (result,)
        if score.rule_of_power:
            c.outcome = Outcome(Termination.RULE_OF_POWER, score.rule_of_power)
        else:
            best = max(totals)
            leaders = [s for s, t in zip(sides, totals) if t == best]
            if best >= self.setup.target and len(leaders) == 1:
                c.outcome = Outcome(Termination.TARGET, leaders[0])
        c.phase = Phase.OVER if c.outcome else Phase.ROUND

    # ------------------------------------------------------------------ views

    def view(self, player: str) -> PlayerView:
        """What ``player`` may know (the rulebook's "count the cards"): their own hand, the
        public table, and the World cards they cannot place (:attr:`PlayerView.unseen`)."""
        from companion.games.rule_of_power.engine.view import make_view

        return make_view(self, self._seat[player])

    def __repr__(self) -> str:
        c = self._core
        return (
            f"<GameState {'/'.join(self.players)} round {c.round_no} deal {c.deal_no} "
            f"{c.phase.value}{' ' + self.players[c.turn] if c.phase is Phase.TURN else ''}>"
        )


def _is_sweep(c: _Core, capture: tuple[Card, ...], natural: bool) -> bool:
    """R7: a natural World card that empties the centre, outside the first and last deal."""
    return natural and bool(capture) and len(capture) == len(c.centre) and c.deal_no != 1 and not c.last_deal


def _is_sum_capture(centre: tuple[Card, ...], value: int, capture: tuple[Card, ...]) -> bool:
    """R4 for two or more cards: ``capture`` is distinct centre cards whose values sum to
    ``value``, and no single centre card has that value (it would be the only option). A
    card without a value (a Fate card that never lies in the centre) counts 0 here, and is
    then refused for not being in the centre."""
    return (
        sum([x.value or 0 for x in capture]) == value
        and len(set(capture)) == len(capture)
        and not any([x.value == value for x in centre])
        and all([x in centre for x in capture])
    )


def _lay_in_centre(c: _Core, i: int, card: Card, capture: tuple[Card, ...], natural: bool) -> None:
    """Player ``i``'s ``card`` goes to the centre, taking ``capture`` (already checked).
    ``natural``: a World card, not an empowered Wizard, which can make a clean sweep."""
    if capture:
        c.centre = _remove(c.centre, capture[0]) if len(capture) == 1 else _remove_all(c.centre, capture)
        if c.centre_fate:
            c.centre_fate = _remove_owned(c.centre_fate, capture)  # a Warlock or Vampire taken
        c.stacks[i] = c.stacks[i] + capture + (card,)
        c.last_capturer = i
        # R7, as _is_sweep says it before the capture: the centre is left empty.
        if natural and not c.centre and c.deal_no != 1 and not c.last_deal:
            c.sweeps = _put(c.sweeps, i, c.sweeps[i] + (card,))
    else:
        c.centre = c.centre + (card,)


def _all_seen(cards: tuple[HandCard, ...]) -> TypeGuard[tuple[Card, ...]]:
    """Whether the companion saw every card of a hand dealt (none is face down, UNSEEN)."""
    return UNSEEN not in cards


def _remove_owned(owned: tuple[tuple[int, Card], ...], cards: tuple[Card, ...], seat: int = -1) -> tuple[tuple[int, Card], ...]:
    """``owned`` less one entry for each of ``cards`` (the one of ``seat`` when given)."""
    rest = list(owned)
    for card in cards:
        for k, (j, x) in enumerate(rest):
            if x is card and seat in (-1, j):
                del rest[k]
                break
    return tuple(rest)


def _phase_problem(phase: Phase, what: str) -> tuple[str, str]:
    if phase is Phase.DEAL:
        return "R15", f"{what}: the next deal is due (every hand is played out)"
    if phase is Phase.ROUND:
        return "R15", f"{what}: a new round must start first"
    if phase is Phase.OVER:
        return "R14", f"{what}: the game is over"
    return "R17", f"{what}: a player is to move"


class LegalMoves:
    """A lazy view of the legal moves (python-chess style)."""

    __slots__ = ("_game",)

    def __init__(self, game: GameState) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        return self._game.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, (Play, DrawFate, Pass)) and self._game.is_legal(move)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()})>"

