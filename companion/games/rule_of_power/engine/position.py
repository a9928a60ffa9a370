"""What a position of Rule of Power holds, and the first questions every part of the state asks
of it.

- :class:`Phase`: what the game waits for next.
- ``_Core``: the mutable facts, copied on every push so that pop restores them exactly; the
  small helpers that change its per-seat tuples without copying them twice.
- :class:`GameBase`: what the state's parts share: the set-up, the seats, the position and
  its undo stack, and whose seat a name is. :class:`~companion.games.rule_of_power.engine.
  game.GameState` is made of it and its parts, as python-chess's ``Board`` is made of its
  ``BaseBoard``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeGuard, TypeVar

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.moves import UNSEEN, HandCard, Move
from companion.contract.errors import InvalidMoveError

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.rounds import Outcome, RoundResult
    from companion.games.rule_of_power.engine.setup import GameSetup

__all__ = ["Phase", "GameBase"]

_T = TypeVar("_T")


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


_TURN = Phase.TURN


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

    @classmethod
    def before_first_round(cls, n: int, sides: int) -> _Core:
        """The game of ``n`` players in ``sides`` sides before its first round: no dealer, no
        card dealt, every total 0."""
        core = cls()
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
        core.totals = (0,) * sides
        core.outcome = None
        return core

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


def _remove_owned(owned: tuple[tuple[int, Card], ...], cards: tuple[Card, ...], seat: int = -1) -> tuple[tuple[int, Card], ...]:
    """``owned`` less one entry for each of ``cards`` (the one of ``seat`` when given)."""
    rest = list(owned)
    for card in cards:
        for k, (j, x) in enumerate(rest):
            if x is card and seat in (-1, j):
                del rest[k]
                break
    return tuple(rest)


def _all_seen(cards: tuple[HandCard, ...]) -> TypeGuard[tuple[Card, ...]]:
    """Whether the companion saw every card of a hand dealt (none is face down, UNSEEN)."""
    return UNSEEN not in cards


def _phase_problem(phase: Phase, what: str) -> tuple[str, str]:
    if phase is Phase.DEAL:
        return "R15", f"{what}: the next deal is due (every hand is played out)"
    if phase is Phase.ROUND:
        return "R15", f"{what}: a new round must start first"
    if phase is Phase.OVER:
        return "R14", f"{what}: the game is over"
    return "R17", f"{what}: a player is to move"


class GameBase:
    """What every part of the state shares: the set-up, the seats, the World deck of this game,
    the position (``_core``) and its undo stack, and whose seat a name is."""

    setup: GameSetup
    players: tuple[str, ...]
    move_stack: list[Move]
    _n: int
    _seat: dict[str, int]
    _side_index: list[int]
    _deck: tuple[Card, ...]
    _keep: bool
    _stack: list[_Core]
    _core: _Core

    def player_seat(self, name: str) -> int:
        """``name``'s seat (0 is the first listed); :class:`InvalidMoveError` for a stranger."""
        try:
            return self._seat[name]
        except (KeyError, TypeError):
            raise InvalidMoveError(f"unknown player {name!r}; the players are {', '.join(self.players)}") from None
