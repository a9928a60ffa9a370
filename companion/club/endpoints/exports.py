"""The archive taken elsewhere: ``/api/export.csv`` (``?game=``, ``?season=``), the games as
CSV for a spreadsheet, and ``/api/games/{id}/bgstats``, a game as a play for BG Stats with the
link that opens the app with it (:mod:`companion.club.export`)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from companion.club.archive import Archive
from companion.club.endpoints.answers import json_answer, not_found
from companion.club.export import archive_rows, bgstats_play, bgstats_url
from companion.club.parts import NoClubPart
from companion.contract.registry import UnknownGameError

__all__ = ["Exports"]


class Exports:
    def __init__(self, engine: Engine, archive: Archive) -> None:
        self.engine = engine
        self.archive = archive

    async def csv(self, request: Request) -> Response:
        which = request.query_params.get("game") or None
        season = request.query_params.get("season") or None

        def write() -> str:
            out = io.StringIO()
            csv.writer(out).writerows(archive_rows(self.engine, game=which, season=season))
            return out.getvalue()

        text = await run_in_threadpool(write)
        name = f"club-{which or 'games'}{'-' + season if season else ''}.csv"
        return Response(
            text, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    async def bgstats(self, request: Request) -> Response:
        gid = request.path_params["game_id"]

        def load() -> dict[str, Any] | None:
            row = self.archive.game(gid)
            if row is None:
                return None
            play = bgstats_play(row, [json.loads(line) for line in self.archive.events(gid)])
            return {"play": play, "url": bgstats_url(play)}

        try:
            data = await run_in_threadpool(load)
        except (UnknownGameError, NoClubPart) as exc:
            return not_found(str(exc))
        if data is None:
            return not_found(f"no stored game {gid}")
        return json_answer(data)

    def routes(self) -> list[Route]:
        return [Route("/api/export.csv", self.csv), Route("/api/games/{game_id}/bgstats", self.bgstats)]
