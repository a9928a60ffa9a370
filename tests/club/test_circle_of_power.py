"""The club keeps Circle of Power games beside Rule of Power's: whole games played by the
game's own engine go into the archive with their seasons, trophies and knock-outs, the dummies
kept as automatic seats and never rated (C4, C11, C17); standings, history and ratings per game
with Circle of Power's columns; draws sharing the first place (C17); the Lonely Tyrant (C18);
the command line; and a season's record completed once its cards were seen taken as the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from companion.cli import main
from companion.club.archive import Archive
from companion.club.database import open_archive
from companion.club.parts import ClubPart, part_of
from companion.club.schema import game_figures, game_players, period_figures, ratings
from companion.club.standings import compute_standings, history
from companion.contract import registry
from companion.games.circle_of_power.club.part import fills_in
from companion.records.format import load_game
from tests.club.conftest import cop_record_lines, record_lines, write_record

COP = "circle-of-power"


def test_circle_of_power_brings_its_club_part() -> None:
    part = part_of(registry.game(COP))
    assert isinstance(part, ClubPart)
    assert (part.period, part.periods, part.score) == ("season", "seasons", "trophies")
    assert [c.figure for c in part.columns] == ["seasons", "trophies", "draws", "lonely_tyrant_wins"]


def test_a_whole_game_is_kept_with_its_seasons_and_its_dummies(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    lines = cop_record_lines(1, players=3, variant="basic", header={"date": "2026-05-01T20:00:00Z"})
    state = load_game(lines)
    outcome = state.outcome()
    assert outcome is not None and not outcome.draw
    stored = archive.add_lines(lines)
    assert stored.status == "added"
    row = archive.game(stored.game_id)
    assert row is not None
    assert (row["game"], row["finished"], row["winner"], row["termination"]) == (COP, True, outcome.winner, "one-true-emperor")
    assert row["seasons"] == len(state.results) and row["variant"] == "basic"
    # Every emperor is a seat: the three players, and the dummy, automatic (C4).
    assert [(s["player"], s["automatic"]) for s in row["seats"]] == [("ann", False), ("bob", False), ("cy", False), ("@1", True)]
    sides = {s["side"]: s for s in row["sides"]}
    assert sides[outcome.winner]["won"] and sides[outcome.winner]["place"] == 1
    assert sides["@1"]["members"] == [] and sides["@1"]["place"] == 4  # after every player
    for name, total in state.totals.items():
        assert sides[name]["trophies"] == total
    for seat in row["seats"]:
        if not seat["automatic"]:
            assert seat["trophies"] == state.totals[seat["player"]]
            assert seat["seasons"] == len(state.results)
    # The actions won add up to every action played: 15 a season (C16).
    assert sum(s["actions_won"] for s in row["sides"]) == 15 * len(state.results)
    # Each season: its points per emperor with their reasons (C16).
    seasons = row["season_list"]
    assert [s["number"] for s in seasons] == [r.number for r in state.results]
    for stored_season, result in zip(seasons, state.results):
        assert stored_season["dealer"] == result.dealer and stored_season["seats"] == list(result.seats)
        kept = {n: v.get("trophies", 0) for n, v in stored_season["figures"]["sides"].items()}
        assert {n: kept.get(n, 0) for n in result.seats} == dict(result.points)  # a 0 is not stored
        assert stored_season["reasons"][0] == f"{result.seats[0]} {result.explain(result.seats[0])}"
    with archive_engine.connect() as conn:
        assert conn.execute(select(game_players.c.automatic).where(game_players.c.player == "@1")).scalar_one() is True
        per_season = conn.execute(
            select(period_figures.c.holder, period_figures.c.value).where(period_figures.c.figure == "trophies")
        ).all()
    assert sum(v for h, v in per_season if h == "ann") == state.totals["ann"]


def test_standings_history_and_ratings_are_per_game_and_never_rate_a_dummy(archive_engine: Engine, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    archive = Archive(archive_engine)
    games = [
        cop_record_lines(0, players=2, variant="basic", header={"date": "2026-05-01T20:00:00Z"}),
        cop_record_lines(6, players=2, variant="basic", header={"date": "2026-05-02T20:00:00Z"}),  # a draw
        cop_record_lines(0, players=2, variant="lonely-tyrant", header={"date": "2026-05-03T20:00:00Z"}),
        cop_record_lines(1, players=2, variant="basic", header={"date": "2026-05-04T20:00:00Z"}, stop_after=40),
    ]
    states = [load_game(lines) for lines in games]
    assert states[1].outcome().draw and states[2].outcome().how.value == "lonely-tyrant" and states[3].outcome() is None
    for lines in games:
        archive.add_lines(lines)
    archive.add_lines(record_lines(3, names=("ann", "eve")))  # a Rule of Power game, ranked apart

    table = compute_standings(archive_engine, game=COP)
    assert table.columns[:9] == ("name", "kind", "games", "unfinished", "wins", "seasons", "trophies", "draws", "lonely_tyrant_wins")
    rows = {s.name: s for s in table.players}
    assert set(rows) == {"ann", "bob"}  # no dummy, nobody of the other game
    finished = states[:3]
    for name in ("ann", "bob"):
        r = rows[name]
        assert r.games == 4 and r.unfinished == 1 and r.rated_games == 3
        assert r.wins == sum(s.outcome().winner == name for s in finished)
        assert r.draws == 1
        assert r.trophies == sum(s.totals[name] for s in states[:3]) + states[3].totals[name]
        assert r.seasons == sum(len([x for x in s.results if name in x.seats]) for s in states)
        assert r.lonely_tyrant_wins == int(states[2].outcome().winner == name)
    with archive_engine.connect() as conn:
        rated = set(conn.execute(select(ratings.c.name).where(ratings.c.game == COP)).scalars())
    assert rated == {"ann", "bob"}
    rop = compute_standings(archive_engine, game="rule-of-power")
    assert {s.name for s in rop.players} == {"ann", "eve"} and "trophies" not in rop.columns

    drawn = [r for r in history(archive_engine, "bob", game=COP) if r["result"] == "drew"]
    assert len(drawn) == 1 and drawn[0]["trophies"] == states[1].totals["bob"]

    # The command line, in Circle of Power's columns.
    url = str(archive_engine.url.render_as_string(hide_password=False))
    assert main(["club", "standings", "--game", COP, "--db", url]) == 0
    out = capsys.readouterr().out
    assert "seas  trph  drw  LT" in out and "@1" not in out
    assert "drw = games drawn (C17), LT = wins as the Lonely Tyrant (C18)" in out  # the legend
    assert main(["club", "history", "bob", "--game", COP, "--db", url]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["played", "season", "players", "side", "result", "figures", "rating", "game"]
    assert f"trph {states[1].totals['bob']:>2} seas " in out and "drew" in out


def test_rop_club_add_takes_either_game_and_names_a_broken_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    cop = write_record(tmp_path / "circle.jsonl", cop_record_lines(0, players=4, variant="coloured-cities"))
    rop = write_record(tmp_path / "rule.jsonl", record_lines(5))
    broken_lines = cop_record_lines(1, players=3)
    plays = [i for i, line in enumerate(broken_lines) if '"event":"play"' in line.replace(" ", "")]
    event = json.loads(broken_lines[plays[0]])
    event["card"] = "X1"  # a joker is a city, never a battle card (C1)
    broken_lines[plays[0]] = json.dumps(event) + "\n"
    broken = write_record(tmp_path / "broken.jsonl", broken_lines)
    assert main(["club", "add", str(cop), str(rop), str(broken), "--db", db]) == 2
    captured = capsys.readouterr()
    assert f"{cop}: stored as game" in captured.out and f"{rop}: stored as game" in captured.out
    assert f"broken.jsonl:{plays[0] + 1}:" in captured.err and "[C" in captured.err
    assert "2 stored, 0 replaced, 0 already stored, 1 refused" in captured.err
    engine = open_archive(db)
    try:
        assert {g["game"] for g in Archive(engine).games()} == {COP, "rule-of-power"}
    finally:
        engine.dispose()


def test_lonely_tyrant_places_the_last_one_knocked_out_second(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    lines = cop_record_lines(0, players=4, variant="coloured-cities")
    state = load_game(lines)
    outcome = state.outcome()
    assert outcome.how.value == "lonely-tyrant" and len(state.knocked_out) == 3
    row = archive.game(archive.add_lines(lines).game_id)
    sides = {s["side"]: s for s in row["sides"]}
    assert sides[outcome.winner]["place"] == 1 and sides[outcome.winner]["lonely_tyrant_wins"] == 1
    for k, name in enumerate(reversed(state.knocked_out)):
        assert sides[name]["place"] == 2 + k and sides[name]["knocked_out"] == 1
    # The players knocked out were replaced by new dummies (C18): all kept, none rated.
    dummies = [s["player"] for s in row["seats"] if s["automatic"]]
    assert dummies and all(d.startswith("@") for d in dummies) and all(sides[d]["place"] > 4 for d in dummies)
    with archive_engine.connect() as conn:
        lost = dict(conn.execute(
            select(game_figures.c.holder, game_figures.c.value).where(game_figures.c.figure == "destroyed", game_figures.c.scope == "player")
        ).all())
    for name in state.knocked_out:
        assert lost[name] >= 5  # the fifth city destroyed knocks out (C18)


def test_a_season_completed_once_its_cards_were_seen_is_the_same_event() -> None:
    season = json.loads(cop_record_lines(1, players=3)[1])
    assert season["event"] == "season"
    unseen = dict(season, hands={"ann": season["hands"]["ann"], "bob": None}, piles=None)
    del unseen["hands"]["bob"]
    assert fills_in(unseen, season)
    assert not fills_in(season, season)  # nothing named: not a completion
    other = dict(season, dealer="cy" if season["dealer"] != "cy" else "bob")
    assert not fills_in(unseen, other)
    changed = json.loads(json.dumps(season))
    changed["hands"]["ann"] = list(reversed(changed["hands"]["ann"]))
    assert not fills_in(dict(season, hands=dict(season["hands"], bob=None)), changed)
    play = {"event": "play", "player": "ann", "card": "7H", "drew": None}
    assert fills_in(play, dict(play, drew="4C")) and not fills_in(play, dict(play, card="8H", drew="4C"))


def test_a_table_completing_a_season_it_kept_unseen_is_taken_by_the_server(tmp_path: Path) -> None:
    """A table that could not see bob's hand posts the season without it, plays on, and sends
    the season again once bob's cards were seen: the server replays the game with it, keeps
    every later event, and stores it once; a season changed otherwise is refused."""
    import httpx

    from companion.club.server import ClubServer
    from companion.club.tokens import TokenFile, issue_token

    gid = "c1c1e0" + "0" * 26
    lines = cop_record_lines(1, players=3, header={"id": gid})
    season = json.loads(lines[1])
    unseen = dict(season, hands={k: v for k, v in season["hands"].items() if k != "bob"})
    posted = [lines[0], json.dumps(unseen) + "\n", *lines[2:30]]
    token = issue_token(tmp_path / "tokens.txt", "oak")
    engine = open_archive(f"sqlite:///{tmp_path / 'club.sqlite'}")
    try:
        with ClubServer(engine, TokenFile(tmp_path / "tokens.txt")) as server, httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {token}"}
        ) as table:
            for n, line in enumerate(posted, 1):
                assert table.post(f"/api/games/{gid}/events/{n}", content=line).status_code == 201
            other = json.loads(lines[1])
            other["cities"] = {**other["cities"], "ann": other["cities"]["bob"], "bob": other["cities"]["ann"]}
            assert table.post(f"/api/games/{gid}/events/2", content=json.dumps(other)).status_code == 409
            r = table.post(f"/api/games/{gid}/events/2", content=lines[1])
            assert r.status_code == 201, r.text
            assert table.post(f"/api/games/{gid}/events/2", content=lines[1]).status_code == 200
            for n in range(31, len(lines) + 1):
                assert table.post(f"/api/games/{gid}/events/{n}", content=lines[n - 1]).status_code == 201
            shown = {t["game_id"]: t for t in table.get("/api/tables").json()}[gid]
            assert shown["finished"] and shown["winner"] == load_game(lines).outcome().winner
        assert Archive(engine).events(gid) == [json.dumps(json.loads(t), sort_keys=True, separators=(",", ":")) for t in lines]
    finally:
        engine.dispose()


@pytest.mark.parametrize("name", ["companion.games.circle_of_power.club.part", "companion.games.circle_of_power.club.describe", "companion.club.export"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_page_takes_no_city_in_the_seasons_last_action_as_the_terminal_says() -> None:
    """C7: the city deck gives no card in action 15, so the page's choices for the winner, like
    the terminal's, say the loser (or the winner who gives their city away) takes none; in the
    other actions they take the next available city."""
    from companion.dashboard.sources import read_moves
    from companion.games.circle_of_power.club.describe import Replay, TableView
    from companion.games.circle_of_power.dashboard.widgets.action import choice_words
    from companion.games.circle_of_power.game import ACTIONS, Phase
    from companion.games.circle_of_power.samples import sample_path
    from companion.games.circle_of_power.setup import is_dummy

    circle = registry.game("circle-of-power")
    for sample in ("basic-3", "coloured-3"):
        setup, moves, error = read_moves(sample_path(sample))
        assert error is None and setup is not None
        state = circle.new_state(setup)
        table, replay = TableView(), Replay()
        last = other = 0
        for move in moves:
            state.push(move)
            if state.phase is not Phase.ACT or is_dummy(state.to_move or "") or not any(c.act != "regroup" for c in state.choices()):
                continue  # a dummy's act or a regroup names no city to take
            page = table.state(state, {})
            step = replay.after(state)
            choices = "\n".join(page["notes"])
            assert step["notes"] == page["notes"]
            terminal = "\n".join(choice_words(state, c, long=True) for c in state.choices())
            if state.action_number == ACTIONS:
                last += 1
                assert "next available city" not in choices, choices
                assert "takes no city, as the season's last action gives none (C7)" in choices
                assert "takes no city" in terminal or "takes it" in terminal
                shown = {s["role"]: s for s in page["shown"]}["next"]
                assert shown["cards"] == [] and "last action" in shown["label"], shown
            else:
                other += 1
                assert "takes the next available city" in choices and "takes no city" not in choices
        assert last and other, (sample, last, other)
