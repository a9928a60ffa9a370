"""The table's feed: events sent as they happen from a background thread, a table that
keeps playing while the club server is away, catch-up from the local record file, nothing
lost or stored twice; ``rop club push`` by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, select

from companion.club.archive import Archive
from companion.club.database import open_archive
from companion.club.feed import ClubFeed
from companion.club.identity import canonical
from companion.club.schema import live_events
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.cli import main
from tests.club.conftest import events_of, free_port, record_lines, write_record

GID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    e = open_archive(f"sqlite:///{tmp_path / 'club.sqlite'}")
    yield e
    e.dispose()


@pytest.fixture
def token_file(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "tokens.txt"
    return path, issue_token(path, "t1")


def _stored(engine: Engine, gid: str) -> list[str]:
    archived = Archive(engine).events(gid)
    if archived:
        return archived
    with engine.connect() as conn:
        return list(conn.execute(select(live_events.c.body).where(live_events.c.game_id == gid).order_by(live_events.c.number)).scalars())


class Table:
    """A table writing its record line by line and telling the feed, as the session does."""

    def __init__(self, path: Path, lines: list[str]) -> None:
        self.path, self.lines, self.saved = path, lines, 0
        path.write_text("")

    def play(self, feed: ClubFeed | None, upto: int) -> None:
        with self.path.open("a") as fp:
            while self.saved < upto:
                line = self.lines[self.saved]
                fp.write(line)
                fp.flush()
                self.saved += 1
                if feed is not None:
                    feed.event(GID, self.saved, line.strip())


def test_feed_sends_each_event_as_it_happens(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    lines = record_lines(1, players=3, header={"id": GID})
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        feed = ClubFeed(server.url, token_file[1], tmp_path / "game.jsonl")
        table = Table(tmp_path / "game.jsonl", lines)
        table.play(feed, 20)
        assert feed.wait_sent(30)
        assert len(_stored(engine, GID)) == 20
        table.play(feed, len(lines))
        feed.close()
    assert feed.pending() == 0
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines)]
    assert Archive(engine).game(GID)["finished"] is True


def test_feed_catches_up_when_the_server_starts_later(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    lines = record_lines(2, header={"id": GID})
    port = free_port()
    feed = ClubFeed(f"http://127.0.0.1:{port}", token_file[1], tmp_path / "game.jsonl", min_retry=0.05, max_retry=0.2)
    table = Table(tmp_path / "game.jsonl", lines)
    table.play(feed, 30)  # nobody listens: the table plays on
    assert feed.pending() == 30
    assert not feed.wait_sent(0)
    assert feed.status()["last_error"] is None or "cannot reach" in feed.status()["last_error"]
    with ClubServer(engine, TokenFile(token_file[0]), port=port):
        feed.retry_now()
        assert feed.wait_sent(30), feed.status()
        assert len(_stored(engine, GID)) == 30
        table.play(feed, len(lines))
        feed.close()
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines)]


def test_events_lost_from_memory_are_read_back_from_the_record(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    """A table whose program restarted mid-game: a new feed on the same record sends what the
    server lacks, from the file, and nothing twice."""
    lines = record_lines(3, header={"id": GID})
    record = tmp_path / "game.jsonl"
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        feed = ClubFeed(server.url, token_file[1], record)
        table = Table(record, lines)
        table.play(feed, 12)
        feed.close()
        table.play(None, 40)  # played while the program was down: only the file has them
        feed2 = ClubFeed(server.url, token_file[1], record)
        assert feed2.wait_sent(30), feed2.status()
        assert len(_stored(engine, GID)) == 40
        table.play(feed2, len(lines))
        feed2.close()
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines)]


def test_feed_survives_a_server_restart_mid_game(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    lines = record_lines(4, header={"id": GID})
    record = tmp_path / "game.jsonl"
    server = ClubServer(engine, TokenFile(token_file[0])).start()
    port = server.port
    feed = ClubFeed(server.url, token_file[1], record, min_retry=0.05, max_retry=0.2)
    table = Table(record, lines)
    table.play(feed, 15)
    assert feed.wait_sent(30)
    server.stop()
    table.play(feed, 35)
    with ClubServer(engine, TokenFile(token_file[0]), port=port):
        feed.retry_now()
        assert feed.wait_sent(30), feed.status()
        table.play(feed, len(lines))
        feed.close()
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines)]


def test_a_refused_feed_stops_and_says_why(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    lines = record_lines(5, header={"id": GID})
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        feed = ClubFeed(server.url, "wrong-token", tmp_path / "game.jsonl")
        Table(tmp_path / "game.jsonl", lines).play(feed, 3)
        assert feed.wait_sent(30)
        feed.close()
    assert "401" in (feed.status()["last_error"] or "")
    assert _stored(engine, GID) == []


def test_push_command_sends_what_the_server_lacks(engine: Engine, token_file: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = record_lines(6, players=4, teams=2, header={"id": GID})
    record = write_record(tmp_path / "game.jsonl", lines)
    plain = write_record(tmp_path / "plain.jsonl", record_lines(7))
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token_file[1]}"}) as c:
            for n in range(1, 6):
                c.post(f"/api/games/{GID}/events/{n}", content=lines[n - 1])
        assert main(["club", "push", str(record), str(plain), "--club", server.url, "--token", token_file[1]]) == 0
        out = capsys.readouterr().out
        assert f"{len(lines) - 5} event(s) sent, 5 already on the server" in out
        assert main(["club", "push", str(record), "--club", server.url, "--token", token_file[1]]) == 0
        assert f"0 event(s) sent, {len(lines)} already on the server" in capsys.readouterr().out
        other = write_record(tmp_path / "other.jsonl", record_lines(8))
        assert main(["club", "push", str(other), "--club", server.url, "--token", "nope"]) == 2
        assert "401" in capsys.readouterr().err
    assert Archive(engine).count() == 2  # the refused one is not there
    assert main(["club", "push", str(record), "--club", f"http://127.0.0.1:{free_port()}", "--token", "x"]) == 2
    assert "cannot reach the club server" in capsys.readouterr().err


def _post(c: httpx.Client, n: int, line: str) -> httpx.Response:
    return c.post(f"/api/games/{GID}/events/{n}", content=line.encode())


def _other_move(lines: list[str], start: int) -> tuple[int, str]:
    """A record position ``n`` (>= start) where another legal event than the recorded one
    exists, and that event: what a table that took a move back and played another sends."""
    from companion.records.format import dumps_event, load_game, move_event

    for n in range(start, len(lines)):
        game = load_game(lines[: n - 1], keep_history=True)
        for move in game.legal_moves:
            line = dumps_event(move_event(move, game.setup))
            if json.loads(line) != json.loads(lines[n - 1]):
                return n, line
    raise AssertionError("no position with a choice")


def _played(server: ClubServer, token: str, record: Path, lines: list[str], upto: int) -> ClubFeed:
    """A table's feed once its first ``upto`` events are on the server."""
    feed = ClubFeed(server.url, token, record)
    Table(record, lines).play(feed, upto)
    assert feed.wait_sent(30), feed.status()
    return feed


