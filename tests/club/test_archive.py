"""The archive on SQLite and on a real PostgreSQL server: records replayed by the engine and
stored whole; duplicates recognised; corrections replace; refused records name file, line and
rule while the rest of the batch goes in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, inspect, select, text

from companion.club.archive import Archive, read_record_file
from companion.club.identity import digest
from companion.games.rule_of_power.club.tables import round_points
from companion.cli import main
from companion.records.format import RecordError, load_game
from tests.club.conftest import events_of, record_lines, write_record

SAMPLES = sorted((Path(__file__).parents[2] / "companion" / "games" / "rule_of_power" / "samples").glob("*.jsonl"))


def test_samples_stored_whole_and_duplicates_recognised(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    for path in SAMPLES:
        assert archive.add_file(path).status == "added"
    assert archive.count() == len(SAMPLES)
    for path in SAMPLES:
        assert archive.add_file(path).status == "duplicate"
    assert archive.count() == len(SAMPLES)

    for path in SAMPLES:
        parsed = read_record_file(path)
        stored = archive.game(parsed.id)
        assert stored is not None
        game = load_game(path)
        outcome = game.outcome()
        assert stored["finished"] is (outcome is not None)
        assert stored["winner"] == (outcome.winner if outcome else None)
        assert stored["rounds"] == len(game.results)
        assert {s["side"]: s["points_for"] for s in stored["sides"]} == game.totals
        # Every event is kept, and replays to the same game.
        lines = archive.events(parsed.id)
        assert len(lines) == len(events_of(path.read_text().splitlines()))
        assert load_game(lines).totals == game.totals
        assert [r["reasons"] for r in stored["round_list"]] == [r.score.reasons() for r in game.results]
        with archive_engine.connect() as conn:
            pts = conn.execute(
                select(round_points.c.side, func.sum(round_points.c.total)).where(round_points.c.game_id == parsed.id).group_by(round_points.c.side)
            ).all()
        assert dict(pts) == game.totals


def test_identity_is_header_id_else_digest_of_canonical_lines(archive_engine: Engine, tmp_path: Path) -> None:
    archive = Archive(archive_engine)
    plain = record_lines(3)
    result = archive.add_lines(plain)
    assert result.game_id == digest(events_of(plain))
    # The same game written with other spacing and key order is the same game.
    respaced = [json.dumps(dict(reversed(list(e.items())))) + "\n" for e in events_of(plain)]
    assert archive.add_lines(respaced).status == "duplicate"

    gid = "5f0c6a1e9d2b4c8e8a7f3b2d1c0e9f8a"
    with_id = record_lines(4, header={"id": gid})
    assert archive.add_lines(with_id).game_id == gid
    assert archive.count() == 2


def test_correction_replaces_the_stored_game(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    gid = "0123456789abcdef0123456789abcdef"
    first = record_lines(5, header={"id": gid, "date": "2026-03-01T20:00:00+00:00"}, stop_after=30)
    assert archive.add_lines(first).status == "added"
    assert archive.game(gid)["finished"] is False
    corrected = record_lines(5, header={"id": gid, "date": "2026-03-01T20:00:00+00:00"})
    assert archive.add_lines(corrected).status == "replaced"
    stored = archive.game(gid)
    assert stored["finished"] is True and stored["season"] == "2026"
    assert archive.count() == 1
    assert len(archive.events(gid)) == len(corrected)
    assert archive.add_lines(corrected).status == "duplicate"


def test_refused_record_names_file_line_and_rule(tmp_path: Path) -> None:
    lines = record_lines(6)
    # Line 4 is the first play: make it a card the player does not hold.
    play = json.loads(lines[3])
    assert play["event"] == "play"
    held = set(json.loads(lines[2])["hands"][play["player"]])
    play["card"] = next(f"W{n:03d}" for n in range(1, 41) if f"W{n:03d}" not in held)
    bad = write_record(tmp_path / "bad.jsonl", lines[:3] + [json.dumps(play) + "\n"] + lines[4:])
    with pytest.raises(RecordError) as caught:
        read_record_file(bad)
    assert caught.value.line == 4 and caught.value.rule and caught.value.path == str(bad)


def test_cli_batch_keeps_going_after_a_refused_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.sqlite"
    good1 = write_record(tmp_path / "a.jsonl", record_lines(7))
    lines = record_lines(8)
    bad = write_record(tmp_path / "b.jsonl", lines[:2] + ['{"event": "play", "player": "ann"\n'] + lines[3:])
    good2 = write_record(tmp_path / "c.jsonl", record_lines(9, players=4, teams=2))
    status = main(["club", "add", str(good1), str(bad), str(good2), "--db", str(db)])
    out, err = capsys.readouterr()
    assert status == 2
    assert f"{bad}:3: not valid JSON" in err
    assert "2 stored, 0 replaced, 0 already stored, 1 refused" in err
    assert main(["club", "add", str(good1), "--db", str(db)]) == 0
    assert "already stored" in capsys.readouterr().out


def test_cli_reports_an_unreachable_database(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["club", "standings", "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("rop club: cannot open the club archive at postgresql") and "Traceback" not in err


def test_schema_is_the_migrations_head(archive_engine: Engine) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from companion.club.schema import metadata

    with archive_engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar_one() == "0005"
        # The migrations build exactly the tables schema.py describes.
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    names = set(inspect(archive_engine).get_table_names())
    assert {"games", "game_players", "game_records", "game_sides", "game_periods", "game_figures", "period_figures", "live_events"} <= names


def test_default_archive_lives_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROP_CLUB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    record = write_record(tmp_path / "g.jsonl", record_lines(10))
    assert main(["club", "add", str(record)]) == 0
    assert (tmp_path / "data" / "rop" / "club.sqlite").exists()
    monkeypatch.setenv("ROP_CLUB_DB", str(tmp_path / "other.sqlite"))
    assert main(["club", "add", str(record)]) == 0
    assert (tmp_path / "other.sqlite").exists()


def test_cli_names_a_database_url_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["club", "standings", "--db", "mysql://club@127.0.0.1/club"]) == 2
    assert "is SQLite (a file, sqlite:///...) or PostgreSQL (postgresql://...), not mysql://" in capsys.readouterr().err


def test_an_upgraded_archive_gives_each_player_their_own_sweeps(db_url: str) -> None:
    """Games stored as the first archives stored them (one row an event, no player's own
    sweeps): upgrading the archive works the sweeps out, from the side's figure in games
    without teams and by replaying team games, and keeps every game's events, in order."""
    import sqlalchemy as sa

    from tests.club.legacy import _rows, parse_record
    from companion.club.database import migrate, open_archive
    from tests.club.legacy import game_players, game_records

    engine = open_archive(db_url, upgrade=False)
    migrate(engine, "0002")
    old_players = sa.table("game_players", *(sa.column(c) for c in ("game_id", "seat", "player", "side")))
    old_events = sa.table("game_events", *(sa.column(c) for c in ("game_id", "number", "body")))
    seatings = [(21, 4, 2), (26, 4, 2), (0, 6, 3), (1, 6, 2), (3, 3, 0), (5, 2, 0)]
    parsed = [parse_record(record_lines(seed, players=n, teams=t)) for seed, n, t in seatings]
    with engine.begin() as conn:
        for game in parsed:
            for table, rows in _rows(game, "2026").items():
                if table is game_players:
                    conn.execute(old_players.insert(), [{k: v for k, v in r.items() if k != "sweeps"} for r in rows])
                elif table is game_records:
                    conn.execute(old_events.insert(), [{"game_id": game.id, "number": n, "body": line} for n, line in enumerate(game.lines, 1)])
                elif rows:
                    conn.execute(table.insert(), rows)
    migrate(engine)
    with engine.connect() as conn:
        stored = {(r.game_id, r.player): r.sweeps for r in conn.execute(select(game_players))}
    assert [Archive(engine).events(game.id) for game in parsed] == [game.lines for game in parsed]
    engine.dispose()
    want = {(game.id, p): n for game in parsed for p, n in game.sweeps.items()}
    assert stored == want
    # Seed 21: ann and cy, a team, swept once and twice; the team three times.
    assert {p: n for (gid, p), n in stored.items() if gid == parsed[0].id} == {"ann": 1, "bob": 0, "cy": 2, "dee": 1}


