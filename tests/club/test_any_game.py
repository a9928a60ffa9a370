"""The club keeps any game that brings a club part, with the same tables: a toy game shaped
like Circle of Power (automatic seats that score but are never rated, seasons, trophies,
draws) stored beside Rule of Power games, each game ranked apart; a game whose club part is
not written is refused by name, by the archive, the command and the server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, func, select

from companion.cli import main
from companion.club.archive import Archive, parse_record
from companion.club.parts import ClubPart, part_of
from companion.club.schema import game_figures, game_players, period_figures
from companion.club.server import ClubServer
from companion.club.standings import compute_standings, history
from companion.club.tokens import TokenFile, issue_token
from companion.contract import registry
from companion.records.format import RecordError, dumps_event
from tests.club import toy_game
from tests.club.conftest import record_lines, write_record


@pytest.fixture(autouse=True)
def toy_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy games registered beside the shipped ones, for this module's tests only."""
    shipped = dict(registry._targets())
    targets = {**shipped, "toy-circle": "tests.club.toy_game:GAME", "toy-bare": "tests.club.toy_game:BARE"}
    monkeypatch.setattr(registry, "_targets", lambda: targets)
    registry.game.cache_clear()
    yield
    registry.game.cache_clear()


def toy_record(seasons: list[dict[str, int]], players: tuple[str, ...] = ("ann", "bob"), *, fmt: str = "toy-record/1", **header: object) -> list[str]:
    lines = [dumps_event({"event": "game", "format": fmt, "players": list(players), "target": 6, **header})]
    lines += [dumps_event({"event": "season", "trophies": season}) for season in seasons]
    return [line + "\n" for line in lines]


def test_the_toy_game_brings_a_club_part() -> None:
    part = part_of(registry.game("toy-circle"))
    assert isinstance(part, ClubPart)
    assert part_of(registry.game("toy-bare")) is None
    assert isinstance(part_of(registry.game("rule-of-power")), ClubPart)


def test_a_game_brings_its_own_figures_with_the_same_tables(archive_engine: Engine) -> None:
    archive = Archive(archive_engine)
    # ann wins; a draw between ann and bob; cy (three players, one automatic seat) wins one;
    # one unfinished. The automatic seats score trophies too.
    records = [
        toy_record([{"ann": 3, "bob": 1, "@1": 2, "@2": 0}, {"ann": 3, "bob": 2, "@1": 4, "@2": 1}], date="2026-03-01T20:00:00Z"),
        toy_record([{"ann": 2, "bob": 4, "@1": 1, "@2": 0}, {"ann": 4, "bob": 2, "@1": 0, "@2": 3}], date="2026-03-02T20:00:00Z"),
        toy_record(
            [{"ann": 1, "bob": 2, "cy": 6, "@1": 0}], ("ann", "bob", "cy"), date="2026-03-03T20:00:00Z"
        ),
        toy_record([{"ann": 1, "bob": 1, "@1": 1, "@2": 1}], date="2026-03-04T20:00:00Z"),
    ]
    for lines in records:
        assert archive.add_lines(lines).status == "added"
    # A Rule of Power game in the same archive, ranked apart.
    rop = record_lines(3)
    archive.add_lines(rop)

    table = compute_standings(archive_engine, game="toy-circle")
    assert table.columns == ("name", "kind", "games", "unfinished", "wins", "trophies", "draws", "rating", "mu", "sigma", "rated_games")
    rows = {s.name: s for s in table.players}
    assert set(rows) == {"ann", "bob", "cy"}  # automatic seats have no row
    assert (rows["ann"].games, rows["ann"].wins, rows["ann"].draws, rows["ann"].unfinished, rows["ann"].trophies) == (4, 1, 1, 1, 14)
    assert (rows["bob"].games, rows["bob"].wins, rows["bob"].draws, rows["bob"].trophies) == (4, 0, 1, 12)
    assert (rows["cy"].games, rows["cy"].wins, rows["cy"].trophies) == (1, 1, 6)
    assert table.teams == []
    # Rated from the finished games, among the players only: three games each for ann and bob.
    assert rows["ann"].rated_games == 3 and rows["bob"].rated_games == 3 and rows["cy"].rated_games == 1
    assert all(s.rating is not None for s in rows.values())
    with archive_engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(game_players).where(game_players.c.automatic.is_(True))).scalar_one() == 7
        dummy = conn.execute(
            select(func.sum(game_figures.c.value)).where(game_figures.c.holder == "@1", game_figures.c.figure == "trophies")
        ).scalar_one()
        assert dummy == 6 + 1 + 0 + 1
        assert conn.execute(select(func.count()).select_from(period_figures).where(period_figures.c.figure == "trophies")).scalar_one() > 0

    # The player's history, in the game's words: a draw is a draw.
    assert [(h["result"], h["trophies"]) for h in history(archive_engine, "bob", game="toy-circle")] == [
        ("lost", 3), ("drew", 6), ("lost", 2), ("unfinished", 1),
    ]
    # Rule of Power's standings know nothing of the toy game's.
    assert {s.name for s in compute_standings(archive_engine).players} == {"ann", "bob"}
    assert sum(s.games for s in compute_standings(archive_engine).players) == 2
    stored = Archive(archive_engine).game(parse_record(records[1]).id)
    assert stored is not None and stored["game"] == "toy-circle" and stored["seasons"] == 2 and stored["winner"] is None
    assert [p["leader"] for p in stored["season_list"]] == ["bob", "ann"]


