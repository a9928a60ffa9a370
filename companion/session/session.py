"""One game at one table: the game state, the record being written, undo, redo and corrections.

Every move source talks to a :class:`GameSession`: keyboard entry, the table tracker, a record
being replayed, the demo table, the coach, a network client. Each proposes moves; the session
checks them against every rule, applies them, writes them to the record as they happen, and
tells its listeners what changed (:mod:`companion.session.events`). The dashboard is one such
listener and ``rop track`` another: nothing here knows a screen.

The session is safe to use from several threads (sensors run in their own): every change holds
:attr:`GameSession.lock`, and listeners are called in order while it is held, so they must not
block. Readers that work on the state at length (the tracker's search) hold the lock too, or
take a :meth:`GameSession.snapshot`.

>>> from companion.games.rule_of_power.engine import Deal, GameSetup, NewRound, Play
>>> session = GameSession(GameSetup(("ann", "bob")))
>>> session.propose(NewRound.make("bob")).index
0
>>> _ = session.propose(Deal.make({"ann": ["W012", "W033", "W005"], "bob": ["W016", "W021", "W040"]},
...                               ["W004", "W024", "W038", "W009"]))
>>> session.propose(Play.from_ids("bob", "W016")).rule   # refused: not bob's turn
'R17'
>>> session.propose(Play.from_ids("ann", "W012")).effects.laid
True
>>> session.undo().move == Play.from_ids("ann", "W012")
True
>>> session.redo().redo
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract import Effects, Move, Setup, State
from companion.session.events import (
    Applied,
    Corrected,
    Dropped,
    RecordTrouble,
    RedoDropped,
    Refused,
    SessionEvent,
    Started,
    Undone,
)

__all__ = ["GameSession", "RecordSink", "Listener"]

Listener = Callable[[SessionEvent], None]


class RecordSink(Protocol):
    """Where the session writes the record as the game goes (a game file in the games
    directory, :class:`companion.records.store.GameFile`)."""

    def append(self, move: Move) -> None: ...

    def rewrite(self, moves: Sequence[Move]) -> None: ...

    def close(self) -> None: ...


class GameSession:
    """The one game state of a table and the record being written, with undo, redo and
    corrections. ``game``: a game to continue (replayed from its record, with its history);
    ``record``: where each event is written as it is applied (``None``: not saved)."""

    def __init__(self, setup: Setup | None = None, *, game: State | None = None, record: RecordSink | None = None) -> None:
        if game is None:
            if setup is None:
                raise ValueError("a session needs a game setup or a game to continue")
            game = setup.game.new_state(setup, keep_history=True)
        self.lock = threading.RLock()
        self.record = record
        self._game = game
        self._effects: list[Effects] = _effects_of(game)
        self._redo: list[Move] = []
        self._listeners: list[Listener] = []

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Any:
        """The game state itself (the game's own :class:`~companion.contract.State`):
        read it, never push on it (propose moves instead)."""
        return self._game

    @property
    def setup(self) -> Any:
        """The game's set-up (:class:`~companion.contract.Setup`)."""
        return self._game.setup

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._game.move_stack)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The undone moves that :meth:`redo` re-applies, the next one last."""
        return tuple(self._redo)

    def effects(self, index: int) -> Any:
        """What event ``index`` did (the game's own :class:`~companion.contract.Effects`)."""
        return self._effects[index]

    def round_effects(self) -> list[Any]:
        """What each event of the current scoring period (a round, a season) did, from the
        event that began it on."""
        with self.lock:
            stack = self._game.move_stack
            starts = self._game.setup.game.codec.is_period_start
            start = max((i for i, m in enumerate(stack) if starts(m)), default=0)
            return self._effects[start:]

    def snapshot(self) -> Any:
        """An independent copy of the game as it stands (without its history)."""
        with self.lock:
            return self._game.copy(keep_history=False)

    def position_before(self, index: int) -> Any:
        """A copy of the game as it stood before event ``index`` (with its history), to
        check a correction against."""
        with self.lock:
            stack = self._game.move_stack
            if not 0 <= index < len(stack):
                raise IndexError(f"there is no event {index + 1}; the game has {len(stack)}")
            setup = self._game.setup
            game = setup.game.new_state(setup, keep_history=True)
            for move in stack[:index]:
                game.push(move, check=False)
            return game

    # ------------------------------------------------------------------ listeners

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every change from now on; returns the way to stop."""
        with self.lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self.lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _tell(self, event: SessionEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # ------------------------------------------------------------------ changing the game

    def start(self, setup: Setup | None = None, *, game: State | None = None, record: RecordSink | None = None, source: str = "manual") -> Started:
        """Begin a (new) game in this session: an empty game with ``setup``, or ``game`` to
        continue. The previous record, if any, is closed."""
        with self.lock:
            if game is None:
                setup = setup or self._game.setup
                game = setup.game.new_state(setup, keep_history=True)
            if self.record is not None and self.record is not record:
                self.record.close()
            self.record = record
            self._game = game
            self._effects = _effects_of(game)
            self._redo = []
            event = Started(source, game.setup, len(game.move_stack))
            self._tell(event)
            return event

    def propose(self, move: Move, *, source: str = "manual") -> Applied | Refused:
        """Check ``move``; apply, record and announce it, or refuse it with its rule."""
        with self.lock:
            if self._redo and move == self._redo[-1]:
                # The same move as the next undone one: the redo list still holds.
                return self._apply(move, source, redo=True)
            result = self._apply(move, source)
            if isinstance(result, Applied) and self._redo:
                stale, self._redo = tuple(reversed(self._redo)), []
                self._tell(RedoDropped(source, stale))
            return result

    def undo(self, *, source: str = "manual") -> Undone | None:
        """Take back the last event (``None`` when there is none); :meth:`redo` re-applies it."""
        with self.lock:
            if not self._game.move_stack:
                return None
            index = len(self._game.move_stack) - 1
            move = self._game.pop()
            self._effects.pop()
            self._redo.append(move)
            self._rewrite(source)
            event = Undone(source, index, move)
            self._tell(event)
            return event

    def redo(self, *, source: str = "manual") -> Applied | Refused | None:
        """Re-apply the last event undone (``None`` when there is none)."""
        with self.lock:
            if not self._redo:
                return None
            return self._apply(self._redo[-1], source, redo=True)

    def correct(self, index: int, move: Move, *, source: str = "manual") -> Corrected:
        """Replace event ``index`` with ``move``, then apply again each later event that still
        fits; the others are dropped and reported. Raises :class:`IllegalMoveError` (or
        :class:`InvalidMoveError`), changing nothing, when ``move`` does not fit at ``index``."""
        with self.lock:
            game = self._game
            stack = game.move_stack
            if not 0 <= index < len(stack):
                raise IndexError(f"there is no event {index + 1}; the game has {len(stack)}")
            later = list(stack[index + 1 :])
            old = stack[index]
            for _ in range(len(stack) - index):
                game.pop()
                self._effects.pop()
            try:
                self._effects.append(game.apply(move))
            except (IllegalMoveError, InvalidMoveError):
                for original in [old, *later]:
                    self._effects.append(game.apply(original))
                raise
            reapplied: list[int] = []
            dropped: list[Dropped] = []
            for k, original in enumerate(later, start=index + 1):
                try:
                    self._effects.append(game.apply(original))
                except (IllegalMoveError, InvalidMoveError) as exc:
                    dropped.append(Dropped(k, original, exc))
                else:
                    reapplied.append(len(stack) - 1)
            stale, self._redo = tuple(reversed(self._redo)), []
            self._rewrite(source)
            event = Corrected(source, index, old, move, tuple(reapplied), tuple(dropped))
            self._tell(event)
            if stale:
                self._tell(RedoDropped(source, stale))
            return event

    def close(self) -> None:
        with self.lock:
            if self.record is not None:
                self.record.close()

    # ------------------------------------------------------------------ inside

    def _apply(self, move: Move, source: str, *, redo: bool = False) -> Applied | Refused:
        try:
            effects = self._game.apply(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            refused = Refused(source, move, exc)
            self._tell(refused)
            return refused
        if redo:
            self._redo.pop()
        self._effects.append(effects)
        index = len(self._game.move_stack) - 1
        if self.record is not None:
            try:
                self.record.append(move)
            except OSError as exc:
                self._tell(RecordTrouble(source, f"could not save event {index + 1}: {exc.strerror or exc}"))
        if effects.result is not None and self.record is not None:
            completed = self._completed()
            if completed != self._game.move_stack:
                # The round is over: its face-down hands can be told now, in the saved record.
                self._rewrite(source, completed)
        applied = Applied(source, index, move, effects, redo)
        self._tell(applied)
        return applied

    def _completed(self) -> list[Move]:
        """The game's moves with the cards that were unseen when recorded filled in where
        later moves tell them (the game's codec knows how: a hand once its cards are played)."""
        return self._game.setup.game.codec.complete(self._game.move_stack)

    def _rewrite(self, source: str, completed: list[Move] | None = None) -> None:
        """The record written anew from the game's moves, completed (:meth:`_completed`,
        unless given already)."""
        if self.record is None:
            return
        try:
            self.record.rewrite(self._completed() if completed is None else completed)
        except OSError as exc:
            self._tell(RecordTrouble(source, f"could not rewrite the record: {exc.strerror or exc}"))


def _effects_of(game: State) -> list[Effects]:
    """The effects of every event of a game kept with its history, worked out again."""
    setup = game.setup
    replay = setup.game.new_state(setup, keep_history=False)
    return [replay.apply(move) for move in game.move_stack]
