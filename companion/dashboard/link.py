"""The dashboard's link to the game session: each change of the session as a message.

The session tells its listeners of every change in the thread that made it (the keyboard's,
a source's clock, the tracker's), under its lock. :class:`SessionLink` is the app's listener:
it works out there and then what depends on the state right after the change (the event log's
lines, what the play panel keeps) and posts one message per kind of change to the table screen
(:class:`~companion.dashboard.screens.view.SessionView`), which handles each in the app's
thread with a handler of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from textual.message import Message

from companion import session as events
from companion.session import GameSession, SessionEvent

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from companion.dashboard.kit import DashboardKit
    from companion.dashboard.widgets.event_log import LogEntry

__all__ = ["SessionLink", "log_of"]


def log_of(session: GameSession, kit: DashboardKit) -> list[LogEntry]:
    """The event log of every event of the session's game, worded anew (after a correction,
    for a resumed game)."""
    setup = session.setup
    replay = setup.game.new_state(setup, keep_history=False)
    entries: list[LogEntry] = []
    for index, move in enumerate(session.moves):
        entries += kit.log_lines(replay, events.Applied("log", index, move, replay.apply(move)))
    return entries


class SessionLink:
    """Listens to ``session`` for ``view`` until :meth:`close`. ``quiet`` says whether the
    source is fast-forwarding (no settlement for the periods it ends)."""

    class Changed(Message):
        """The session changed: ``event`` says how (:mod:`companion.session.events`)."""

        def __init__(self, event: Any) -> None:
            super().__init__()
            self.event = event

    class Started(Changed):
        """A game began in the session, or a saved one was taken up (``event.resumed``)."""

    class Applied(Changed):
        """A move was applied: its lines for the event log (``entries``), what the play panel
        keeps of it (``played``), and whether the source was fast-forwarding (``quiet``)."""

        def __init__(self, event: events.Applied, entries: Sequence[LogEntry], played: Any, *, quiet: bool) -> None:
            super().__init__(event)
            self.event: events.Applied = event
            self.entries = tuple(entries)
            self.played = played
            self.quiet = quiet

    class Refused(Changed):
        """A move was refused (``event.error`` names the ruling); nothing changed."""

    class Undone(Changed):
        """The last event was taken back."""

    class Corrected(Changed):
        """An event was replaced; the later ones applied again where they still fit."""

    class RedoDropped(Changed):
        """A new event made the undone ones stale."""

    class RecordTrouble(Changed):
        """The record could not be written (the game goes on)."""

    _KINDS: dict[type[SessionEvent], type[Changed]] = {
        events.Started: Started,
        events.Refused: Refused,
        events.Undone: Undone,
        events.Corrected: Corrected,
        events.RedoDropped: RedoDropped,
        events.RecordTrouble: RecordTrouble,
    }

    def __init__(self, view: MessagePump, session: GameSession, kit: DashboardKit, *, quiet: Callable[[], bool]) -> None:
        self.view = view
        self.session = session
        self.kit = kit
        self.quiet = quiet
        self._unsubscribe = session.subscribe(self._heard)

    def _heard(self, event: SessionEvent) -> None:
        # Called in the thread that changed the session, the session locked.
        if isinstance(event, events.Applied):
            game = self.session.game
            message: Message = SessionLink.Applied(event, self.kit.log_lines(game, event), self.kit.played(game, event), quiet=self.quiet())
        else:
            message = self._KINDS[type(event)](event)
        self.view.post_message(message)

    def close(self) -> None:
        """Stop listening."""
        self._unsubscribe()
