"""The club server: the spectators' live page and the tables' posts (Starlette on uvicorn).

Read-only for everyone: the page, ``/api/tables``, ``/api/standings`` (``?game=NAME``, the
server's game by default, and ``?season=S``), ``/api/games`` (``?game=``, ``?season=``),
``/api/games/{id}`` (a stored game replayed move by move with its settlements),
``/api/games/{id}/bgstats`` (the game as a play for BG Stats, and the link that opens the app
with it), ``/api/export.csv`` (the archive as CSV, ``?game=``, ``?season=``), and
``/events``, a server-sent events stream of every table's state as it changes. Tables of
every game whose club part is written may play on one server; the page is titled after the
server's game (``rop club serve --game``, the default game otherwise), whose standings it
shows, and takes each game's words (its period, its standings' columns, how it can end) from
the games' club parts.

Tables post ``POST /api/games/{game_id}/events/{number}`` with ``Authorization: Bearer
TOKEN`` (see :mod:`companion.club.tokens`) and the event's JSON as the body, and take
moves back with ``DELETE /api/games/{game_id}/events/{number}`` (the events from ``number``
on); the exchange is described in :mod:`companion.club.live`. A refused post gets a 4xx status with the reason in
JSON and is logged; nothing of it is stored. An accepted post is answered once it is stored
(:mod:`companion.club.writer`, which commits the posts of many tables together); the posts of
one game are taken one at a time, in the order they arrive.

On PostgreSQL several server processes may serve one archive (:mod:`companion.club.fanout`):
each stores its posts under their games' locks and announces them, and shows its spectators
the posts the others announce. A post answered 503 (the archive away) is to be sent again.
"""

from __future__ import annotations

import asyncio
import csv
import fcntl
import html
import io
import json
import logging
import socket
import threading
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any

import uvicorn
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from companion.club.archive import Archive
from companion.club.export import archive_rows, bgstats_play, bgstats_url
from companion.club.database import ArchiveUnavailable, open_archive
from companion.club.fanout import Change, Listener, announce, lock_games, new_origin
from companion.club.live import Accepted, Conflict, LiveGame, LiveTables, PostError, Write, store_writes
from companion.club.parts import NoClubPart, part_of, require_part
from companion.club.replay import replay_steps
from companion.club.standings import compute_standings
from companion.club.tokens import TokenFile
from companion.club.writer import ArchiveWriter
from companion.contract.registry import DEFAULT, UnknownGameError, game as game_named, names as game_names

__all__ = ["ClubServer", "Hub", "create_app", "serve"]

log = logging.getLogger("companion.club.server")
PAGE = Path(__file__).with_name("static") / "index.html"
#: A spectator whose connection falls this far behind is dropped (its page reconnects).
MAX_BACKLOG = 1000
KEEPALIVE_SECONDS = 15.0


def _json(data: Any) -> str:
    def default(o: Any) -> Any:
        if isinstance(o, (datetime, date)):
            return o.isoformat()
        raise TypeError(type(o).__name__)

    return json.dumps(data, default=default, separators=(",", ":"))


def sse_frame(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {_json(data)}\n\n"


class _Subscriber:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()


class Hub:
    """Fans each table update out to every open ``/events`` stream (on the server's loop)."""

    def __init__(self) -> None:
        self.subscribers: set[_Subscriber] = set()

    def subscribe(self) -> _Subscriber:
        sub = _Subscriber()
        self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: _Subscriber) -> None:
        self.subscribers.discard(sub)

    def publish(self, kind: str, data: Any) -> None:
        self.publish_frame(sse_frame(kind, data))

    def publish_frame(self, frame: str) -> None:
        for sub in list(self.subscribers):
            if sub.queue.qsize() >= MAX_BACKLOG:
                self.subscribers.discard(sub)
                sub.queue.put_nowait(None)
            else:
                sub.queue.put_nowait(frame)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        for sub in list(self.subscribers):
            sub.queue.put_nowait(None)
        self.subscribers.clear()


