"""An archive of revision 0004 (Rule of Power's figures in columns of their own, the only game
it kept) brought over to the archive of any game, on SQLite and PostgreSQL: every figure,
standing and rating is what it was.

``data/archive-0004`` holds Rule of Power records and what the archive of revision 0004 made
of them, written by the code of that revision: its tables (``expected.json``, ``tables``:
the rows, kept ratings included), and what ``rop club standings`` and ``rop club history``
printed (``outputs``), after ``rop club add`` of each record in turn (``plan``: the last
record corrects an earlier one). The page's data of that revision, a stored game replayed and
a table's states as it played, are in ``page.json``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, delete, select

from companion.cli import main
from companion.commands.club import history_lines
from companion.club.archive import Archive, read_record_file
from companion.club.database import migrate, open_archive
from companion.club.standings import club_part
from companion.club.schema import GAME_CHILDREN, game_periods, games, rating_marks, ratings
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.scoring import FireDragon, PowerRing
from companion.games.rule_of_power.club.tables import game_players, game_sides, round_points
from tests.club import legacy

DATA = Path(__file__).parent / "data" / "archive-0004"
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
PLAN: list[dict[str, Any]] = EXPECTED["plan"]


def _utc(value: Any) -> str:
    """A time as SQLite or PostgreSQL hands it back (or as written down), in UTC."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def _rows(rows: Any, *, drop: tuple[str, ...] = ()) -> list[str]:
    """Rows compared as sorted JSON, times in UTC, a record's source by its file name."""
    out = []
    for row in rows:
        r = {k: v for k, v in dict(row).items() if k not in drop and k != "stored_at"}
        for k in ("played_at",):
            if k in r:
                r[k] = _utc(r[k])
        if r.get("source"):
            r["source"] = os.path.basename(r["source"])
        out.append(json.dumps(r, sort_keys=True, default=str))
    return sorted(out)


def _run(*args: str) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return {"status": status, "out": out.getvalue(), "err": err.getvalue()}


# What the text tables print now besides what revision 0004 printed: a header row above a
# player's history, and a legend under each standings table. A history's columns are now as
# wide as their widest entry (revision 0004's were not, past a long season name), so its
# lines are compared field by field. Every other line is as it was.
HISTORY_COLUMNS = ("played", "season", "players", "side", "result", "score", "rating", "game")
_HISTORY_ROW = re.compile(
    r"^(?P<played>\S{16}) +(?P<season>\S+) +(?P<players>\S+(?:, \S+)*) +(?P<side>\S+) +(?P<result>\S+) +"
    r"(?P<score>\d+-\d+) +(?P<rating>rating +-?\d+\.\d\d|not rated) +(?P<game>[0-9a-f]{12})$"
)
STANDINGS_LEGEND = [
    "  unfin = unfinished games, for = points scored, agst = points scored against,",
    "  swp = clean sweeps (R7), RoP = wins by the Rule of Power (R13)",
]


def _history_fields(lines: list[str]) -> list[tuple[str, ...]]:
    """Each line of a Rule of Power history, as its fields (a rating's inner spaces aside)."""
    out = []
    for line in lines:
        assert (m := _HISTORY_ROW.match(line)), line
        out.append(tuple(" ".join(m[c].split()) for c in HISTORY_COLUMNS))
    return out


def _aligned_history(out: str) -> list[str]:
    """The lines of a history under its header row, each column starting where its heading
    does (the score's dash in one place, under its heading); checked, then returned."""
    header, *lines = out.splitlines()
    assert header.split() == list(HISTORY_COLUMNS), header
    dashes = set()
    for line in lines:
        m = _HISTORY_ROW.match(line)
        assert m, line
        assert all(m.start(c) == header.index(c) for c in HISTORY_COLUMNS if c != "score"), (header, line)
        dashes.add(line.index("-", m.start("score")))
    start = header.index("score")
    assert len(dashes) == 1 and start <= dashes.pop() < start + len("score"), dashes
    return lines


def _printed_now(command: str, then: dict[str, Any]) -> dict[str, Any]:
    """What revision 0004 printed for ``command``, with the legend lines added (a history's
    text is compared by :func:`_same_as_then`)."""
    if then["status"] != 0 or "--json" in command or "--csv" in command or command.startswith("history"):
        return then
    tables: list[str] = []
    for line in then["out"].splitlines():
        if not line.startswith("  ") and tables:  # a table's title: the last one ended
            tables += STANDINGS_LEGEND
        tables.append(line)
    return {**then, "out": "\n".join(tables + STANDINGS_LEGEND) + "\n"}


