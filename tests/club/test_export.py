"""Stored games for other tools: any game of either game as a play for BG Stats (its
documented createPlay import: game, players, scores, winner, start player, rank), by the command
line and by the server; and the archive as CSV, a row a seat with the game's figures."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from sqlalchemy import Engine

from companion.cli import main
from companion.club.archive import Archive
from companion.club.export import BGSTATS_CREATE_PLAY, CSV_COLUMNS, archive_rows, bgstats_play, bgstats_url
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.records.format import load_game
from tests.club.conftest import cop_record_lines, record_lines

COP = "circle-of-power"


def _stored(archive: Archive, lines: list[str]) -> tuple[dict, list[dict]]:
    gid = archive.add_lines(lines).game_id
    row = archive.game(gid)
    assert row is not None
    return row, [json.loads(t) for t in archive.events(gid)]


def test_a_circle_of_power_game_as_a_bg_stats_play(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    lines = cop_record_lines(1, players=3, header={"date": "2026-05-01T20:15:00Z"})
    state = load_game(lines)
    row, events = _stored(archive, lines)
    play = bgstats_play(row, events)
    assert play["sourcePlayId"] == row["id"] and play["playDate"] == "2026-05-01 20:15:00"
    assert play["game"] == {"name": "Circle of Power", "sourceGameId": COP, "highestWins": True, "noPoints": False}
    # The dummy is nobody: no player of the play, named in the comment with its trophies.
    assert [p["name"] for p in play["players"]] == ["ann", "bob", "cy"]
    winner = state.outcome().winner
    first = next(e["player"] for e in events if e["event"] == "play" and not e["player"].startswith("@"))
    for p in play["players"]:
        assert p["sourcePlayerId"] == p["name"]
        assert p["score"] == state.totals[p["name"]]
        assert p["winner"] is (p["name"] == winner)
        assert p["startPlayer"] is (p["name"] == first)
    assert sorted(p["rank"] for p in play["players"])[0] == 1
    assert f"@1 {state.totals['@1']}" in play["comments"] and f"won by {winner}, the One True Emperor (C17)" in play["comments"]
    # The link carries the play, whole, to BG Stats.
    url = bgstats_url(play)
    assert url.startswith(BGSTATS_CREATE_PLAY) and " " not in url
    assert json.loads(unquote(url[len(BGSTATS_CREATE_PLAY):])) == play


def test_a_draw_and_a_rule_of_power_team_game_as_bg_stats_plays(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    drawn = cop_record_lines(6, players=2)
    state = load_game(drawn)
    assert state.outcome().draw
    play = bgstats_play(*_stored(archive, drawn))
    assert [(p["winner"], p["rank"]) for p in play["players"]] == [(False, 1), (False, 1)]  # a draw shares the first place
    assert play["comments"].endswith("a draw")

    team = record_lines(12, players=4, teams=2)
    game = load_game(team)
    row, events = _stored(archive, team)
    play = bgstats_play(row, events)
    assert play["game"]["sourceGameId"] == "rule-of-power" and [p["name"] for p in play["players"]] == ["ann", "bob", "cy", "dee"]
    winning = game.outcome().winner
    for p in play["players"]:
        side = game.setup.side_of(p["name"])
        assert p["score"] == game.totals[side]  # a team scores as one (R16)
        assert p["winner"] is (side == winning)
    first = next(e["player"] for e in events if e["event"] in ("play", "pass"))
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == [first]


def test_rop_club_export_writes_a_play_its_link_and_the_archive_as_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    cop = tmp_path / "circle.jsonl"
    cop.write_text("".join(cop_record_lines(0, players=2, header={"id": "c0ffee" + "0" * 26})))
    rop = tmp_path / "rule.jsonl"
    rop.write_text("".join(record_lines(4, header={"id": "c0ffef" + "0" * 26})))
    assert main(["club", "add", str(cop), str(rop), "--db", db]) == 0
    capsys.readouterr()

    assert main(["club", "export", "c0ffee", "--db", db]) == 0
    play = json.loads(capsys.readouterr().out)
    assert play["game"]["name"] == "Circle of Power" and play["sourcePlayId"] == "c0ffee" + "0" * 26
    assert main(["club", "export", "c0ffef", "--url", "--db", db]) == 0
    url = capsys.readouterr().out.strip()
    assert json.loads(unquote(url[len(BGSTATS_CREATE_PLAY):]))["game"]["name"] == "Rule of Power"

    # A start shared by two games, an unknown game, and a request of neither: said, status 2.
    assert main(["club", "export", "c0ff", "--db", db]) == 2
    assert "names several stored games" in capsys.readouterr().err
    assert main(["club", "export", "beef", "--db", db]) == 2
    assert "no stored game 'beef'" in capsys.readouterr().err
    assert main(["club", "export", "--db", db]) == 2
    assert "give a stored game's id, or --csv" in capsys.readouterr().err

    out = tmp_path / "games.csv"
    assert main(["club", "export", "--csv", "--game", COP, "--out", str(out), "--db", db]) == 0
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert tuple(rows[0][: len(CSV_COLUMNS)]) == CSV_COLUMNS
    assert rows[0][len(CSV_COLUMNS) : len(CSV_COLUMNS) + 4] == ["seasons", "trophies", "draws", "lonely_tyrant_wins"]
    assert [r[9] for r in rows[1:]] == ["ann", "bob", "@1", "@2"] and [r[11] for r in rows[1:]] == ["0", "0", "1", "1"]
    state = load_game(cop.read_text().splitlines(keepends=True))
    trophies = rows[0].index("trophies")
    assert {r[9]: int(r[trophies]) for r in rows[1:]} == state.totals  # the dummies' are their sides'

    assert main(["club", "export", "--csv", "--db", db]) == 0
    every = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert {r[1] for r in every[1:]} == {COP, "rule-of-power"} and len(every) == 1 + 4 + 2
    assert {"trophies", "points_for"} <= set(every[0])


def test_the_server_gives_a_stored_game_to_bg_stats_and_the_archive_as_csv(archive_engine: Engine, tmp_path: Path) -> None:
    archive = Archive(archive_engine)
    gid = archive.add_lines(cop_record_lines(0, players=3, variant="lonely-tyrant")).game_id
    archive.add_lines(record_lines(7))
    tokens = tmp_path / "tokens.txt"
    issue_token(tokens, "oak")
    with ClubServer(archive_engine, TokenFile(tokens)) as server, httpx.Client(base_url=server.url) as client:
        r = client.get(f"/api/games/{gid}/bgstats")
        assert r.status_code == 200
        data = r.json()
        assert data["play"] == bgstats_play(archive.game(gid), [json.loads(t) for t in archive.events(gid)])
        assert data["url"] == bgstats_url(data["play"])
        assert "the Lonely Tyrant (C18)" in data["play"]["comments"]
        assert client.get("/api/games/nothing/bgstats").status_code == 404
        r = client.get("/api/export.csv", params={"game": COP})
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        assert 'filename="club-circle-of-power.csv"' in r.headers["content-disposition"]
        assert list(csv.reader(io.StringIO(r.text))) == [[str(v) for v in row] for row in archive_rows(archive_engine, game=COP)]
