"""The Ruse and Bruise game state: rounds, turns, the columns, the immediate abilities, the
round's end, the distribution and the scores (B1-B29).

Like a chess board, a :class:`RabState` takes moves with :meth:`RabState.push` (checked
against every ruling; an illegal move raises :class:`~companion.contract.errors.
IllegalMoveError` naming it, in a player's words) and takes them back with :meth:`RabState.pop`,
restoring the state exactly.

Whose decision it is comes from the cards: the player in turn places (B8), but the owner of
an Invisibility Cloak or a Traitor turned over decides what it does (B14, B15), and may not be
the player in turn; :attr:`RabState.to_move` says who, :attr:`RabState.waiting` why. The
table's own moves (a round's goal cards, a card turned over, an Explorer moving, an
Assassin's victim, a Storm, the reveal and the distribution) have ``to_move`` ``None``.

The state can follow a game it cannot fully see: hands, stacks and face-down cards left
unknown by the record (B29). Where each player's cards may be is kept by
:class:`~companion.games.ruse_and_bruise.whereabouts.Whereabouts`, and a card named where it
cannot be is refused as soon as what was seen tells it.

>>> from companion.games.ruse_and_bruise.moves import Place, Round, TurnOver, Explore
>>> from companion.games.ruse_and_bruise.setup import RabSetup
>>> from companion.games.ruse_and_bruise.values import EXAMPLE
>>> game = RabState(RabSetup(("ann", "bob"), ("blue", "white"), EXAMPLE, hands=(("KING", "EXPL", "WIZ"), None)))
>>> game.push(Round.make(["music-3a", "trade-1"]))
>>> game.push(Place.make("ann", 1, "EXPL"))
>>> game.push(Place.make("bob", 1, None))
>>> game.waiting.what, game.to_move
('turn', None)
>>> game.push(TurnOver.make(1, "EXPL"))
>>> game.waiting.reason
"ann's Explorer was turned over in column 1: he moves to column 2 (B11)"
>>> game.push(Explore(1))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: B11: ann's Explorer moves to the next column, 2, not 1
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from companion.contract.cards import UNSEEN, Unseen
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.state import TurnBased
from companion.games.ruse_and_bruise.cards import GOALS, HAND_SIZE, INFLUENCE, ROUNDS, Goal, Influence
from companion.games.ruse_and_bruise.distribution import ColumnDistribution, distribute
from companion.games.ruse_and_bruise.effects import Effects, Waiting
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
    Seen,
    Storm,
    Swap,
    TurnOver,
)
from companion.games.ruse_and_bruise.scoring import Outcome, RoundResult, decide, score_of
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.whereabouts import DISCARD, HAND, STACK, Trail, Whereabouts, bits

if TYPE_CHECKING:
    from companion.games.ruse_and_bruise import RuseAndBruise
    from companion.games.ruse_and_bruise.view import RabView

__all__ = ["RabState", "Phase", "Lay", "ColumnState", "LegalMoves"]

_ID = Influence._by_id
EXPL, ASSN, STORM, CLOAK, TRAITOR = (_ID[i] for i in ("EXPL", "ASSN", "STORM", "CLOAK", "TRAITOR"))
_ABILITY_EVENT = {EXPL: "explorer", ASSN: "assassin", STORM: "storm", CLOAK: "cloak", TRAITOR: "traitor"}


class Phase(enum.Enum):
    """What the game waits for next."""

    ROUND = "round"
    """A round begins (:class:`Round`, B7), by the table."""
    PLACE = "place"
    """The player in turn places a card, or passes with an empty hand (:class:`Place`,
    :class:`Pass`, B8)."""
    TURN = "turn"
    """The face-down card above a card that arrived is turned over (:class:`TurnOver`, B10),
    by the table."""
    ABILITY = "ability"
    """The immediate ability of the card just turned over (B11-B15): the table's
    (:class:`Explore`, :class:`Assassinate`, :class:`Storm`) or its owner's choice
    (:class:`Cloak`, :class:`Swap`)."""
    REVEAL = "reveal"
    """The round is over: every face-down card is turned over (:class:`Reveal`, B16)."""
    DISTRIBUTE = "distribute"
    """The goal cards are distributed (:class:`Distribute`, B18-B26)."""
    OVER = "over"
    """The game has ended (B28)."""


class Lay(NamedTuple):
    """A card lying in a column: its ``owner`` (a player's seat), the ``card`` (``None`` for a
    face-down card the record did not name), whether it lies face ``up``, and the ``slot`` of a
    face-down card (its place in the owner's :class:`Whereabouts`; -1 face up)."""

    owner: int
    card: Influence | None
    up: bool
    slot: int


class ColumnState(NamedTuple):
    """One column as the table sees it, for the dashboard and the club: its ``number`` (1 to
    N), its ``goal`` card, its cards from the goal card down, each (owner, card or ``None``
    where the companion did not see a face-down card, face up), whether a Storm ``closed`` it
    (B13), how many cards it ``holds`` of the ``needs`` of its goal card, and whether it was
    ``complete`` when the last turn was over (B16: it is judged then)."""

    number: int
    goal: Goal | None
    cards: tuple[tuple[str, Influence | None, bool], ...]
    closed: bool
    holds: int
    needs: int
    complete: bool


_ROUND = Phase.ROUND
_PLACE = Phase.PLACE
_TURN = Phase.TURN
_ABILITY = Phase.ABILITY
_REVEAL = Phase.REVEAL
_DISTRIBUTE = Phase.DISTRIBUTE
_OVER = Phase.OVER


class _Core:
    """The part of the state a move changes, copied on every push so that pop restores it.
    Every member is an immutable value (tuples, cards, whereabouts), shared by copies."""

    __slots__ = (
        "phase",
        "round",
        "turn",
        "starter",
        "placer",
        "cols",
        "goals",
        "closed",
        "judged",
        "stacks",
        "seen_goals",
        "known",
        "public",
        "pending",
        "at",
        "slot_next",
        "won",
        "results",
        "outcome",
        "dist",
    )

    phase: Phase
    round: int
    turn: int
    starter: int
    placer: int
    cols: tuple[tuple[Lay, ...], ...]
    goals: tuple[Goal | None, ...]
    closed: int
    judged: int
    """The columns judged complete when the last turn was over (B16)."""
    stacks: tuple[tuple[Goal | Unseen, ...], ...]
    seen_goals: int
    known: tuple[Whereabouts, ...]
    public: tuple[Trail, ...]
    pending: tuple[int, Influence | None] | None
    at: tuple[int, int] | None
    slot_next: int
    won: tuple[tuple[Goal, ...], ...]
    results: tuple[RoundResult, ...]
    outcome: Outcome | None
    dist: tuple[Any, Any, tuple[ColumnDistribution, ...]] | None
    """The distribution worked out for the columns and goal cards it names (a cache: the
    distribution asked for before it is carried out is not worked out twice)."""

    def copy(self) -> _Core:
        new = _Core.__new__(_Core)
        new.phase = self.phase
        new.round = self.round
        new.turn = self.turn
        new.starter = self.starter
        new.placer = self.placer
        new.cols = self.cols
        new.goals = self.goals
        new.closed = self.closed
        new.judged = self.judged
        new.stacks = self.stacks
        new.seen_goals = self.seen_goals
        new.known = self.known
        new.public = self.public
        new.pending = self.pending
        new.at = self.at
        new.slot_next = self.slot_next
        new.won = self.won
        new.results = self.results
        new.outcome = self.outcome
        new.dist = self.dist
        return new


def _put(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """``values`` with item ``i`` replaced."""
    return values[:i] + (value,) + values[i + 1 :]


def _his(name: str) -> str:
    return f"{name}'s"


class RabState(TurnBased[Move]):
    """A game of Ruse and Bruise in progress (the protocol's :class:`~companion.contract.
    State`).

    Read it through its properties (``phase``, ``to_move``, ``waiting``, ``columns``,
    ``round_number``, ``hand(p)``, ``hand_size(p)``, ``won(p)``, ``results``, ``totals``,
    ``outcome()``) and change it with :meth:`push` and :meth:`pop`. ``keep_history=False``
    drops the undo stack for fast one-way replays."""

    def __init__(self, setup: RabSetup, *, keep_history: bool = True) -> None:
        self.setup = setup
        self.players = setup.players
        self.values = setup.values
        self._n = len(setup.players)
        self._keep = keep_history
        self.move_stack: list[Move] = []
        self._stack: list[_Core] = []
        c = _Core()
        n = self._n
        c.phase = _ROUND
        c.round = 0
        c.turn = 0
        c.starter = 0
        c.placer = 0
        c.cols = ((),) * n
        c.goals = (None,) * n
        c.closed = 0
        c.judged = 0
        c.stacks = setup.goals if setup.goals is not None else ((UNSEEN,) * 6,) * n
        c.seen_goals = 0
        c.known = tuple(Whereabouts.dealt(setup.hand_of(p)) for p in setup.players)
        c.public = (Trail(Whereabouts.everywhere()),) * n
        c.pending = None
        c.at = None
        c.slot_next = 0
        c.won = ((),) * n
        c.results = ()
        c.outcome = None
        c.dist = None
        self._core = c

    # ------------------------------------------------------------------ reading the state

    @property
    def game(self) -> RuseAndBruise:
        """Ruse and Bruise, the game this is a state of."""
        return self.setup.game

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def round_number(self) -> int:
        """The round under way (1-6), or the last one; 0 before the first."""
        return self._core.round

    @property
    def in_turn(self) -> str:
        """The player whose turn it is (or was last, while the table acts)."""
        return self.players[self._core.turn]

    @property
    def to_move(self) -> str | None:
        """The player deciding now: the player in turn placing (B8), or the owner of a Cloak
        or a Traitor just turned over (B14, B15); ``None`` when the table acts."""
        c = self._core
        if c.phase is _PLACE:
            return self.players[c.turn]
        if c.phase is _ABILITY:
            assert c.at is not None
            lay = c.cols[c.at[0]][c.at[1]]
            if lay.card is CLOAK or lay.card is TRAITOR:
                return self.players[lay.owner]
        return None

    @property
    def waiting(self) -> Waiting:
        """What the game waits for, whose decision it is and why."""
        c = self._core
        phase = c.phase
        if phase is _ROUND:
            if self.values is None:
                return Waiting("round", None, None, None, "the table's values table is missing, so the game cannot begin (B4): enter it once from your cards with rop cards values --game ruse-and-bruise, then start the game again")
            return Waiting("round", None, None, None, f"round {c.round + 1} begins: the top goal card of each stack is turned over (B7)")
        if phase is _PLACE:
            name = self.players[c.turn]
            if c.known[c.turn].hand == 0:
                return Waiting("place", name, None, None, f"{name} holds no card and passes (B8)")
            return Waiting("place", name, None, None, f"{name} places a card face down at the bottom of a column (B8)")
        if phase is _TURN:
            assert c.at is not None
            k, pos = c.at
            lay = c.cols[k][pos]
            return Waiting("turn", None, k + 1, None, f"a card arrived below {_his(self.players[lay.owner])} face-down card in column {k + 1}: it is turned over (B10)")
        if phase is _ABILITY:
            assert c.at is not None
            k, pos = c.at
            lay = c.cols[k][pos]
            card = lay.card
            assert card is not None
            owner = self.players[lay.owner]
            what = f"{_his(owner)} {card.name} was turned over in column {k + 1}"
            if card is EXPL:
                to = self._explorer_to(c, k)
                where = f"he moves to column {to + 1}" if to is not None else f"column {(k + 1) % self._n + 1} is closed by a Storm: he stays (B11)"
                return Waiting("explorer", None, k + 1, card, f"{what}: {where}" + (" (B11)" if to is not None else ""))
            if card is ASSN:
                return Waiting("assassin", None, k + 1, card, f"{what}: the card that arrived below him goes to its owner's discard pile (B12)")
            if card is STORM:
                return Waiting("storm", None, k + 1, card, f"{what}: the column is complete and closed (B13)")
            if card is CLOAK:
                return Waiting("cloak", owner, k + 1, card, f"{what}: {owner} may place a card from their hand under it, then draws (B14)")
            return Waiting("traitor", owner, k + 1, card, f"{what}: {owner} may exchange its goal card with another column's (B15)")
        if phase is _REVEAL:
            return Waiting("reveal", None, None, None, "the round is over: every face-down card is turned over, none acts (B16)")
        if phase is _DISTRIBUTE:
            return Waiting("distribution", None, None, None, "the goal cards are distributed, column by column (B18-B26)")
        return Waiting("over", None, None, None, "the game is over (B28)")

    @property
    def columns(self) -> tuple[ColumnState, ...]:
        """Every column as the table sees it (what the record named of face-down cards)."""
        c = self._core
        out = []
        for k, col in enumerate(c.cols):
            goal = c.goals[k]
            needs = goal.value if goal is not None else 0
            closed = bool(c.closed >> k & 1)
            out.append(
                ColumnState(
                    k + 1,
                    goal,
                    tuple((self.players[lay.owner], lay.card, lay.up) for lay in col),
                    closed,
                    len(col),
                    needs,
                    bool(c.judged >> k & 1),
                )
            )
        return tuple(out)

    def column(self, number: int) -> ColumnState:
        """Column ``number`` (1 to N)."""
        return self.columns[number - 1]

    def _seat(self, name: object) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise InvalidMoveError(f"unknown player {name!r}: the players are {', '.join(self.players)}") from None

    def hand(self, player: str) -> tuple[Influence, ...]:
        """The cards known to be in ``player``'s hand (all of them when the record names
        them)."""
        w = self._core.known[self._seat(player)]
        return tuple(INFLUENCE[i] for i in bits(w.known(HAND)))

    def hand_size(self, player: str) -> int:
        return self._core.known[self._seat(player)].hand

    def stack_size(self, player: str) -> int:
        return self._core.known[self._seat(player)].stack

    def discard_size(self, player: str) -> int:
        return self._core.known[self._seat(player)].discard

    def discards(self, player: str) -> tuple[Influence, ...]:
        """The cards known to be in ``player``'s discard pile."""
        w = self._core.known[self._seat(player)]
        return tuple(INFLUENCE[i] for i in bits(w.known(DISCARD)))

    def whereabouts(self, player: str, *, public: bool = False) -> Whereabouts:
        """Where ``player``'s cards may be, as the record tells (``public``: as every other
        player can tell)."""
        c = self._core
        seat = self._seat(player)
        return c.public[seat].value if public else c.known[seat]

    def goal_stack_size(self, column: int) -> int:
        """Goal cards left in stack ``column`` (1 to N)."""
        return len(self._core.stacks[column - 1])

    def won(self, player: str) -> tuple[Goal, ...]:
        """The goal cards ``player`` has won, in the order won."""
        return self._core.won[self._seat(player)]

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The rounds distributed so far."""
        return self._core.results

    @property
    def totals(self) -> dict[str, int]:
        """Every player's score so far, the better of the plain and the doubled (B28)."""
        c = self._core
        return {p: score_of(c.won[i]).score for i, p in enumerate(self.players)}

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def is_game_over(self) -> bool:
        return self._core.phase is _OVER

    def complete(self, column: int) -> bool:
        """Whether column ``column`` (1 to N) was complete when the last turn was over: it
        held as many cards as its goal card's value, or a Storm closed it (B16)."""
        return bool(self._core.judged >> (column - 1) & 1)

    def distribution_now(self) -> tuple[ColumnDistribution, ...] | None:
        """Each column's distribution as the cards lie now (B18-B26), once every card is face
        up (after the reveal) or known to the record; ``None`` before, or without a values
        table."""
        c = self._core
        if self.values is None or c.round == 0 or any(g is None for g in c.goals):
            return None
        cached = c.dist
        if cached is not None and cached[0] is c.cols and cached[1] is c.goals:
            return cached[2]
        columns = []
        for k, col in enumerate(c.cols):
            if any(lay.card is None for lay in col):
                return None
            goal = c.goals[k]
            assert goal is not None
            columns.append(distribute(goal, [(self.players[lay.owner], cast(Influence, lay.card)) for lay in col], self.values))
        found = tuple(columns)
        c.dist = (c.cols, c.goals, found)
        return found

    # ------------------------------------------------------------------ legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves now, a lazy view (``move in state.legal_moves``, ``bool(...)``,
        ``.count()``).

        - The player in turn: a :class:`Place` per card known in their hand (and one placing
          an unseen card when the record does not know their whole hand), per open column,
          per card they may draw (``None`` when the pile they draw from is not known, or
          nothing can be drawn); a :class:`Pass` with an empty hand.
        - A Cloak's owner: declining, and placing each card of their hand with each draw; a
          Traitor's owner: declining, and each other column.
        - The table: its move where it is settled (an Explorer moving, a Storm, an Assassin's
          victim, a card the record knows turned over, the distribution); a round's goal
          cards and draws are drawn by :meth:`random_table_move`.
        """
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        c = self._core
        phase = c.phase
        if phase is _PLACE:
            p = c.turn
            name = self.players[p]
            w = c.known[p]
            if w.hand == 0:
                yield Pass(name)
                return
            cards = self._hand_choices(w)
            draws = self._draw_choices(w)
            for card in cards:
                for k in range(self._n):
                    if c.closed >> k & 1:
                        continue
                    for d in draws:
                        yield Place(name, k + 1, card, d)
        elif phase is _ABILITY:
            assert c.at is not None
            k, pos = c.at
            lay = c.cols[k][pos]
            acting = lay.card
            owner = self.players[lay.owner]
            if acting is EXPL:
                to = self._explorer_to(c, k)
                yield Explore(None if to is None else to + 1)
            elif acting is STORM:
                yield Storm(k + 1)
            elif acting is ASSN:
                victim = c.cols[k][pos + 1]
                yield Assassinate(self._named_at(c, victim) or UNSEEN)
            elif acting is CLOAK:
                yield Cloak(owner, False)
                w = c.known[lay.owner]
                if w.hand:
                    placed = w.placed(None, c.slot_next)
                    draws = [d for d in self._draw_choices(placed) if self._cloak_draw_fits(c, lay.owner, self._after_draw(placed, d))]
                    for x in self._hand_choices(w):
                        for d in draws:
                            yield Cloak(owner, True, x, d)
            elif acting is TRAITOR:
                yield Swap(owner, None)
                for j in range(self._n):
                    if j != k:
                        yield Swap(owner, j + 1)
        elif phase is _TURN:
            assert c.at is not None
            k, pos = c.at
            named = self._named_at(c, c.cols[k][pos])
            if named is not None:
                yield TurnOver(k + 1, named)
        elif phase is _REVEAL:
            cols = []
            for col in c.cols:
                names = [self._named_at(c, lay) for lay in col if not lay.up]
                if any(x is None for x in names):
                    return
                cols.append(tuple(cast(Influence, x) for x in names))
            yield Reveal(tuple(cols))
        elif phase is _DISTRIBUTE:
            found = self.distribution_now()
            if found is not None:
                yield Distribute(tuple(d.winner for d in found))

    def _named_at(self, c: _Core, lay: Lay) -> Influence | None:
        """The card lying at ``lay`` if the record knows it."""
        if lay.card is not None:
            return lay.card
        known = c.known[lay.owner].known(lay.slot)
        return INFLUENCE[known.bit_length() - 1] if known else None

    @staticmethod
    def _hand_choices(w: Whereabouts) -> list[Seen]:
        known = [INFLUENCE[i] for i in bits(w.known(HAND))]
        out: list[Seen] = list(known)
        if w.hand > len(known):
            out.append(UNSEEN)
        return out

    @staticmethod
    def _draw_choices(w: Whereabouts) -> list[Influence | None]:
        """What a draw now may bring as the record tells: the cards known in the stack (in
        the discard pile when the stack is empty, B9), and ``None`` for a draw the record
        cannot name or for no draw at all."""
        pile = STACK if w.stack else DISCARD if w.discard else None
        if pile is None:
            return [None]
        known = [INFLUENCE[i] for i in bits(w.known(pile))]
        out: list[Influence | None] = list(known)
        if w.capacity(pile) > len(known):
            out.append(None)
        return out

    def decision(self, move: Move) -> Any:
        """What the player chose in ``move``: a :class:`Place` or a :class:`Cloak` without the
        card drawn, which chance settles (B9); any other move as it is."""
        if type(move) is Place:
            return ("place", move.player, move.column, move.card)
        if type(move) is Cloak:
            return ("cloak", move.player, move.placed, move.card)
        return move

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (naming the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""
        trial = self.copy(keep_history=False)
        trial._carry_out(trial._core, move, True)

    # ------------------------------------------------------------------ push / pop

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``. With ``check`` (the default) every ruling is checked first, and an
        :class:`~companion.contract.errors.IllegalMoveError` names the one it breaks, leaving
        the state unchanged; ``check=False`` is the fast path for moves known to be legal."""
        old = self._core
        new = old.copy()
        self._carry_out(new, move, check)
        if self._keep:
            self._stack.append(old)
            self.move_stack.append(move)
        self._core = new

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
        """Check and push ``move`` like :meth:`push`, and tell what it did."""
        before = self._core
        self.push(move)
        c = self._core
        completed = tuple(k + 1 for k in range(self._n) if c.judged >> k & 1 and not before.judged >> k & 1)
        return self._effects(move, before, c, completed)

    def copy(self, *, keep_history: bool = True) -> RabState:
        """An independent copy of the current position; its move stack starts empty."""
        new = RabState.__new__(RabState)
        new.setup = self.setup
        new.players = self.players
        new.values = self.values
        new._n = self._n
        new._keep = keep_history
        new.move_stack = []
        new._stack = []
        new._core = self._core.copy()
        return new

    # ------------------------------------------------------------------ carrying out

    def _carry_out(self, c: _Core, move: Move, check: bool) -> None:
        """Check (with ``check``) and carry out ``move`` on ``c``, a copy of the current core.
        Every check comes before any change to ``c``."""
        kind = type(move)
        if kind is Place:
            self._place(c, cast(Place, move), check)
        elif kind is TurnOver:
            self._turn_over(c, cast(TurnOver, move), check)
        elif kind is Round:
            self._round(c, cast(Round, move), check)
        elif kind is Pass:
            self._pass(c, cast(Pass, move))
        elif kind in (Explore, Assassinate, Storm, Cloak, Swap):
            self._ability(c, move, check)
        elif kind is Reveal:
            self._reveal(c, cast(Reveal, move), check)
        elif kind is Distribute:
            self._distribute(c, cast(Distribute, move))
        else:
            raise InvalidMoveError(f"not a move of Ruse and Bruise: {move!r}")

    def _phase_problem(self, c: _Core, event: str) -> IllegalMoveError:
        """A move that comes when the game waits for another: which, and why."""
        waiting = self._waiting_of(c)
        rules = {
            "round": "B7",
            "place": "B8",
            "turn": "B10",
            "explorer": "B11",
            "assassin": "B12",
            "storm": "B13",
            "cloak": "B14",
            "traitor": "B15",
            "reveal": "B16",
            "distribution": "B18",
            "over": "B28",
        }
        rule = rules[waiting.what]
        if waiting.what == "over":
            return IllegalMoveError("B28", f"no {event} after the game's end: the sixth round is distributed")
        return IllegalMoveError(rule, f"no {event} now: {waiting.reason.rsplit(' (', 1)[0]}, {_a(waiting.what)} event comes next")

    def _waiting_of(self, c: _Core) -> Waiting:
        saved = self._core
        self._core = c
        try:
            return self.waiting
        finally:
            self._core = saved

    # -- a round begins

    def _round(self, c: _Core, move: Round, check: bool) -> None:
        if c.phase is not _ROUND:
            raise self._phase_problem(c, "new round")
        if self.values is None:
            raise IllegalMoveError("B4", "this game has no values table: enter the table's once (rop cards values --game ruse-and-bruise) and start the game with it")
        n = self._n
        goals = move.goals
        stacks = list(c.stacks)
        seen = c.seen_goals
        if check:
            if len(goals) != n:
                raise IllegalMoveError("B7", f"a round turns over one goal card per stack: {n}, not {len(goals)}")
            for k, g in enumerate(goals):
                if not isinstance(g, Goal):
                    raise InvalidMoveError(f"goal {k + 1}: {g!r} is no goal card")
                top = stacks[k][0]
                if isinstance(top, Goal) and top is not g:
                    raise IllegalMoveError("B29", f"the top goal card of stack {k + 1} is {top.id}, not {g.id}")
                if seen & g.bit or g in goals[:k]:
                    raise IllegalMoveError("B5", f"{g.id} was turned over already: there is one of each goal card")
                for j, stack in enumerate(stacks):
                    if g in stack and (j != k or stack[0] is not g):
                        raise IllegalMoveError("B29", f"{g.id} lies in goal stack {j + 1}, not on top of stack {k + 1}")
        for k, g in enumerate(goals):
            stacks[k] = stacks[k][1:]
            seen |= g.bit
        known = list(c.known)
        public = list(c.public)
        given = dict(move.drew)
        for name in given:
            if name not in self.players:
                raise InvalidMoveError(f'"drew": unknown player {name!r}: the players are {", ".join(self.players)}')
        for p, name in enumerate(self.players):
            w = known[p]
            short = HAND_SIZE - w.hand if c.round > 0 else 0
            can = min(max(short, 0), w.stack + w.discard)
            drew = given.get(name)
            if drew is None:
                drew = (UNSEEN,) * can
            elif check and len(drew) != can:
                if can == 0:
                    raise IllegalMoveError("B9", f"{name} holds {w.hand} cards at the start of round {c.round + 1}: nothing to draw")
                raise IllegalMoveError("B9", f"{name} holds {w.hand} cards and draws {can} to start round {c.round + 1}, not {len(drew)}")
            pub = public[p]
            for card in drew:
                w, pub = self._draw(p, w, pub, card if isinstance(card, Influence) else None, check, "at the start of the round")
            known[p] = w
            public[p] = pub
        c.known = tuple(known)
        c.public = tuple(public)
        c.stacks = tuple(stacks)
        c.seen_goals = seen
        c.goals = tuple(goals)
        c.round += 1
        c.cols = ((),) * n
        c.closed = 0
        c.judged = 0
        c.slot_next = 0
        c.turn = c.starter
        c.phase = _PLACE

    def _draw(self, p: int, w: Whereabouts, pub: Trail, card: Influence | None, check: bool, when: str) -> tuple[Whereabouts, Trail]:
        """Player ``p`` draws one card (B9): ``card``, or one nobody saw; the discard pile is
        shuffled into an empty stack first; with both empty nothing is drawn."""
        if w.stack == 0:
            if w.discard == 0:
                if card is not None:
                    raise IllegalMoveError("B9", f"{self.players[p]} draws {card.id} {when}, but their stack and discard pile are empty: nothing is drawn")
                return w, pub
            w = w.reshuffled()
            pub = pub.then("reshuffled")
        if card is None:
            return w.drew(None), pub.then("drew", None)
        if check and not w.may_be(card.index, STACK):
            raise IllegalMoveError("B29", f"{self.players[p]} draws {card.id} {when}, but {self._where(w, p, card)}")
        return w.drew(card.index), pub.then("drew", None)

    def _where(self, w: Whereabouts, p: int, card: Influence) -> str:
        """Where ``card`` of player ``p`` lies (or may lie), in words: ``"ann's KING is face up
        in column 2"``."""
        name = self.players[p]
        places = [pl for pl in w.places_of(card.index) if w.may_be(card.index, pl)]
        if not places:
            for k, col in enumerate(self._core.cols):
                for lay in col:
                    if lay.owner == p and lay.card is card and lay.up:
                        return f"{_his(name)} {card.id} is face up in column {k + 1}"
            return f"{_his(name)} {card.id} cannot be there, as far as what was seen tells"
        words = []
        for pl in places:
            if pl == HAND:
                words.append(f"in {_his(name)} hand")
            elif pl == STACK:
                words.append(f"in {_his(name)} stack")
            elif pl == DISCARD:
                words.append(f"in {_his(name)} discard pile")
            else:
                words.append(f"face down in column {self._column_of_slot(p, pl) + 1}")
        return f"{_his(name)} {card.id} is {' or '.join(words)}"

    def _column_of_slot(self, p: int, slot: int) -> int:
        for k, col in enumerate(self._core.cols):
            for lay in col:
                if lay.owner == p and lay.slot == slot:
                    return k
        return -1

    # -- a turn

    def _place(self, c: _Core, move: Place, check: bool) -> None:
        if c.phase is not _PLACE:
            raise self._phase_problem(c, "card placed")
        p = c.turn
        name = self.players[p]
        if move.player != name:
            if move.player not in self.players:
                raise InvalidMoveError(f"unknown player {move.player!r}: the players are {', '.join(self.players)}")
            raise IllegalMoveError("B8", f"it is {_his(name)} turn, not {_his(move.player)}")
        w = c.known[p]
        k = move.column - 1 if type(move.column) is int else -1
        card = move.card
        drew = move.drew
        if check:
            if w.hand == 0:
                raise IllegalMoveError("B8", f"{name} holds no card: they pass")
            if not 0 <= k < self._n:
                raise IllegalMoveError("B7", f"the columns are 1 to {self._n}, not {move.column!r}")
            if c.closed >> k & 1:
                raise IllegalMoveError("B13", f"column {k + 1} is closed by a Storm: no card may be placed in it")
            if isinstance(card, Influence):
                if not w.may_be(card.index, HAND):
                    raise IllegalMoveError("B29", f"{name} places {card.id}, but {self._where(w, p, card)}")
            elif card is not UNSEEN:
                raise InvalidMoveError(f"{card!r} is no influence card")
            if drew is not None:
                if not isinstance(drew, Influence):
                    raise InvalidMoveError(f"{drew!r} is no influence card")
                # Nothing but the stack can give the turn's draw while the stack holds two
                # cards; with one, a Cloak's draw may empty it first (B9, B14).
                if w.stack >= 2 and not w.may_be(drew.index, STACK) or w.stack == 1 and not (w.may_be(drew.index, STACK) or w.may_be(drew.index, DISCARD)):
                    raise IllegalMoveError("B29", f"{name} draws {drew.id} at the end of this turn, but {self._where(w, p, drew)}")
        slot = c.slot_next
        c.slot_next = slot + 1
        index = card.index if isinstance(card, Influence) else None
        c.known = _put(c.known, p, w.placed(index, slot))
        c.public = _put(c.public, p, c.public[p].then("placed", None, slot))
        c.cols = _put(c.cols, k, c.cols[k] + (Lay(p, card if isinstance(card, Influence) else None, False, slot),))
        c.pending = (p, drew)
        c.placer = p
        self._arrived(c, k)

    def _pass(self, c: _Core, move: Pass) -> None:
        if c.phase is not _PLACE:
            raise self._phase_problem(c, "pass")
        name = self.players[c.turn]
        if move.player != name:
            if move.player not in self.players:
                raise InvalidMoveError(f"unknown player {move.player!r}: the players are {', '.join(self.players)}")
            raise IllegalMoveError("B8", f"it is {_his(name)} turn, not {_his(move.player)}")
        if c.known[c.turn].hand:
            raise IllegalMoveError("B8", f"{name} holds {c.known[c.turn].hand} card{'s' if c.known[c.turn].hand > 1 else ''}: a player holding a card must place one")
        c.pending = None
        self._end_turn(c)

    def _arrived(self, c: _Core, k: int) -> None:
        """A card arrived at the bottom of column ``k``: the card directly above it, if face
        down, is turned over next (B10); otherwise the turn is over."""
        col = c.cols[k]
        if len(col) >= 2 and not col[-2].up:
            c.phase = _TURN
            c.at = (k, len(col) - 2)
        else:
            self._end_turn(c)

    def _turn_over(self, c: _Core, move: TurnOver, check: bool) -> None:
        if c.phase is not _TURN:
            raise self._phase_problem(c, "card turned over")
        assert c.at is not None
        k, pos = c.at
        card = move.card
        if check:
            if move.column != k + 1:
                raise IllegalMoveError("B10", f"the card turned over is the one above the card that arrived in column {k + 1}, not in column {move.column}")
            if not isinstance(card, Influence):
                raise InvalidMoveError(f"a card turned over is named: {card!r} is no influence card")
        lay = c.cols[k][pos]
        p = lay.owner
        w = c.known[p]
        if check and not w.may_be(card.index, lay.slot):
            there = f"{_his(self.players[p])} card there is {lay.card.id}" if lay.card is not None else self._where(w, p, card)
            raise IllegalMoveError("B29", f"the card turned over in column {k + 1} is {_his(self.players[p])}: not {card.id}, since {there}")
        c.known = _put(c.known, p, w.turned_up(card.index, lay.slot))
        c.public = _put(c.public, p, c.public[p].then("turned_up", card.index, lay.slot))
        c.cols = _put(c.cols, k, _put(c.cols[k], pos, Lay(p, card, True, -1)))
        if card.kind == "immediate":
            c.phase = _ABILITY
            c.at = (k, pos)
        else:
            self._end_turn(c)

    def _explorer_to(self, c: _Core, k: int) -> int | None:
        """The column an Explorer in column ``k`` moves to: the next (the last's is the first),
        ``None`` when it is closed by a Storm (B11)."""
        to = (k + 1) % self._n
        return None if c.closed >> to & 1 else to

    def _ability(self, c: _Core, move: Move, check: bool) -> None:
        if c.phase is not _ABILITY:
            raise self._phase_problem(c, _event_of(move))
        assert c.at is not None
        k, pos = c.at
        lay = c.cols[k][pos]
        card = lay.card
        assert card is not None
        event = _ABILITY_EVENT[card]
        if _event_of(move) != event:
            waiting = self._waiting_of(c)
            rule = {"explorer": "B11", "assassin": "B12", "storm": "B13", "cloak": "B14", "traitor": "B15"}[event]
            raise IllegalMoveError(rule, f"{waiting.reason.rsplit(' (', 1)[0]}: {_a(event)} event comes next, not {_a(_event_of(move))} event")
        owner = self.players[lay.owner]
        if type(move) is Explore:
            self._explore(c, move, k, pos, lay, check)
        elif type(move) is Assassinate:
            self._assassinate(c, move, k, pos, check)
        elif type(move) is Storm:
            if check and move.column != k + 1:
                raise IllegalMoveError("B13", f"the Storm closes its own column, {k + 1}, not {move.column}")
            c.closed |= 1 << k
            self._end_turn(c)
        elif type(move) is Cloak:
            if move.player != owner:
                raise IllegalMoveError("B14", f"the Invisibility Cloak in column {k + 1} is {_his(owner)}: the choice is {_his(owner)}, not {_his(move.player)}")
            self._cloak(c, move, k, pos, lay, check)
        else:
            assert type(move) is Swap
            if move.player != owner:
                raise IllegalMoveError("B15", f"the Traitor in column {k + 1} is {_his(owner)}: the choice is {_his(owner)}, not {_his(move.player)}")
            to = move.swap
            if to is not None:
                if check and (type(to) is not int or not 1 <= to <= self._n or to == k + 1):
                    raise IllegalMoveError("B15", f"the Traitor's goal card in column {k + 1} is exchanged with another column's (1 to {self._n}), not {to!r}")
                goals = list(c.goals)
                goals[k], goals[to - 1] = goals[to - 1], goals[k]
                c.goals = tuple(goals)
            self._end_turn(c)

    def _explore(self, c: _Core, move: Explore, k: int, pos: int, lay: Lay, check: bool) -> None:
        to = self._explorer_to(c, k)
        name = self.players[lay.owner]
        if check and move.to != (None if to is None else to + 1):
            if to is None:
                raise IllegalMoveError("B11", f"column {(k + 1) % self._n + 1} is closed by a Storm: {_his(name)} Explorer stays in column {k + 1} (\"to\": null)")
            raise IllegalMoveError("B11", f"{_his(name)} Explorer moves to the next column, {to + 1}, not {move.to}")
        if to is None:
            self._end_turn(c)
            return
        slot = c.slot_next
        c.slot_next = slot + 1
        p = lay.owner
        c.known = _put(c.known, p, c.known[p].laid_down(EXPL.index, slot))
        c.public = _put(c.public, p, c.public[p].then("laid_down", EXPL.index, slot))
        cols = list(c.cols)
        cols[k] = cols[k][:pos] + cols[k][pos + 1 :]
        cols[to] = cols[to] + (Lay(p, EXPL, False, slot),)
        c.cols = tuple(cols)
        self._arrived(c, to)

    def _assassinate(self, c: _Core, move: Assassinate, k: int, pos: int, check: bool) -> None:
        victim = c.cols[k][pos + 1]
        p = victim.owner
        w = c.known[p]
        card = move.discard
        if isinstance(card, Influence):
            if check and not w.may_be(card.index, victim.slot):
                there = f"the card that arrived is {_his(self.players[p])} {victim.card.id}" if victim.card is not None else self._where(w, p, card)
                raise IllegalMoveError("B12", f"the Assassin sends the card that arrived below him to its owner's discard pile: not {_his(self.players[p])} {card.id}, since {there}")
            index: int | None = card.index
        elif card is UNSEEN:
            index = None
        else:
            raise InvalidMoveError(f"{card!r} is no influence card")
        c.known = _put(c.known, p, w.discarded(index, victim.slot))
        c.public = _put(c.public, p, c.public[p].then("discarded", None, victim.slot))
        cols = list(c.cols)
        cols[k] = cols[k][: pos + 1] + cols[k][pos + 2 :]
        c.cols = tuple(cols)
        self._end_turn(c)

    def _cloak(self, c: _Core, move: Cloak, k: int, pos: int, lay: Lay, check: bool) -> None:
        p = lay.owner
        name = self.players[p]
        if not move.placed:
            if move.card is not None or move.drew is not None:
                raise InvalidMoveError('a Cloak declined places nothing and draws nothing: "card" and "drew" are left out')
            self._end_turn(c)
            return
        w = c.known[p]
        card = move.card
        if check:
            if w.hand == 0:
                raise IllegalMoveError("B14", f"{name} holds no card to place under the Invisibility Cloak")
            if isinstance(card, Influence):
                if not w.may_be(card.index, HAND):
                    raise IllegalMoveError("B29", f"{name} places {card.id} under the Invisibility Cloak, but {self._where(w, p, card)}")
            elif card is not UNSEEN:
                raise InvalidMoveError(f"{card!r} is no influence card")
        slot = c.slot_next
        index = card.index if isinstance(card, Influence) else None
        w2 = w.placed(index, slot)
        pub = c.public[p].then("placed", None, slot)
        w2, pub = self._draw(p, w2, pub, move.drew, check, "for the Invisibility Cloak")
        if check and not self._cloak_draw_fits(c, p, w2):
            pending = c.pending
            assert pending is not None and pending[1] is not None
            raise IllegalMoveError("B9", f"{name} draws {pending[1].id} at the end of this turn (their place event says so): after the Cloak's draw it is no longer in {_his(name)} stack")
        c.slot_next = slot + 1
        c.known = _put(c.known, p, w2)
        c.public = _put(c.public, p, pub)
        cols = list(c.cols)
        cols[k] = cols[k][: pos + 1] + (Lay(p, card if isinstance(card, Influence) else None, False, slot),) + cols[k][pos + 1 :]
        c.cols = tuple(cols)
        self._end_turn(c)

    def _cloak_draw_fits(self, c: _Core, p: int, drawn: Whereabouts) -> bool:
        """Whether the card the turn's draw names (B9) can still be drawn once a Cloak of
        player ``p`` has drawn: ``drawn`` is ``p``'s whereabouts after the Cloak's card and
        draw (B14). The Cloak's draw comes first, so it cannot take the card the turn's draw
        takes."""
        pending = c.pending
        if pending is None or pending[0] != p or pending[1] is None:
            return True
        y = pending[1].index
        if drawn.stack:
            return drawn.may_be(y, STACK)
        return drawn.discard > 0 and drawn.may_be(y, DISCARD)

    @staticmethod
    def _after_draw(w: Whereabouts, card: Influence | None) -> Whereabouts:
        """``w`` after drawing ``card`` (``None``: a card nobody saw), reshuffling first when
        the stack is empty (B9)."""
        if w.stack == 0:
            if w.discard == 0:
                return w
            w = w.reshuffled()
        if card is not None and not w.at(STACK) & card.bit:
            return w
        return w.drew(None if card is None else card.index)

    def _end_turn(self, c: _Core) -> None:
        """The turn is over: the player who placed draws (B9), then the round ends if every
        goal card is complete or nobody holds a card (B16), else the next player clockwise is
        in turn (B8)."""
        c.at = None
        pending = c.pending
        if pending is not None:
            p, card = pending
            w, pub = c.known[p], c.public[p]
            if card is not None and (w.stack == 0 and w.discard == 0):
                raise IllegalMoveError("B9", f"{self.players[p]} draws {card.id} at the end of this turn, but their stack and discard pile are empty: nothing is drawn")
            w, pub = self._draw(p, w, pub, card, True, "at the end of this turn")
            c.known = _put(c.known, p, w)
            c.public = _put(c.public, p, pub)
            c.pending = None
        n = self._n
        cols = c.cols
        goals = c.goals
        closed = c.closed
        judged = 0
        for k in range(n):
            goal = goals[k]
            if goal is not None and (closed >> k & 1 or len(cols[k]) >= goal.value):
                judged |= 1 << k
        c.judged = judged
        if judged == (1 << n) - 1 or not any(w.hand for w in c.known):
            c.phase = _REVEAL
            c.starter = (c.placer + 1) % n
        else:
            c.turn = (c.turn + 1) % n
            c.phase = _PLACE

    # -- the round's end

    def _reveal(self, c: _Core, move: Reveal, check: bool) -> None:
        if c.phase is not _REVEAL:
            raise self._phase_problem(c, "reveal")
        cols_given = move.columns
        if len(cols_given) != self._n:
            raise IllegalMoveError("B16", f"the reveal lists every column's face-down cards: {self._n} columns, not {len(cols_given)}")
        known = list(c.known)
        public = list(c.public)
        cols = list(c.cols)
        for k, (col, given) in enumerate(zip(c.cols, cols_given)):
            down = [q for q, lay in enumerate(col) if not lay.up]
            if len(given) != len(down):
                raise IllegalMoveError("B16", f"column {k + 1} holds {len(down)} face-down card{'s' if len(down) != 1 else ''}, from the goal card down: name every one, not {len(given)}")
            new = list(col)
            for q, card in zip(down, given):
                lay = col[q]
                p = lay.owner
                if not isinstance(card, Influence):
                    raise InvalidMoveError(f"column {k + 1}: {card!r} is no influence card")
                if check and not known[p].may_be(card.index, lay.slot):
                    there = f"the card there is {_his(self.players[p])} {lay.card.id}" if lay.card is not None else self._where(known[p], p, card)
                    raise IllegalMoveError("B29", f"column {k + 1}, card {q + 1} is {_his(self.players[p])}: not {card.id}, since {there}")
                known[p] = known[p].turned_up(card.index, lay.slot)
                public[p] = public[p].then("turned_up", card.index, lay.slot)
                new[q] = Lay(p, card, True, -1)
            cols[k] = tuple(new)
        c.known = tuple(known)
        c.public = tuple(public)
        c.cols = tuple(cols)
        c.phase = _DISTRIBUTE

    def _distribute(self, c: _Core, move: Distribute) -> None:
        if c.phase is not _DISTRIBUTE:
            raise self._phase_problem(c, "distribution")
        assert self.values is not None
        result = []
        cached = c.dist
        if cached is not None and cached[0] is c.cols and cached[1] is c.goals:
            result = list(cached[2])
        else:
            for k, col in enumerate(c.cols):
                goal = c.goals[k]
                assert goal is not None
                result.append(distribute(goal, [(self.players[lay.owner], cast(Influence, lay.card)) for lay in col], self.values))
        winners = tuple(d.winner for d in result)
        given = tuple(move.winners)
        if given != winners:
            if len(given) != self._n:
                raise IllegalMoveError("B18", f"the distribution names a winner (or null) for each of the {self._n} columns, not {len(given)}")
            k = next(j for j in range(self._n) if given[j] != winners[j])
            d = result[k]
            rule = {"pair": "B21", "pair-closest": "B21", "none": "B26"}.get(d.why, "B26")
            got = winners[k] or "nobody"
            raise IllegalMoveError(rule, f"column {k + 1}'s goal card {d.goal.id} goes to {got}, not {given[k] or 'nobody'}: {d.reason.rsplit(' (', 1)[0]}")
        won = list(c.won)
        for k, d in enumerate(result):
            if d.winner is not None:
                p = self.players.index(d.winner)
                won[p] = won[p] + (d.goal,)
        c.won = tuple(won)
        c.results = c.results + (RoundResult(c.round, tuple(result)),)
        # B27: every card of the columns goes to its owner's discard pile; hands are kept.
        gathered: list[list[int]] = [[] for _ in range(self._n)]
        for col in c.cols:
            for lay in col:
                assert lay.card is not None
                gathered[lay.owner].append(lay.card.index)
        c.known = tuple(w.gathered(g) for w, g in zip(c.known, gathered))
        c.public = tuple(w.then("gathered", tuple(g)) for w, g in zip(c.public, gathered))
        c.cols = ((),) * self._n
        c.goals = (None,) * self._n
        c.closed = 0
        c.judged = 0
        if c.round >= ROUNDS:
            c.phase = _OVER
            c.outcome = decide({p: c.won[i] for i, p in enumerate(self.players)})
        else:
            c.phase = _ROUND

    # ------------------------------------------------------------------ what a move did

    def _effects(self, move: Move, before: _Core, after: _Core, completed: tuple[int, ...]) -> Effects:
        kind = _event_of(move)
        player = getattr(move, "player", None) if type(move) in (Place, Pass, Cloak, Swap) else None
        result = after.results[-1] if len(after.results) > len(before.results) else None
        turn_over = after.phase in (_PLACE, _REVEAL) and before.phase in (_PLACE, _TURN, _ABILITY)
        round_over = after.phase is _REVEAL and before.phase is not _REVEAL
        column: int | None = None
        card: Seen | None = None
        owner: str | None = None
        ability: str | None = None
        if type(move) is Place:
            column, card, owner = move.column, move.card, move.player
        elif type(move) is TurnOver:
            assert before.at is not None
            column, card, owner = move.column, move.card, self.players[before.cols[before.at[0]][before.at[1]].owner]
            if move.card.kind == "immediate":
                ability = move.card.id
        elif type(move) in (Explore, Assassinate, Storm, Cloak, Swap):
            assert before.at is not None
            k, pos = before.at
            column = k + 1
            lay = before.cols[k][pos]
            owner = self.players[lay.owner]
            card = lay.card
            if type(move) is Assassinate:
                victim = before.cols[k][pos + 1]
                card = move.discard if isinstance(move.discard, Influence) else victim.card or UNSEEN
                owner = self.players[victim.owner]
        return Effects(
            player,
            result,
            kind,
            column,
            card,
            owner,
            ability,
            completed,
            turn_over,
            round_over,
            after.outcome if before.outcome is None else None,
        )

    def effects(self, move: Move) -> Effects:
        """What ``move`` would do now, without doing it (checked like :meth:`push`)."""
        trial = self.copy(keep_history=False)
        return trial.apply(move)

    # ------------------------------------------------------------------ the table's moves

    def random_table_move(self, rng: random.Random) -> Move:
        """A random legal move of the table (:attr:`to_move` is ``None``): a round's goal cards
        and draws, a card turned over, an Explorer's, an Assassin's or a Storm's move, the
        reveal or the distribution. A card the record does not know is drawn from those that
        may lie there; a draw from a pile the record does not know is left unseen."""
        c = self._core
        phase = c.phase
        if phase is _ROUND:
            if self.values is None:
                raise ValueError("the table has no move: this game has no values table (B4)")
            taken = c.seen_goals
            for stack in c.stacks:
                for g in stack:
                    if isinstance(g, Goal):
                        taken |= g.bit
            free = [g for g in GOALS if not taken & g.bit]
            rng.shuffle(free)
            goals = []
            for stack in c.stacks:
                top = stack[0]
                goals.append(top if isinstance(top, Goal) else free.pop())
            drew: dict[str, list[Influence | None]] = {}
            if c.round > 0:
                for p, name in enumerate(self.players):
                    w = c.known[p]
                    short = min(HAND_SIZE - w.hand, w.stack + w.discard)
                    if short <= 0:
                        continue
                    cards: list[Influence | None] = []
                    for _ in range(short):
                        if w.stack == 0:
                            w = w.reshuffled()
                        choice = self._draw_choices(w)
                        x = None if None in choice else rng.choice(choice)
                        cards.append(x)
                        w = w.drew(None if x is None else x.index)
                    drew[name] = cards
            return Round.make(goals, drew)
        if phase is _TURN:
            assert c.at is not None
            k, pos = c.at
            lay = c.cols[k][pos]
            named = self._named_at(c, lay)
            if named is None:
                named = INFLUENCE[c.known[lay.owner].sample_at(lay.slot, rng)]
            return TurnOver(k + 1, named)
        if phase is _REVEAL:
            cols = []
            samples: dict[int, dict[int, int]] = {}
            for col in c.cols:
                names = []
                for lay in col:
                    if lay.up:
                        continue
                    named = self._named_at(c, lay)
                    if named is None:
                        if lay.owner not in samples:
                            samples[lay.owner] = c.known[lay.owner].sample(rng)
                        named = INFLUENCE[samples[lay.owner][lay.slot].bit_length() - 1]
                    names.append(named)
                cols.append(tuple(names))
            return Reveal(tuple(cols))
        if phase in (_ABILITY, _DISTRIBUTE) and self.to_move is None:
            return next(iter(self.generate_legal_moves()))
        raise ValueError(f"the table has no move now: {self.waiting.reason}")

    # ------------------------------------------------------------------ views

    def view(self, player: str) -> RabView:
        """What ``player`` may know, and nothing more: the columns (their own face-down cards
        as the record names them, everyone else's as backs of their colour), their own hand,
        the counts, the goal cards, and where everyone else's cards may be as the whole table
        can tell."""
        from companion.games.ruse_and_bruise.view import make_view

        return make_view(self, player)

    def resample(self, player: str, rng: random.Random) -> RabState:
        """A copy of this position (its move stack empty) in which every card ``player``
        cannot see is drawn again at random, consistently with their view: every other
        player's hand, stack, face-down cards and unseen discards (from where the whole table
        can tell they may be), the goal stacks, and the card another player draws at the end
        of this turn. ``player``'s own cards stay as the record knows them."""
        new = self.copy(keep_history=False)
        c = new._core
        me = self.players.index(player) if player in self.players else -1
        known = list(c.known)
        cols = [list(col) for col in c.cols]
        for p in range(self._n):
            if p == me:
                continue
            arrangement = c.public[p].value.sample(rng)
            known[p] = c.public[p].value.known_to_be(arrangement)
            for k, col in enumerate(cols):
                for q, lay in enumerate(col):
                    if lay.owner == p and not lay.up:
                        col[q] = Lay(p, INFLUENCE[arrangement[lay.slot].bit_length() - 1], False, lay.slot)
        c.known = tuple(known)
        c.cols = tuple(tuple(col) for col in cols)
        pending = c.pending
        if pending is not None and pending[0] != me:
            w = known[pending[0]]
            choices = [x for x in self._draw_choices(w) if x is not None]
            c.pending = (pending[0], rng.choice(choices) if choices else None)
        free = [g for g in GOALS if not c.seen_goals & g.bit]
        rng.shuffle(free)
        c.stacks = tuple(tuple(free.pop() for _ in stack) for stack in c.stacks)
        return new

    def __repr__(self) -> str:
        c = self._core
        who = self.to_move
        return f"<RabState {'/'.join(self.players)} round {c.round} {c.phase.value}{' ' + who if who else ''}>"


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _event_of(move: Any) -> str:
    """The record event of a move."""
    return _EVENTS.get(type(move), type(move).__name__)


_EVENTS: dict[type, str] = {
    Round: "round",
    Place: "place",
    Pass: "pass",
    TurnOver: "turn",
    Explore: "explorer",
    Assassinate: "assassin",
    Storm: "storm",
    Cloak: "cloak",
    Swap: "traitor",
    Reveal: "reveal",
    Distribute: "distribution",
}


class LegalMoves:
    """A lazy view of the legal moves (python-chess style)."""

    __slots__ = ("_state",)

    def __init__(self, state: RabState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return self._state.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        return type(move) in _EVENTS and self._state.is_legal(cast(Move, move))

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __len__(self) -> int:
        return self.count()

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()})>"
