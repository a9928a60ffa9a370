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
on); the exchange is described in :mod:`companion.club.live`. A refused post gets a 4xx
status with the reason in JSON and is logged; nothing of it is stored. An accepted post is
answered once it is stored (:mod:`companion.club.writer`, which commits the posts of many
tables together); the posts of one game are taken one at a time, in the order they arrive.

On PostgreSQL several server processes may serve one archive (:mod:`companion.club.fanout`):
each stores its posts under their games' locks and announces them, and shows its spectators
the posts the others announce. A post answered 503 (the archive away) is to be sent again.

Each endpoint is in :mod:`companion.club.endpoints`, a module by what it serves;
:func:`create_app` wires them to the archive, the live tables and each other.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import socket
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Literal

import uvicorn
from sqlalchemy import Engine
from starlette.applications import Starlette

from companion.club.archive import Archive
from companion.club.database import ArchiveUnavailable, open_archive
from companion.club.endpoints.exports import Exports
from companion.club.endpoints.games import Games
from companion.club.endpoints.others import OtherProcesses
from companion.club.endpoints.page import Page
from companion.club.endpoints.posts import GameLocks, Posts, archive_writer
from companion.club.endpoints.stream import Hub, Stream
from companion.club.endpoints.tables import Tables
from companion.club.fanout import new_origin
from companion.club.live import LiveTables
from companion.club.parts import require_part
from companion.club.tokens import TokenFile
from companion.contract.registry import DEFAULT, game as game_named

__all__ = ["ClubServer", "create_app", "serve"]


def create_app(
    engine: Engine, tokens: TokenFile, *, game: str = DEFAULT, on_ready: Callable[[Hub], None] | None = None
) -> Starlette:
    """The club's web application on the archive ``engine``; ``game`` is the one the page is
    titled after and whose standings it shows. ``on_ready`` is given the spectators' hub once
    the application runs."""
    require_part(game_named(game))
    # On PostgreSQL, other server processes may serve the same archive (docs/club.md): each
    # post is stored under its game's lock and announced to them (companion.club.fanout).
    shared = engine.dialect.name == "postgresql"
    origin = new_origin()
    live = LiveTables(engine, shared=shared)
    archive = Archive(engine)
    writer = archive_writer(engine)
    locks = GameLocks()
    stream = Stream(live)
    others = OtherProcesses(engine, origin, live, locks, stream)
    posts = Posts(live, tokens, writer, locks, stream, origin=origin if shared else None)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        others.start(shared=shared)
        if on_ready is not None:
            on_ready(stream.hub)
        try:
            yield
        finally:
            stream.hub.close()
            await others.stop()
            # Whatever was accepted is stored before the server ends.
            writer.close()

    app = Starlette(
        routes=[
            *Page(game).routes(),
            *Tables(live).routes(),
            *Games(engine, archive, game=game).routes(),
            *Exports(engine, archive).routes(),
            *posts.routes(),
            *stream.routes(),
        ],
        lifespan=lifespan,
    )
    app.state.live = live
    app.state.hub = stream.hub
    app.state.writer = writer
    app.state.fanned = others.heard
    app.state.others = others
    return app


class ClubServer:
    """The club server on a socket, in a background thread (tests, benchmarks, embedding).

    ``start()`` returns once it accepts connections; ``stop()`` ends the spectators' streams
    and waits for the server to finish."""

    def __init__(
        self, engine: Engine, tokens: TokenFile, *, host: str = "127.0.0.1", port: int = 0, game: str = DEFAULT,
        loop: Literal["auto", "asyncio", "uvloop"] = "auto",
    ) -> None:
        self.engine = engine
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Hub | None = None
        self.app = create_app(engine, tokens, game=game, on_ready=self._on_ready)
        self.sock = _listen(host, port)
        self.host, self.port = host, int(self.sock.getsockname()[1])
        # ``loop``: uvloop when installed ("auto", as ``rop club serve``); "asyncio" for a test
        # that wraps the loop's own methods, which uvloop's are not.
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=5, lifespan="on", loop=loop)
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="club-server", daemon=True)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The server's event loop, once it runs."""
        return self._loop

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
