"""The view of a game session: the table screen as it follows what changes.

The session's link (:class:`~companion.dashboard.link.SessionLink`) and the move source post
what changed to the table screen; :class:`SessionView`, the table screen's base, handles each
kind with a handler of its own: it writes the event log, keeps what the play panel shows (the
last move, the move just refused) and redraws. What follows a move (the settlement of the
period it ended, the table's next step) is the app's (:meth:`DashboardApp.moved
<companion.dashboard.app.DashboardApp.moved>`). Messages that come once the app is closing (a
source's clock may still have some on their way) are dropped."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual import on
from textual.message import Message
from textual.screen import Screen

from companion.dashboard.kit import Flag
from companion.dashboard.link import SessionLink, log_of
from companion.dashboard.messages import SourceFinished, SourceNote
from companion.dashboard.screens.question import QuestionScreen
from companion.dashboard.screens.settlement import Settlement
from companion.dashboard.tracker_source import TrackerSource
from companion.dashboard.widgets.event_log import EventLog, LogEntry

if TYPE_CHECKING:
    from companion.dashboard.app import DashboardApp

__all__ = ["SessionView"]

M = TypeVar("M", bound=Message)
View = TypeVar("View", bound="SessionView")


def shown(kind: type[M]) -> Callable[[Callable[[View, M], None]], Callable[[View, M], None]]:
    """``@on(kind)``, for a change shown while the view is up (dropped once the app closes)."""

    def decorate(handler: Callable[[View, M], None]) -> Callable[[View, M], None]:
        @wraps(handler)
        def handle(view: View, message: M) -> None:
            if view.up:
                handler(view, message)

        return on(kind)(handle)

    return decorate


class SessionView(Screen[None]):
    """A screen showing the session: what changed, drawn by :meth:`show`."""

    def __init__(self) -> None:
        super().__init__()
        self.played: Any = None
        """What the play panel keeps of the last move (the game kit's :meth:`played`)."""
        self.flag: Flag | None = None
        """The move just refused, or the entry not understood."""

    @property
    def dashboard(self) -> DashboardApp:
        return cast("DashboardApp", self.app)

    @property
    def up(self) -> bool:
        """The view is shown and the app is not closing (with ``exit()``, or from outside:
        ``is_running`` goes false while the screens are taken down one widget at a time)."""
        app = self.app
        return app.is_running and not app._exit and self.is_mounted

    # ------------------------------------------------------------------ drawing

    def show(self, state: Any, *, teaching: bool, played: Any, flag: Flag | None, status: str) -> None:  # pragma: no cover - abstract
        """Hand the game's state down to the panels."""
        raise NotImplementedError

    def refresh_view(self) -> None:
        app = self.dashboard
        self.show(app.game, teaching=app.teaching, played=self.played, flag=self.flag, status=self.status)

    @property
    def status(self) -> str:
        """The status line's last part: the source's state, the correction under way, the
        events undone, whether the game is saved."""
        app = self.dashboard
        status = app.source.status
        if app.correcting is not None:
            status += f"; correcting event {app.correcting + 1}: type the right event (Esc cancels)"
        redo = app.session.redo_moves if app.session is not None and app.source.editable else ()
        if redo:
            status += f"; {len(redo)} undone (Ctrl+Y re-applies)"
        if app.game_file is not None:
            status += "; saved"
        return status

    @property
    def log_widget(self) -> EventLog:
        return self.query_one(EventLog)

    def note(self, text: str, *, kind: str = "note") -> None:
        """A line of the log that is no move (``kind``: ``note``, ``illegal``, ``error``)."""
        game = self.dashboard.game
        self.log_widget.add(LogEntry(text, None, kind, after=len(game.move_stack) if game is not None else 0))

    def write(self, entries: Iterable[LogEntry]) -> None:
        for entry in entries:
            self.log_widget.add(entry)

    def rewrite(self) -> None:
        """The log of every event of the session's game, written anew (after a correction,
        for a resumed game)."""
        app = self.dashboard
        assert app.session is not None
        self.log_widget.clear()
        self.write(log_of(app.session, app.kit))

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

    @shown(SessionLink.Applied)
    def _applied(self, message: SessionLink.Applied) -> None:
        event = message.event
        app = self.dashboard
        if isinstance(app.screen, Settlement) and app.source.live and event.effects.player is not None:
            app.screen.action_close()  # the table plays the next period: the settlement makes way
        self.write(message.entries)
        if message.played is not None or event.effects.player is None:
            self.played = message.played  # a move of the table's (a deal) clears the play panel
        self.flag = None
        self.refresh_view()
        app.call_after_refresh(app.collector.collect_if_due)
        if not message.quiet:
            app.moved(event.effects)

    @shown(SessionLink.Refused)
    def _refused(self, message: SessionLink.Refused) -> None:
        move, error = message.event.move, message.event.error
        tried = self.dashboard.plugin.describe(move)
        self.note(f"{tried}: {error}", kind="illegal")
        flag = self.dashboard.kit.refusal(move, error)
        self.show_flag(replace(flag, text=f"{tried}: {flag.text}"))

    @shown(SessionLink.Undone)
    def _undone(self, message: SessionLink.Undone) -> None:
        self.log_widget.truncate(message.event.index)
        self.clear_play()
        if self.dashboard.source.editable:
            self.notify(f"Undone: {self.dashboard.plugin.describe(message.event.move)}", timeout=3)
        self.refresh_view()

    @shown(SessionLink.Corrected)
    def _corrected(self, message: SessionLink.Corrected) -> None:
        event, describe = message.event, self.dashboard.plugin.describe
        self.rewrite()
        self.clear_play()
        n = len(event.reapplied)
        kept = f"; {n} later event{'s' if n != 1 else ''} applied again" if n else ""
        self.note(f"Event {event.index + 1} corrected: {describe(event.new)}{kept}")
        for dropped in event.dropped:
            self.note(f"Event {dropped.index + 1} ({describe(dropped.move)}) no longer fits and was dropped: {dropped.error}", kind="error")
        self.refresh_view()

    @shown(SessionLink.RedoDropped)
    def _redo_dropped(self, message: SessionLink.RedoDropped) -> None:
        n = len(message.event.moves)
        undone = "the undone event" if n == 1 else f"the {n} undone events"
        self.note(f"A new event: {undone} can no longer be re-applied")
        self.refresh_view()

    @shown(SessionLink.RecordTrouble)
    def _record_trouble(self, message: SessionLink.RecordTrouble) -> None:
        self.note(message.event.message.capitalize(), kind="error")

    @shown(SessionLink.Started)
    def _started(self, message: SessionLink.Started) -> None:
        self.reset()
        self.dashboard.keeper.correcting = None
        if message.event.resumed:
            self.rewrite()
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

    @shown(TrackerSource.Asks)
    def _tracker_asks(self, message: TrackerSource.Asks) -> None:
        source = self.dashboard.source
        assert isinstance(source, TrackerSource)
        self.app.bell()
        self.note(f"Question for the table: {message.question.prompt}")
        self.app.push_screen(QuestionScreen(message.question), source.answer)

    @shown(TrackerSource.QuestionClosed)
    def _tracker_settled(self, message: TrackerSource.QuestionClosed) -> None:
        if isinstance(self.app.screen, QuestionScreen):
            self.app.screen.dismiss(None)

    @shown(TrackerSource.StatusChanged)
    def _tracker_status(self, message: TrackerSource.StatusChanged) -> None:
        self.refresh_view()
