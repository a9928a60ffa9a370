"""The live stream's hub: a tick's updates go to each spectator together, in the wake-up that
gathered them, and a spectator too far behind is let go."""

from __future__ import annotations

import asyncio

from companion.club.endpoints.stream import MAX_BACKLOG, Hub
from companion.club.ticks import Ticks


def test_the_updates_a_tick_reads_are_handed_to_the_spectators_at_that_tick() -> None:
    """What the other processes' posts bring at a tick (the listener's reading, done at the
    tick) goes to every spectator at the end of that same tick, in one piece: no second
    wake-up for sending it."""

    async def run() -> None:
        ticks = Ticks(every=0.001)
        hub = Hub(ticks)
        subs = [hub.subscribe(), hub.subscribe()]

        def read() -> None:  # as the listener does with the announcements it read
            hub.publish_frame("event: table\ndata: 1\n\n")
            hub.publish_frame("event: table\ndata: 2\n\n")

        ticks.at_next(read)
        for sub in subs:
            assert await sub.queue.get() == ("event: table\ndata: 1\n\nevent: table\ndata: 2\n\n", 2)
        assert ticks.ticks == 1
        assert not ticks.waiting  # nothing left for another tick

    asyncio.run(run())


def test_updates_published_between_ticks_wait_for_the_next_one() -> None:
    """A post this process took (published outside any tick) is gathered with whatever
    comes before the next tick, and handed over at its end."""

    async def run() -> None:
        ticks = Ticks(every=0.001)
        hub = Hub(ticks)
        sub = hub.subscribe()
        hub.publish_frame("a")
        hub.publish_frame("b")
        assert sub.queue.empty() and ticks.waiting
        assert await sub.queue.get() == ("ab", 2)
        assert ticks.ticks == 1

    asyncio.run(run())


def test_a_spectator_too_far_behind_is_let_go() -> None:
    """A spectator whose connection takes nothing falls behind; at :data:`MAX_BACKLOG`
    updates not sent it is let go (its page reconnects and is sent every table), the others
    not."""

    async def run() -> None:
        ticks = Ticks(every=0.001)
        hub = Hub(ticks)
        slow, quick = hub.subscribe(), hub.subscribe()
        for k in range(MAX_BACKLOG):
            hub.publish_frame(f"{k}")
        assert await quick.queue.get() == ("".join(f"{k}" for k in range(MAX_BACKLOG)), MAX_BACKLOG)
        quick.behind = 0  # what the stream does once the write is done
        assert slow in hub.subscribers
        hub.publish_frame("one more")
        assert slow not in hub.subscribers and quick in hub.subscribers
        assert await slow.queue.get() == ("".join(f"{k}" for k in range(MAX_BACKLOG)), MAX_BACKLOG)
        assert await slow.queue.get() is None  # its stream ends
        assert await quick.queue.get() == ("one more", 1)

    asyncio.run(run())
