"""A game in progress: the :class:`State` a game makes, its moves, what a move did, a player's
view and how a game ended.

Whose decision comes next is :attr:`State.deciding`: one player in a game played in turn; at a
node where the players decide **all at once** (every player commits a card face down, then all
reveal) every player who has not committed yet, in seating order, and :attr:`State.simultaneous`
is true. The table commits in whatever order it likes; each commitment is a move of its own
(so a record lists them as they were noticed), hidden from the other players until a reveal:
:meth:`State.view` never shows another player's commitment before then, and
:meth:`State.resample` draws it afresh like any card the player cannot see. This is OpenSpiel's
simultaneous-move node, written for a physical table where commits arrive one by one.

When nobody decides and the game is not over, the table acts (a deal, a card turned up, a
reveal): :meth:`Game.chance_move <companion.contract.game.Game.chance_move>` draws such a move.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from companion.contract.game import Game

__all__ = ["Move", "MoveT", "Effects", "Outcome", "View", "State", "TurnBased"]


Move = Any
"""A move of some game, where the host does not know which game: a small immutable, hashable
value of the game's own (python-chess's ``Move``). The hosts never look inside one; they pass
moves between the game's state, its record codec and its words. A game's own code types its
moves exactly (``State[Play | Capture]``)."""

MoveT = TypeVar("MoveT", bound=Hashable)
"""The moves of one game."""


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
    it). A view never holds another player's hidden cards, nor a commitment another player
    made face down before it is revealed."""

    @property
    def player(self) -> str: ...


class State(Protocol[MoveT]):
    """A game in progress.

    Read it through its properties, change it with :meth:`push` (checked, raising
    :class:`~companion.contract.errors.IllegalMoveError` naming the ruling) and take moves back
    with :meth:`pop`. A state may follow a game it cannot fully see (hands dealt face down);
    every rule that needs no hidden card is still checked.

    A game's state class need not derive from this protocol, only have its members; one whose
    players always decide one at a time derives from :class:`TurnBased`, which says the rest
    from :attr:`to_move`.
    """

    setup: Any
    """The game's :class:`~companion.contract.game.Setup`."""
    move_stack: list[MoveT]
    """Every move pushed, oldest first (empty for a copy made without its history)."""

    @property
    def game(self) -> Game[Any, Any]:
        """The :class:`~companion.contract.game.Game` this is a state of."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def deciding(self) -> tuple[str, ...]:
        """Every player (or automatic seat) who has a decision to make now, in seating order:
        one in play by turns, several at a node where they decide at once
        (:attr:`simultaneous`), none when the table acts (a deal, a card turned up, a reveal)
        or the game is over."""

    @property
    def simultaneous(self) -> bool:
        """Whether the players in :attr:`deciding` decide at once, each decision hidden from
        the others until a reveal (so that any of them may move first, and a hint or a
        playout of one never sees what another committed)."""

    @property
    def to_move(self) -> str | None:
        """The one player to decide, when the players decide by turns; ``None`` when the
        table acts, the game is over, or the players decide at once (read :attr:`deciding`
        then)."""

    @property
    def legal_moves(self) -> Iterable[MoveT]:
        """The legal moves of every player in :attr:`deciding` (each move names its player),
        a lazy view: ``move in state.legal_moves``, ``bool(...)``, iteration. Cards still face
        down are not listed: check such a move with :meth:`is_legal`. When the table acts
        there may be none listed (a deal has too many outcomes): :meth:`Game.chance_move
        <companion.contract.game.Game.chance_move>` draws one."""

    def moves_of(self, player: str) -> Iterable[MoveT]:
        """The legal moves of ``player`` now (none when they are not deciding): what a hint
        ranks and a playout's player chooses from."""

    def player_of(self, move: MoveT) -> str | None:
        """Who makes ``move`` now: one of :attr:`deciding`, ``None`` for the table's moves. At
        a node where several decide at once the move says whose it is."""

    def decision(self, move: MoveT) -> Hashable:
        """What the player chose in ``move``, without the parts chance settles (a card drawn
        after a play): moves with equal decisions are one choice, played out as chance
        falls."""

    def push(self, move: MoveT, *, check: bool = True) -> None:
        """Apply ``move``, checked first (``check=False`` is the fast path for moves known to
        be legal, from :attr:`legal_moves`)."""

    def pop(self) -> MoveT:
        """Take back the last move, restoring the state exactly."""

    def apply(self, move: MoveT) -> Any:
        """Check and push ``move``, and tell what it did (an :class:`Effects`)."""

    def check(self, move: MoveT) -> None:
        """Raise :class:`~companion.contract.errors.IllegalMoveError` (with the ruling) or
        :class:`~companion.contract.errors.InvalidMoveError` if ``move`` is not legal now."""

    def is_legal(self, move: MoveT) -> bool: ...

    def copy(self, *, keep_history: bool = True) -> Any:
        """An independent copy of the position; its move stack starts empty."""

    def is_game_over(self) -> bool: ...

    def outcome(self) -> Any:
        """How the game ended (an :class:`Outcome`), ``None`` while it goes on."""

    @property
    def totals(self) -> Mapping[str, int]:
        """The running game totals of every side (players, teams, automatic seats)."""

    def view(self, player: str) -> Any:
        """What ``player`` may know (a :class:`View`), and nothing more: their own hand and
        commitment, what lies face up, what every player saw. Cheap enough to make for every
        move of a playout (the coach's playout players get nothing else)."""

    def resample(self, player: str, rng: random.Random) -> Any:
        """A copy of this position (its move stack empty) in which every card ``player``
        cannot see, and every commitment another player made face down, is drawn at random,
        consistently with their view: their view of the copy is their view of this state. For
        searches that must not peek."""


class TurnBased(Generic[MoveT]):
    """What a game whose players decide one at a time says about turns, from its
    :attr:`~State.to_move` alone: ``class GameState(TurnBased[Move])``."""

    __slots__ = ()

    if TYPE_CHECKING:

        @property
        def to_move(self) -> str | None: ...

        @property
        def legal_moves(self) -> Iterable[MoveT]: ...

    @property
    def deciding(self) -> tuple[str, ...]:
        player = self.to_move
        return () if player is None else (player,)

    @property
    def simultaneous(self) -> bool:
        return False

    def moves_of(self, player: str) -> Iterable[MoveT]:
        return self.legal_moves if player == self.to_move else ()

    def player_of(self, move: MoveT) -> str | None:
        return self.to_move