def test_a_batch_stores_what_one_by_one_stores(db_url: str, tmp_path: Path) -> None:
    """Games stored in one batch, with a repeat, a correction of a game of the same batch
    and a correction of a game stored before, leave the archive as storing them one at a
    time does, and say the same of each."""
    from companion.club.archive import parse_record
    from companion.club.database import open_archive
    from companion.club.schema import GAME_CHILDREN, games
    from tests.club.conftest import new_pg_database

    def game(seed: int, players: int = 2, teams: int = 0, gid: str | None = None) -> list[str]:
        header = {"date": f"2026-03-{seed + 1:02d}T20:00:00Z", **({"id": gid} if gid else {})}
        return record_lines(seed, players, teams, header=header)

    gid = "abcdefabcdefabcdefabcdefabcdef01"
    earlier = [game(1, gid=gid), game(2, 4, 2)]
    batch = [
        game(3, 3),
        game(4, 6, 3, gid="twice"),
        game(3, 3),  # the same game again
        game(5, gid=gid),  # corrects a game stored before
        game(6, 4, gid="twice"),  # corrects one of this batch
        game(2, 4, 2),  # stored before
    ]

    def contents(engine: Engine) -> dict[str, list[object]]:
        out: dict[str, list[object]] = {}
        with engine.connect() as conn:
            for table in (games, *GAME_CHILDREN):
                rows = conn.execute(select(table)).mappings().all()
                out[table.name] = sorted(json.dumps({k: v for k, v in r.items() if k != "stored_at"}, default=str, sort_keys=True) for r in rows)
        return out

    other = f"sqlite:///{tmp_path / 'many.sqlite'}" if db_url.startswith("sqlite") else new_pg_database(db_url.rsplit("/", 1)[0])
    one, many = open_archive(db_url), open_archive(other)
    try:
        for engine in (one, many):
            Archive(engine).store_many(parse_record(lines) for lines in earlier)
        singly = [Archive(one).store(parse_record(lines)).status for lines in batch]
        together = [r.status for r in Archive(many).store_many(parse_record(lines) for lines in batch)]
        assert singly == together == ["added", "added", "duplicate", "replaced", "replaced", "duplicate"]
        assert contents(one) == contents(many)
        assert Archive(many).count() == 4
    finally:
        one.dispose()
        many.dispose()


