"""The club server on a real socket: token posts, refused posts that leave the archive
intact, live games archived when they end, the server-sent events stream, stored games
replayed move by move."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, func, select

from companion.club.archive import Archive, read_record_file
from companion.club.database import open_archive
from companion.club.schema import live_events
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.cli import main
from companion.records.format import load_game
from tests.club.conftest import record_lines, write_record

GID = "a1b2c3d4e5f60718293a4b5c6d7e8f90"


class Club:
    def __init__(self, engine: Engine, server: ClubServer, tokens: dict[str, str], tokens_path: Path) -> None:
        self.engine, self.server, self.tokens, self.tokens_path = engine, server, tokens, tokens_path

    def client(self, table: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[table]}"} if table else {}
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=10)


@pytest.fixture
def club(db_url: str, tmp_path: Path) -> Iterator[Club]:
    engine = open_archive(db_url)
    path = tmp_path / "tokens.txt"
    tokens = {t: issue_token(path, t) for t in ("t1", "t2")}
    server = ClubServer(engine, TokenFile(path)).start()
    try:
        yield Club(engine, server, tokens, path)
    finally:
        server.stop()
        engine.dispose()


def _post(c: httpx.Client, gid: str, n: int, line: str) -> httpx.Response:
    return c.post(f"/api/games/{gid}/events/{n}", content=line.encode())


def _live_rows(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(live_events)).scalar_one())


def test_posts_need_a_table_token(club: Club, caplog: pytest.LogCaptureFixture) -> None:
    line = record_lines(1, header={"id": GID})[0]
    with club.client() as anon:
        assert anon.get("/api/tables").json() == []  # reading needs no token
        r = _post(anon, GID, 1, line)
        assert r.status_code == 401 and "token" in r.json()["reason"]
        r = anon.post(f"/api/games/{GID}/events/1", content=line, headers={"Authorization": "Bearer not-a-token"})
        assert r.status_code == 401
    assert _live_rows(club.engine) == 0
    assert "refused POST" in caplog.text


def test_a_table_plays_a_whole_game_which_is_then_archived(club: Club, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = record_lines(2, players=4, teams=2, header={"id": GID})
    with club.client("t1") as t1:
        for n, line in enumerate(lines, 1):
            r = _post(t1, GID, n, line)
            assert r.status_code == 201, r.text
        # A repeat (the table did not hear the answer) is acknowledged, not stored twice.
        assert _post(t1, GID, 5, lines[4]).status_code == 200
        assert _post(t1, GID, len(lines), lines[-1]).status_code == 200
        assert t1.get(f"/api/games/{GID}/progress").json()["stored"] == len(lines)
    archive = Archive(club.engine)
    stored = archive.game(GID)
    game = load_game(lines)
    assert stored is not None and stored["finished"] and stored["winner"] == game.outcome().winner
    assert {s["side"]: s["points_for"] for s in stored["sides"]} == game.totals
    assert _live_rows(club.engine) == 0
    # The table's own file, added by hand afterwards, is the same game.
    path = write_record(tmp_path / "g.jsonl", lines)
    assert archive.store(read_record_file(path)).status == "duplicate"


def test_bad_posts_are_refused_and_the_archive_is_intact(club: Club, caplog: pytest.LogCaptureFixture) -> None:
    lines = record_lines(3, header={"id": GID})
    with club.client("t1") as t1, club.client("t2") as t2:
        assert _post(t1, GID, 2, lines[1]).status_code == 409  # unknown game, not from its header
        for n in range(1, 6):
            assert _post(t1, GID, n, lines[n - 1]).status_code == 201
        r = _post(t1, GID, 6, "{not json")
        assert r.status_code == 400 and "not valid JSON" in r.json()["reason"]
        r = _post(t1, GID, 6, "[1, 2]")
        assert r.status_code == 400
        r = _post(t1, GID, 9, lines[8])
        assert r.status_code == 409 and r.json()["expected"] == 6
        r = _post(t1, GID, 3, lines[3])
        assert r.status_code == 409 and "other content" in r.json()["reason"]
        illegal = json.loads(lines[5])
        illegal["player"] = "nobody" if illegal.get("player") else illegal.get("player")
        r = _post(t1, GID, 6, json.dumps(illegal))
        assert r.status_code == 422 and r.json()["reason"].startswith("table t1: event 6:")
        r = _post(t2, GID, 6, lines[5])
        assert r.status_code == 403 and "belongs to table t1" in r.json()["reason"]
        r = _post(t1, "bad/id", 1, lines[0])
        assert r.status_code in (400, 404)
        header = json.loads(lines[0])
        r = _post(t1, "ffffffffffffffffffffffffffffffff", 1, json.dumps(header))
        assert r.status_code == 422 and "is not the game posted to" in r.json()["reason"]
        # After all that the game carries on from event 6, as if nothing had happened.
        for n in range(6, len(lines) + 1):
            assert _post(t1, GID, n, lines[n - 1]).status_code == 201
    assert Archive(club.engine).events(GID) == [json.dumps(json.loads(t), sort_keys=True, separators=(",", ":")) for t in lines]
    assert caplog.text.count("refused POST") >= 8


def test_rule_break_names_the_rule(club: Club) -> None:
    lines = record_lines(4, header={"id": GID})
    with club.client("t1") as t1:
        for n in range(1, 4):
            assert _post(t1, GID, n, lines[n - 1]).status_code == 201
        play = json.loads(lines[3])
        held = set(json.loads(lines[2])["hands"][play["player"]])
        play["card"] = next(f"W{n:03d}" for n in range(1, 41) if f"W{n:03d}" not in held)
        r = _post(t1, GID, 4, json.dumps(play))
        assert r.status_code == 422 and "[R" in r.json()["reason"]
        assert r.json()["rule"]


class _Stream:
    """Reads the server's /events stream on a thread, frame by frame."""

    def __init__(self, url: str) -> None:
        self.frames: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._client = httpx.Client(base_url=url, timeout=httpx.Timeout(10, read=None))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            with self._client.stream("GET", "/events") as resp:
                kind = None
                for line in resp.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        self.frames.put((kind or "message", json.loads(line[6:])))
        except httpx.HTTPError:
            pass
        self.frames.put(("closed", None))

    def next(self) -> tuple[str, Any]:
        return self.frames.get(timeout=30)

    def close(self) -> None:
        self._client.close()


