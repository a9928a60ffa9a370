"""When Python's full garbage collection runs while the dashboard is up.

A full (generation 2) collection walks every object the process keeps: on a dashboard that
has followed a game for a while that takes 30 to 50 ms, and left to itself Python starts one
whenever enough allocations pile up, which is in the middle of a move as often as not. That
one pause was most of the dashboard's slowest moves. The ``IdleCollector`` holds the
automatic full collections back and runs them on the dashboard's own cadence instead: right
after the frame that shows a move, while the table looks at it and thinks about the next one.

The young generations are still collected automatically (they cost a millisecond or two), and
a backstop keeps full collections running if the dashboard is never at rest (a log replayed
at full speed): memory is bounded just as before.
"""

from __future__ import annotations

import gc

__all__ = ["IdleCollector"]


class IdleCollector:
    """Holds Python's automatic full collections back while started; ``collect_if_due`` runs
    one when as many younger collections have piled up as Python waits for before it
    considers one (Python also skips it while the heap has grown less than a quarter; this
    cannot see that, so it may collect a little more often, always at rest).

    ``every``: younger (generation 1) collections between two full ones, Python's own default
    being 10. ``backstop``: how many may pile up before Python collects by itself again.
    """

    def __init__(self, every: int = 10, backstop: int = 100) -> None:
        if not 0 < every < backstop:
            raise ValueError(f"every ({every}) must be positive and less than backstop ({backstop})")
        self.every = every
        self.backstop = backstop
        self.collections = 0
        """Full collections this collector has run."""
        self._saved: tuple[int, int, int] | None = None

    @property
    def started(self) -> bool:
        return self._saved is not None

    def start(self) -> None:
        """Hold automatic full collections back (until ``backstop``)."""
        if self._saved is not None:
            return
        young, middle, old = self._saved = gc.get_threshold()
        gc.set_threshold(young, middle, max(old, self.backstop))

    def stop(self) -> None:
        """Give Python back its own thresholds."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    @property
    def due(self) -> bool:
        """Enough younger collections since the last full one to run one now."""
        return gc.get_count()[2] >= self.every

    def collect_if_due(self) -> bool:
        """Run a full collection if one is due; ``True`` if it ran."""
        if not self.started or not self.due:
            return False
        gc.collect()
        self.collections += 1
        return True
