"""A table's game session fed to the club server as it is played (``rop play --club URL``,
``rop track --club URL``): every event the session saves is sent, in order, by a
:class:`~companion.club.feed.ClubFeed`; a move taken back or corrected at the table is sent
again as a replacement. The table never waits on the network: a table that loses it keeps
playing on its local record, and the feed catches up from that record later."""

from __future__ import annotations

from companion.club.feed import ClubFeed
from companion.records.format import move_event
from companion.session import Applied, Corrected, GameSession, SessionEvent, Started

__all__ = ["TableFeed"]


class TableFeed:
    """Follows ``session`` and sends its saved events to the club at ``url`` with this
    table's ``token``. A session without a saved record (or a record without a game id)
    sends nothing."""

    def __init__(self, session: GameSession, url: str, token: str) -> None:
        self.session = session
        self.url = url
        self.token = token
        self.feed: ClubFeed | None = None
        self.game_id: str | None = None
        self._open()
        self._unsubscribe = session.subscribe(self._changed)

    def _open(self) -> None:
        """A feed for the session's record as it is now (a new game has a new record)."""
        if self.feed is not None:
            self.feed.close()
            self.feed = None
        record = self.session.record
        path = getattr(record, "path", None)
        self.game_id = getattr(record, "game_id", None)
        if path is not None and self.game_id is not None:
            # The feed sends what the record already holds (its header, a resumed game's events).
            self.feed = ClubFeed(self.url, self.token, path)

    def _changed(self, event: SessionEvent) -> None:
        if isinstance(event, Started):
            self._open()
            return
        if self.feed is None or self.game_id is None:
            return
        setup = self.session.setup
        if isinstance(event, Applied):
            # Line n of the record is event n - 1 of the game: the header is line 1.
            self.feed.event(self.game_id, event.index + 2, move_event(event.move, setup))
        elif isinstance(event, Corrected):
            moves = self.session.moves
            for index in range(event.index, len(moves)):
                self.feed.event(self.game_id, index + 2, move_event(moves[index], setup))

    def close(self) -> None:
        self._unsubscribe()
        if self.feed is not None:
            self.feed.close()
