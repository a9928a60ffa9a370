"""Standings checked against the engine's own scores; ratings that move the right way; the
organiser's usual cases (late arrival, a player who leaves, a corrected game); JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from companion.club.archive import Archive
from companion.club.schema import rating_marks
from companion.club.standings import compute_standings, history, ranks
from companion.cli import main
from companion.games.rule_of_power.engine.effects import Effects
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Move
from companion.records.format import RecordVisitor, load_game, read_record
from tests.club.conftest import record_lines, write_record


class _Moves(RecordVisitor):
    def begin_game(self, setup: GameSetup, line: int) -> None:
        self.game = GameState(setup)
        self.effects: list[Effects] = []

    def visit_move(self, move: Move, line: int) -> None:
        self.effects.append(self.game.apply(move))


def _own_sweeps(lines: list[str]) -> dict[str, int]:
    """Each player's clean sweeps in the finished rounds, from what each move did (R7: the
    sweep is the player's who laid the card); a round left unfinished counts none."""
    played = _Moves()
    read_record(lines, played)
    done: dict[str, int] = defaultdict(int)
    this_round: dict[str, int] = defaultdict(int)
    for effects in played.effects:
        if effects.sweep:
            assert effects.player is not None
            this_round[effects.player] += 1
        if effects.round_result is not None:
            for player, n in this_round.items():
                done[player] += n
            this_round.clear()
    return done


