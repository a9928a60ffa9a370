"""A game in progress: the :class:`State` a game makes, its moves, what a move did, a player's
view and how a game ended."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Protocol

__all__ = ['Move', 'Effects', 'Outcome', 'View', 'State']


Move = Any
"""A move of some game: a small immutable, hashable value of the game's own (python-chess's
``Move``). The core never looks inside one; it passes moves between the game's state, its
record codec and its words. (Typed ``Any``, since each game takes only its own moves.)"""


class Effects(Protocol):
    """What one move did, as :meth:`State.apply` tells it (each game has its own fields)."""

    @property
    def player(self) -> str | None:
        """Who made the move, ``None`` for the table's (a deal, a card turned up)."""

    @property
    def result(self) -> Any:
        """The scoring period (a round, a season) the move ended, ``None`` if it ended none."""


class Outcome(Protocol):
    """How a finished game ended."""

    @property
    def winner(self) -> str | None:
        """The winner (a player or a side), ``None`` for a draw."""


class View(Protocol):
    """What one player may know of a game: equal views for two states mean the player cannot
    tell them apart (:meth:`State.resample` relies on it, and the generic game test checks
    it)."""

    @property
    def player(self) -> str: ...


class State(Protocol):
    """A game in progress.

    Read it through its properties, change it with :meth:`push` (checked, raising
    :class:`~companion.contract.errors.IllegalMoveError` naming the ruling) and take moves back
    with :meth:`pop`. A state may follow a game it cannot fully see (hands dealt face down);
    every rule that needs no hidden card is still checked.
    """

    setup: Any
    """The game's :class:`Setup`."""
    move_stack: list[Move]
    """Every move pushed, oldest first (empty for a copy made without its history)."""

    @property
    def game(self) -> Any:
        """The :class:`Game` this is a state of."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def to_move(self) -> str | None:
        """Whose decision comes next: a player's (or an automatic seat's) name, or ``None``
        when the table acts (a deal, a card turned up, a new round) or the game is over."""

    @property
    def legal_moves(self) -> Iterable[Move]:
        """The legal moves of :attr:`to_move`, a lazy view: ``move in state.legal_moves``,
        ``bool(...)``, iteration. Cards still face down are not listed: check such a move with
        :meth:`is_legal`. When the table acts there may be none listed (a deal has too many
        outcomes): :meth:`Game.chance_move` draws one."""

    def decision(self, move: Move) -> Hashable:
        """What the player chose in ``move``, without the parts chance settles (a card drawn
        after a play): moves with equal decisions are one choice, played out as chance
        falls."""

    def push(self, move: Move, *, check: bool = True) -> None:
        """Apply ``move``, checked first (``check=False`` is the fast path for moves known to
        be legal, from :attr:`legal_moves`)."""

    def pop(self) -> Move:
        """Take back the last move, restoring the state exactly."""

    def apply(self, move: Move) -> Any:
        """Check and push ``move``, and tell what it did."""

    def check(self, move: Move) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (with the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""

    def is_legal(self, move: Move) -> bool: ...

    def copy(self, *, keep_history: bool = True) -> Any:
        """An independent copy of the position; its move stack starts empty."""

    def is_game_over(self) -> bool: ...

    def outcome(self) -> Any:
        """How the game ended (an :class:`Outcome`), ``None`` while it goes on."""

    @property
    def totals(self) -> Mapping[str, int]:
        """The running game totals of every side (players, teams, automatic seats)."""

    def view(self, player: str) -> Any:
        """What ``player`` may know, and nothing more."""

    def resample(self, player: str, rng: random.Random) -> Any:
        """A copy of this position (its move stack empty) in which every card ``player``
        cannot see is drawn at random, consistently with their view: their view of the copy
        is their view of this state. For searches that must not peek."""
