"""The live stream (``/events``): a server-sent events stream of every table's state as it
changes. A spectator gets every table when it connects (``tables``), then each table as it
changes (``table``), the changes until the process's next tick (:mod:`companion.club.ticks`,
at most :data:`GATHER_SECONDS` later) sent together. Each update is encoded once, whoever
watches."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from companion.club.endpoints.answers import json_text
from companion.club.live import LiveGame, LiveTables
from companion.club.ticks import EVERY, Ticks

__all__ = ["GATHER_SECONDS", "Hub", "KEEPALIVE_SECONDS", "MAX_BACKLOG", "Stream", "sse_frame"]

#: A spectator whose connection falls this far behind is dropped (its page reconnects).
MAX_BACKLOG = 1000
KEEPALIVE_SECONDS = 15.0
#: How long a spectator's updates gather before they are sent together, at most: a page shows
#: a table at most that much later, however many tables change meanwhile.
GATHER_SECONDS = EVERY


def sse_frame(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json_text(data)}\n\n"


class _Subscriber:
    def __init__(self) -> None:
        #: What is handed to the stream to send: a tick's updates in one piece, and how many.
        self.queue: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue()
        #: The updates gathered for the tick's end.
        self.gathered: list[str] = []
        #: Updates published to it and not sent yet.
        self.behind = 0


class Hub:
    """Fans each table update out to every open ``/events`` stream (on the server's loop).

    The updates are gathered until the end of the process's tick (:meth:`~companion.club.
    ticks.Ticks.at_end`: the tick under way when they come from reading the other processes'
    posts, else the next) and handed to each stream in one piece: a spectator costs the
    server a write per tick, not one per table update, and the updates a tick read go out in
    the wake-up that read them."""

    def __init__(self, ticks: Ticks | None = None) -> None:
        self.subscribers: set[_Subscriber] = set()
        self.ticks = ticks if ticks is not None else Ticks()
        self._gathering = False

    def subscribe(self) -> _Subscriber:
        sub = _Subscriber()
        self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: _Subscriber) -> None:
        self.subscribers.discard(sub)

    def publish(self, kind: str, data: Any) -> None:
        self.publish_frame(sse_frame(kind, data))

    def publish_frame(self, frame: str) -> None:
        if not self.subscribers:
            return
        for sub in list(self.subscribers):
            if sub.behind >= MAX_BACKLOG:
                self.subscribers.discard(sub)
                sub.queue.put_nowait(None)
            else:
                sub.gathered.append(frame)
                sub.behind += 1
        if not self._gathering:
            self._gathering = True
            self.ticks.at_end(self._hand_over)

    def _hand_over(self) -> None:
        self._gathering = False
        for sub in self.subscribers:
            if sub.gathered:
                sub.queue.put_nowait(("".join(sub.gathered), len(sub.gathered)))
                sub.gathered = []

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        for sub in list(self.subscribers):
            sub.queue.put_nowait(None)
        self.subscribers.clear()


class Stream:
    """The live tables' spectators: what changes at a table is sent to each of them."""

    def __init__(self, live: LiveTables, ticks: Ticks | None = None) -> None:
        self.live = live
        #: When the spectators' updates go out: at the ticks the process reads the other
        #: processes' posts at too, so that both wake it once.
        self.ticks = ticks if ticks is not None else Ticks()
        self.hub = Hub(self.ticks)

    def show(self, game: LiveGame, state: str | None) -> None:
        """The game's table sent to the spectators, unless they have it as it is (its
        ``state`` for the page as JSON text, when worked out already)."""
        head = game.head()
        if self.live.published.get(game.game_id) == head:
            return
        self.live.published[game.game_id] = head
        if self.hub.subscribers:
            # The table's state for the page is built only when someone watches.
            self.hub.publish_frame(f"event: table\ndata: {state}\n\n" if state is not None else sse_frame("table", game.snapshot()))

    def show_all(self) -> None:
        """Every table sent anew to every spectator."""
        self.hub.publish("tables", self.live.tables())

    async def events(self, request: Request) -> Response:
        sub = self.hub.subscribe()
        hello = sse_frame("tables", self.live.tables())

        async def stream() -> AsyncIterator[str]:
            try:
                yield hello
                while True:
                    try:
                        async with asyncio.timeout(KEEPALIVE_SECONDS):
                            item = await sub.queue.get()
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if item is None:
                        return
                    pieces, count = [item[0]], item[1]
                    # One behind catches up in a few writes: what is waiting goes out together.
                    while not sub.queue.empty():
                        more = sub.queue.get_nowait()
                        if more is None:
                            yield "".join(pieces)
                            return
                        pieces.append(more[0])
                        count += more[1]
                    yield "".join(pieces)
                    sub.behind -= count
            finally:
                self.hub.unsubscribe(sub)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    def routes(self) -> list[Route]:
        return [Route("/events", self.events)]
