"""The live page in a real browser (Debian's Chromium, headless, driven by Playwright): a
table posts its events while the page is open and the page follows; standings; a stored game
replayed move by move with its settlement."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine

from companion.club.archive import Archive
from companion.club.database import open_archive
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.records.format import load_game
from tests.club.conftest import record_lines

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
