"""The tables' posts: ``POST /api/games/{game_id}/events/{number}`` with ``Authorization:
Bearer TOKEN`` (:mod:`companion.club.tokens`) and the event's JSON as the body, moves taken
back with ``DELETE`` on the same path (the events from ``number`` on), and ``GET
/api/games/{game_id}/progress``, how many events of a game are stored; the exchange is
described in :mod:`companion.club.live`.

A refused post gets a 4xx status with the reason in JSON and is logged; nothing of it is
stored. An accepted post is answered once it is stored (:mod:`companion.club.writer`, which
commits the posts of many tables together); the posts of one game are taken one at a time, in
the order they arrive. On PostgreSQL each post is stored under its game's lock and announced
to the other server processes (:mod:`companion.club.fanout`); a post answered 503 (the
archive away) is to be sent again."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from companion.club.endpoints.answers import json_text, refuse, unavailable
from companion.club.endpoints.stream import Stream
from companion.club.fanout import Change, announce, lock_games
from companion.club.live import Accepted, Conflict, LiveTables, PostError, Write, store_appends, store_writes
from companion.club.tokens import TokenFile
from companion.club.writer import ArchiveWriter

__all__ = ["GameLocks", "MAX_EVENT_NUMBER", "Posts", "archive_writer", "event_number"]

#: How often a post is taken again when other server processes took posts of its game meanwhile.
TRIES = 3
#: The largest event number the archive can hold (its column is a 32-bit integer); no record
#: comes near it.
MAX_EVENT_NUMBER = 2**31 - 1


def event_number(text: str) -> int | str:
    """The event number in a post's address, else why it is none. Read here, not by the
    router: Python refuses to turn thousands of digits into a number, and that would fail
    inside the server rather than refuse the post."""
    if not (text.isascii() and text.isdigit()):
        shown = text if len(text) <= 20 else text[:20] + "..."
        return f"an event number is a whole number, 1 for the game header, not {shown!r}"
    if len(text) > len(str(MAX_EVENT_NUMBER)) or int(text) > MAX_EVENT_NUMBER:
        shown = text if len(text) <= 20 else f"{text[:12]}... ({len(text):,} digits)"
        return f"event number {shown} is beyond any record (at most {MAX_EVENT_NUMBER:,})"
    return int(text)


class GameLocks:
    """One lock per game: its posts are played and stored one at a time, in order."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock


def archive_writer(engine: Engine) -> ArchiveWriter:
    """The writer of the posts into the archive ``engine``: each batch stored under its games'
    locks, then announced to the other server processes (both do nothing but on PostgreSQL)."""

    def store(conn: Connection, writes: Sequence[Write]) -> None:
        if conn.dialect.name == "postgresql" and all(w.appends for w in writes):
            store_appends(conn, writes)  # locked, checked, stored, committed and announced in two round trips
            return
        lock_games(conn, [w.game_id for w in writes])
        store_writes(conn, writes)

    def stored(conn: Connection, writes: Sequence[Write]) -> None:
        announce(conn, [w.notice for w in writes if w.notice and not w.announced])

    return ArchiveWriter(engine, store=store, stored=stored)


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Posts:
    """The tables' posts into ``live``, stored by ``writer`` and shown on ``stream``. With
    ``origin`` (a shared archive), each post stored is announced to the other processes as
    coming from this one."""

    def __init__(
        self, live: LiveTables, tokens: TokenFile, writer: ArchiveWriter, locks: GameLocks, stream: Stream, *, origin: str | None
    ) -> None:
        self.live = live
        self.tokens = tokens
        self.writer = writer
        self.locks = locks
        self.stream = stream
        self.origin = origin

    async def progress(self, request: Request) -> Response:
        gid = request.path_params["game_id"]
        try:
            async with self.locks(gid):
                stored = self.live.stored(gid)
        except SQLAlchemyError as exc:
            return unavailable(request, exc, question=True)
        return JSONResponse({"game_id": gid, "stored": stored})

    async def table_event(self, request: Request) -> Response:
        """``POST``: the table's event ``number``; ``DELETE``: moves taken back at the table,
        its events from ``number`` on dropped at once."""
        table = self.tokens.table_for(_bearer(request))
        if table is None:
            return refuse(request, 401, "a table token is needed (Authorization: Bearer TOKEN; rop club token TABLE)")
        gid = request.path_params["game_id"]
        number = event_number(request.path_params["number"])
        if isinstance(number, str):
            return refuse(request, 400, f"table {table}: {number}")
        take: Callable[[int], Accepted]
        live = self.live
        if request.method == "DELETE":
            take = lambda attempt: live.take_back(table, gid, number)
            said = {201: "taken back", 200: "nothing to take back"}
        else:
            body = await request.body()
            replace = request.query_params.get("replace") in ("1", "true")
            take = lambda attempt: live.post(table, gid, number, body, replace=replace, read=attempt > 0)
            said = {201: "stored", 200: "already stored"}
        taken = await self.take_in(request, table, gid, take)
        if not isinstance(taken, Accepted):
            return taken
        return JSONResponse(
            {"ok": True, "status": said[taken.status], "stored": len(taken.game.lines)},
            # A take-back creates nothing: 200 whether or not there was anything to drop.
            status_code=200 if request.method == "DELETE" else taken.status,
        )

    async def take_in(self, request: Request, table: str, gid: str, take: Callable[[int], Accepted]) -> Accepted | Response:
        """``take`` a post of game ``gid`` (given how many times it was tried) and store what
        it changes, then show it; the refusal to answer otherwise."""
        async with self.locks(gid):
            for attempt in range(TRIES):
                try:
                    # After a conflict, the game is read from the archive whatever the post.
                    accepted = take(attempt)
                except PostError as exc:
                    return refuse(request, exc.status, f"table {table}: {exc.reason}", **exc.extra)
                except SQLAlchemyError as exc:
                    return unavailable(request, exc)
                state: str | None = None
                if accepted.write is not None:
                    write = accepted.write
                    if self.origin is not None:
                        # The other processes' spectators get the table's state as worked out here.
                        state = json_text(accepted.game.snapshot())
                        write.notice = Change(
                            self.origin, gid, table, write.number, write.kind, write.ended is not None,
                            write.received_at.isoformat(), write.line, state,
                        ).encode()
                    try:
                        await self.writer.store(write)
                    except Conflict:
                        # Another process took a post of the game meanwhile: read it back, take again.
                        self.live.forget(gid)
                        continue
                    except Exception as exc:
                        # The game in memory is ahead of the archive: read it back at its next post.
                        self.live.forget(gid)
                        return unavailable(request, exc)
                    except asyncio.CancelledError:
                        self.live.forget(gid)
                        raise
                break
            else:
                return refuse(request, 503, f"table {table}: game {gid} is being posted to through other server processes; send again")
            # A post already stored may have been stored through another process, and read
            # back here from the archive before its announcement arrived: shown here now.
            self.stream.show(accepted.game, state)
        return accepted

    def routes(self) -> list[Route]:
        return [
            Route("/api/games/{game_id}/progress", self.progress),
            Route("/api/games/{game_id}/events/{number}", self.table_event, methods=["POST", "DELETE"]),
        ]
