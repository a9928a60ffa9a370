"""Ruse and Bruise at the club: whole games kept in the archive with their rounds, the
standings' columns and each player's history, exported for BG Stats and as CSV, places by the
final score (B28); the live page and the replay show the round's goal cards as columns with
every face-down card only as its owner's colour's back (B10, B29), and after a round the
distribution step by step (B18-B26)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from sqlalchemy import Engine

from companion.club.archive import Archive
from companion.club.export import archive_rows, bgstats_play
from companion.club.parts import part_of
from companion.club.standings import compute_standings, history
from companion.dashboard.sources import read_moves
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.club.describe import Replay, TableView, back, describe_event, face_up, round_reasons
from companion.games.ruse_and_bruise.club.part import fills_in
from companion.games.ruse_and_bruise.game import Phase
from companion.games.ruse_and_bruise.samples import sample_path
from companion.games.ruse_and_bruise.scoring import score
from companion.records.format import load_game

RAB = "ruse-and-bruise"


def _lines(name: str, date: str) -> list[str]:
    lines = Path(sample_path(name)).read_text().splitlines()
    header = json.loads(lines[0])
    header["date"] = date
    return [json.dumps(header), *lines[1:]]


def test_the_page_shows_face_down_cards_as_their_owners_backs_never_by_name() -> None:
    # The sample names every card, as a table kept by NFC records them: the page must not.
    path = sample_path("ruse-3")
    setup, moves, error = read_moves(path)
    assert error is None and setup is not None
    events = [json.loads(t) for t in Path(path).read_text().splitlines()]
    colour = dict(zip(setup.players, setup.colours))
    table, replay = TableView(), Replay()
    live = GAME.new_state(setup)
    replay.first({})
    checked = 0
    for move, event in zip(moves, events[1:]):
        live.push(move)
        if event["event"] in ("place", "cloak") and event.get("card"):
            said = describe_event(event)
            assert "face down" in said and event["card"] not in said and str(event.get("drew")) not in said, said
        # The last round's distribution names the cards it revealed, which may lie face down
        # again since (B27): what is shown of the table now is checked.
        page = json.dumps({k: v for k, v in table.state(live, {}).items() if k != "last_round"})
        step = json.dumps({k: v for k, v in replay.after(live).items() if k != "settlement"})
        down = [(owner, card) for col in live.columns for owner, card, up in col.cards if not up]
        if live.phase in (Phase.ROUND, Phase.OVER):
            continue  # the columns were cleared (B27): the page shows the last round revealed
        for owner, card in down:
            assert card is not None
            for text in (page, step):
                assert f'"{face_up(card, colour[owner])}"' not in text and f"{owner}'s {card.name}" not in text, (owner, card, text)
        # Each face-down card is drawn as its owner's back, one for one, in its column.
        for col, shown in zip(live.columns, table.state(live, {})["board"]["headings"][1:]):
            assert shown == f"column {col.number}"
        cells = [c for row in table.state(live, {})["board"]["rows"][2:] for c in row["cells"][1:] if isinstance(c, list)]
        backs = sorted(c[0] for c in cells if c[0].startswith("back-"))
        assert backs == sorted(back(colour[owner]) for owner, _ in down)
        checked += len(down)
    assert checked > 100


def test_after_a_round_the_page_gives_its_distribution_step_by_step() -> None:
    setup, moves, error = read_moves(sample_path("ruse-4"))
    assert error is None and setup is not None
    table, replay = TableView(), Replay()
    live = GAME.new_state(setup)
    replay.first({})
    settled = []
    for move in moves:
        live.push(move)
        step = replay.after(live)
        page = table.state(live, {})
        if "settlement" in step:
            result = live.results[-1]
            reasons = step["settlement"]["reasons"]
            assert reasons == round_reasons(result.columns) == page["last_round"]["reasons"]
            for k, col in enumerate(result.columns, 1):
                assert f"Column {k}: Goal card {col.goal.id}" in " ".join(reasons)
                assert col.reason in reasons
                assert all(f"{s.ability}: {s.words}" in reasons for s in col.steps)
            won = {p: sum(c.goal.value for c in result.columns if c.winner == p) for p in live.players}
            assert {p: v["goal_points"] for p, v in step["settlement"]["points"].items()} == won
            # The board shows the round as it was revealed, every card face up with its value.
            rows = page["board"]["rows"]
            assert [c[0] for c in rows[0]["cells"][1:]] == [c.goal.id for c in result.columns]
            assert not any(isinstance(c, list) and c[0].startswith("back-") for r in rows for c in r["cells"])
            settled.append(result.number)
    assert settled == [1, 2, 3, 4, 5, 6]
    outcome = live.outcome()
    assert outcome is not None
    notes = table.state(live, {})["notes"]
    assert notes[-1] == outcome.explain()[0].upper() + outcome.explain()[1:] + " (B28)"
    for p in live.players:
        assert f"{p}: {score(live.won(p)).words()}" in notes


def test_a_card_named_once_seen_fills_in_its_event_and_nothing_else_does() -> None:
    old = {"event": "place", "player": "bob", "column": 2, "card": None, "drew": None}
    assert fills_in(old, {**old, "card": "WIZ"})
    assert fills_in(old, {**old, "card": "WIZ", "drew": "KING"})
    assert not fills_in(old, {**old, "column": 3, "card": "WIZ"})
    assert not fills_in({**old, "card": "WIZ"}, {**old, "card": "KING"})
    assert fills_in({"event": "assassin", "discard": None}, {"event": "assassin", "discard": "EXPL"})
    assert fills_in({"event": "round", "goals": ["trade-1"]}, {"event": "round", "goals": ["trade-1"], "drew": {"ann": ["KING"]}})
    assert not fills_in({"event": "turn", "column": 1, "card": "EXPL"}, {"event": "turn", "column": 1, "card": "ASSN"})


def test_games_in_the_archive_their_standings_history_and_exports(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    part = part_of(GAME)
    assert part is not None and [c.figure for c in part.columns] == ["score", "goal_cards", "doubled", "draws"]
    stored = []
    for k, name in enumerate(("ruse-3", "ruse-4", "ruse-by-ann-4")):
        lines = _lines(name, f"2026-05-0{k + 1}T20:00:00Z")
        state = load_game(lines)
        result = archive.add_lines(lines)
        assert result.status == "added", result
        stored.append((result.game_id, state))
    gid, state = stored[0]
    row = archive.game(gid)
    assert row is not None and row["game"] == RAB and row["finished"]
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    sides = {s["side"]: s for s in row["sides"]}
    for p in state.players:
        assert sides[p]["score"] == score(state.won(p)).score and sides[p]["goal_cards"] == len(state.won(p))
        assert sides[p]["won"] is (p == outcome.winner)
    ranked = sorted(state.players, key=lambda p: -state.totals[p])
    assert sides[ranked[0]]["place"] == 1 and sides[ranked[-1]]["place"] == len(ranked)
    standings = compute_standings(archive_engine, game=RAB)
    assert "score" in standings.columns and "doubled" in standings.columns
    rows = {r.name: r for r in standings.players}
    assert {"ann", "bob", "cy", "dee"} <= set(rows) and rows["ann"].games == 3
    four = [s for _, s in stored[1:]]
    assert rows["cy"].score == state.totals["cy"] + sum(s.totals["cy"] for s in four)  # type: ignore[attr-defined]
    assert len(history(archive_engine, "ann", game=RAB)) == 3
    # For other tools: a BG Stats play with each player's final score, the archive as CSV rows.
    play = bgstats_play(row, [json.loads(t) for t in archive.events(gid)])
    assert play["game"]["sourceGameId"] == RAB
    assert {p["name"]: p["score"] for p in play["players"]} == dict(state.totals)
    out = io.StringIO()
    csv.writer(out).writerows(archive_rows(archive_engine, game=RAB))
    table = list(csv.reader(io.StringIO(out.getvalue())))
    assert len(table) == 1 + 3 + 4 + 4  # the heading, a row a seat
    assert all(RAB in r for r in table[1:])


@pytest.mark.parametrize("name", ["companion.games.ruse_and_bruise.club.part", "companion.games.ruse_and_bruise.club.describe", "companion.club.filling"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
