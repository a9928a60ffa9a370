"""What the club's endpoints answer with: JSON (dates as ISO 8601) and refusals, each saying
why in JSON."""

from __future__ import annotations

import json
import logging
from datetime import date, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["json_answer", "json_text", "not_found", "refuse", "unavailable"]

log = logging.getLogger("companion.club.server")


def json_text(data: Any) -> str:
    """``data`` as compact JSON, dates and times as ISO 8601."""

    def default(o: Any) -> Any:
        if isinstance(o, (datetime, date)):
            return o.isoformat()
        raise TypeError(type(o).__name__)

    return json.dumps(data, default=default, separators=(",", ":"))


def json_answer(data: Any) -> Response:
    return Response(json_text(data), media_type="application/json")


def not_found(reason: str) -> JSONResponse:
    return JSONResponse({"ok": False, "reason": reason}, status_code=404)


def refuse(request: Request, status: int, reason: str, **extra: Any) -> JSONResponse:
    """A request refused with ``status``, its reason in JSON; logged with who sent it."""
    client = request.client.host if request.client else "?"
    log.warning("refused %s %s from %s: %d %s", request.method, request.url.path, client, status, reason)
    return JSONResponse({"ok": False, "reason": reason, **extra}, status_code=status)


def unavailable(request: Request, exc: BaseException, *, question: bool = False) -> JSONResponse:
    """The archive is away (``exc``, logged): 503. A post is to be sent again in a second
    (``Retry-After``); a ``question`` asked again later."""
    log.error("archive error on %s: %s", request.url.path, exc)
    if question:
        return JSONResponse({"ok": False, "reason": "the archive is unavailable; ask again later"}, status_code=503)
    return JSONResponse(
        {"ok": False, "reason": "the archive is unavailable; send again later"}, status_code=503, headers={"Retry-After": "1"}
    )
