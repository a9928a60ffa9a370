"""The live tables (``/api/tables``): every game being played now, as the page shows it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from companion.club.endpoints.answers import json_answer
from companion.club.live import LiveTables

__all__ = ["Tables"]


class Tables:
    def __init__(self, live: LiveTables) -> None:
        self.live = live

    async def tables(self, request: Request) -> Response:
        return json_answer(self.live.tables())

    def routes(self) -> list[Route]:
        return [Route("/api/tables", self.tables)]