def test_the_commands_print_a_game_s_own_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    path = write_record(tmp_path / "toy.jsonl", toy_record([{"ann": 6, "bob": 1, "@1": 0, "@2": 0}]))
    assert main(["club", "add", str(path), "--db", db]) == 0
    capsys.readouterr()
    assert main(["club", "standings", "--game", "toy-circle", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "trph  drw" in out and "@1" not in out
    assert "  unfin = unfinished games, trph = trophies, drw = draws" in out  # the game's words
    assert main(["club", "standings", "--game", "toy-circle", "--csv", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "name,kind,games,unfinished,wins,trophies,draws,rating,mu,sigma,rated_games"
    assert main(["club", "history", "ann", "--game", "toy-circle", "--db", db]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert line[: header.index("trph") + len("trph")].split()[-2:] == ["won", "6"]  # the figure ends under its heading
    assert main(["club", "standings", "--game", "no-such-game", "--db", db]) == 2
    assert "unknown game 'no-such-game'" in capsys.readouterr().err


def test_a_game_without_a_club_part_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = toy_record([{"ann": 6, "bob": 1}], fmt="toy-bare/1")
    with pytest.raises(RecordError) as caught:
        parse_record(lines, path="bare.jsonl")
    assert caught.value.line == 1 and "the club does not keep Toy Bare games yet" in str(caught.value)

    db = str(tmp_path / "club.sqlite")
    bare = write_record(tmp_path / "bare.jsonl", lines)
    good = write_record(tmp_path / "good.jsonl", record_lines(4))
    assert main(["club", "add", str(bare), str(good), "--db", db]) == 2
    err = capsys.readouterr().err
    assert f"refused {bare}:1: the club does not keep Toy Bare games yet" in err
    assert "1 stored, 0 replaced, 0 already stored, 1 refused" in err
    assert main(["club", "standings", "--game", "toy-bare", "--db", db]) == 2
    assert "the club does not keep Toy Bare games yet" in capsys.readouterr().err

    # Every shipped game without a club part is refused in the same words.
    for game in registry.games():
        if part_of(game) is None and game.name != "toy-bare":
            header = dumps_event(game.codec.setup_event(game.make_setup(["ann", "bob"])))
            with pytest.raises(RecordError, match=f"the club does not keep {game.title} games yet"):
                parse_record([header])


def test_the_server_refuses_a_table_of_a_game_without_a_club_part(archive_engine: Engine, tmp_path: Path) -> None:
    token = issue_token(tmp_path / "tokens.txt", "oak")
    gid = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
    with ClubServer(archive_engine, TokenFile(tmp_path / "tokens.txt")) as server:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as table:
            r = table.post(f"/api/games/{gid}/events/1", content=toy_record([], fmt="toy-bare/1")[0])
            assert r.status_code == 422 and "the club does not keep Toy Bare games yet" in r.json()["reason"]
            # A table of a game with a club part plays on the same server, in its words.
            toy = toy_record([{"ann": 6, "bob": 1, "@1": 2, "@2": 0}])
            for n, line in enumerate(toy, 1):
                assert table.post(f"/api/games/{gid}/events/{n}", content=line).status_code == 201
            state = table.get("/api/tables").json()  # the game ended: it is in the archive
            data = table.get(f"/api/games/{gid}").json()
            page = table.get("/").text
            standings = table.get("/api/standings", params={"game": "toy-circle"}).json()
    assert state == [] or state[0]["game"] == "toy-circle"
    assert [s["text"] for s in data["steps"]] == ["New game: ann, bob", "Season: @1 2, @2 0, ann 6, bob 1"]
    assert data["winner"] == "ann" and data["seasons"] == 1
    words = json.loads(page.split('<script id="club-games" type="application/json">')[1].split("</script>")[0])
    # Tables of any game post to one server: the page names no game until it shows one.
    assert words["game"] == "rule-of-power" and "<title>Club</title>" in page
    assert words["games"]["toy-circle"]["columns"] == [{"figure": "trophies", "label": "trophies"}, {"figure": "draws", "label": "draws"}]
    assert "toy-bare" not in words["games"]
    assert [(s["name"], s["wins"], s["trophies"]) for s in standings["players"]] == [("ann", 1, 6), ("bob", 0, 1)]
