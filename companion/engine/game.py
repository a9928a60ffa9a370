"""The Rule of Power game state: seating, deals, turns, hands, the centre, capture stacks,
Fate cards, and the scores of finished rounds.

Like a chess board, a :class:`GameState` takes moves with :meth:`GameState.push` (checked
against every rule; an illegal move raises :class:`IllegalMoveError` naming the rule) and
takes them back with :meth:`GameState.pop`, restoring the state exactly.

The state can follow a game it cannot fully see: a hand dealt face down holds
:data:`~companion.engine.moves.UNSEEN` cards, which become known as they are played; a Fate deck's
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
companion.engine.game.IllegalMoveError: R4: Servant of Men (6) played by bob: the 6 can capture, so it must (take 4P W004 + 2M W012 or 4E W024 + 2M W012)
>>> game.push(Play.from_ids("bob", "W016", ["W024", "W012"]))
>>> [c.id for c in game.stack("bob")]
['W024', 'W012', 'W016']
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from companion.engine.captures import capture_options, has_capture, is_valid_capture
from companion.engine.cards import Card, FATE_CARDS, world_deck
from companion.engine.moves import UNSEEN, Deal, DrawFate, InvalidMoveError, Move, NewRound, Pass, Play, _Unseen
from companion.engine.scoring import RoundScore, score_round

if TYPE_CHECKING:
    from companion.engine.view import PlayerView

__all__ = [
    "GameSetup",
    "GameState",
    "Phase",
    "IllegalMoveError",
    "RoundResult",
    "Outcome",
    "Termination",
    "deal_sizes",
    "FATE_DECK_SIZE",
]

FATE_DECK_SIZE = 7
_F_CRYSTAL, _F_WARLOCK, _F_VAMPIRE, _F_DECAY, _F_SWAP, _F_THIEF, _F_EXORCIST, _F_RENEWAL = FATE_CARDS


class IllegalMoveError(ValueError):
    """A move that breaks a rule of the game. ``rule`` is the ruling it breaks (``"R4"``),
    the message says how, in words for the table."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message if message.startswith(rule + ":") else f"{rule}: {message}")


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

    @property
    def sides(self) -> tuple[str, ...]:
        """Side names: the players, or the teams joined with ``+`` (``ann+cy``)."""
        if self.teams:
            return tuple("+".join(t) for t in self.teams)
        return self.players

    def side_of(self, player: str) -> str:
        if self.teams:
            for t in self.teams:
                if player in t:
                    return "+".join(t)
        return player

    def is_opponent(self, a: str, b: str) -> bool:
        return a != b and self.side_of(a) != self.side_of(b)

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
    hidden: list[int]
    fate_hands: list[tuple[Card, ...]]
    fate_hidden: list[int]
    fate_decks: list[tuple[Card, ...]]
    fate_order_known: bool
    fate_sets: tuple[frozenset[Card], ...] | None
    drew_fate: list[bool]
    centre: tuple[Card, ...]
    stacks: list[tuple[Card, ...]]
    sweeps: list[tuple[Card, ...]]
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
        new.hidden = self.hidden[:]
        new.fate_hands = self.fate_hands[:]
        new.fate_hidden = self.fate_hidden[:]
        new.fate_decks = self.fate_decks[:]
        new.fate_order_known = self.fate_order_known
        new.fate_sets = self.fate_sets
        new.drew_fate = self.drew_fate[:]
        new.centre = self.centre
        new.stacks = self.stacks[:]
        new.sweeps = self.sweeps[:]
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


