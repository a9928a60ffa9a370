"""The dashboard's link to the game session: each change of the session as a message.

The session tells its listeners of every change in the thread that made it (the keyboard's,
a source's clock, the tracker's), under its lock. :class:`SessionLink` is the app's listener:
it works out there and then what depends on the state right after the change (the event log's
lines, what the play panel keeps, a move's words) and posts one message per kind of change
(:mod:`companion.dashboard.messages`) to the table screen
(:class:`~companion.dashboard.screens.view.SessionView`), which handles each in the app's
thread with a handler of its own before it bubbles up to the app.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.message import Message

from companion import session as events
from companion.dashboard.messages import (
    EventCorrected,
    GameStarted,
    MoveApplied,
    MoveRefused,
    MoveUndone,
    RecordTrouble,
    RedoDropped,
)
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

    def __init__(self, view: MessagePump, session: GameSession, kit: DashboardKit, *, quiet: Callable[[], bool]) -> None:
        self.view = view
        self.session = session
        self.kit = kit
        self.quiet = quiet
        self._unsubscribe = session.subscribe(self._heard)

    def _heard(self, event: SessionEvent) -> None:
        # Called in the thread that changed the session, the session locked.
        self.view.post_message(self.message(event))

    def message(self, event: SessionEvent) -> Message:
        """The message that tells the table screen of ``event``, with what it shows of it."""
        session, kit = self.session, self.kit
        describe = session.setup.game.describe
        match event:
            case events.Applied():
                game = session.game
                return MoveApplied(event, kit.log_lines(game, event), kit.played(game, event), quiet=self.quiet())
            case events.Refused(move=move, error=error):
                tried = describe(move)
                flag = kit.refusal(move, error)
                return MoveRefused(event, tried, replace(flag, text=f"{tried}: {flag.text}"))
            case events.Undone(move=move):
                return MoveUndone(event, describe(move))
            case events.Corrected():
                n = len(event.reapplied)
                kept = f"; {n} later event{'s' if n != 1 else ''} applied again" if n else ""
                notes = [(f"Event {event.index + 1} corrected: {describe(event.new)}{kept}", "note")]
                for dropped in event.dropped:
                    notes.append((f"Event {dropped.index + 1} ({describe(dropped.move)}) no longer fits and was dropped: {dropped.error}", "error"))
                return EventCorrected(event, log_of(session, kit), notes)
            case events.Started():
                return GameStarted(event, log_of(session, kit) if event.resumed else ())
            case events.RedoDropped():
                return RedoDropped(event)
            case events.RecordTrouble():
                return RecordTrouble(event)
        raise TypeError(f"no message for {type(event).__name__}")

    def close(self) -> None:
        """Stop listening."""
        self._unsubscribe()