def test_spectators_get_each_table_update(club: Club) -> None:
    lines = record_lines(5, players=3, header={"id": GID})
    stream = _Stream(club.server.url)
    try:
        assert stream.next() == ("tables", [])
        with club.client("t1") as t1:
            for n in range(1, 12):
                assert _post(t1, GID, n, lines[n - 1]).status_code == 201
                kind, state = stream.next()
                assert kind == "table" and state["events"] == n and state["table"] == "t1"
            _post(t1, GID, 3, lines[2])  # a repeat changes nothing: no update is sent
            assert _post(t1, GID, 12, lines[11]).status_code == 201
        kind, state = stream.next()
        assert state["events"] == 12
        game = load_game(lines[:12])
        assert state["totals"] == game.totals
        if game.phase.value in ("deal", "turn"):
            score = game.provisional_score()
            assert state["pride"] == score.pride.explain() and state["ring"] == score.power_ring.explain()
            assert state["running"] == {s: p.total for s, p in score.sides.items()}
        assert len(state["last_moves"]) == 8
    finally:
        club.server.stop()
        assert stream.next()[0] == "closed"
        stream.close()


def test_stored_game_replayed_move_by_move(club: Club) -> None:
    lines = record_lines(6, players=2)
    result = Archive(club.engine).add_lines(lines)
    with club.client() as c:
        listed = c.get("/api/games").json()
        assert [g["id"] for g in listed] == [result.game_id]
        data = c.get(f"/api/games/{result.game_id}").json()
        assert c.get("/api/games/nope").status_code == 404
    game = load_game(lines)
    assert len(data["steps"]) == len(lines)
    settlements = [s["settlement"] for s in data["steps"] if "settlement" in s]
    assert [s["reasons"] for s in settlements] == [r.score.reasons() for r in game.results]
    assert data["steps"][-1]["totals"] == game.totals
    with club.client() as c:
        standings = c.get("/api/standings").json()
    assert {p["name"] for p in standings["players"]} == set(game.setup.players)


def test_live_games_carry_on_after_a_server_restart(db_url: str, tmp_path: Path) -> None:
    lines = record_lines(7, header={"id": GID})
    path = tmp_path / "tokens.txt"
    token = issue_token(path, "t1")
    engine = open_archive(db_url)
    headers = {"Authorization": f"Bearer {token}"}
    with ClubServer(engine, TokenFile(path)) as server, httpx.Client(base_url=server.url, headers=headers) as c:
        for n in range(1, 11):
            assert _post(c, GID, n, lines[n - 1]).status_code == 201
    with ClubServer(engine, TokenFile(path)) as server, httpx.Client(base_url=server.url, headers=headers) as c:
        tables = c.get("/api/tables").json()
        assert [(t["table"], t["events"]) for t in tables] == [("t1", 10)]
        assert _post(c, GID, 10, lines[9]).status_code == 200
        for n in range(11, len(lines) + 1):
            assert _post(c, GID, n, lines[n - 1]).status_code == 201
    assert Archive(engine).game(GID)["finished"] is True
    engine.dispose()