def test_a_move_taken_back_at_the_table_replaces_it_on_the_server(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    lines = record_lines(11, header={"id": GID})
    n, other = _other_move(lines, 12)
    record = tmp_path / "game.jsonl"
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        feed = _played(server, token_file[1], record, lines, n + 3)
        # Undo three moves at the table, then another move instead of the first of them.
        record.write_text("".join(lines[: n - 1]) + other + "\n")
        feed.event(GID, n, other)
        assert feed.wait_sent(30), feed.status()
        feed.close()
        assert feed.status()["last_error"] is None
        with httpx.Client(base_url=server.url) as c:
            assert c.get(f"/api/games/{GID}/progress").json()["stored"] == n
            assert c.get("/api/tables").json()[0]["events"] == n
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines[: n - 1] + [other])]


def test_moves_taken_back_at_the_table_leave_the_club_at_once(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    """An undo at the table is taken back on the server when it happens, not when the next
    move replaces it: spectators see the table as it is now, told that moves were taken
    back; the next move follows on as an ordinary post."""
    lines = record_lines(11, header={"id": GID})
    n, other = _other_move(lines, 12)
    record = tmp_path / "game.jsonl"
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        feed = _played(server, token_file[1], record, lines, n + 3)
        # Four moves taken back at the table; nothing played yet instead.
        record.write_text("".join(lines[: n - 1]))
        feed.take_back(GID, n - 1)
        assert feed.wait_sent(30), feed.status()
        with httpx.Client(base_url=server.url) as c:
            assert c.get(f"/api/games/{GID}/progress").json()["stored"] == n - 1
            (table,) = c.get("/api/tables").json()
            assert (table["events"], table["taken_back"]) == (n - 1, 4)
        assert _stored(engine, GID) == [canonical(e) for e in events_of(lines[: n - 1])]
        # The move played instead goes as the next event.
        with record.open("a") as fp:
            fp.write(other + "\n")
        feed.event(GID, n, other)
        assert feed.wait_sent(30), feed.status()
        feed.close()
        assert feed.status()["last_error"] is None
        with httpx.Client(base_url=server.url) as c:
            (table,) = c.get("/api/tables").json()
            assert (table["events"], table["taken_back"]) == (n, 0)
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines[: n - 1] + [other])]


