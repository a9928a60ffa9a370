"""The view of a game session: the table screen as it follows what changes.

The session's link (:class:`~companion.dashboard.link.SessionLink`) and the move source post
what changed to the table screen (:mod:`companion.dashboard.messages`); :class:`SessionView`,
the table screen's base, handles each kind with a handler of its own: it writes the event log
and keeps what the play panel shows (the last move, the move just refused), and redraws. Each
message then bubbles up to the app, which does what follows (the settlement of the period a
move ended, the table's next step). What the screen shows besides the session the app hands
down: teaching mode and where the status line's last part comes from. Messages that come
once the app is closing (a source's clock may still have some on their way) are dropped."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from functools import wraps
from typing import Any, TypeVar

from textual import on
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

from companion.dashboard.flag import Flag
from companion.dashboard.messages import (
    EventCorrected,
    GameStarted,
    MoveApplied,
    MoveRefused,
    MoveUndone,
    RecordTrouble,
    RedoDropped,
    SourceFinished,
    SourceNote,
)
from companion.dashboard.widgets.event_log import EventLog, LogEntry
from companion.session import GameSession

__all__ = ["SessionView", "shown", "up"]

M = TypeVar("M", bound=Message)
Node = TypeVar("Node", bound=MessagePump)


def up(node: MessagePump) -> bool:
    """``node`` (a screen, a widget, the app) is shown and its app is not closing (with
    ``exit()``, or from outside: ``is_running`` goes false while the screens are taken down
    one widget at a time)."""
    app = node.app
    if not app.is_running or app._exit:
        return False
    return not isinstance(node, Widget) or node.is_mounted


def shown(kind: type[M]) -> Callable[[Callable[[Node, M], None]], Callable[[Node, M], None]]:
    """``@on(kind)``, for a change shown while the node is up (dropped once the app closes)."""

    def decorate(handler: Callable[[Node, M], None]) -> Callable[[Node, M], None]:
        @wraps(handler)
        def handle(node: Node, message: M) -> None:
            if up(node):
                handler(node, message)

        return on(kind)(handle)

    return decorate


class SessionView(Screen[None]):
    """A screen showing the session: what changed, drawn by :meth:`show`. The app hands down
    :attr:`session`, :attr:`teaching` and :attr:`status`; ``editable``: the table may undo
    and correct moves."""

    def __init__(self, *, editable: bool) -> None:
        super().__init__()
        self.editable = editable
        self.session: GameSession | None = None
        """The session shown (handed down by the app as it follows one)."""
        self.teaching = False
        """Teaching mode: the hand and the options of the player to move are shown."""
        self.status: Callable[[], str] = lambda: ""
        """The status line's last part as it stands: the source's state, the correction under
        way, the events undone, whether the game is saved."""
        self.played: Any = None
        """What the play panel keeps of the last move (the game kit's :meth:`played`)."""
        self.flag: Flag | None = None
        """The move just refused, or the entry not understood."""

    @property
    def game(self) -> Any:
        """The session's game state, ``None`` before a game is set up."""
        return self.session.game if self.session is not None else None

    # ------------------------------------------------------------------ drawing

    def show(self, state: Any, *, teaching: bool, played: Any, flag: Flag | None, status: str) -> None:  # pragma: no cover - abstract
        """Hand the game's state down to the panels."""
        raise NotImplementedError

    @property
    def guard(self) -> AbstractContextManager[Any]:
        """The session's lock, to hold while reading its game (or nothing to hold)."""
        return self.session.lock if self.session is not None else nullcontext()

    def refresh_view(self) -> None:
        """Draw the session's game as it stands, under the session's lock: a tracker's thread
        may be playing the next move meanwhile, and a state half changed (a turn begun, its
        player not yet set) is no state to draw. Nothing holding that lock waits on this
        thread (the session's listeners only post messages)."""
        with self.guard:
            self.show(self.game, teaching=self.teaching, played=self.played, flag=self.flag, status=self.status())

    @property
    def log_widget(self) -> EventLog:
        return self.query_one(EventLog)

    def note(self, text: str, *, kind: str = "note") -> None:
        """A line of the log that is no move (``kind``: ``note``, ``illegal``, ``error``)."""
        game = self.game
        self.log_widget.add(LogEntry(text, None, kind, after=len(game.move_stack) if game is not None else 0))

    def write(self, entries: Iterable[LogEntry]) -> None:
        for entry in entries:
            self.log_widget.add(entry)

    def rewrite(self, entries: Iterable[LogEntry]) -> None:
        """The log of every event of the session's game, written anew (after a correction,
        for a resumed game)."""
        self.log_widget.clear()
        self.write(entries)

    def show_flag(self, flag: Flag) -> None:
        """A move or an entry the table tried that may not be: flagged, with a bell."""
        self.flag = flag
        self.app.bell()
        self.refresh_view()

    def clear_play(self) -> None:
        self.played = None
        self.flag = None

    def reset(self) -> None:
        """A new game: nothing played, nothing logged."""
        self.clear_play()
        self.log_widget.clear()

    # ------------------------------------------------------------------ the session

    @shown(MoveApplied)
    def _applied(self, message: MoveApplied) -> None:
        self.write(message.entries)
        if message.played is not None or message.event.effects.player is None:
            self.played = message.played  # a move of the table's (a deal) clears the play panel
        self.flag = None
        self.refresh_view()

    @shown(MoveRefused)
    def _refused(self, message: MoveRefused) -> None:
        self.note(f"{message.tried}: {message.event.error}", kind="illegal")
        self.show_flag(message.flag)

    @shown(MoveUndone)
    def _undone(self, message: MoveUndone) -> None:
        self.log_widget.truncate(message.event.index)
        self.clear_play()
        if self.editable:
            self.notify(f"Undone: {message.undone}", timeout=3)
        self.refresh_view()

    @shown(EventCorrected)
    def _corrected(self, message: EventCorrected) -> None:
        self.rewrite(message.entries)
        self.clear_play()
        for text, kind in message.notes:
            self.note(text, kind=kind)
        self.refresh_view()

    @shown(RedoDropped)
    def _redo_dropped(self, message: RedoDropped) -> None:
        n = len(message.event.moves)
        undone = "the undone event" if n == 1 else f"the {n} undone events"
        self.note(f"A new event: {undone} can no longer be re-applied")
        self.refresh_view()

    @shown(RecordTrouble)
    def _record_trouble(self, message: RecordTrouble) -> None:
        self.note(message.event.message.capitalize(), kind="error")

    @shown(GameStarted)
    def _started(self, message: GameStarted) -> None:
        self.reset()
        if message.event.resumed:
            self.rewrite(message.entries)
        self.refresh_view()

    # ------------------------------------------------------------------ the source

    @shown(SourceNote)
    def _source_note(self, message: SourceNote) -> None:
        self.note(message.text, kind="error" if message.severity == "error" else "note")

    @shown(SourceFinished)
    def _source_finished(self, message: SourceFinished) -> None:
        what = "The demo game is over: R watches it again, Q quits" if message.source == "demo" else "End of the record: R replays it, Q quits"
        self.note(what)
        self.refresh_view()
