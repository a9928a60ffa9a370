"""The posts other server processes store, followed here (PostgreSQL only; see
:mod:`companion.club.fanout`): each announcement moves this process's live game on and goes to
its spectators; when it starts listening (again) it reads back the games it did not hear of."""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from companion.club.endpoints.posts import GameLocks
from companion.club.endpoints.stream import Stream
from companion.club.fanout import Change, Listener
from companion.club.live import LiveTables

__all__ = ["OtherProcesses"]

log = logging.getLogger("companion.club.server")


class OtherProcesses:
    """Follows the posts the other processes on ``engine`` announce (``origin`` is this
    one's). :attr:`heard` is set once it listens, or at once when :meth:`start` is told that
    no other process can share the archive."""

    def __init__(self, engine: Engine, origin: str, live: LiveTables, locks: GameLocks, stream: Stream) -> None:
        self.engine = engine
        self.origin = origin
        self.live = live
        self.locks = locks
        self.stream = stream
        self.heard = threading.Event()
        self._listener: Listener | None = None

    def start(self, *, shared: bool) -> None:
        """Listen, on the running loop, when the archive is ``shared``."""
        if not shared:
            self.heard.set()
            return
        self._listener = Listener(
            self.engine, self.origin, on_changes=self.received, on_listening=self.resync, ticks=self.stream.ticks
        ).start()

    @property
    def listener(self) -> Listener | None:
        """What listens to the others' announcements (none when the archive is not shared)."""
        return self._listener

    async def stop(self) -> None:
        if self._listener is not None:
            await self._listener.stop()

    def received(self, changes: list[Change]) -> None:
        """Other processes stored posts (in the order they stored them): memory follows, and
        so do this process's spectators."""
        live = self.live
        for change in changes:
            try:
                game = live.receive(change)
                if game is not None:
                    self.stream.show(game, game.shown if game.ahead is not None else None)
            except Exception as exc:  # the archive away, or a game that does not play here
                log.error("could not follow game %s: %s", change.game_id, exc)
                live.forget(change.game_id)

    async def resync(self) -> None:
        """Listening (again): the games changed while this process did not hear of them are
        read back from the archive, and every spectator is sent every table anew."""
        live = self.live
        try:
            heads = await run_in_threadpool(live.heads)
            for gid in live.stale(heads):
                async with self.locks(gid):
                    game = live.refresh(gid)
                    if game is not None:
                        live.published[gid] = game.head()  # sent below with every table
        except SQLAlchemyError as exc:
            log.error("could not read the live games back from the archive: %s", exc)
            return
        finally:
            self.heard.set()
        self.stream.show_all()