def page_html(game: str = DEFAULT) -> bytes:
    """The page, titled after ``game``, with every game's words for it: each game whose club
    part is written, its title, its period (one and many), its standings' columns and how it
    can end."""
    part = require_part(game_named(game))
    words: dict[str, Any] = {}
    for name in game_names():
        try:
            g = game_named(name)
        except Exception as exc:  # a game packaged apart that does not load: its tables are refused
            log.warning("game %s is not shown on the page: %s", name, exc)
            continue
        p = part if g.name == game else part_of(g)
        if p is not None:
            words[g.name] = {
                "title": g.title,
                "period": p.period,
                "periods": p.periods,
                "columns": [{"figure": c.figure, "label": c.label} for c in p.columns],
                "endings": dict(p.endings),
                # Optional: how the page draws the game's cards and names its points.
                **(p.page_words() if hasattr(p, "page_words") else {}),
            }
    data = json.dumps({"game": game, "games": words}, ensure_ascii=False).replace("</", "<\\/")
    text = PAGE.read_text(encoding="utf-8")
    text = text.replace("__CLUB_TITLE__", html.escape(f"{game_named(game).title} club")).replace("__CLUB_GAMES__", data)
    return text.encode("utf-8")


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def create_app(
    engine: Engine, tokens: TokenFile, *, game: str = DEFAULT, on_ready: Callable[[Hub], None] | None = None
) -> Starlette:
    """The club's web application on the archive ``engine``; ``game`` is the one the page is
    titled after and whose standings it shows."""
    require_part(game_named(game))
    pages: list[bytes] = []  # the page, made when first asked for (it reads every game's words)
    # On PostgreSQL, other server processes may serve the same archive (docs/club.md): each
    # post is stored under its game's lock and announced to them (companion.club.fanout).
    shared = engine.dialect.name == "postgresql"
    origin = new_origin()
    live = LiveTables(engine, shared=shared)
    archive = Archive(engine)
    hub = Hub()

    def store(conn: Connection, writes: Sequence[Write]) -> None:
        lock_games(conn, [w.game_id for w in writes])
        store_writes(conn, writes)

    writer = ArchiveWriter(
        engine, store=store, stored=lambda conn, writes: announce(conn, [w.notice for w in writes if w.notice])
    )
    fanned = threading.Event()  # set once this process hears the others' posts (or alone)
    # One post of a game at a time: its events are played and stored in order.
    game_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def game_lock(game_id: str) -> asyncio.Lock:
        lock = game_locks.get(game_id)
        if lock is None:
            lock = game_locks[game_id] = asyncio.Lock()
        return lock

    def refuse(request: Request, status: int, reason: str, **extra: Any) -> JSONResponse:
        client = request.client.host if request.client else "?"
        log.warning("refused %s %s from %s: %d %s", request.method, request.url.path, client, status, reason)
        return JSONResponse({"ok": False, "reason": reason, **extra}, status_code=status)

    async def page(request: Request) -> Response:
        if not pages:
            pages.append(await run_in_threadpool(page_html, game))
        return Response(pages[0], media_type="text/html; charset=utf-8")

    async def tables(request: Request) -> Response:
        return Response(_json(live.tables()), media_type="application/json")

    async def standings(request: Request) -> Response:
        season = request.query_params.get("season") or None
        which = request.query_params.get("game") or game
        try:
            data = await run_in_threadpool(lambda: compute_standings(engine, season, game=which).to_json())
        except (UnknownGameError, NoClubPart) as exc:
            return JSONResponse({"ok": False, "reason": str(exc)}, status_code=404)
        return Response(_json(data), media_type="application/json")

    async def games(request: Request) -> Response:
        season = request.query_params.get("season") or None
        which = request.query_params.get("game") or None
        data = await run_in_threadpool(archive.games, game=which, season=season, limit=200)
        return Response(_json(data), media_type="application/json")

    async def stored_game(request: Request) -> Response:
        gid = request.path_params["game_id"]

        def load() -> dict[str, Any] | None:
            row = archive.game(gid)
            if row is None:
                return None
            row["steps"] = replay_steps(archive.events(gid))
            return row

        data = await run_in_threadpool(load)
        if data is None:
            return JSONResponse({"ok": False, "reason": f"no stored game {gid}"}, status_code=404)
        return Response(_json(data), media_type="application/json")

    async def bgstats(request: Request) -> Response:
        gid = request.path_params["game_id"]

        def load() -> dict[str, Any] | None:
            row = archive.game(gid)
            if row is None:
                return None
            play = bgstats_play(row, [json.loads(line) for line in archive.events(gid)])
            return {"play": play, "url": bgstats_url(play)}

        try:
            data = await run_in_threadpool(load)
        except (UnknownGameError, NoClubPart) as exc:
            return JSONResponse({"ok": False, "reason": str(exc)}, status_code=404)
        if data is None:
            return JSONResponse({"ok": False, "reason": f"no stored game {gid}"}, status_code=404)
        return Response(_json(data), media_type="application/json")

    async def export_csv(request: Request) -> Response:
        which = request.query_params.get("game") or None
        season = request.query_params.get("season") or None

        def write() -> str:
            out = io.StringIO()
            csv.writer(out).writerows(archive_rows(engine, game=which, season=season))
            return out.getvalue()

        text = await run_in_threadpool(write)
        name = f"club-{which or 'games'}{'-' + season if season else ''}.csv"
        return Response(
            text, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    async def progress(request: Request) -> Response:
        gid = request.path_params["game_id"]
        try:
            async with game_lock(gid):
                stored = live.stored(gid)
        except SQLAlchemyError as exc:
            log.error("archive error on %s: %s", request.url.path, exc)
            return JSONResponse({"ok": False, "reason": "the archive is unavailable; ask again later"}, status_code=503)
        return JSONResponse({"game_id": gid, "stored": stored})

    async def table_event(request: Request) -> Response:
        """``POST``: the table's event ``number``; ``DELETE``: moves taken back at the table,
        its events from ``number`` on dropped at once."""
        table = tokens.table_for(_bearer(request))
        if table is None:
            return refuse(request, 401, "a table token is needed (Authorization: Bearer TOKEN; rop club token TABLE)")
        gid = request.path_params["game_id"]
        number = request.path_params["number"]
        take: Callable[[int], Accepted]
        if request.method == "DELETE":
            take = lambda attempt: live.take_back(table, gid, number)
            said = {201: "taken back", 200: "nothing to take back"}
        else:
            body = await request.body()
            replace = request.query_params.get("replace") in ("1", "true")
            take = lambda attempt: live.post(table, gid, number, body, replace=replace, read=attempt > 0)
            said = {201: "stored", 200: "already stored"}
        taken = await settle(request, table, gid, take)
        if not isinstance(taken, Accepted):
            return taken
        return JSONResponse(
            {"ok": True, "status": said[taken.status], "stored": len(taken.game.lines)},
            # A take-back creates nothing: 200 whether or not there was anything to drop.
            status_code=200 if request.method == "DELETE" else taken.status,
        )

    async def settle(request: Request, table: str, gid: str, take: Callable[[int], Accepted]) -> Accepted | Response:
        """``take`` a post of game ``gid`` (given how many times it was tried) and store what
        it changes, then show it; the refusal to answer otherwise."""
        async with game_lock(gid):
            for attempt in range(3):
                try:
                    # After a conflict, the game is read from the archive whatever the post.
                    accepted = take(attempt)
                except PostError as exc:
                    return refuse(request, exc.status, f"table {table}: {exc.reason}", **exc.extra)
                except SQLAlchemyError as exc:
                    log.error("archive error on %s: %s", request.url.path, exc)
                    return unavailable()
                state: str | None = None
                if accepted.write is not None:
                    write = accepted.write
                    if shared:
                        # The other processes' spectators get the table's state as worked out here.
                        state = _json(accepted.game.snapshot())
                        write.notice = Change(
                            origin, gid, table, write.number, write.kind, write.ended is not None,
                            write.received_at.isoformat(), write.line, state,
                        ).encode()
                    try:
                        await writer.store(write)
                    except Conflict:
                        # Another process took a post of the game meanwhile: read it back, take again.
                        live.forget(gid)
                        continue
                    except Exception as exc:
                        # The game in memory is ahead of the archive: read it back at its next post.
                        live.forget(gid)
                        log.error("archive error on %s: %s", request.url.path, exc)
                        return unavailable()
                    except asyncio.CancelledError:
                        live.forget(gid)
                        raise
                break
            else:
                return refuse(request, 503, f"table {table}: game {gid} is being posted to through other server processes; send again")
            # A post already stored may have been stored through another process, and read
            # back here from the archive before its announcement arrived: shown here now.
            show(accepted.game, state)
        return accepted

    def unavailable() -> JSONResponse:
        return JSONResponse(
            {"ok": False, "reason": "the archive is unavailable; send again later"}, status_code=503, headers={"Retry-After": "1"}
        )

    def received(change: Change) -> None:
        """Another process stored a post: memory follows, and so do this process's spectators."""
        try:
            game = live.receive(change)
            if game is not None:
                show(game, game.shown if game.ahead is not None else None)
        except Exception as exc:  # the archive away, or a game that does not play here
            log.error("could not follow game %s: %s", change.game_id, exc)
            live.forget(change.game_id)

    def show(game: LiveGame, state: str | None) -> None:
        """The game's table sent to this process's spectators, unless they have it as it is
        (its ``state`` for the page as JSON text, when worked out already)."""
        head = game.head()
        if live.published.get(game.game_id) == head:
            return
        live.published[game.game_id] = head
        if hub.subscribers:
            # The table's state for the page is built only when someone watches.
            hub.publish_frame(f"event: table\ndata: {state}\n\n" if state is not None else sse_frame("table", game.snapshot()))

    async def resync() -> None:
        """Listening (again): the games changed while this process did not hear of them are
        read back from the archive, and every spectator is sent every table anew."""
        try:
            heads = await run_in_threadpool(live.heads)
            for gid in live.stale(heads):
                async with game_lock(gid):
                    game = live.refresh(gid)
                    if game is not None:
                        live.published[gid] = game.head()  # sent below with every table
        except SQLAlchemyError as exc:
            log.error("could not read the live games back from the archive: %s", exc)
            return
        finally:
            fanned.set()
        hub.publish("tables", live.tables())

    async def events(request: Request) -> Response:
        sub = hub.subscribe()
        hello = sse_frame("tables", live.tables())

        async def stream() -> AsyncIterator[str]:
            try:
                yield hello
                while True:
                    try:
                        item = await asyncio.wait_for(sub.queue.get(), KEEPALIVE_SECONDS)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if item is None:
                        return
                    # What queued meanwhile goes out with it, in one write: a spectator behind
                    # catches up in a few writes instead of one per table update.
                    frames = [item]
                    while not sub.queue.empty() and len(frames) < 200:
                        more = sub.queue.get_nowait()
                        if more is None:
                            yield "".join(frames)
                            return
                        frames.append(more)
                    yield "".join(frames)
            finally:
                hub.unsubscribe(sub)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        listener: Listener | None = None
        if shared:
            listener = Listener(
                engine,
                origin,
                on_change=lambda change: loop.call_soon_threadsafe(received, change),
                on_listening=lambda: asyncio.run_coroutine_threadsafe(resync(), loop).result(),
            ).start()
        else:
            fanned.set()
        if on_ready is not None:
            on_ready(hub)
        try:
            yield
        finally:
            hub.close()
            if listener is not None:
                await run_in_threadpool(listener.stop)
            # Whatever was accepted is stored before the server ends.
            writer.close()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/tables", tables),
            Route("/api/standings", standings),
            Route("/api/games", games),
            Route("/api/games/{game_id}", stored_game),
            Route("/api/games/{game_id}/progress", progress),
            Route("/api/games/{game_id}/bgstats", bgstats),
            Route("/api/export.csv", export_csv),
            Route("/api/games/{game_id}/events/{number:int}", table_event, methods=["POST", "DELETE"]),
            Route("/events", events),
        ],
        lifespan=lifespan,
    )
    app.state.live = live
    app.state.hub = hub
    app.state.writer = writer
    app.state.fanned = fanned
    return app