def test_a_server_that_cannot_take_moves_back_gets_the_next_move_as_a_replacement(
    engine: Engine, token_file: tuple[Path, str], tmp_path: Path
) -> None:
    """A club server of an earlier release has no take-back (405): the feed leaves its moves
    there until the next move, which it sends as a replacement, as that server expects."""
    from starlette.routing import Route

    lines = record_lines(11, header={"id": GID})
    n, other = _other_move(lines, 12)
    record = tmp_path / "game.jsonl"
    server = ClubServer(engine, TokenFile(token_file[0]))
    server.app.router.routes = [
        Route(r.path, r.endpoint, methods=["POST"]) if isinstance(r, Route) and "DELETE" in (r.methods or ()) else r
        for r in server.app.router.routes
    ]
    with server:
        feed = _played(server, token_file[1], record, lines, n + 3)
        record.write_text("".join(lines[: n - 1]))
        feed.take_back(GID, n - 1)
        assert feed.wait_sent(30), feed.status()
        assert httpx.get(f"{server.url}/api/games/{GID}/progress").json()["stored"] == n + 3
        with record.open("a") as fp:
            fp.write(other + "\n")
        feed.event(GID, n, other)
        assert feed.wait_sent(30), feed.status()
        feed.close()
        assert feed.status()["last_error"] is None
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines[: n - 1] + [other])]


def test_taking_back_is_for_the_playing_table_and_never_the_header(engine: Engine, token_file: tuple[Path, str]) -> None:
    lines = record_lines(12, header={"id": GID})
    other_token = issue_token(token_file[0], "t2")
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token_file[1]}"}) as t1:
            for i in range(1, 11):
                assert t1.post(f"/api/games/{GID}/events/{i}", content=lines[i - 1]).status_code == 201
            assert httpx.delete(f"{server.url}/api/games/{GID}/events/9").status_code == 401
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {other_token}"}) as t2:
                r = t2.delete(f"/api/games/{GID}/events/9")
                assert r.status_code == 403 and "belongs to table t1" in r.json()["reason"]
            r = t1.delete(f"/api/games/{GID}/events/1")
            assert r.status_code == 409 and "header" in r.json()["reason"]
            assert t1.delete(f"/api/games/{'a' * 32}/events/3").status_code == 404
            # Beyond what the club holds: nothing to take back, and said so.
            r = t1.delete(f"/api/games/{GID}/events/11")
            assert (r.status_code, r.json()["status"], r.json()["stored"]) == (200, "nothing to take back", 10)
            r = t1.delete(f"/api/games/{GID}/events/9")
            assert (r.status_code, r.json()["status"], r.json()["stored"]) == (200, "taken back", 8)
            # Sent twice (a retry): the second finds nothing more to drop.
            assert t1.delete(f"/api/games/{GID}/events/9").json()["status"] == "nothing to take back"
            assert t1.post(f"/api/games/{GID}/events/9", content=lines[8]).status_code == 201
            assert t1.get(f"/api/games/{GID}/progress").json()["stored"] == 9
    assert _stored(engine, GID) == [canonical(e) for e in events_of(lines[:9])]


