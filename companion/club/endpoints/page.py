"""The spectators' page (``/``): titled after no game until it knows the game it shows (tables
of every game may post to one server), with every game's words for it (its period, its
standings' columns, how it can end, its cards) from the games' club parts; the server's game
is the one its standings and games show first."""

from __future__ import annotations

import html
import json
import logging
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from companion.club.parts import part_of, require_part
from companion.contract.registry import DEFAULT, game as game_named, names as game_names

__all__ = ["PAGE", "Page", "page_html"]

log = logging.getLogger("companion.club.server")
PAGE = Path(__file__).parent.parent / "static" / "index.html"
#: The page's title until it knows what it shows: tables of any game may post to one server, so
#: it names no game; the page titles itself after the game it then shows ("Circle of Power club").
CLUB_TITLE = "Club"


def page_html(game: str = DEFAULT) -> bytes:
    """The page, its standings and games showing ``game`` first, with every game's words for
    it: each game whose club part is written, its title, its period (one and many), its
    standings' columns and how it can end."""
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
    text = text.replace("__CLUB_TITLE__", html.escape(CLUB_TITLE)).replace("__CLUB_GAMES__", data)
    return text.encode("utf-8")


class Page:
    """The page of the server's ``game``, made when first asked for (it reads every game's
    words)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._made: bytes | None = None

    async def page(self, request: Request) -> Response:
        if self._made is None:
            self._made = await run_in_threadpool(page_html, self.game)
        return Response(self._made, media_type="text/html; charset=utf-8")

    def routes(self) -> list[Route]:
        return [Route("/", self.page)]