def test_a_token_issued_while_serving_works_at_once(club: Club) -> None:
    token = issue_token(club.tokens_path, "t9")
    line = record_lines(8, header={"id": GID})[0]
    with httpx.Client(base_url=club.server.url, headers={"Authorization": f"Bearer {token}"}) as c:
        assert _post(c, GID, 1, line).status_code == 201


def test_token_command_stores_only_the_hash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tokens.txt"
    assert main(["club", "token", "table-3", "--tokens", str(path)]) == 0
    token = capsys.readouterr().out.strip()
    assert len(token) >= 40 and token not in path.read_text()
    assert TokenFile(path).table_for(token) == "table-3"
    assert main(["club", "token", "bad name", "--tokens", str(path)]) == 2
    assert "table names are" in capsys.readouterr().err


def test_a_table_moves_on_to_its_next_game(club: Club) -> None:
    first = record_lines(9, header={"id": GID})
    second_id = "1234567890abcdef1234567890abcdef"
    second = record_lines(10, header={"id": second_id})
    with club.client("t1") as t1:
        for n, line in enumerate(first, 1):
            assert _post(t1, GID, n, line).status_code == 201
        assert _post(t1, second_id, 1, second[0]).status_code == 201
        tables = t1.get("/api/tables").json()
        # A repeat of the finished game's last event is still acknowledged from the archive.
        assert _post(t1, GID, len(first), first[-1]).status_code == 200
    assert [(t["table"], t["game_id"], t["events"]) for t in tables] == [("t1", second_id, 1)]
    assert set(club.server.app.state.live.games) <= {GID, second_id}


def test_serve_command_listens_on_localhost(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.club.conftest import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "club", "serve", "--db", str(tmp_path / "c.sqlite"), "--port", str(port),
         "--tokens", str(tmp_path / "tokens.txt")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline()
        assert banner.startswith(f"club page on http://127.0.0.1:{port}/ (0 table token(s)")
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)  # bound before the banner
        assert page.status_code == 200 and "<h1>Club</h1>" in page.text
        r = httpx.post(f"http://127.0.0.1:{port}/api/games/{GID}/events/1", content="{}")
        assert r.status_code == 401
    finally:
        proc.terminate()
        proc.wait(30)
    assert "refused POST" in (proc.stderr.read() if proc.stderr else "")


def test_a_post_stored_by_another_way_is_found_in_the_archive(club: Club) -> None:
    """Event 6 reaches the archive by another way (another server process on the same
    archive) while this one still holds 5 events of the game: storing the table's post finds
    it there, the game is read back from the archive, and the post is acknowledged as already
    stored (200), once."""
    from datetime import UTC, datetime

    from companion.club.identity import canonical

    lines = record_lines(13, header={"id": GID})
    with club.client("t1") as t1:
        for n in range(1, 6):
            assert _post(t1, GID, n, lines[n - 1]).status_code == 201
        with club.engine.begin() as conn:
            conn.execute(live_events.insert(), {"game_id": GID, "number": 6, "table_name": "t1",
                                                "body": canonical(json.loads(lines[5])), "received_at": datetime.now(UTC)})
        r = _post(t1, GID, 6, lines[5])
        assert r.status_code == 200 and r.json()["status"] == "already stored", r.text
        assert t1.get(f"/api/games/{GID}/progress").json()["stored"] == 6
        for n in range(7, len(lines) + 1):
            assert _post(t1, GID, n, lines[n - 1]).status_code == 201
    assert Archive(club.engine).events(GID) == [canonical(json.loads(t)) for t in lines]
    assert _live_rows(club.engine) == 0