def _same_as_then(command: str, now: dict[str, Any], then: dict[str, Any]) -> None:
    """``rop club`` printed for ``command`` what revision 0004 printed, every field the same;
    a history under a header row, in aligned columns."""
    if then["status"] != 0 or "--json" in command or not command.startswith("history"):
        assert now == _printed_now(command, then), command
        return
    assert (now["status"], now["err"]) == (then["status"], then["err"]), command
    lines = _aligned_history(now["out"])
    assert _history_fields(lines) == _history_fields(then["out"].splitlines()), command


def test_the_lines_added_to_the_old_outputs_are_only_headers_and_legends() -> None:
    now = _printed_now("standings --season 2025", EXPECTED["outputs"]["standings --season 2025"])
    assert now["out"].splitlines() == [
        "Players (season 2025)",
        "  name             games unfin wins   for  agst  swp RoP  rating",
        "  bob                  1     0    1    14     8    0   1    3.44",
        "  ann                  1     0    0     8    14    1   0   -1.83",
        *STANDINGS_LEGEND,
    ]
    teams = _printed_now("standings", EXPECTED["outputs"]["standings"])["out"].splitlines()
    assert teams.count(STANDINGS_LEGEND[0]) == 2 and teams[teams.index("Teams") - 2 :][:2] == STANDINGS_LEGEND


def test_a_history_is_compared_field_by_field_in_aligned_columns() -> None:
    then = EXPECTED["outputs"]["history ann"]
    old = then["out"].splitlines()
    rows = [
        {
            "played_at": played, "season": season, "players": players.split(", "), "side": side, "result": result,
            "points_for": int(score.split("-")[0]), "points_against": int(score.split("-")[1]),
            "rating_after": None if rating == "not rated" else float(rating.split()[1]), "game": game,
        }
        for played, season, players, side, result, score, rating, game in _history_fields(old)
    ]
    printed = history_lines(club_part("rule-of-power"), rows)
    now = {**then, "out": "\n".join(printed) + "\n"}
    _same_as_then("history ann", now, then)
    # Revision 0004's own lines are not aligned: a long season pushes its line along.
    assert next(line for line in old if "spring-league" in line).index("ann, bob") != old[0].index("ann, bob")
    with pytest.raises(AssertionError):
        _aligned_history("\n".join([printed[0], *old]))
    # Every field counts: one figure changed is told apart.
    with pytest.raises(AssertionError):
        _same_as_then("history ann", {**now, "out": now["out"].replace(" 5-31", " 5-30")}, then)


_RING_THEN = re.compile(
    r"Power Ring: (?:no Power Master, the Ring cards are split \((?P<split>[^)]*)\)"
    r"|(?P<master>\S+) is Power Master \(3\)(?: with the chain (?P<chain>[W0-9, ]+) \(\+\d+\)|; no W004, so no chain))$"
)


# Revision 0004 named the Fire Dragon's holder, or said nobody had captured it: none of its
# records discards the card (R21) or ends a round without a capture (R6).
_FIRE_THEN = re.compile(r"Fire Dragon \(W007\): (?:(?P<nobody>nobody \(it was not captured\))|(?P<holder>\S+))$")