def _expected(records: list[list[str]]) -> dict[str, dict[str, int]]:
    """Per player, the figures standings must show, from the engine's replay of each record."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for lines in records:
        game = load_game(lines)
        outcome = game.outcome()
        totals = game.totals
        own = _own_sweeps(lines)
        for p in game.setup.players:
            side = game.setup.side_of(p)
            row = out[p]
            row["games"] += 1
            row["unfinished"] += outcome is None
            row["wins"] += bool(outcome and outcome.winner == side)
            row["points_for"] += totals[side]
            row["points_against"] += sum(totals.values()) - totals[side]
            row["sweeps"] += own[p]
            row["rule_of_power_wins"] += bool(outcome and outcome.winner == side and outcome.termination.value == "rule_of_power")
    return out


def test_standings_match_the_engines_scores(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    records = [record_lines(seed, players=n, teams=t) for seed, (n, t) in enumerate([(2, 0), (3, 0), (4, 2), (4, 0), (6, 3), (6, 2), (5, 0), (2, 0)] * 3)]
    records.append(record_lines(99, players=3, stop_after=40))  # a player left: unfinished
    for lines in records:
        archive.add_lines(lines)
    table = compute_standings(archive_engine)
    expected = _expected(records)
    got = {s.name: s for s in table.players}
    assert set(got) == set(expected)
    for name, want in expected.items():
        for key, value in want.items():
            assert getattr(got[name], key) == value, (name, key)
    assert sum(s.unfinished for s in table.players) == 3
    # Team rows: one per team that played, with the team's own figures; its sweeps are the
    # sum of those its members made in its games.
    team_games = sum(1 for lines in records if load_game(lines).setup.teams)
    assert all("+" in s.name for s in table.teams)
    team_sweeps: dict[str, int] = defaultdict(int)
    differ = 0
    for lines in records:
        game = load_game(lines)
        if game.setup.teams:
            own = _own_sweeps(lines)
            side_sweeps = {side: sum(r.score.sweeps.get(side, 0) for r in game.results) for side in game.setup.sides}
            for side in game.setup.sides:
                members = [p for p in game.setup.players if game.setup.side_of(p) == side]
                assert sum(own[p] for p in members) == side_sweeps[side]
                team_sweeps[side] += side_sweeps[side]
                differ += sum(own[p] != side_sweeps[side] for p in members)
    assert differ, "no team game where a member's own sweeps differ from the team's: the check proves nothing"
    assert {s.name: s.sweeps for s in table.teams} == dict(team_sweeps)
    assert sum(s.games for s in table.teams) == sum(len(load_game(lines).setup.sides) for lines in records if load_game(lines).setup.teams)
    assert sum(s.wins for s in table.teams) == team_games


def test_unfinished_games_are_counted_not_rated(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    archive.add_lines(record_lines(1, stop_after=25, names=("zed", "yan")))
    table = compute_standings(archive_engine)
    assert [(s.name, s.games, s.unfinished, s.rating) for s in table.players] == [("yan", 1, 1, None), ("zed", 1, 1, None)]


def test_ratings_move_the_right_way(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    lines = record_lines(11)
    game = load_game(lines)
    winner = game.outcome().winner
    loser = next(p for p in game.setup.players if p != winner)
    archive.add_lines(lines)
    first = {s.name: s for s in compute_standings(archive_engine).players}
    assert first[winner].rating > first[loser].rating
    assert first[winner].mu > 25 > first[loser].mu
    # The same pairing won again by the same player (another game): the gap widens.
    for seed in range(12, 40):
        more = record_lines(seed)
        g = load_game(more)
        if g.outcome().winner == winner:
            archive.add_lines(more)
            break
    second = {s.name: s for s in compute_standings(archive_engine).players}
    assert second[winner].mu > first[winner].mu and second[loser].mu < first[loser].mu


def test_late_arrival_and_team_ratings(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    archive.add_lines(record_lines(20, header={"date": "2026-01-10T19:00:00Z"}))
    archive.add_lines(record_lines(21, players=4, teams=2, header={"date": "2026-01-10T21:00:00Z"}))
    rows = {s.name: s for s in compute_standings(archive_engine).players}
    # cy and dee arrived for the second game only: one game each, rated from it.
    assert rows["cy"].games == 1 and rows["cy"].rated_games == 1 and rows["ann"].games == 2
    teams = {s.name: s for s in compute_standings(archive_engine).teams}
    assert set(teams) == {"ann+cy", "bob+dee"}
    won = next(t for t in teams.values() if t.wins)
    lost = next(t for t in teams.values() if not t.wins)
    assert won.rating > lost.rating


def test_correction_recomputes_ratings_in_date_order(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    gid = "feedfacefeedfacefeedfacefeedface"
    a = record_lines(30, header={"id": gid, "date": "2026-02-01T20:00:00Z"})
    winner_a = load_game(a).outcome().winner
    # A correction of the same game whose result differs: find a game won by the other player.
    for seed in range(31, 80):
        b = record_lines(seed, header={"id": gid, "date": "2026-02-01T20:00:00Z"})
        if load_game(b).outcome().winner != winner_a:
            break
    archive.add_lines(a)
    before = {s.name: s.rating for s in compute_standings(archive_engine).players}
    assert archive.add_lines(b).status == "replaced"
    after = {s.name: s.rating for s in compute_standings(archive_engine).players}
    other = next(p for p in before if p != winner_a)
    assert before[winner_a] > before[other] and after[other] > after[winner_a]


def test_seasons_and_history(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    archive.add_lines(record_lines(40, header={"date": "2025-12-30T20:00:00Z"}))
    archive.add_lines(record_lines(41, header={"date": "2026-01-05T20:00:00Z"}))
    archive.add_lines(record_lines(42), season="spring-league")
    assert [s.games for s in compute_standings(archive_engine, "2025").players] == [1, 1]
    assert {s.name for s in compute_standings(archive_engine, "spring-league").players} == {"ann", "bob"}
    rows = history(archive_engine, "ann")
    assert [r["season"] for r in rows][:2] == ["2025", "2026"]
    assert all(r["result"] in ("won", "lost") and r["rating_after"] is not None for r in rows)
    assert history(archive_engine, "nobody") == []


def test_history_and_standings_columns_align_whatever_the_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A long season name or player name moves its whole column along: every field of
    ``rop club history`` starts under its heading, every figure of the standings ends under
    its heading."""
    db = str(tmp_path / "club.sqlite")
    long_name = "Maximiliana-von-Wolkenstein"
    games = [
        (record_lines(60, header={"date": "2026-01-05T20:00:00Z"}), []),
        (record_lines(61, players=4, teams=2, names=("ann", long_name, "cy", "dee"), header={"date": "2026-01-06T20:00:00Z"}), ["--season", "Winter league 2026/27 (Thursdays)"]),
        (record_lines(62, stop_after=30, header={"date": "2026-01-07T20:00:00Z"}), ["--season", "x"]),
    ]
    for k, (lines, season) in enumerate(games):
        assert main(["club", "add", str(write_record(tmp_path / f"g{k}.jsonl", lines)), *season, "--db", db]) == 0
    capsys.readouterr()
    assert main(["club", "history", "ann", "--json", "--db", db]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert main(["club", "history", "ann", "--db", db]) == 0
    header, *lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(rows) == 3 and {r["season"] for r in rows} == {"2026", "Winter league 2026/27 (Thursdays)", "x"}
    for line, r in zip(lines, rows):
        rating = "not rated" if r["rating_after"] is None else "rating"
        fields = [r["played_at"][:16], r["season"], ", ".join(r["players"]), r["side"], r["result"], rating, r["game"][:12]]
        for heading, value in zip(("played", "season", "players", "side", "result", "rating", "game"), fields):
            assert line[header.index(heading) :].startswith(value + " " if heading != "game" else value), (heading, header, line)
        score = f"{r['points_for']:>3}-{r['points_against']:<3}"
        assert line.index(score, header.index("result")) == header.index("score") - 1, (header, line)
    assert long_name in lines[1] and "Winter league 2026/27 (Thursdays)" in lines[1]

    assert main(["club", "standings", "--db", db]) == 0
    out = capsys.readouterr().out.splitlines()
    table = out[1 : out.index("Teams") - 2]
    head = table[0]
    assert any(line.startswith(f"  {long_name} ") for line in table)
    for line in table[1:]:
        for heading, value in zip(head.split(), line.split()):
            if heading != "name":  # figures are right-aligned under their headings
                end = head.index(f" {heading}") + 1 + len(heading)
                assert line[:end].endswith(" " + value), (heading, head, line)


def test_ranks_share_places_on_equal_totals() -> None:
    assert ranks({"a": 5, "b": 12, "c": 7, "d": 7}, "a") == {"a": 1, "b": 2, "c": 3, "d": 3}


def test_cli_json_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    paths = [write_record(tmp_path / f"g{i}.jsonl", record_lines(50 + i, players=4, teams=2 if i % 2 else 0)) for i in range(4)]
    assert main(["club", "add", *map(str, paths), "--db", db]) == 0
    capsys.readouterr()
    assert main(["club", "standings", "--json", "--db", db]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(p["games"] for p in data["players"]) == 16
    assert main(["club", "standings", "--csv", "--db", db]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["kind"] for r in rows} == {"player", "team"}
    assert {r["name"]: int(r["wins"]) for r in rows if r["kind"] == "player"} == {p["name"]: p["wins"] for p in data["players"]}
    assert main(["club", "history", "ann", "--json", "--db", db]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 4
    assert main(["club", "history", "nobody", "--db", db]) == 2
    assert "no stored games of player 'nobody'" in capsys.readouterr().err


def test_kept_ratings_match_rating_every_game_afresh(archive_engine: Engine) -> None:
    """Standings keep the ratings between runs and rate only new games; adding a game dated
    before the kept point, or correcting one, must give what rating everything afresh gives."""
    from companion.club.standings import rate_games

    archive = Archive(archive_engine)

    def afresh() -> dict[str, tuple[float, float]]:
        full, _ = rate_games(archive_engine, follow="nobody")  # follow: never uses kept ratings
        return {n: (r.mu, r.sigma) for n, r in {**full.players, **full.teams}.items()}

    def kept() -> dict[str, tuple[float, float]]:
        table = compute_standings(archive_engine)
        return {s.name: (s.mu, s.sigma) for s in table.rows() if s.mu is not None}

    def same(a: dict[str, tuple[float, float]], b: dict[str, tuple[float, float]]) -> bool:
        return a.keys() == b.keys() and all(abs(a[k][0] - b[k][0]) < 1e-9 and abs(a[k][1] - b[k][1]) < 1e-9 for k in a)

    for day in (10, 11, 12):
        archive.add_lines(record_lines(60 + day, players=4, teams=2 if day % 2 else 0, header={"date": f"2026-04-{day}T20:00:00Z"}))
        assert same(kept(), afresh())
    archive.add_lines(record_lines(70, players=3, header={"date": "2026-04-13T20:00:00Z"}))
    with archive_engine.connect() as conn:
        assert conn.execute(select(rating_marks.c.games)).scalars().all() == [3]  # kept through day 12
    assert same(kept(), afresh())  # rated on top of the kept ratings
    archive.add_lines(record_lines(71, header={"date": "2026-04-01T20:00:00Z"}))  # before the kept point
    assert same(kept(), afresh())
    gid = "c0ffeec0ffeec0ffeec0ffeec0ffee00"
    archive.add_lines(record_lines(72, header={"id": gid, "date": "2026-04-05T20:00:00Z"}))
    assert same(kept(), afresh())
    archive.add_lines(record_lines(73, header={"id": gid, "date": "2026-04-05T20:00:00Z"}))  # a correction
    assert same(kept(), afresh())
    assert same({s.name: (s.mu, s.sigma) for s in compute_standings(archive_engine, "2026").rows() if s.mu is not None}, afresh())


def test_kept_standings_match_counting_every_game_afresh(archive_engine: Engine) -> None:
    """Standings keep what they counted beside the ratings and count only the games added
    since; whatever is added (later, earlier, unfinished, a correction, another season),
    they say what counting every game afresh says."""
    from sqlalchemy import delete

    from companion.club.schema import ratings

    archive = Archive(archive_engine)

    def afresh(season: str | None = None) -> dict[str, object]:
        kept = compute_standings(archive_engine, season).to_json()
        with archive_engine.begin() as conn:
            conn.execute(delete(ratings))
            conn.execute(delete(rating_marks))
        fresh = compute_standings(archive_engine, season).to_json()
        assert kept == fresh
        return fresh

    gid = "5eed5eed5eed5eed5eed5eed5eed5eed"
    steps = [
        record_lines(80, players=4, teams=2, header={"date": "2026-05-10T20:00:00Z"}),
        record_lines(81, players=3, header={"date": "2026-05-11T20:00:00Z"}),
        record_lines(82, players=3, stop_after=30, header={"date": "2026-05-12T20:00:00Z"}),  # unfinished, last
        record_lines(83, players=6, teams=3, header={"date": "2026-05-13T20:00:00Z"}),
        record_lines(84, header={"date": "2026-05-01T20:00:00Z", "id": gid}),  # before every kept point
        record_lines(85, header={"date": "2026-05-01T20:00:00Z", "id": gid}),  # a correction
        record_lines(86, players=4, header={"date": "2025-05-14T20:00:00Z"}),  # another season
    ]
    for lines in steps:
        compute_standings(archive_engine)  # keeps what it counted
        compute_standings(archive_engine, "2026")
        archive.add_lines(lines)
        assert afresh() == afresh()
        afresh("2026")
    with archive_engine.connect() as conn:
        assert conn.execute(select(rating_marks.c.sums)).scalars().first() is not None