def test_an_event_holding_a_lone_surrogate_is_refused_and_says_where(club: Club) -> None:
    """JSON may escape half of a character (``"\\ud800"``), which is no text: such an event is
    refused with a 4xx naming the key, never 503 (a table would send it again for ever), and
    the game goes on from the same event once it is sent whole."""
    lines = record_lines(14, header={"id": GID})
    bad_header = lines[0].rstrip().removesuffix("}") + ', "zz": "\\ud800"}'
    with club.client("t1") as t1:
        r = _post(t1, GID, 1, bad_header)
        assert r.status_code == 400, r.text
        assert r.json()["reason"] == 'table t1: event 1: the game event\'s "zz" holds a lone surrogate (\\ud800), which is not text'
        assert _live_rows(club.engine) == 0
        for n in range(1, 6):
            assert _post(t1, GID, n, lines[n - 1]).status_code == 201
        move = json.loads(lines[5])
        move["note"] = ["fine", "\ud83d"]
        r = _post(t1, GID, 6, json.dumps(move))
        assert r.status_code == 400
        assert f'the {move["event"]} event\'s "note"[1] holds a lone surrogate (\\ud83d)' in r.json()["reason"]
        assert _post(t1, GID, 6, lines[5]).status_code == 201
    assert _live_rows(club.engine) == 6


@pytest.mark.parametrize(
    "number", ["9" * 4400, "1" + "0" * 30, "0", "-1", "x", "1.5"], ids=["4400-digits", "1e30", "0", "-1", "x", "1.5"]
)
def test_an_event_number_out_of_bounds_is_refused(club: Club, number: str, caplog: pytest.LogCaptureFixture) -> None:
    """A post or a take-back to an event number no game can reach (thousands of digits, past
    what Python turns into a number by default) is refused with the reason, as any other bad
    number, never failing inside the server."""
    line = record_lines(15, header={"id": GID})[0]
    with club.client("t1") as t1:
        for method in ("POST", "DELETE"):
            r = t1.request(method, f"/api/games/{GID}/events/{number}", content=line.encode())
            assert 400 <= r.status_code < 500, (method, r.status_code, r.text[:200])
            assert r.json()["reason"], r.text[:200]
            if len(number) > 20:
                assert "event number" in r.json()["reason"], r.text[:200]
        assert _post(t1, GID, 1, line).status_code == 201
    assert "Exception in ASGI application" not in caplog.text


def test_a_restarted_server_lists_each_tables_last_game_as_before(db_url: str, tmp_path: Path) -> None:
    """A game that ended at a table stays on the page until the table begins another: a server
    started again lists it with its result, beside the games under way, each table's latest
    game as before; and a game quiet for an hour still says when it last moved."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    path = tmp_path / "tokens.txt"
    tokens = {t: issue_token(path, t) for t in ("t1", "t2", "t3")}
    engine = open_archive(db_url)
    ended_id, going_id, next_id = "b1b2c3d4e5f60718293a4b5c6d7e8f90", "c1b2c3d4e5f60718293a4b5c6d7e8f90", "d1b2c3d4e5f60718293a4b5c6d7e8f90"
    first, ended = record_lines(16, header={"id": GID}), record_lines(17, header={"id": ended_id})
    going, following = record_lines(18, header={"id": going_id}), record_lines(19, header={"id": next_id})
    plays = (("t1", GID, first, len(first)), ("t1", next_id, following, 1), ("t2", ended_id, ended, len(ended)), ("t3", going_id, going, 9))
    try:
        with ClubServer(engine, TokenFile(path)) as server:
            for table, gid, lines, upto in plays:
                with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {tokens[table]}"}) as c:
                    for n in range(1, upto + 1):
                        assert _post(c, gid, n, lines[n - 1]).status_code == 201
            before = httpx.get(f"{server.url}/api/tables").json()
        # Table t3 made its last move an hour ago.
        hour = timedelta(hours=1)
        with engine.begin() as conn:
            rows = list(conn.execute(select(live_events.c.number, live_events.c.received_at).where(live_events.c.game_id == going_id)))
            for number, at in rows:
                mine = (live_events.c.game_id == going_id) & (live_events.c.number == number)
                conn.execute(update(live_events).where(mine).values(received_at=at - hour))
        with ClubServer(engine, TokenFile(path)) as server:
            after = httpx.get(f"{server.url}/api/tables").json()
    finally:
        engine.dispose()
    shown = ("table", "game_id", "events", "finished", "winner", "last_moves")
    assert [{k: t[k] for k in shown} for t in after] == [{k: t[k] for k in shown} for t in before]
    assert [(t["table"], t["game_id"], t["finished"]) for t in after] == [("t1", next_id, False), ("t2", ended_id, True), ("t3", going_id, False)]
    quiet = datetime.now(UTC) - datetime.fromisoformat(after[2]["updated_at"])
    assert hour <= quiet < 2 * hour
