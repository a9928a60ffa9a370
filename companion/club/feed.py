"""The table's side: its game's events sent to the club server as they happen.

:class:`ClubFeed` takes each saved event (``feed.event(game_id, number, event_json)``,
``number`` being the event's line in the record, the header line 1) and returns at once; a
background thread posts the events in order. When the network or the server is away the
table keeps playing: the feed retries with a growing pause, and catches up from the first
event the server lacks, reading from the table's own record file any event it no longer
holds in memory. The server stores each event of a game once (it acknowledges a repeat with
200), so a resend never doubles an event, and a gap is answered with the number to resend
from (409). Moves taken back at the table (undo) reach the feed as :meth:`ClubFeed.take_back`:
the server is told at once to drop the events after those the table keeps, before any event
sent after it, so that spectators see the undo without waiting for the next move (a server
that does not know how drops them when the next event, sent as a replacement, arrives). An
event number given again (a correction) is sent as a replacement: the server drops the
events after it. A deal
whose face-down hands the table filled in once their cards were played (at the round's end)
is given with :meth:`ClubFeed.fill`: sent again as the same event number, before any event
after it still to send, which the server takes as the completed deal and keeps the events
after it. :func:`push_record` does the same catch-up by hand (``rop club push``).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from companion.club import identity

__all__ = ["ClubFeed", "PushError", "PushResult", "push_record"]

log = logging.getLogger("companion.club.feed")


class PushError(Exception):
    """Events the server refused, or a record or server that cannot be reached."""


@dataclass
class PushResult:
    game_id: str
    sent: int
    already: int


def _read_lines(path: str | os.PathLike[str]) -> list[str]:
    with open(path, encoding="utf-8") as fp:
        return [t for t in fp.read().splitlines() if t.strip()]


def _post(client: httpx.Client, game_id: str, number: int, body: str, *, replace: bool = False) -> httpx.Response:
    return client.post(f"/api/games/{game_id}/events/{number}", content=body.encode("utf-8"),
                       params={"replace": "1"} if replace else None, headers={"Content-Type": "application/json"})


def _reason(resp: httpx.Response) -> str:
    try:
        return str(resp.json().get("reason", resp.text))
    except ValueError:
        return resp.text[:200]


def _expected(resp: httpx.Response) -> int | None:
    try:
        value = resp.json().get("expected")
    except ValueError:
        return None
    return value if isinstance(value, int) and value >= 1 else None


def push_record(club: str, token: str, path: str | os.PathLike[str], *, timeout: float = 10.0) -> PushResult:
    """Send a record file's events the club server does not have yet."""
    name = os.fspath(path)
    try:
        lines = _read_lines(name)
    except (OSError, UnicodeDecodeError) as exc:
        raise PushError(f"{name}: cannot read the record ({exc})") from None
    events = []
    for n, text in enumerate(lines, 1):
        try:
            events.append(json.loads(text))
        except ValueError as exc:
            raise PushError(f"{name}:{n}: not valid JSON ({exc})") from None
    if not events:
        raise PushError(f"{name}: the record is empty")
    gid = identity.game_id(events)
    headers = {"Authorization": f"Bearer {token}"}
    try:
        with httpx.Client(base_url=club, headers=headers, timeout=timeout) as client:
            resp = client.get(f"/api/games/{gid}/progress")
            if resp.status_code != 200:
                raise PushError(f"{club}: {resp.status_code} {_reason(resp)}")
            start = int(resp.json()["stored"]) + 1
            already = start - 1
            sent = 0
            n = start
            while n <= len(lines):
                resp = _post(client, gid, n, lines[n - 1])
                if resp.status_code == 201:
                    sent += 1
                elif resp.status_code == 200:
                    already += 1
                elif resp.status_code == 409 and _expected(resp) is not None and _expected(resp) != n:
                    n = int(_expected(resp) or 1)
                    continue
                else:
                    raise PushError(f"{name}:{n}: the club refused the event ({resp.status_code}): {_reason(resp)}")
                n += 1
    except httpx.HTTPError as exc:
        raise PushError(f"{club}: cannot reach the club server ({exc})") from None
    return PushResult(gid, sent, min(already, len(lines)))


