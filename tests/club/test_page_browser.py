"""The live page in a real browser (Debian's Chromium, headless, driven by Playwright): a
table posts its events while the page is open and the page follows; standings; a stored game
replayed move by move with its settlement; the same for a Circle of Power table, whose stored
game is offered to BG Stats."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from sqlalchemy import Engine

from companion.club.archive import Archive
from companion.club.database import open_archive
from companion.club.export import BGSTATS_CREATE_PLAY
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.games import registry
from companion.records.format import load_game
from tests.club.conftest import cop_record_lines, record_lines

GID = "00aa11bb22cc33dd44ee55ff66778899"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        # The test command installs it (packaging/apt-test.txt): missing means a broken set-up.
        pytest.fail("Chromium is missing: install the chromium package (packaging/apt-test.txt)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[ClubServer, str, Engine]]:
    engine = open_archive(f"sqlite:///{tmp_path / 'club.sqlite'}")
    token = issue_token(tmp_path / "tokens.txt", "oak")
    server = ClubServer(engine, TokenFile(tmp_path / "tokens.txt")).start()
    yield server, token, engine
    server.stop()
    engine.dispose()


def test_page_follows_a_table_as_it_plays(browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path) -> None:
    server, token, engine = club
    lines = record_lines(12, players=4, teams=2, header={"id": GID})
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-live=yes]", timeout=15000)
        assert "No table is playing yet" in page.inner_text("#tables")
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as table:
            for n in (1, 2, 3, 4, 5):
                assert table.post(f"/api/games/{GID}/events/{n}", content=lines[n - 1]).status_code == 201
                page.wait_for_selector(f"#table-oak[data-events='{n}']", timeout=15000)
            game = load_game(lines[:5])
            card = page.inner_text("#table-oak")
            assert "Table oak" in card and "ann, bob, cy, dee" in card
            for c in game.centre:
                assert c.id in card
            score = game.provisional_score()
            assert page.inner_text("#table-oak [data-role=pride]") == score.pride.explain()
            assert page.inner_text("#table-oak [data-role=ring]") == score.power_ring.explain()
            page.screenshot(path=str(tmp_path / "live.png"))
            for n in range(6, len(lines) + 1):
                assert table.post(f"/api/games/{GID}/events/{n}", content=lines[n - 1]).status_code == 201
            page.wait_for_selector(f"#table-oak[data-events='{len(lines)}']", timeout=15000)
        winner = load_game(lines).outcome().winner
        assert f"Winner: {winner}" in page.inner_text("#table-oak")

        page.click("nav a[data-view=standings]")
        page.wait_for_selector("#player-standings tr:nth-child(5)", timeout=15000)
        assert "ann" in page.inner_text("#player-standings")

        page.click("nav a[data-view=games]")
        page.click(f"[data-game='{GID}']")
        page.wait_for_selector("#replay-pos", timeout=15000)
        assert page.inner_text("#replay-pos") == f"event 1 of {len(lines)}"
        page.click("[data-step='1']")
        assert page.inner_text("#replay-pos") == f"event 2 of {len(lines)}"
        for _ in range(len(lines)):
            page.click("[data-step='1']")
        text = page.inner_text("#replay")
        assert f"Winner: {winner}" in text
        assert load_game(lines).results[0].score.reasons()[0] in text
        page.screenshot(path=str(tmp_path / "replay.png"))
    finally:
        page.close()
    assert Archive(engine).game(GID)["finished"] is True


COP_GID = "11cc22dd33ee44ff5500aa11bb22cc33"


def _board_cells(page: object, seat: str) -> dict[str, object]:
    """A seat's row of the board: each cell's words, or its cards as a list."""
    out: dict[str, object] = {}
    for c in page.query_selector_all(f"#table-oak tr[data-seat='{seat}'] td"):  # type: ignore[attr-defined]
        cards = c.query_selector_all(".card")
        out[c.get_attribute("data-col")] = [k.inner_text() for k in cards] if cards else c.inner_text().strip()
    return out


def test_page_follows_a_circle_of_power_table_as_it_plays(browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path) -> None:
    """A Circle of Power table on the page as it happens: each emperor's city, trump suit,
    line and points, the next city, the plays of the current action and who holds the
    initiative (C9), the settled season's reasons (C16); then its standings, and the stored
    game replayed and offered to BG Stats."""
    server, token, engine = club
    lines = cop_record_lines(1, players=3, header={"id": COP_GID})
    circle = registry.game("circle-of-power")
    setup = circle.codec.read_setup(json.loads(lines[0]))
    state = circle.new_state(setup)
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    seen_plays = seen_season = False
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-live=yes]", timeout=15000)
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as table:
            for n in range(1, len(lines) + 1):
                assert table.post(f"/api/games/{COP_GID}/events/{n}", content=lines[n - 1]).status_code == 201
                page.wait_for_selector(f"#table-oak[data-events='{n}']", timeout=15000)
                if n > 1:
                    state.push(circle.codec.read_move(json.loads(lines[n - 1]), setup))
                if n == 1 or (state.played and len(state.played) < 3 and seen_plays) or (seen_season and n % 40):
                    continue
                # What the page shows is what the rules make of the events so far.
                for seat in state.seats:
                    cells = _board_cells(page, seat)
                    city = state.city(seat)
                    assert cells["city"] == ([city.id] if city else "no city")
                    assert cells["line"] == ([c.id if up else "▮" for c, up in state.line(seat)] or "empty")
                    assert cells["this season"] == str(len(state.trophies(seat)))
                    assert cells["total"] == str(state.totals.get(seat, 0))
                if state.played:
                    plays = [k.inner_text() for k in page.query_selector_all("#table-oak [data-role=plays] .card")]
                    assert plays == [f"{who} {card.id}" for who, card in state.played]
                    assert f"Initiative: {state.initiative.reason}" in page.inner_text("#table-oak")
                    if len(state.played) >= 3 and not seen_plays:
                        seen_plays = True
                        page.screenshot(path=str(tmp_path / "circle-live.png"))
                if state.next_city is not None:
                    assert state.next_city.id in page.inner_text("#table-oak [data-role=next]")
                if state.results and not seen_season:
                    seen_season = True
                    text = page.inner_text("#table-oak")
                    first = state.results[0]
                    assert f"Season 1: {first.seats[0]} {first.explain(first.seats[0])}" in text
        assert seen_plays and seen_season
        final = load_game(lines)
        outcome = final.outcome()
        assert f"Winner: {outcome.winner}, the One True Emperor (C17)" in page.inner_text("#table-oak")

        page.click("nav a[data-view=standings]")
        page.click("[data-choose='circle-of-power'][data-for=standings]")
        page.wait_for_selector("#player-standings th:has-text('trophies')", timeout=15000)
        text = page.inner_text("#player-standings")
        assert "seasons" in text and "Lonely Tyrant" in text and "@1" not in text
        row = page.inner_text(f"#player-standings tr:has(td:text-is('{outcome.winner}'))").split()
        assert row[:6] == [outcome.winner, "1", "0", "1", str(len(final.results)), str(final.totals[outcome.winner])]

        page.click("nav a[data-view=games]")
        page.click("[data-choose='circle-of-power'][data-for=games]")
        page.click(f"[data-game='{COP_GID}']")
        page.wait_for_selector("#send-bgstats", timeout=15000)
        for _ in range(30):
            page.click("[data-step='1']")
        assert page.query_selector("#replay table.board") is not None
        href = page.get_attribute("#send-bgstats", "href")
        assert href is not None and href.startswith(BGSTATS_CREATE_PLAY)
        play = json.loads(unquote(href[len(BGSTATS_CREATE_PLAY):]))
        assert play["sourcePlayId"] == COP_GID and [p["name"] for p in play["players"]] == ["ann", "bob", "cy"]
        assert [p["name"] for p in play["players"] if p["winner"]] == [outcome.winner]
        assert page.get_attribute("#export-csv", "href") == "/api/export.csv?game=circle-of-power"
        page.screenshot(path=str(tmp_path / "circle-replay.png"))
    finally:
        page.close()
