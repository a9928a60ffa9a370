"""The stored games and the standings: ``/api/standings`` (``?game=NAME``, the server's game
by default, and ``?season=S``), ``/api/games`` (``?game=``, ``?season=``) and
``/api/games/{id}``, a stored game replayed move by move with its settlements."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from companion.club.archive import Archive
from companion.club.endpoints.answers import json_answer, not_found
from companion.club.parts import NoClubPart
from companion.club.replay import replay_steps
from companion.club.standings import compute_standings
from companion.contract.registry import UnknownGameError

__all__ = ["Games"]


class Games:
    """The archive's games and standings; ``game`` is the server's, whose standings are
    given when the request names none."""

    def __init__(self, engine: Engine, archive: Archive, *, game: str) -> None:
        self.engine = engine
        self.archive = archive
        self.game = game

    async def standings(self, request: Request) -> Response:
        season = request.query_params.get("season") or None
        which = request.query_params.get("game") or self.game
        try:
            data = await run_in_threadpool(lambda: compute_standings(self.engine, season, game=which).to_json())
        except (UnknownGameError, NoClubPart) as exc:
            return not_found(str(exc))
        return json_answer(data)

    async def games(self, request: Request) -> Response:
        season = request.query_params.get("season") or None
        which = request.query_params.get("game") or None
        data = await run_in_threadpool(self.archive.games, game=which, season=season, limit=200)
        return json_answer(data)

    async def stored_game(self, request: Request) -> Response:
        gid = request.path_params["game_id"]

        def load() -> dict[str, Any] | None:
            row = self.archive.game(gid)
            if row is None:
                return None
            row["steps"] = replay_steps(self.archive.events(gid))
            return row

        data = await run_in_threadpool(load)
        if data is None:
            return not_found(f"no stored game {gid}")
        return json_answer(data)

    def routes(self) -> list[Route]:
        return [
            Route("/api/standings", self.standings),
            Route("/api/games", self.games),
            Route("/api/games/{game_id}", self.stored_game),
        ]