@dataclass
class _Game:
    known: int = 0  # the highest event number the table has saved
    acked: int = 0  # every event up to this one is on the server
    asked: bool = False  # the server was asked how far it has the game
    bodies: dict[int, str] = field(default_factory=dict)
    refused: str | None = None  # the server refused an event: no point resending
    replace_from: int | None = None  # a move taken back: this event replaces the server's
    fills: dict[int, str] = field(default_factory=dict)  # events on the server, to send again filled in
    keep: int | None = None  # moves taken back: the server is to keep this many events, no more

    def unsent(self) -> int:
        return self.known - self.acked + len(self.fills) + (self.keep is not None)


class ClubFeed:
    """Sends a table's events to the club server from a background thread.

    ``url`` is the club server, ``token`` this table's token, ``record_path`` the local record
    file of the game (its lines are the events, read back when catching up). Events already
    in the file when the feed starts are sent too, so a resumed game catches up at once.
    """

    def __init__(
        self,
        url: str,
        token: str,
        record_path: str | os.PathLike[str] | None,
        *,
        timeout: float = 5.0,
        min_retry: float = 0.5,
        max_retry: float = 30.0,
        close_timeout: float = 5.0,
    ) -> None:
        self.url = url.rstrip("/")
        self.record_path = Path(record_path) if record_path is not None else None
        self.min_retry, self.max_retry, self.close_timeout = min_retry, max_retry, close_timeout
        self._client = httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=timeout)
        self._cond = threading.Condition()
        self._games: dict[str, _Game] = {}
        self._closing = False
        self._retry_at_once = False
        self.connected = False
        self.last_error: str | None = None
        self._adopt_record()
        self._thread = threading.Thread(target=self._run, name="club-feed", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the caller's side

    def event(self, game_id: str, number: int, event_json: str | Mapping[str, Any]) -> None:
        """Queue event ``number`` of ``game_id``; never blocks on the network."""
        body = event_json if isinstance(event_json, str) else json.dumps(event_json, ensure_ascii=False)
        with self._cond:
            game = self._games.setdefault(game_id, _Game())
            if number <= game.known:
                # A move was taken back at the table: this event and those after it are new.
                for later in [n for n in game.bodies if n > number]:
                    del game.bodies[later]
                for later in [n for n in game.fills if n >= number]:
                    del game.fills[later]
                # The server may hold it already, acknowledged or not yet: send it as a replacement.
                game.acked = min(game.acked, number - 1)
                game.replace_from = number if game.replace_from is None else min(game.replace_from, number)
                game.known = number
            game.bodies[number] = body
            game.known = max(game.known, number)
            self._cond.notify_all()

    def take_back(self, game_id: str, keep: int) -> None:
        """The table took moves back: its record holds ``keep`` events of ``game_id`` now,
        header first; never blocks on the network."""
        with self._cond:
            game = self._games.setdefault(game_id, _Game())
            if keep >= game.known or keep < 1:
                return
            for later in [n for n in game.bodies if n > keep]:
                del game.bodies[later]
            for later in [n for n in game.fills if n > keep]:
                del game.fills[later]
            game.known = keep
            game.acked = min(game.acked, keep)
            # Sent whether or not the server has them: one may be on its way now.
            game.keep = keep if game.keep is None else min(game.keep, keep)
            if game.replace_from is not None and game.replace_from > keep:
                game.replace_from = None
            self._cond.notify_all()

    def fill(self, game_id: str, number: int, event_json: str | Mapping[str, Any]) -> None:
        """Event ``number`` of ``game_id``, already given, again with cards that were face
        down now named (a deal completed at its round's end); never blocks on the network."""
        body = event_json if isinstance(event_json, str) else json.dumps(event_json, ensure_ascii=False)
        with self._cond:
            game = self._games.setdefault(game_id, _Game())
            if number > game.known:
                return  # never given: nothing to fill in
            if number > game.acked:
                # Not on the server yet (or on its way: the answer's check sends it again).
                game.bodies[number] = body
            else:
                game.fills[number] = body
            self._cond.notify_all()

    def retry_now(self) -> None:
        """Try again at once instead of after the pause (the network is back)."""
        with self._cond:
            self._retry_at_once = True
            self._cond.notify_all()

    def pending(self) -> int:
        """Events saved at the table and not yet on the server."""
        with self._cond:
            return sum(g.unsent() for g in self._games.values() if g.refused is None)

    def wait_sent(self, timeout: float) -> bool:
        """Wait until every event is on the server (or refused); ``False`` on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._idle(), timeout)

    def close(self) -> None:
        """Send what can be sent within ``close_timeout`` seconds, then stop. Whatever is
        left stays in the record file for the next feed or ``rop club push``."""
        self.wait_sent(self.close_timeout)
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join()
        self._client.close()

    def status(self) -> dict[str, Any]:
        with self._cond:
            return {
                "connected": self.connected,
                "pending": sum(g.unsent() for g in self._games.values()),
                "last_error": self.last_error,
                "games": {gid: {"known": g.known, "acked": g.acked, "refused": g.refused} for gid, g in self._games.items()},
            }

    # ------------------------------------------------------------------ the thread

    def _adopt_record(self) -> None:
        """Events already in the record file (a resumed game) are to be sent too."""
        if self.record_path is None or not self.record_path.exists():
            return
        try:
            lines = _read_lines(self.record_path)
            header = json.loads(lines[0]) if lines else None
        except (OSError, ValueError) as exc:
            self.last_error = f"{self.record_path}: {exc}"
            return
        if isinstance(header, dict) and isinstance(header.get("id"), str):
            self._games.setdefault(header["id"], _Game()).known = len(lines)

    def _idle(self) -> bool:
        return all(g.unsent() == 0 or g.refused is not None for g in self._games.values())

    def _from_file(self, game_id: str, number: int) -> str | None:
        if self.record_path is None:
            return None
        try:
            lines = _read_lines(self.record_path)
            header = json.loads(lines[0]) if lines else {}
        except (OSError, ValueError):
            return None
        if not isinstance(header, dict) or header.get("id") not in (game_id, None) or number > len(lines):
            return None
        return lines[number - 1]

    def _run(self) -> None:
        delay = self.min_retry
        while True:
            with self._cond:
                if self._closing:
                    return
                if self._idle():
                    self._cond.wait()
                    continue
                work = [(gid, g) for gid, g in self._games.items() if g.unsent() and g.refused is None]
            ok = all(self._send(gid, g) for gid, g in work)
            with self._cond:
                if ok:
                    delay = self.min_retry
                    self._cond.notify_all()
                    continue
                self._cond.notify_all()
                # The server is away: wait, then try again (sooner if told the network is back).
                if not self._closing and not self._retry_at_once:
                    self._cond.wait(delay)
                self._retry_at_once = False
                delay = min(delay * 2, self.max_retry)

    def _send(self, game_id: str, game: _Game) -> bool:
        """Send the game's unsent events in order; ``False`` when the server is away."""
        try:
            if not game.asked:
                resp = self._client.get(f"/api/games/{game_id}/progress")
                if resp.status_code == 200:
                    with self._cond:
                        game.acked = max(game.acked, min(int(resp.json()["stored"]), game.known))
                        game.asked = True
            while True:
                if not self._send_take_back(game_id, game):
                    return False
                if not self._send_fills(game_id, game):
                    return False
                with self._cond:
                    number = game.acked + 1
                    if number > game.known:
                        return True
                    body = game.bodies.get(number)
                if body is None:
                    body = self._from_file(game_id, number)
                if body is None:
                    with self._cond:
                        game.refused = f"event {number} is neither in memory nor in {self.record_path}"
                    log.error("club feed: %s", game.refused)
                    return True
                replacing = game.replace_from == number
                resp = _post(self._client, game_id, number, body, replace=replacing)
                self.connected = True
                if resp.status_code in (200, 201):
                    with self._cond:
                        if game.acked != number - 1 or number > game.known or game.bodies.get(number, body) != body:
                            # A move was taken back while this one was on its way: send again
                            # from the first event replaced.
                            continue
                        game.acked = number
                        game.bodies.pop(number, None)
                        if replacing and game.replace_from == number:
                            game.replace_from = None
                        self._cond.notify_all()
                    continue
                expected = _expected(resp) if resp.status_code == 409 else None
                if expected is not None and expected != number:
                    with self._cond:
                        game.acked = expected - 1
                    continue
                if resp.status_code >= 500:
                    self.last_error = f"the club server answered {resp.status_code}: {_reason(resp)}"
                    return False
                with self._cond:
                    game.refused = f"event {number} refused ({resp.status_code}): {_reason(resp)}"
                    self.last_error = game.refused
                    self._cond.notify_all()
                log.error("club feed: game %s: %s", game_id, game.refused)
                return True
        except httpx.HTTPError as exc:
            self.connected = False
            self.last_error = f"cannot reach the club server at {self.url} ({exc})"
            return False

    def _send_take_back(self, game_id: str, game: _Game) -> bool:
        """Tell the server of moves taken back, before any later event; ``False`` when the
        server is away."""
        with self._cond:
            keep = game.keep
        if keep is None:
            return True
        resp = self._client.delete(f"/api/games/{game_id}/events/{keep + 1}")
        self.connected = True
        if resp.status_code >= 500:
            self.last_error = f"the club server answered {resp.status_code}: {_reason(resp)}"
            return False
        with self._cond:
            if game.keep == keep:
                game.keep = None
            if resp.status_code == 200:
                game.acked = min(game.acked, int(resp.json().get("stored", game.acked)))
            elif resp.status_code != 404:  # 404: the server never had the game, nothing to drop
                if resp.status_code != 405:
                    self.last_error = f"moves taken back from event {keep + 1}, refused ({resp.status_code}): {_reason(resp)}"
                    log.error("club feed: game %s: %s", game_id, self.last_error)
                # The next event goes as a replacement: a server that cannot take moves back
                # alone (405) drops them then; one that refused says why again.
                game.replace_from = keep + 1 if game.replace_from is None else min(game.replace_from, keep + 1)
            self._cond.notify_all()
        return True

    def _send_fills(self, game_id: str, game: _Game) -> bool:
        """Send the filled-in events the server holds face down, before any later event;
        ``False`` when the server is away. One the server refuses is dropped and said: the
        game goes on, its deal as first sent."""
        while True:
            with self._cond:
                for n in [n for n in game.fills if n > game.acked]:
                    # The server lost track since (it asked to resend from earlier): the
                    # filled-in event goes out in its turn instead.
                    game.bodies[n] = game.fills.pop(n)
                if not game.fills:
                    return True
                number = min(game.fills)
                body = game.fills[number]
            resp = _post(self._client, game_id, number, body)
            self.connected = True
            if resp.status_code >= 500:
                self.last_error = f"the club server answered {resp.status_code}: {_reason(resp)}"
                return False
            with self._cond:
                if game.fills.get(number) == body:
                    del game.fills[number]
                if resp.status_code not in (200, 201):
                    self.last_error = f"event {number} filled in, refused ({resp.status_code}): {_reason(resp)}"
                    log.error("club feed: game %s: %s", game_id, self.last_error)
                self._cond.notify_all()
