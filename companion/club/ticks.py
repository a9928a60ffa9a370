"""One wake-up of a server process for the work it gathers: the other processes'
announcements read (:class:`~companion.club.fanout.Listener`), then its spectators' updates
sent (:class:`~companion.club.endpoints.stream.Stream`).

Each of those waits a moment after its first piece of work for the next ones, so as to do
them together. Waiting each on a timer of its own woke the process once for the reading and
once more for the spectators every time: a cost every process pays for every moment it is
busy, whatever its share of the posts, and a wake-up costs a process more than the little
work it does then (its caches gone cold while others had the core). Waiting for the same tick
wakes it once; and what a tick's reading brings the spectators goes out at the end of that
tick (:meth:`Ticks.at_end`), not at the next, so that one wake-up both reads and sends. The
tick comes :data:`EVERY` seconds after the first work waiting for it; with nothing waiting,
no timer runs and a process with nothing to do is not woken at all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

__all__ = ["EVERY", "Ticks"]

log = logging.getLogger("companion.club.ticks")

#: How long, in seconds, gathered work waits for its tick: the delay it adds to a spectator's
#: update at most, whichever process took the post.
EVERY = 0.05


class Ticks:
    """The ticks of one event loop, each :attr:`every` seconds after the first work waiting
    for it; used on that loop alone."""

    def __init__(self, every: float = EVERY) -> None:
        self.every = every
        #: How many ticks came, and how many pieces of work they did.
        self.ticks = self.done = 0
        self._waiting: list[Callable[[], object]] = []
        self._ending: list[Callable[[], object]] = []
        self._running = False
        self._timer: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> bool:
        """Whether work waits for the next tick (a timer runs)."""
        return self._timer is not None

    def at_next(self, work: Callable[[], object]) -> None:
        """Do ``work`` at the next tick, after the work waiting before it."""
        self._waiting.append(work)
        self._arm()

    def at_end(self, work: Callable[[], object]) -> None:
        """Do ``work`` at the end of the tick under way, after its other work; when no tick is
        under way, at the end of the next one. What a tick's work gathers for someone else
        (the spectators' updates of the posts it read) is then done in the same wake-up."""
        self._ending.append(work)
        if not self._running:
            self._arm()

    def _arm(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.every, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self.ticks += 1
        self._running = True
        try:
            waiting, self._waiting = self._waiting, []
            self._do(waiting)
            ending, self._ending = self._ending, []
            self._do(ending)
        finally:
            self._running = False
        if self._ending:  # work the ending work gathered: at the end of the next tick
            self._arm()

    def _do(self, works: list[Callable[[], object]]) -> None:
        self.done += len(works)
        for work in works:
            try:
                work()
            except Exception:  # one failing must not keep the others from their tick
                log.exception("work at a tick failed")