def _reasons_now(data: Any) -> Any:
    """``data`` (JSON) with each Power Ring and Fire Dragon reason of revision 0004 (cards by
    id, "W001 nobody") told as this revision tells the same Ring (R12) and the same holder of
    the Fire Dragon (R10): the holders and the chain kept."""
    if isinstance(data, dict):
        return {k: _reasons_now(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_reasons_now(v) for v in data]
    if not isinstance(data, str):
        return data
    if m := _FIRE_THEN.match(data):
        return FireDragon(None if m["nobody"] else m["holder"]).explain()
    if not (m := _RING_THEN.match(data)):
        return data
    ring_ids = ("W001", "W002", "W003")
    if m["split"] is not None:
        held = dict(part.split(" ", 1) for part in m["split"].split(", "))
        assert tuple(held) == ring_ids
        ring = {Card.from_id(c): None if side == "nobody" else side for c, side in held.items()}
        return PowerRing(ring, None).explain()
    chain = tuple(Card.from_id(c) for c in m["chain"].split(", ")) if m["chain"] else ()
    return PowerRing({Card.from_id(c): m["master"] for c in ring_ids}, m["master"], chain).explain()


def test_old_power_ring_reasons_are_told_afresh_with_the_same_holders() -> None:
    then = "Power Ring: no Power Master, the Ring cards are split (W001 nobody, W002 bob+dee, W003 ann+cy)"
    assert _reasons_now([then]) == [
        "Power Ring: no Power Master, the Ring cards are split (R12): bob+dee holds 2P W002 Sword of Power, "
        "ann+cy holds 3P W003 Temple of Power"
    ]
    nobody = "Power Ring: no Power Master, the Ring cards are split (W001 nobody, W002 nobody, W003 nobody)"
    assert _reasons_now(nobody) == "Power Ring: no side holds a Ring card, so no Power Master (R12)"
    chain = "Power Ring: bob is Power Master (3) with the chain W004, W005, W006 (+3)"
    assert _reasons_now({"r": chain}) == {"r": "Power Ring: bob is Power Master (3, R12) with the chain 4P W004 to 6P W006 (+3)"}
    assert _reasons_now("Power Ring: ann is Power Master (3); no W004, so no chain").endswith("without 4P W004 no chain")


def test_old_fire_dragon_reasons_are_told_afresh_with_the_same_holder() -> None:
    assert _reasons_now(["Fire Dragon (W007): bob+dee"]) == ["Fire Dragon: bob+dee holds 7P W007 Fire Dragon (+1, R10)"]
    assert _reasons_now({"r": "Fire Dragon (W007): nobody (it was not captured)"}) == {
        "r": "Fire Dragon: no side has captured 7P W007 Fire Dragon, so no point (R10)"
    }
    # Only the reason's own line is told afresh: a move naming the card stays as it was.
    assert _reasons_now("dee plays W007 Fire Dragon, captures W017 Dragon of Men") == "dee plays W007 Fire Dragon, captures W017 Dragon of Men"


def _same_outputs(url: str) -> None:
    """``rop club standings`` and ``history`` print what revision 0004 printed, every figure
    the same, under a header row and over a legend."""
    for command, want in EXPECTED["outputs"].items():
        _same_as_then(command, _run("club", *command.split(), "--db", url), want)


def _old_archive(url: str) -> Engine:
    """An archive of revision 0004 holding the records as ``rop club add`` of the plan left
    it, and the ratings its standings kept."""
    engine = open_archive(url, upgrade=False)
    migrate(engine, "0004")
    stored: dict[str, tuple[legacy.ParsedGame, str]] = {}
    for step in PLAN:
        path = DATA / "records" / step["record"]
        parsed = legacy.parse_record(path.read_text(encoding="utf-8").splitlines(), path=step["record"])
        before = stored.get(parsed.id)
        season = step["season"] or (before[1] if before else str(parsed.played_at.year))
        stored[parsed.id] = (parsed, season)
    with engine.begin() as conn:
        for parsed, season in stored.values():
            legacy.store(conn, parsed, season)
        for name in ("rating_marks", "ratings"):
            rows = [dict(r) for r in EXPECTED["tables"][name]]
            for r in rows:
                if "played_at" in r:
                    r["played_at"] = datetime.fromisoformat(_utc(r["played_at"]))
            conn.execute(legacy.TABLES[name].insert(), rows)
    return engine


def test_an_archive_of_rule_of_power_games_is_brought_over_with_nothing_lost(db_url: str) -> None:
    engine = _old_archive(db_url)
    old = EXPECTED["tables"]
    try:
        with engine.connect() as conn:
            # The archive built here is the one revision 0004 wrote.
            for name, table in legacy.TABLES.items():
                if name != "game_records":
                    assert _rows(conn.execute(select(table)).mappings()) == _rows(old[name]), name
            records = {r.game_id: r.body for r in conn.execute(select(legacy.game_records))}
        migrate(engine)
        with engine.connect() as conn:
            # Each round's points per side, each side's figures, each player's own sweeps.
            assert _rows(conn.execute(select(round_points)).mappings()) == _rows(old["round_points"])
            assert _rows(conn.execute(select(game_sides)).mappings()) == _rows(old["game_sides"])
            assert _rows(conn.execute(select(game_players)).mappings()) == _rows(old["game_players"])
            # Each round in words.
            rounds = [
                {"game_id": r.game_id, "number": r.number, **r.details} for r in conn.execute(select(game_periods))
            ]
            assert _rows(rounds) == _rows(old["game_rounds"])
            # Each game: its set-up from the record's game event, its rounds, its result.
            stored = []
            for r in conn.execute(select(games)).mappings():
                assert r["game"] == "rule-of-power" and r["setup"]["format"] == "rop-record/1"
                row = {k: v for k, v in r.items() if k not in ("game", "setup", "periods")}
                row.update({k: r["setup"][k] for k in ("teams", "target", "expansion")}, rounds=r["periods"])
                assert r["setup"]["players"] == r["players"]
                stored.append(row)
            assert _rows(stored) == _rows(old["games"])
            # The kept ratings, now Rule of Power's.
            for name, table in (("rating_marks", rating_marks), ("ratings", ratings)):
                kept = [dict(r) for r in conn.execute(select(table)).mappings()]
                assert {r.pop("game") for r in kept} == {"rule-of-power"}
                assert {r.pop("sums", None) for r in kept} == {None}  # counted afresh next time
                assert _rows(kept) == _rows(old[name]), name
        assert {gid: "\n".join(Archive(engine).events(gid)) for gid in records} == records
        # Standings and history print what they printed, from the kept ratings and afresh.
        _same_outputs(db_url)
        with engine.begin() as conn:
            conn.execute(delete(ratings))
            conn.execute(delete(rating_marks))
        _same_outputs(db_url)
    finally:
        engine.dispose()


def test_a_migrated_archive_holds_what_adding_the_records_now_stores(db_url: str, tmp_path: Path) -> None:
    """The same records, added to a new archive by this revision, give the same rows as the
    archive brought over, and the same standings and history."""
    from tests.club.conftest import new_pg_database

    engine = _old_archive(db_url)
    migrate(engine)
    fresh_url = f"sqlite:///{tmp_path / 'fresh.sqlite'}" if db_url.startswith("sqlite") else new_pg_database(db_url.rsplit("/", 1)[0])
    for step in PLAN:
        season = ["--season", step["season"]] if step["season"] else []
        assert _run("club", "add", str(DATA / "records" / step["record"]), *season, "--db", fresh_url)["status"] == 0
    fresh = open_archive(fresh_url)
    try:
        for table in (games, *GAME_CHILDREN):
            with engine.connect() as a, fresh.connect() as b:
                # A migrated round keeps its reasons as stored; one added now has today's words.
                migrated = _rows(_reasons_now([dict(r) for r in a.execute(select(table)).mappings()]))
                added = _rows(b.execute(select(table)).mappings())
            assert migrated == added, table.name
        _same_outputs(fresh_url)
    finally:
        engine.dispose()
        fresh.dispose()


def test_the_page_shows_a_game_as_it_did(tmp_path: Path) -> None:
    """A stored game replayed for the page, and a table's state as it plays, are what they
    were (the table's state now also names its game, how many moves it took back last, and
    where the game stands in its words)."""
    from companion.club.live import LiveTables
    from companion.club.replay import replay_steps

    page = json.loads((DATA / "page.json").read_text(encoding="utf-8"))
    parsed = read_record_file(DATA / "records" / "rule-of-power-duel.jsonl")
    # Reasons computed afresh are in this revision's words; stored ones stay as stored. Each
    # step now also says where the game stands (its progress, as the dashboard says it).
    steps = replay_steps(parsed.lines)
    assert all(s.pop("progress")["period"].startswith("Round ") for s in steps[1:])
    assert steps == _reasons_now(page["replays"]["rule-of-power-duel"])

    engine = open_archive(f"sqlite:///{tmp_path / 'live.sqlite'}")
    live = LiveTables(engine)
    lines = (DATA / "records" / "teams-sweeps.jsonl").read_text(encoding="utf-8").splitlines()
    states = []
    for n, line in enumerate(lines, 1):
        accepted = live.post("oak", "0123456789abcdef0123456789abcdef", n, line.encode())
        if accepted.write is not None:
            with engine.begin() as conn:
                accepted.write.run(conn)
        if n % 7 == 0 or n == len(lines) or n < 4:
            state = dict(accepted.game.snapshot())
            state.pop("updated_at")
            assert state.pop("game") == "rule-of-power"
            assert state.pop("taken_back") == 0  # nothing taken back in this game
            assert state.pop("progress")["period"] in ("New game", f"Round {state['round']}")
            states.append(state)
    engine.dispose()
    assert states == _reasons_now(page["live"])


@pytest.mark.parametrize("command", ["standings", "history ann"])
def test_the_default_game_is_rule_of_power(command: str, tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    for step in PLAN:
        season = ["--season", step["season"]] if step["season"] else []
        assert _run("club", "add", str(DATA / "records" / step["record"]), *season, "--db", db)["status"] == 0
    _same_as_then(command, _run("club", *command.split(), "--game", "rule-of-power", "--db", db), EXPECTED["outputs"][command])