def test_replacing_is_for_the_playing_table_and_legal_moves_only(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    lines = record_lines(12, header={"id": GID})
    n, other = _other_move(lines, 10)
    other_token = issue_token(token_file[0], "t2")
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token_file[1]}"}) as t1:
            for i in range(1, n + 2):
                assert t1.post(f"/api/games/{GID}/events/{i}", content=lines[i - 1]).status_code == 201
            bad = json.loads(other)
            bad["player"] = "nobody"
            r = t1.post(f"/api/games/{GID}/events/{n}", content=json.dumps(bad), params={"replace": "1"})
            assert r.status_code == 422
            r = t1.post(f"/api/games/{GID}/events/1", content=lines[0].replace('"target": 11', '"target": 16'), params={"replace": "1"})
            assert r.status_code == 409
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {other_token}"}) as t2:
                r = t2.post(f"/api/games/{GID}/events/{n}", content=other, params={"replace": "1"})
                assert r.status_code == 403
            assert t1.get(f"/api/games/{GID}/progress").json()["stored"] == n + 1
            assert t1.post(f"/api/games/{GID}/events/{n}", content=other, params={"replace": "1"}).status_code == 201
            assert t1.get(f"/api/games/{GID}/progress").json()["stored"] == n
    assert _stored(engine, GID)[-1] == canonical(json.loads(other))