def test_the_games_list_names_each_games_table_and_its_sides_scores(archive_engine: Engine, tmp_path: Path) -> None:
    """Each listed game names the table that played it live (a game added from a record names
    none, nor where its record was read) and its sides' scores in seat order, as its game's
    club part names a score: Rule of Power's points (a team's as a team), Circle of Power's
    trophies, its dummies' too, marked automatic (C4) and never winning, even in a draw they
    lead (C17). The whole list is read in the same few queries however many games it holds."""
    from sqlalchemy import event

    from companion.club.archive import TABLE_SOURCE
    from companion.club.parts import places
    from companion.games.circle_of_power.club.part import finishing_places
    from companion.games.circle_of_power.game import CircleState
    from companion.games.circle_of_power.setup import is_dummy
    from tests.club.conftest import cop_record_lines

    archive = Archive(archive_engine)
    teams = record_lines(12, players=4, teams=2, header={"date": "2026-03-01T20:00:00Z"})
    at_table = record_lines(3, players=3, header={"date": "2026-03-02T20:00:00Z"})
    unfinished = record_lines(5, players=2, header={"date": "2026-03-03T20:00:00Z"}, stop_after=8)
    drawn = cop_record_lines(6, players=2, header={"date": "2026-03-04T20:00:00Z"})  # a draw a dummy leads
    path = write_record(tmp_path / "teams.jsonl", teams)
    ids = {
        "teams": archive.add_file(path).game_id,
        "at_table": archive.add_lines(at_table, source=f"{TABLE_SOURCE}oak").game_id,
        "unfinished": archive.add_lines(unfinished).game_id,
        "drawn": archive.add_lines(drawn, source=f"{TABLE_SOURCE}pine").game_id,
    }

    def expected(lines: list[str]) -> list[dict[str, object]]:
        game = load_game(lines)
        outcome = game.outcome()
        winner = outcome.winner if outcome else None
        if isinstance(game, CircleState):  # an emperor a side, the dummies after the players
            sides, place = list(game.emperors), finishing_places(game)
        else:
            sides, place = list(game.setup.sides), places(game.totals, winner, game.setup.sides) if outcome else {}
        return [
            {"side": s, "score": game.totals.get(s, 0), "won": s == winner, "place": place.get(s), "automatic": is_dummy(s)}
            for s in sides
        ]

    listed = {g["id"]: g for g in archive.games()}
    assert [listed[ids[k]]["table"] for k in ("teams", "at_table", "unfinished", "drawn")] == [None, "oak", None, "pine"]
    assert all(str(tmp_path) not in json.dumps(g, default=str) for g in listed.values())
    for name, lines in (("teams", teams), ("at_table", at_table), ("unfinished", unfinished), ("drawn", drawn)):
        assert listed[ids[name]]["scores"] == expected(lines), name
    assert [s["side"] for s in listed[ids["teams"]]["scores"]] == ["ann+cy", "bob+dee"]
    assert [s["place"] for s in listed[ids["unfinished"]]["scores"]] == [None, None]
    # The draw: ann and bob share the first place and neither won; the dummy ahead of them is
    # an automatic seat, placed after every player.
    draw = listed[ids["drawn"]]["scores"]
    assert listed[ids["drawn"]]["winner"] is None and not any(s["won"] for s in draw)
    assert [(s["side"], s["automatic"]) for s in draw] == [("ann", False), ("bob", False), ("@1", True), ("@2", True)]
    assert max(s["score"] for s in draw if s["automatic"]) > max(s["score"] for s in draw if not s["automatic"])
    # The keys a listed game had before are all still there.
    assert {"id", "game", "season", "played_at", "players", "finished", "winner", "termination", "periods"} <= set(listed[ids["teams"]])
    assert listed[ids["teams"]]["rounds"] == len(load_game(teams).results)

    statements: list[str] = []

    def seen(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    event.listen(archive_engine, "before_cursor_execute", seen)
    try:
        archive.games()
        few = len(statements)
        for seed in range(20, 30):
            archive.add_lines(record_lines(seed, players=2))
        statements.clear()
        assert len(archive.games()) == 14
        assert len(statements) == few
    finally:
        event.remove(archive_engine, "before_cursor_execute", seen)


def _with_lone_surrogate(line: str) -> str:
    """A header line holding ``"zz": "\\ud800"``: valid JSON whose string is no text (a lone
    surrogate has no UTF-8 form, so no archive can keep it)."""
    return line.rstrip().removesuffix("}") + ', "zz": "\\ud800"}\n'


def test_a_record_holding_a_lone_surrogate_is_refused_by_name_and_the_batch_goes_in(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rules have nothing against a header key they do not read, so the record replays
    (``rop replay`` plays it); the archive cannot keep a string that is not text: that record
    is refused with its file, line and key, and the good records of the batch are stored."""
    good1 = write_record(tmp_path / "a.jsonl", record_lines(7))
    lines = record_lines(8)
    bad = write_record(tmp_path / "b.jsonl", [_with_lone_surrogate(lines[0]), *lines[1:]])
    assert load_game(bad.read_text(encoding="utf-8").splitlines()).outcome() is not None
    good2 = write_record(tmp_path / "c.jsonl", record_lines(9, players=4, teams=2))
    status = main(["club", "add", str(good1), str(bad), str(good2), "--db", db_url])
    out, err = capsys.readouterr()
    assert status == 2
    assert f'{bad}:1: the game event\'s "zz" holds a lone surrogate (\\ud800)' in err
    assert "2 stored, 0 replaced, 0 already stored, 1 refused" in err
    assert "Traceback" not in err
    from companion.club.database import open_archive

    engine = open_archive(db_url)
    try:
        assert Archive(engine).count() == 2
    finally:
        engine.dispose()