def _remove(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _remove_all(cards: tuple[Card, ...], taken: Sequence[Card]) -> tuple[Card, ...]:
    rest = list(cards)
    for c in taken:
        rest.remove(c)
    return tuple(rest)


class GameState:
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
        core.hidden = [0] * n
        core.fate_hands = [()] * n
        core.fate_hidden = [0] * n
        core.fate_decks = [()] * n
        core.fate_order_known = True
        core.fate_sets = None
        core.drew_fate = [False] * n
        core.centre = ()
        core.stacks = [()] * n
        core.sweeps = [()] * n
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
    def phase(self) -> Phase:
        return self._core.phase

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
    def crystal_in_play(self) -> bool:
        return any(card is _F_CRYSTAL for _, card in self._core.in_play)

    @property
    def exorcist_in_play(self) -> bool:
        return any(card is _F_EXORCIST for _, card in self._core.in_play)

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
        out: dict[str, tuple[Card, ...]] = {s: () for s in self.setup.sides}
        for i in range(self._n):
            out[self.setup.sides[self._side_index[i]]] += self._core.stacks[i]
        return out

    def sweeps_by_side(self) -> dict[str, int]:
        out = {s: 0 for s in self.setup.sides}
        for i in range(self._n):
            out[self.setup.sides[self._side_index[i]]] += len(self._core.sweeps[i])
        return out

    def provisional_score(self) -> RoundScore:
        """The round's points as if it ended now (the running scores a dashboard shows)."""
        return score_round(self.captured_by_side(), self.sweeps_by_side(), expansion=self.setup.expansion)

    def capture_options(self, card: Card) -> list[tuple[Card, ...]]:
        """The capture options of ``card`` played now on the centre (R4, R5)."""
        if card.value is None:
            return []
        return capture_options(self._core.centre, card.value, empowered=card.is_wizard and self.crystal_in_play)

    def is_empowered(self, card: Card) -> bool:
        """A value-1 card played while a Mystic Crystal is in play (R5)."""
        return card.is_wizard and card.to_centre and self.crystal_in_play

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
        crystal = self.crystal_in_play
        exorcist = self.exorcist_in_play
        seen: set[Card] = set()
        for card in c.hands[i]:
            if card in seen:
                continue
            seen.add(card)
            yield from self._centre_plays(me, card, crystal)
        seen.clear()
        for card in c.fate_hands[i]:
            if card in seen:
                continue
            seen.add(card)
            yield from self._fate_plays(i, card, crystal, exorcist)
        holds_world = bool(c.hands[i]) or c.hidden[i] > 0
        if holds_world and not c.drew_fate[i] and len(c.fate_decks[i]) - c.fate_hidden[i] > 0:
            yield DrawFate(me)
        if not holds_world:
            yield Pass(me)

    def _centre_plays(self, me: str, card: Card, crystal: bool) -> Iterator[Play]:
        assert card.value is not None
        options = capture_options(self._core.centre, card.value, empowered=crystal and card.is_wizard)
        if not options:
            yield Play(me, card)
        for option in options:
            yield Play(me, card, option)

    def _fate_plays(self, i: int, card: Card, crystal: bool, exorcist: bool) -> Iterator[Play]:
        c = self._core
        me = self.players[i]
        if card.to_centre:
            if not exorcist:
                yield from self._centre_plays(me, card, crystal)
        elif card is _F_CRYSTAL:
            yield Play(me, card)
        elif card is _F_EXORCIST:
            if not any(x.value == 4 for x in c.centre):
                yield Play(me, card)
        elif card is _F_DECAY:
            victims = [j for j in range(self._n) if self._opponent(i, j) and self._hand_known_size(j) > 0]
            choices = [sorted(set(c.hands[j]) | set(c.fate_hands[j])) for j in victims]
            if any(not ch for ch in choices):
                return  # a victim's hand is face down: the outcome is not enumerable
            for pick in product(*choices):
                yield Play(me, card, discards=tuple((self.players[j], x) for j, x in zip(victims, pick)))
        elif card is _F_SWAP:
            mine = c.hands[i]
            if c.hidden[i]:
                return
            for j in range(self._n):
                if j == i or c.hidden[j]:
                    continue
                theirs = c.hands[j]
                k = min(len(mine), len(theirs))
                give_sets = list(combinations(mine, k)) if len(mine) > k else [mine]
                for received in combinations(theirs, k):
                    for given in give_sets:
                        yield Play(me, card, target=self.players[j], given=tuple(given), received=tuple(received))
        elif card is _F_THIEF:
            for j in range(self._n):
                if self._opponent(i, j):
                    top = c.stacks[j][-1] if c.stacks[j] else None
                    yield Play(me, card, target=self.players[j], stolen=top)
        elif card is _F_RENEWAL:
            if c.deck_count == 0:
                yield Play(me, card, drawn=None)
            elif self._fully_seen():
                for x in sorted(c.pool):
                    yield Play(me, card, drawn=x)
            else:
                yield Play(me, card, drawn=UNSEEN)

    def _fully_seen(self) -> bool:
        return not any(self._core.hidden)

    def _hand_known_size(self, j: int) -> int:
        c = self._core
        return len(c.hands[j]) + c.hidden[j] + len(c.fate_hands[j]) + c.fate_hidden[j]

    def _opponent(self, i: int, j: int) -> bool:
        return i != j and self._side_index[i] != self._side_index[j]

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
        if type(move) is Play and move.card.is_world and self._push_world_card(move, check):
            return
        if check:
            self._check(move)
        if self._keep:
            self._stack.append(self._core)
            self._core = self._core.copy()
            self.move_stack.append(move)
        self._apply(move)

    def _push_world_card(self, move: Play, check: bool) -> bool:
        """The most common move, a World card from a known hand without a Crystal in play,
        checked and applied in one pass. Returns ``False``, having changed nothing, for
        anything else, which the general path then checks and applies (with its messages)."""
        c = self._core
        i = self._seat.get(move.player)
        card = move.card
        if i is None or i != c.turn or c.phase is not _TURN:
            return False
        hand = c.hands[i]
        if card not in hand or (card.is_wizard and self.crystal_in_play):
            return False
        centre = c.centre
        capture = move.capture
        value = card.value
        if check:
            n = len(capture)
            if n == 0:
                if has_capture(centre, value):  # type: ignore[arg-type]
                    return False
            elif n == 1:
                if capture[0].value != value or capture[0] not in centre:
                    return False
            elif (
                sum([x.value for x in capture]) != value  # type: ignore[misc]
                or len(set(capture)) != n
                or any([x.value == value for x in centre])
                or not all([x in centre for x in capture])
            ):
                return False
        if self._keep:
            self._stack.append(c)
            c = self._core = c.copy()
            self.move_stack.append(move)
        c.hands[i] = _remove(hand, card)
        _lay_in_centre(c, i, card, capture, natural=True)
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

    # ------------------------------------------------------------------ validation

    def _player_index(self, name: str) -> int:
        try:
            return self._seat[name]
        except (KeyError, TypeError):
            raise InvalidMoveError(f"unknown player {name!r}; the players are {', '.join(self.players)}") from None

    def _check(self, move: Move) -> None:
        c = self._core
        kind = type(move)
        if kind is Play:
            self._check_turn(move.player, "play")  # type: ignore[union-attr]
            self._check_play(move)  # type: ignore[arg-type]
        elif kind is DrawFate:
            i = self._check_turn(move.player, "draw a Fate card")  # type: ignore[union-attr]
            if not (c.hands[i] or c.hidden[i]):
                raise IllegalMoveError("R17", f"{move.player} holds no World card, so cannot draw a Fate card")  # type: ignore[union-attr]
            if c.drew_fate[i]:
                raise IllegalMoveError("R17", f"{move.player} already drew a Fate card in this deal (once per deal)")  # type: ignore[union-attr]
            if len(c.fate_decks[i]) - c.fate_hidden[i] <= 0:
                if not any(c.fate_sets or ()):
                    raise IllegalMoveError("R17", "this game is played without Fate decks, so there is no Fate card to draw (R3)")
                raise IllegalMoveError("R17", f"{move.player}'s Fate deck is empty")  # type: ignore[union-attr]
        elif kind is Pass:
            i = self._check_turn(move.player, "pass")  # type: ignore[union-attr]
            if c.hands[i] or c.hidden[i]:
                raise IllegalMoveError("R17", f"{move.player} holds World cards and must play one, not pass")  # type: ignore[union-attr]
        elif kind is Deal:
            self._check_deal(move)  # type: ignore[arg-type]
        elif kind is NewRound:
            self._check_round(move)  # type: ignore[arg-type]
        else:
            raise InvalidMoveError(f"not a move: {move!r}")

    def _check_turn(self, player: str, what: str) -> int:
        c = self._core
        i = self._seat.get(player) if isinstance(player, str) else None
        if i is None:
            i = self._player_index(player)
        if c.phase is not Phase.TURN:
            raise IllegalMoveError(*_phase_problem(c.phase, f"{player} cannot {what}"))
        if i != c.turn:
            raise IllegalMoveError("R17", f"it is {self.players[c.turn]}'s turn, not {player}'s")
        return i

    def _check_play(self, move: Play) -> None:
        c = self._core
        i = self._seat[move.player]
        card = move.card
        if not isinstance(card, Card):
            raise InvalidMoveError(f"not a card: {card!r}")
        if card.is_world:
            if card.is_expansion and not self.setup.expansion:
                raise IllegalMoveError("R2", f"{card.id} belongs to the Higher Powers expansion, not in this game")
            if card not in c.hands[i] and not (c.hidden[i] and card in c.pool):
                raise IllegalMoveError("R17", f"{card.id} ({card.title}) is not in {move.player}'s hand{self._whereabouts(card)}")
        else:
            if card not in c.fate_hands[i] and not (c.fate_hidden[i] and card in c.fate_decks[i]):
                raise IllegalMoveError(
                    "R17", f"{card.id} ({card.title}) is not among the Fate cards in {move.player}'s hand"
                )
        if card.to_centre:
            if card.is_creature and self.exorcist_in_play:
                raise IllegalMoveError("R24", f"the Exorcist is in play: no Creature may be played ({card.title})")
            assert card.value is not None
            empowered = card.is_wizard and self.crystal_in_play
            problem = is_valid_capture(c.centre, card.value, move.capture, empowered=empowered)
            if problem:
                rule, _, text = problem.partition(": ")
                raise IllegalMoveError(rule, f"{card.title} played by {move.player}: {text}")
            return
        if card is _F_EXORCIST:
            if any(x.value == 4 for x in c.centre):
                raise IllegalMoveError("R24", "the Exorcist cannot be played while a Minion (a 4) lies in the centre")
        elif card is _F_DECAY:
            self._check_decay(i, move)
        elif card is _F_SWAP:
            self._check_swap(i, move)
        elif card is _F_THIEF:
            if move.target is None:
                raise IllegalMoveError("R23", "the Thief needs a target player")
            j = self._player_index(move.target)
            if not self._opponent(i, j):
                raise IllegalMoveError("R23", f"the Thief steals from an opponent; {move.target} is not one")
            top = c.stacks[j][-1] if c.stacks[j] else None
            if move.stolen is not top:
                if top is None:
                    raise IllegalMoveError("R23", f"{move.target}'s capture stack is empty: nothing can be stolen")
                raise IllegalMoveError(
                    "R23", f"the top card of {move.target}'s capture stack is {top.id}, not {getattr(move.stolen, 'id', None)}"
                )
        elif card is _F_RENEWAL:
            if c.deck_count == 0:
                if move.drawn is not None:
                    raise IllegalMoveError("R25", f"the World deck is empty: Renewal draws nothing, not {move.drawn}")
            elif move.drawn is None:
                raise IllegalMoveError("R25", f"the World deck still has {c.deck_count} cards: Renewal draws one")
            elif isinstance(move.drawn, Card) and move.drawn not in c.pool:
                raise IllegalMoveError("R25", f"{move.drawn} is not in the World deck{self._whereabouts(move.drawn)}")

    def _whereabouts(self, card: Card) -> str:
        """Where a card really is, to make an error message useful."""
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

    def _check_decay(self, i: int, move: Play) -> None:
        c = self._core
        given = dict(move.discards)
        if len(given) != len(move.discards):
            raise IllegalMoveError("R21", "each opponent discards one card only")
        for name, card in move.discards:
            j = self._player_index(name)
            if not self._opponent(i, j):
                raise IllegalMoveError("R21", f"Dark Decay strikes opponents only; {name} is not one")
            if card.is_world:
                ok = card in c.hands[j] or (c.hidden[j] and card in c.pool)
            else:
                ok = card in c.fate_hands[j] or (c.fate_hidden[j] and card in c.fate_decks[j])
            if not ok:
                raise IllegalMoveError("R21", f"{name} cannot discard {card.id}: it is not in their hand")
        for j in range(self._n):
            if self._opponent(i, j) and self._hand_known_size(j) > 0 and self.players[j] not in given:
                raise IllegalMoveError("R21", f"every opponent with cards in hand discards one; {self.players[j]} did not")

    def _check_swap(self, i: int, move: Play) -> None:
        c = self._core
        if move.target is None:
            raise IllegalMoveError("R22", "Mirror Swap needs a target player")
        j = self._player_index(move.target)
        if j == i:
            raise IllegalMoveError("R22", "Mirror Swap names another player, not oneself")
        a = len(c.hands[i]) + c.hidden[i]
        b = len(c.hands[j]) + c.hidden[j]
        k = min(a, b)
        if len(move.given) != k or len(move.received) != k:
            raise IllegalMoveError(
                "R22",
                f"{move.player} holds {a} World cards and {move.target} {b}: exactly {k} change hands each way",
            )
        for who, cards, idx in ((move.player, move.given, i), (move.target, move.received, j)):
            rest = list(c.hands[idx])
            spare = c.hidden[idx]
            for card in cards:
                if card is UNSEEN:
                    # A face-down card changing hands, as a camera sees a swap.
                    if not spare:
                        raise IllegalMoveError("R22", f"{who} has no face-down World card to swap")
                    spare -= 1
                elif card in rest:
                    rest.remove(card)
                elif spare and isinstance(card, Card) and card.is_world and card in c.pool:
                    spare -= 1
                else:
                    raise IllegalMoveError("R22", f"{card} is not a World card in {who}'s hand")

    def _check_deal(self, move: Deal) -> None:
        c = self._core
        if c.phase is not Phase.DEAL:
            raise IllegalMoveError(*_phase_problem(c.phase, "no deal is due now"))
        n = self._n
        by_seat: list[tuple[Card | _Unseen, ...] | None] = [None] * n
        for name, cards in move.hands:
            i = self._player_index(name)
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
                raise IllegalMoveError("R15", f"{card.id} is not in the World deck{self._whereabouts(card)}")

    def _check_round(self, move: NewRound) -> None:
        c = self._core
        if c.phase is not Phase.ROUND:
            raise IllegalMoveError(*_phase_problem(c.phase, "a new round cannot start now"))
        d = self._player_index(move.dealer)
        if c.round_no > 0:
            expected = (c.dealer + 1) % self._n
            if d != expected:
                raise IllegalMoveError(
                    "R15", f"the deal moves to the left: {self.players[expected]} deals this round, not {move.dealer}"
                )
        decks = {}
        for name, cards in move.fate_decks:
            self._player_index(name)
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

    def _apply(self, move: Move) -> None:
        kind = type(move)
        if kind is Play:
            self._apply_play(move)  # type: ignore[arg-type]
        elif kind is DrawFate:
            c = self._core
            i = self._seat[move.player]  # type: ignore[union-attr]
            c.drew_fate[i] = True
            if c.fate_order_known:
                deck = c.fate_decks[i]
                c.fate_hands[i] = c.fate_hands[i] + (deck[0],)
                c.fate_decks[i] = deck[1:]
            else:
                c.fate_hidden[i] += 1
            self._next_turn()
        elif kind is Pass:
            self._next_turn()
        elif kind is Deal:
            self._apply_deal(move)  # type: ignore[arg-type]
        elif kind is NewRound:
            self._apply_round(move)  # type: ignore[arg-type]

    def _take_from_hand(self, i: int, card: Card) -> None:
        c = self._core
        if card.is_world:
            if card in c.hands[i]:
                c.hands[i] = _remove(c.hands[i], card)
            else:
                c.hidden[i] -= 1
                c.pool = c.pool - {card}
        else:
            if card in c.fate_hands[i]:
                c.fate_hands[i] = _remove(c.fate_hands[i], card)
            else:
                c.fate_hidden[i] -= 1
                c.fate_decks[i] = _remove(c.fate_decks[i], card)

    def _apply_play(self, move: Play) -> None:
        c = self._core
        i = self._seat[move.player]
        card = move.card
        self._take_from_hand(i, card)
        if card.to_centre:
            natural = card.is_world and not (card.is_wizard and self.crystal_in_play)
            _lay_in_centre(c, i, card, tuple(move.capture), natural=natural)
        elif card is _F_CRYSTAL:
            if any(x is _F_CRYSTAL for _, x in c.in_play):
                # R19: a second Crystal discards both.
                c.in_play = tuple(e for e in c.in_play if e[1] is not _F_CRYSTAL)
                c.discards = c.discards + (_F_CRYSTAL, _F_CRYSTAL)
            else:
                c.in_play = c.in_play + ((i, card),)
        elif card is _F_EXORCIST:
            creatures = tuple(x for x in c.centre if x.is_creature)
            if creatures:
                c.centre = tuple(x for x in c.centre if not x.is_creature)
                c.discards = c.discards + creatures
            c.in_play = c.in_play + ((i, card),)
        else:
            c.discards = c.discards + (card,)
            if card is _F_DECAY:
                for name, x in move.discards:
                    self._take_from_hand(self._seat[name], x)
                    c.discards = c.discards + (x,)
            elif card is _F_SWAP:
                assert move.target is not None
                j = self._seat[move.target]
                for src, dst, cards in ((i, j, move.given), (j, i, move.received)):
                    for moved in cards:
                        if not isinstance(moved, Card):
                            c.hidden[src] -= 1
                            c.hidden[dst] += 1
                        else:
                            self._take_from_hand(src, moved)
                            c.hands[dst] = c.hands[dst] + (moved,)
                            # The one who gave it away now knows where it is.
                            c.revealed = c.revealed + ((src, moved, dst),)
            elif card is _F_THIEF:
                assert move.target is not None
                if move.stolen is not None:
                    j = self._seat[move.target]
                    c.stacks[j] = c.stacks[j][:-1]
                    c.stacks[i] = c.stacks[i] + (move.stolen,)
            elif card is _F_RENEWAL:
                if move.drawn is UNSEEN:
                    c.hidden[i] += 1
                    c.deck_count -= 1
                elif isinstance(move.drawn, Card):
                    c.hands[i] = c.hands[i] + (move.drawn,)
                    c.pool = c.pool - {move.drawn}
                    c.deck_count -= 1
        self._next_turn()

    def _next_turn(self) -> None:
        c = self._core
        if any(c.hands) or any(c.hidden):
            c.turn = (c.turn + 1) % self._n
            return
        # R17: the deal ends as soon as nobody holds a World card.
        c.turn = -1
        if c.deck_count > 0:
            c.phase = Phase.DEAL
        else:
            self._end_round()

    def _apply_deal(self, move: Deal) -> None:
        c = self._core
        seat = self._seat
        dealt: list[Card] = []
        for name, cards in move.hands:
            i = seat[name]
            if UNSEEN in cards:
                known = tuple(x for x in cards if x is not UNSEEN)
                c.hidden[i] += len(cards) - len(known)
            else:
                known = cards
            c.hands[i] = c.hands[i] + known  # type: ignore[operator]
            dealt.extend(known)  # type: ignore[arg-type]
            c.deck_count -= len(cards)
        if move.centre:
            c.centre = c.centre + move.centre
            dealt.extend(move.centre)
            c.deck_count -= len(move.centre)
        c.pool = c.pool.difference(dealt)
        c.deal_no += 1
        c.last_deal = c.deck_count == 0
        c.drew_fate = [False] * self._n
        c.turn = (c.dealer + 1) % self._n
        c.phase = Phase.TURN

    def _apply_round(self, move: NewRound) -> None:
        c = self._core
        n = self._n
        c.round_no += 1
        c.dealer = self._seat[move.dealer]
        c.deal_no = 0
        c.last_deal = False
        c.turn = -1
        c.hands = [()] * n
        c.hidden = [0] * n
        c.fate_hands = [()] * n
        c.fate_hidden = [0] * n
        c.fate_decks = [move.deck_of(p) for p in self.players]
        c.fate_order_known = move.fate_order_known
        if c.fate_sets is None:
            c.fate_sets = tuple(frozenset(d) for d in c.fate_decks)
        c.drew_fate = [False] * n
        c.centre = ()
        c.stacks = [()] * n
        c.sweeps = [()] * n
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
        score = self.provisional_score()
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
        from companion.engine.view import make_view

        return make_view(self, self._seat[player])

    def __repr__(self) -> str:
        c = self._core
        return (
            f"<GameState {'/'.join(self.players)} round {c.round_no} deal {c.deal_no} "
            f"{c.phase.value}{' ' + self.players[c.turn] if c.phase is Phase.TURN else ''}>"
        )


def _lay_in_centre(c: _Core, i: int, card: Card, capture: tuple[Card, ...], *, natural: bool) -> None:
    """Player ``i``'s ``card`` goes to the centre, taking ``capture`` (already checked).
    ``natural``: a World card, not an empowered Wizard, which can make a clean sweep."""
    if capture:
        c.centre = _remove_all(c.centre, capture)
        c.stacks[i] = c.stacks[i] + capture + (card,)
        c.last_capturer = i
        # R7: a natural World card that empties the centre, outside the first and last deal.
        if natural and not c.centre and c.deal_no != 1 and not c.last_deal:
            c.sweeps[i] = c.sweeps[i] + (card,)
    else:
        c.centre = c.centre + (card,)
    if card.is_world and card.value == 4 and c.in_play:
        _minion_played(c)


def _minion_played(c: _Core) -> None:
    """R24: a value-4 World card played sends every Exorcist in play away."""
    gone = tuple(x for _, x in c.in_play if x is _F_EXORCIST)
    if gone:
        c.in_play = tuple(e for e in c.in_play if e[1] is not _F_EXORCIST)
        c.discards = c.discards + gone


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

