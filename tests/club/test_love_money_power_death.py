"""Love, Money, Power, Death at the club: a whole game kept in the archive with its rounds, its
standings' columns and each player's history, exported for BG Stats and as CSV; the live page
and the replay say who has committed, never what (L6, L7), until the reveal."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from sqlalchemy import Engine

from companion.club.archive import Archive
from companion.club.export import archive_rows, bgstats_play
from companion.club.parts import part_of
from companion.club.standings import compute_standings, history
from companion.dashboard.sources import read_moves
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.club.describe import Replay, TableView, describe_event
from companion.games.love_money_power_death.moves import Commit, Reveal
from companion.games.love_money_power_death.samples import sample_path
from companion.records.format import load_game

LMPD = "love-money-power-death"


def _lines(name: str, date: str) -> list[str]:
    lines = Path(sample_path(name)).read_text().splitlines()
    header = json.loads(lines[0])
    header["date"] = date
    return [json.dumps(header), *lines[1:]]


def test_the_live_page_and_the_replay_show_who_committed_never_what() -> None:
    setup, moves, error = read_moves(sample_path("lmpd-3"))
    assert error is None and setup is not None
    table, replay = TableView(), Replay()
    live = GAME.new_state(setup)
    replay.first({})
    down: set[str] = set()
    checked = 0
    for move in moves:
        live.push(move)
        if type(move) is Commit and type(move.card) is Card:
            down.add(move.card.id)
            assert describe_event({"event": "commit", "player": move.player, "card": move.card.id}) == f"{move.player} commits a card, face down"
        if type(move) is Reveal:
            down.clear()
        page = json.dumps(table.state(live, {}))
        step = json.dumps(replay.after(live))
        for card in down:
            assert f'"{card}"' not in page and f"{card} " not in page and f"{card}," not in page, (card, page)
            assert f'"{card}"' not in step and f"{card} " not in step and f"{card}," not in step, (card, step)
        if down:
            board = table.state(live, {})["board"]
            assert "committed, face down" in json.dumps(board)
            checked += 1
    assert checked > 10


def test_a_game_in_the_archive_its_standings_history_and_exports(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    part = part_of(GAME)
    assert part is not None and [c.figure for c in part.columns] == ["crowns", "nobles", "agent_wins", "shared_wins"]
    stored = []
    for k, name in enumerate(("lmpd-3", "lmpd-2")):
        lines = _lines(name, f"2026-05-0{k + 1}T20:00:00Z")
        state = load_game(lines)
        result = archive.add_lines(lines)
        assert result.status == "added"
        stored.append((result.game_id, state))
    gid, state = stored[0]
    row = archive.game(gid)
    assert row is not None and row["game"] == LMPD and row["finished"]
    outcome = state.outcome()
    assert outcome is not None
    sides = {s["side"]: s for s in row["sides"]}
    for p in state.players:
        assert sides[p]["crowns"] == state.totals[p] and sides[p]["nobles"] == state.counts[p]
        assert sides[p]["won"] is (p in outcome.winners)
    standings = compute_standings(archive_engine, game=LMPD)
    assert "crowns" in standings.columns and "agent_wins" in standings.columns
    rows = {r.name: r for r in standings.players}
    assert {"ann", "bob", "cy"} <= set(rows) and rows["ann"].games == 2
    assert rows["cy"].crowns == state.totals["cy"]  # type: ignore[attr-defined]
    games = history(archive_engine, "ann", game=LMPD)
    assert len(games) == 2
    # For other tools: a BG Stats play and the archive as CSV rows with the game's figures.
    play = bgstats_play(row, [json.loads(t) for t in archive.events(gid)])
    assert play["game"]["sourceGameId"] == LMPD
    assert {p["name"]: p["score"] for p in play["players"]} == dict(state.totals)
    out = io.StringIO()
    csv.writer(out).writerows(archive_rows(archive_engine, game=LMPD))
    table = list(csv.reader(io.StringIO(out.getvalue())))
    assert len(table) == 1 + 3 + 2  # the heading, a row a seat
    assert all(LMPD in r for r in table[1:])
