"""A table's game session fed to the club server as it is played (``rop play --club URL``,
``rop track --club URL``): every event the session saves is sent, in order, by a
:class:`~companion.club.feed.ClubFeed`, so that the club holds what the table's record holds.

The record is more than the moves as they were made: when a scoring period ends, the cards
that were dealt face down (a camera sees a card only as it is played) are filled in there by
the game's record codec (``codec.complete``), and an undo or a correction rewrites it.
Whenever the session rewrites the record, the follower compares it with what it sent: an
event whose face-down cards are now named (a deal, for Rule of Power: the game's club part
tells, :meth:`~companion.club.parts.ClubPart.fills_in`) is sent again as such (the server
keeps the events after it); moves taken back are taken back at the club at once; any other
change is sent as a replacement from the first line that differs, the later lines after it.
The table never waits on the network: a table that loses it keeps playing on its local
record, and the feed catches up from that record later."""

from __future__ import annotations

import json

from companion.club.feed import ClubFeed
from companion.club.parts import ClubPart, part_of
from companion.records.format import dumps_event, iter_record_lines, move_event
from companion.session import Applied, Corrected, GameSession, SessionEvent, Started, Undone

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
        self.part: ClubPart | None = None
        self._sent: list[str] = []  # the record's lines as given to the feed, header first
        self._open()
        self._unsubscribe = session.subscribe(self._changed)

    def _open(self) -> None:
        """A feed for the session's record as it is now (a new game has a new record)."""
        if self.feed is not None:
            self.feed.close()
            self.feed = None
        record = self.session.record
        self.part = part_of(self.session.setup.game)
        path = getattr(record, "path", None)
        self.game_id = getattr(record, "game_id", None)
        if path is not None and self.game_id is not None:
            # The feed sends what the record already holds (its header, a resumed game's events).
            self.feed = ClubFeed(self.url, self.token, path)
            self._sent = self._record()

    def _record(self) -> list[str]:
        """The lines of the record as the session has written it."""
        setup = self.session.setup
        return list(iter_record_lines(setup, setup.game.codec.complete(self.session.moves), self.game_id))

    def _changed(self, event: SessionEvent) -> None:
        if isinstance(event, Started):
            self._open()
            return
        if self.feed is None or self.game_id is None:
            return
        if isinstance(event, Applied) and event.effects.result is None and len(self._sent) == event.index + 1:
            # A move appended to the record as it was made: the one line to send.
            self._give(event.index + 2, dumps_event(move_event(event.move, self.session.setup)))
        elif isinstance(event, (Applied, Undone, Corrected)):
            # The record may have been rewritten: a period's hands filled in, a move taken
            # back, an event corrected.
            self._sync(self._record())

    def _sync(self, lines: list[str]) -> None:
        """Bring what the club was given in line with ``lines``, the record now."""
        feed, gid = self.feed, self.game_id
        assert feed is not None and gid is not None
        for i in range(min(len(lines), len(self._sent))):
            if lines[i] == self._sent[i]:
                continue
            if self.part is None or not self.part.fills_in(json.loads(self._sent[i]), json.loads(lines[i])):
                # Another change: the club replaces its events from this one on (each given
                # line drops what was sent from its place on).
                for j in range(i, len(lines)):
                    self._give(j + 1, lines[j])
                return
            feed.fill(gid, i + 1, lines[i])
            self._sent[i] = lines[i]
        if len(self._sent) > len(lines):
            # Moves taken back: the club drops them at once.
            feed.take_back(gid, len(lines))
            del self._sent[len(lines) :]
        for j in range(len(self._sent), len(lines)):
            self._give(j + 1, lines[j])

    def _give(self, number: int, line: str) -> None:
        assert self.feed is not None and self.game_id is not None
        self.feed.event(self.game_id, number, line)
        del self._sent[number - 1 :]
        self._sent.append(line)

    def close(self) -> None:
        self._unsubscribe()
        if self.feed is not None:
            self.feed.close()