def test_a_game_session_feeds_the_club_as_it_saves_its_events(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    """``--club URL``: the session's saved events go to the club as they are applied; an
    undo followed by another move, and a correction, replace what the server had; the
    archive ends with exactly the saved record."""
    from companion.club.table import TableFeed
    from companion.games.rule_of_power.engine.moves import Play
    from companion.records.format import iter_record_lines
    from companion.records.store import GameFile, list_games
    from companion.session import GameSession
    from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

    setup = make_setup(2)
    table = VirtualTable(setup, seed=21)
    session = GameSession(setup)
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        follower = TableFeed(session, server.url, token_file[1])
        session.start(setup, record=GameFile.create(tmp_path / "games", setup))
        assert follower.game_id is not None
        for _ in range(25):
            session.propose(table.next_move(session.game))
        # A move taken back at the table once the club has it, and another one played
        # instead where there is one.
        assert follower.feed is not None and follower.feed.wait_sent(30), follower.feed.status()
        undone = session.undo()
        assert undone is not None
        # The club has the move taken back before any other is made.
        assert follower.feed is not None and follower.feed.wait_sent(30), follower.feed.status()
        (shown,) = httpx.get(f"{server.url}/api/tables").json()
        assert (shown["events"], shown["taken_back"]) == (len(session.moves) + 1, 1)
        other = next((m for m in session.game.legal_moves if isinstance(m, Play) and m != undone.move), undone.move)
        session.propose(other)
        index = next(i for i, m in enumerate(session.moves) if isinstance(m, Play))
        fix = next(m for m in session.position_before(index).legal_moves if isinstance(m, Play) and m != session.moves[index])
        session.correct(index, fix)
        assert follower.feed is not None and follower.feed.wait_sent(30), follower.feed.status()
        status = follower.feed.status()
        follower.close()
        assert status["last_error"] is None, status
    (path,) = list_games(tmp_path / "games")
    saved = [line + "\n" for line in iter_record_lines(setup, session.moves, follower.game_id)]
    assert path.read_text(encoding="utf-8") == "".join(saved)
    stored, want = _stored(engine, follower.game_id), [canonical(e) for e in events_of(saved)]
    assert stored == want, "\n".join(f"{a} | {b}" for a, b in zip(stored, want))


def _face_down(moves: list[Any]) -> list[Any]:
    """The moves of a game as a camera sees them: every hand dealt face down."""
    from companion.games.rule_of_power.engine.moves import Deal

    return [Deal.make({p: [None] * len(cards) for p, cards in m.hands}, m.centre) if isinstance(m, Deal) else m for m in moves]


def test_hands_filled_in_at_a_rounds_end_reach_the_club(engine: Engine, token_file: tuple[Path, str], tmp_path: Path) -> None:
    """A game followed by a camera: its hands are dealt face down, and the session fills them
    in, in the saved record, once each round ends. The club ends with exactly the saved
    record, hands named; a round end taken back and made again changes nothing to that."""
    from companion.club.table import TableFeed
    from companion.games.rule_of_power.engine.moves import Deal
    from companion.records.store import GameFile, list_games
    from companion.session import GameSession
    from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game

    setup = make_setup(3)
    _, moves = simulate_game(setup, seed=31)
    session = GameSession(setup)
    undone_once = False
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        follower = TableFeed(session, server.url, token_file[1])
        session.start(setup, record=GameFile.create(tmp_path / "games", setup))
        for move in _face_down(moves):
            applied = session.propose(move)
            assert applied.__class__.__name__ == "Applied", applied
            if applied.effects.round_result is not None and not undone_once and not session.game.is_game_over():
                # The round's last move taken back (its deal is face down again in the
                # record) and made again once the club has had it.
                assert follower.feed is not None and follower.feed.wait_sent(30)
                undone_once = True
                session.undo()
                session.propose(move)
        assert undone_once
        assert follower.feed is not None and follower.feed.wait_sent(30), follower.feed.status()
        status = follower.feed.status()
        follower.close()
        assert status["last_error"] is None, status
    (path,) = list_games(tmp_path / "games")
    saved = path.read_text(encoding="utf-8").splitlines()
    stored = _stored(engine, follower.game_id)
    assert stored == [canonical(e) for e in events_of(saved)]
    deals = [json.loads(line) for line in stored if json.loads(line)["event"] == "deal"]
    assert len(deals) == sum(isinstance(m, Deal) for m in moves)
    # Without Fate cards every hand is known once played: nothing is left face down.
    assert all(None not in cards for d in deals for cards in d["hands"].values())
    assert Archive(engine).game(follower.game_id)["finished"] is True


def test_a_deal_filled_in_is_checked_and_stored_once(engine: Engine, token_file: tuple[Path, str]) -> None:
    """The server's side: a deal posted again with its face-down cards named replaces the
    stored one when every later event still holds, the events after it kept; a repeat is
    acknowledged; other cards than those played, or a changed card, are refused."""
    from companion.games.rule_of_power.engine.moves import Deal
    from companion.records.format import dumps_event, game_event, move_event
    from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game

    setup = make_setup(2)
    _, moves = simulate_game(setup, seed=32)
    hidden = _face_down(moves)
    first_deal = next(i for i, m in enumerate(moves) if isinstance(m, Deal))
    second_deal = next(i for i, m in enumerate(moves) if isinstance(m, Deal) and i > first_deal)
    # Up to the second deal: the first deal's cards have all been played.
    lines = [dumps_event(game_event(setup, GID))] + [dumps_event(move_event(m, setup)) for m in hidden[:second_deal]]
    number = first_deal + 2  # its line in the record
    with ClubServer(engine, TokenFile(token_file[0])) as server:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token_file[1]}"}) as t1:
            for n, line in enumerate(lines, 1):
                assert _post(t1, n, line).status_code == 201
            named = move_event(moves[first_deal], setup)
            wrong = json.loads(json.dumps(named))
            player = setup.players[0]
            other = next(c for c in named["hands"][setup.players[1]])
            wrong["hands"][player][0] = other  # a card the other player held and played
            r = _post(t1, number, json.dumps(wrong))
            assert r.status_code == 422 and r.json()["reason"].startswith(f"table t1: event {number} filled in: event ")
            r = _post(t1, number, json.dumps({**named, "center": list(reversed(named["center"]))}))
            assert r.status_code == 409 and "other content" in r.json()["reason"]
            r = _post(t1, number, json.dumps(named))
            assert r.status_code == 201, r.text
            assert _post(t1, number, json.dumps(named)).status_code == 200
            # The face-down version again is other content now.
            assert _post(t1, number, lines[number - 1]).status_code == 409
            assert t1.get(f"/api/games/{GID}/progress").json()["stored"] == len(lines)
    stored = _stored(engine, GID)
    assert len(stored) == len(lines)
    assert stored[number - 1] == canonical(named)
    assert stored[:number - 1] + stored[number:] == [canonical(json.loads(t)) for t in lines[: number - 1] + lines[number:]]
