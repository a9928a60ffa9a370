"""One wake-up of a server process for the work it gathers: the other processes'
announcements read (:class:`~companion.club.fanout.Listener`), then its spectators' updates
sent (:class:`~companion.club.endpoints.stream.Stream`).

Each of those waits a moment after its first piece of work for the next ones, so as to do
them together. Waiting each on a timer of its own woke the process once for the reading and
once more for the spectators every time: a cost every process pays for every moment it is
busy, whatever its share of the posts. Waiting for the same tick wakes it once. The tick
comes :data:`EVERY` seconds after the first work waiting for it; with nothing waiting, no
timer runs and a process with nothing to do is not woken at all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

__all__ = ["EVERY", "Ticks"]

log = logging.getLogger("companion.club.ticks")

#: How long, in seconds, gathered work waits for its tick: the delay it adds to a spectator's
#: update at most.
EVERY = 0.025


class Ticks:
    """The ticks of one event loop, each :attr:`every` seconds after the first work waiting
    for it; used on that loop alone."""

    def __init__(self, every: float = EVERY) -> None:
        self.every = every
        #: How many ticks came, and how many pieces of work they did.
        self.ticks = self.done = 0
        self._waiting: list[Callable[[], object]] = []
        self._timer: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> bool:
        """Whether work waits for the next tick (a timer runs)."""
        return self._timer is not None

    def at_next(self, work: Callable[[], object]) -> None:
        """Do ``work`` at the next tick, after the work waiting before it."""
        self._waiting.append(work)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.every, self._tick)

    async def next(self) -> None:
        """Return at the next tick."""
        came: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def tick() -> None:
            if not came.done():  # done: its waiter gave up
                came.set_result(None)

        self.at_next(tick)
        await came

    def _tick(self) -> None:
        self._timer = None
        waiting, self._waiting = self._waiting, []
        self.ticks += 1
        self.done += len(waiting)
        for work in waiting:
            try:
                work()
            except Exception:  # one failing must not keep the others from their tick
                log.exception("work at a tick failed")