class ClubServer:
    """The club server on a socket, in a background thread (tests, benchmarks, embedding).

    ``start()`` returns once it accepts connections; ``stop()`` ends the spectators' streams
    and waits for the server to finish."""

    def __init__(
        self, engine: Engine, tokens: TokenFile, *, host: str = "127.0.0.1", port: int = 0, game: str = DEFAULT
    ) -> None:
        self.engine = engine
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Hub | None = None
        self.app = create_app(engine, tokens, game=game, on_ready=self._on_ready)
        self.sock = _listen(host, port)
        self.host, self.port = host, int(self.sock.getsockname()[1])
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=5, lifespan="on")
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="club-server", daemon=True)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _on_ready(self, hub: Hub) -> None:
        self._hub = hub
        self._loop = asyncio.get_running_loop()

    def _run(self) -> None:
        self.server.run(sockets=[self.sock])

    def start(self) -> ClubServer:
        self._thread.start()
        # uvicorn sets ``started`` once it listens; the thread ends early on a failure.
        while not (self.server.started and self.app.state.fanned.is_set()):
            self._thread.join(0.01)
            if not self._thread.is_alive():
                raise RuntimeError("the club server did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._hub is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._hub.close)
        self.server.should_exit = True
        self._thread.join()
        self.sock.close()

    def __enter__(self) -> ClubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _listen(host: str, port: int) -> socket.socket:
    # IPPROTO_TCP named explicitly: asyncio sets TCP_NODELAY only on sockets that say so,
    # and without it every answer waits for the client's delayed acknowledgement.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(512)
    return sock


def serve(db: str | None, *, host: str, port: int, tokens_path: Path, game: str = DEFAULT) -> int:
    """``rop club serve``: run until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    require_part(game_named(game))  # a game the page cannot show is refused before the archive opens
    engine = open_archive(db)
    alone = _serve_alone(engine)  # held open while the server runs
    tokens = TokenFile(tokens_path)
    app = create_app(engine, tokens, game=game)
    # Bound before the banner, so that whoever reads it can connect at once.
    sock = _listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    print(f"club page on http://{shown}:{sock.getsockname()[1]}/ ({len(tokens.tokens)} table token(s) from {tokens_path})", flush=True)
    if engine.dialect.name == "postgresql":
        print("other rop club serve processes on this archive serve the same tables and page (PostgreSQL NOTIFY)", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("listening beyond this computer: anyone on the network can watch; tables need their tokens to post", flush=True)
    # Tables post a move every few seconds: their connections are kept between moves (as
    # nginx keeps them, 75 s), rather than opened again for each.
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3, timeout_keep_alive=75)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        if alone is not None:
            alone.close()
    return 0


def _serve_alone(engine: Engine) -> IO[bytes] | None:
    """On SQLite, this server is the only one on the archive: a second one would show its
    spectators only its own tables. Several processes share a PostgreSQL archive instead."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    lock = open(f"{database}.server-lock", "wb")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise ArchiveUnavailable(
            f"another rop club serve already serves {database}: one server process serves a SQLite archive; "
            "to run several, use PostgreSQL (docs/club.md, 'A tournament')"
        ) from None
    return lock
