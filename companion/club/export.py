"""The archive's games for other tools: a stored game as a play for BG Stats, and the archive
as CSV.

**BG Stats** (the board-game play logger) imports a play from another app through its
documented ``createPlay`` link: ``https://app.bgstatsapp.com/createPlay.html?data=`` and the
play as URL-encoded JSON (the app opens it for the player to confirm). The play
(:func:`bgstats_play`) names its source (``sourceName``, ``sourcePlayId``: the archive's game
id, so that sending a game twice updates one play), its date (``playDate``, UTC), the game
(``name``, ``sourceGameId``, ``highestWins``, ``noPoints``), and each player (``name``,
``sourcePlayerId``, ``score``: the figure the game's club part names, ``winner``,
``startPlayer``: who began the game, ``rank``: the finishing place), with a comment saying the
set-up and how the game ended. Automatic seats (dummies) are nobody and are left out; the
comment names their scores. ``winner`` and ``startPlayer`` are written for every player, as
some versions of the app need both.

**CSV** (:func:`archive_rows`): one row a seat of each stored game, newest game first: the
game, its date and season, whether finished, its winner and ending, the seat, player, side,
whether automatic, whether its side won and its place, then a column per figure (the player's
figures; an automatic seat's are its side's). Given a game, the columns are that game's
figures in the order its club part shows them, then the others it stores; for every game at
once, the union of all their figures.

>>> url = bgstats_url({"sourceName": "x", "players": []})
>>> url.startswith(BGSTATS_CREATE_PLAY), url.endswith("%22players%22%3A%5B%5D%7D")
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, select

from companion.club.parts import require_part
from companion.club.schema import PLAYER, SIDE, game_figures, game_players, game_sides, games
from companion.contract.registry import UnknownGameError, game as game_named

__all__ = [
    "BGSTATS_CREATE_PLAY", "SOURCE_NAME", "CSV_COLUMNS", "GameNotFound", "archive_rows", "bgstats_play", "bgstats_url", "find_game",
]

BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' documented link for importing one play from another app."""
SOURCE_NAME = "Card-table companion club"
"""How BG Stats names where the play came from."""
#: The columns every CSV row has, before the figures.
CSV_COLUMNS = (
    "game_id", "game", "season", "played_at", "finished", "winner", "termination", "periods",
    "seat", "player", "side", "automatic", "team", "won", "place",
)
_CHUNK = 500  # games read at a time for the CSV


def _when(value: Any) -> datetime:
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _comment(row: Mapping[str, Any], part: Any, title: str) -> str:
    setup = row.get("setup") or {}
    options = ", ".join(f"{k} {v}" for k, v in setup.items() if k not in ("format", "players") and v not in (None, False))
    head = f"{title}" + (f" ({options})" if options else "")
    sides = {s["side"]: s for s in row["sides"]}
    dummies = [s for s in row["seats"] if s["automatic"]]
    if dummies:
        # An automatic seat is nobody: its figures are its side's.
        head += "; automatic seats: " + ", ".join(f"{s['player']} {sides.get(s['side'], {}).get(part.score, 0)}" for s in dummies)
    if not row["finished"]:
        return head + "; unfinished"
    ending = part.endings.get(row.get("termination") or "", "")
    result = f"won by {row['winner']}{ending}" if row["winner"] is not None else "a draw"
    return f"{head}; {result}"


def bgstats_play(row: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A stored game as a BG Stats play: ``row`` as :meth:`companion.club.archive.Archive.game`
    reads it, ``events`` its record's events (header first)."""
    game = game_named(row["game"])
    part = require_part(game)
    sides = {s["side"]: s for s in row["sides"]}
    start = part.starter(list(events))
    players = []
    for seat in row["seats"]:
        if seat["automatic"]:
            continue
        side = sides.get(seat["side"], {})
        player: dict[str, Any] = {
            "name": seat["player"],
            "sourcePlayerId": seat["player"],
            "score": int(seat.get(part.score, 0)),
            "winner": bool(side.get("won")),
            "startPlayer": seat["player"] == start,
        }
        if side.get("place") is not None:
            player["rank"] = int(side["place"])
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": row["id"],
        "playDate": _when(row["played_at"]).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "game": {"name": game.title, "sourceGameId": game.name, "highestWins": True, "noPoints": False},
        "players": players,
        "comments": _comment(row, part, game.title),
    }


def bgstats_url(play: Mapping[str, Any]) -> str:
    """The link that opens BG Stats with ``play`` to confirm (its ``createPlay`` import)."""
    return BGSTATS_CREATE_PLAY + quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")


def _figure_order(game: str | None, found: set[str]) -> list[str]:
    shown: list[str] = []
    if game is not None:
        try:
            part = require_part(game_named(game))
            shown = [c.figure for c in part.columns] + [f for f in part.history if f not in {c.figure for c in part.columns}]
        except (UnknownGameError, ValueError):
            shown = []
    return shown + sorted(found - set(shown))


def archive_rows(engine: Engine, *, game: str | None = None, season: str | None = None) -> Iterator[list[Any]]:
    """The archive as CSV rows (see the module's words): the heading first, then one row a seat
    of each stored game, newest game first, read a few hundred games at a time."""
    query = select(
        games.c.id, games.c.game, games.c.season, games.c.played_at, games.c.finished, games.c.winner,
        games.c.termination, games.c.periods,
    ).order_by(games.c.played_at.desc(), games.c.id)
    if game:
        query = query.where(games.c.game == game)
    if season:
        query = query.where(games.c.season == season)
    with engine.connect() as conn:
        found = set(conn.execute(select(game_figures.c.figure).distinct().where(
            game_figures.c.game_id.in_(select(query.subquery().c.id))
        )).scalars())
        figures = _figure_order(game, found)
        yield [*CSV_COLUMNS, *figures]
        rows = conn.execute(query).all()
        for k in range(0, len(rows), _CHUNK):
            chunk = rows[k : k + _CHUNK]
            ids = [r.id for r in chunk]
            seats: dict[str, list[Any]] = {}
            for s in conn.execute(
                select(game_players).where(game_players.c.game_id.in_(ids)).order_by(game_players.c.game_id, game_players.c.seat)
            ):
                seats.setdefault(s.game_id, []).append(s)
            sides = {(s.game_id, s.side): s for s in conn.execute(select(game_sides).where(game_sides.c.game_id.in_(ids)))}
            held: dict[tuple[str, str, str], dict[str, int]] = {}
            for f in conn.execute(select(game_figures).where(game_figures.c.game_id.in_(ids))):
                held.setdefault((f.game_id, f.scope, f.holder), {})[f.figure] = f.value
            for g in chunk:
                for s in seats.get(g.id, []):
                    side = sides.get((g.id, s.side))
                    # An automatic seat is nobody: its figures are its side's.
                    own = held.get((g.id, SIDE, s.side) if s.automatic else (g.id, PLAYER, s.player), {})
                    yield [
                        g.id, g.game, g.season, _when(g.played_at).isoformat(), int(g.finished), g.winner or "",
                        g.termination or "", g.periods, s.seat, s.player, s.side, int(s.automatic),
                        int(bool(side is not None and side.is_team)), int(bool(side is not None and side.won)),
                        "" if side is None or side.place is None else side.place,
                        *(own.get(name, 0) for name in figures),
                    ]



class GameNotFound(LookupError):
    """No stored game, or several, answer to the id given."""


def find_game(engine: Engine, given: str) -> str:
    """The id of the stored game ``given`` names: its whole id, or the start of one (the page
    shows the first twelve characters); :class:`GameNotFound` saying why otherwise."""
    text = given.strip().lower()
    if not text or any(c in text for c in "%_\\"):
        raise GameNotFound(f"no stored game {given!r}: give a game's id (rop club history, or the page's Games)")
    with engine.connect() as conn:
        ids = list(conn.execute(select(games.c.id).where(games.c.id.like(text + "%")).order_by(games.c.id).limit(6)).scalars())
    if not ids:
        raise GameNotFound(f"no stored game {given!r}")
    if len(ids) > 1 and text not in ids:
        shown = ", ".join(i[:16] for i in ids[:5])
        raise GameNotFound(f"{given!r} names several stored games ({shown}{', ...' if len(ids) > 5 else ''}): give more of its id")
    return text if text in ids else ids[0]
