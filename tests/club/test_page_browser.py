"""The live page in a real browser (Debian's Chromium, headless, driven by Playwright): a
table posts its events while the page is open and the page follows; standings; a stored game
replayed move by move with its settlement; the same for a Circle of Power table, whose stored
game is offered to BG Stats."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest
from sqlalchemy import Engine

from companion.club.archive import Archive
from companion.club.database import open_archive
from companion.club.export import BGSTATS_CREATE_PLAY
from companion.club.server import ClubServer
from companion.club.tokens import TokenFile, issue_token
from companion.contract import registry
from companion.games.circle_of_power.setup import is_dummy
from companion.records.format import load_game
from companion.games.rule_of_power.club.describe import card_label
from companion.games.rule_of_power.dashboard.cards import card_marks
from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card, world_deck
from tests.club.conftest import cop_record_lines, keep_shots, post_lines, record_lines, sample_lines, write_record

GID = "00aa11bb22cc33dd44ee55ff66778899"
COP_GID = "11cc22dd33ee44ff5500aa11bb22cc33"


def as_read(text: str) -> str:
    """``text`` as the page shows it: each card, however the words name it (``W001``, ``W001
    Cosmic Power``, the README's ``1P W001 Cosmic Power``, the page's label), drawn once as its card (``1Po``; a
    Fate card by its name)."""
    forms: dict[str, str] = {}
    for c in (*world_deck(expansion=True), *FATE_CARDS):
        drawn = c.short + card_marks(c) if c.is_world else c.name or c.id
        for form in (c.long_label, f"{c.short} {c.id}", card_label(c.id), c.id):
            forms.setdefault(form, drawn)
    named = re.compile(r"\b(" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True))) + r")\b")
    return named.sub(lambda m: forms[m.group()], text)


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
            # Cards drawn as cards: value and suit letter on the suit's colour, the name on hover.
            chips = page.query_selector_all("#table-oak .centre .card")
            assert [c.get_attribute("data-card") for c in chips] == [c.id for c in game.centre]
            for chip, c in zip(chips, game.centre):
                assert chip.inner_text() == c.short + card_marks(c)
                assert chip.get_attribute("title") == c.long_label
                assert c.suit.value.lower() in chip.get_attribute("class")
            assert "W0" not in page.inner_text("#table-oak .centre")
            score = game.provisional_score()
            assert page.inner_text("#table-oak [data-role=pride]") == as_read(score.pride.explain())
            assert page.inner_text("#table-oak [data-role=ring]") == as_read(score.power_ring.explain())
            page.screenshot(path=str(tmp_path / "live.png"))
            # A move taken back at the table leaves the page at once, said so; the next
            # move clears the notice.
            assert table.delete(f"/api/games/{GID}/events/5").json()["stored"] == 4
            page.wait_for_selector("#table-oak[data-events='4']", timeout=15000)
            assert page.inner_text("#table-oak [data-role=taken-back]") == "↶ A move was taken back at the table"
            assert page.inner_text("#table-oak ol.moves").count("\n") == 3  # four events listed
            page.screenshot(path=str(tmp_path / "taken-back.png"))
            assert table.post(f"/api/games/{GID}/events/5", content=lines[4]).status_code == 201
            page.wait_for_selector("#table-oak[data-events='5']", timeout=15000)
            assert page.query_selector("#table-oak [data-role=taken-back]") is None
            for n in range(6, len(lines) + 1):
                assert table.post(f"/api/games/{GID}/events/{n}", content=lines[n - 1]).status_code == 201
            page.wait_for_selector(f"#table-oak[data-events='{len(lines)}']", timeout=15000)
        winner = load_game(lines).outcome().winner
        assert f"Winner: {winner}" in page.inner_text("#table-oak")

        page.click("nav a[data-view=standings]")
        page.wait_for_selector("#player-standings tr:nth-child(5)", timeout=15000)
        assert "ann" in page.inner_text("#player-standings")

        page.click("nav a[data-view=games]")
        assert page.url.endswith("#/games")
        page.click(f"[data-game='{GID}']")
        page.wait_for_selector("#replay-pos", timeout=15000)
        assert page.inner_text("#replay-pos") == f"event 1 of {len(lines)}"
        page.click("[data-step='1']")
        assert page.inner_text("#replay-pos") == f"event 2 of {len(lines)}"
        assert page.url.endswith(f"#/games/{GID}/2")  # every step at its own address
        # The scrubber goes anywhere at once; the last event shows the settlement laid out.
        page.fill("#replay-scrubber", str(len(lines)))
        page.wait_for_selector(f"#replay-pos:text('event {len(lines)} of {len(lines)}')", timeout=15000)
        text = page.inner_text("#replay")
        assert f"Winner: {winner}" in text
        final = load_game(lines)
        assert "Pride of Dragons" in text and page.query_selector("#replay [data-role=settlement]") is not None
        total_row = page.inner_text("#replay [data-role=settlement] tr.total")
        assert all(str(final.results[-1].score.sides[s].total) in total_row for s in final.setup.sides)
        page.screenshot(path=str(tmp_path / "replay.png"))
        # A step's address opens the game there, in a new page as in this one.
        other = browser.new_page()  # type: ignore[attr-defined]
        try:
            other.goto(f"{server.url}/#/games/{GID}/3")
            other.wait_for_selector("#replay-pos", timeout=15000)
            assert other.inner_text("#replay-pos") == f"event 3 of {len(lines)}"
            assert other.is_visible("#games") and not other.is_visible("#live")
        finally:
            other.close()
    finally:
        page.close()
    keep_shots(tmp_path, "replay.png")
    keep_shots(tmp_path, "taken-back.png")
    assert Archive(engine).game(GID)["finished"] is True


def _round_over(lines: list[str]) -> int:
    """How many events a table has sent when its first round has just been settled."""
    from companion.records.format import load_game as load

    for n in range(2, len(lines) + 1):
        if load(lines[:n]).results:
            return n + 3  # a few moves into the next round
    raise AssertionError("the game has no settled round")


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)], ids=["phone", "desktop"])
def test_a_spectator_reads_every_view_at_phone_and_desktop_widths(
    browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path, width: int, height: int
) -> None:
    """Two Rule of Power tables, one mid-game after a settled round and one its players left,
    and a Circle of Power table mid-season: nothing is wider than the screen, cards are cards,
    a quiet table is marked."""
    server, token, _ = club
    oak = record_lines(12, players=4, teams=2, header={"id": GID})
    elm_id = "11bb22cc33dd44ee55ff667788990011"
    elm = record_lines(5, players=2, header={"id": elm_id}, stop_after=8)
    pine = cop_record_lines(1, players=3, header={"id": COP_GID}, stop_after=11)
    page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    try:
        page.goto(server.url + "/#/tables")
        page.wait_for_selector("body[data-live=yes]", timeout=15000)
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as table:
            upto = _round_over(oak)
            for n in range(1, upto + 1):
                assert table.post(f"/api/games/{GID}/events/{n}", content=oak[n - 1]).status_code == 201
            elm_token = issue_token(tmp_path / "tokens.txt", "elm")
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {elm_token}"}) as other:
                for n in range(1, len(elm) + 1):
                    assert other.post(f"/api/games/{elm_id}/events/{n}", content=elm[n - 1]).status_code == 201
            pine_token = issue_token(tmp_path / "tokens.txt", "pine")
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {pine_token}"}) as third:
                for n in range(1, len(pine) + 1):
                    assert third.post(f"/api/games/{COP_GID}/events/{n}", content=pine[n - 1]).status_code == 201
        page.wait_for_selector(f"#table-oak[data-events='{upto}']", timeout=15000)
        page.wait_for_selector(f"#table-elm[data-events='{len(elm)}']", timeout=15000)
        page.wait_for_selector(f"#table-pine[data-events='{len(pine)}']", timeout=15000)
        # Circle of Power's board: a row per emperor, its cards drawn by their ids.
        assert len(page.query_selector_all("#table-pine table.board tr[data-seat]")) == len(load_game(pine).seats)  # a dummy too (C4)
        assert all(re.fullmatch(r"(10|[2-9JQKA])[SHDC]|X[12]|▮", c.inner_text()) for c in page.query_selector_all("#table-pine td .card"))
        # The last round laid out: a column per side, then its reasons one per line.
        settlement = page.inner_text("#table-oak [data-role=settlement]")
        assert "Round" in settlement and "bob+dee" in settlement and "ann+cy" in settlement
        assert len(page.query_selector_all("#table-oak ul.reasons li")) >= 5
        assert "Round 1, turn" not in page.inner_text("#tables")
        # An hour later nothing more came from either table: both are marked as left.
        page.evaluate("window.clubNow = () => Date.now() + 3600 * 1000; renderTables()")
        assert page.get_attribute("#table-elm", "data-left") == "yes"
        assert "players left" in page.inner_text("#table-elm h2")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # The board itself fits its panel: every column in sight without scrolling it.
        assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('#table-pine table.board').parentElement)")
        page.screenshot(path=str(tmp_path / f"tables-{width}.png"), full_page=True)
        page.goto(server.url + "/#/standings")
        page.wait_for_selector("#player-standings", state="attached", timeout=15000)
        assert page.is_visible("#standings") and not page.is_visible("#live")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(tmp_path / f"standings-{width}.png"), full_page=True)
    finally:
        page.close()
    keep_shots(tmp_path, "*.png")



@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)], ids=["phone", "desktop"])
def test_the_games_list_reads_like_a_list_of_results(
    browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path, width: int, height: int
) -> None:
    """The Games view: a game a table played live names its table, a game added from a record
    names none (nor the organiser's file), and each game's sides show their scores in seat
    order, the winner in gold; a Circle of Power draw shows no winner and its dummies greyed
    and marked, though one of them has the most trophies (C17). Nothing is wider than the
    screen."""
    server, token, engine = club
    lines = record_lines(12, players=4, teams=2, header={"id": GID, "date": "2026-03-02T20:00:00Z"})
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as table:
        for n in range(1, len(lines) + 1):
            assert table.post(f"/api/games/{GID}/events/{n}", content=lines[n - 1]).status_code == 201
    archive = Archive(engine)
    assert archive.game(GID) is not None  # the table's last move stored it
    added = record_lines(3, players=3, header={"date": "2026-03-01T20:00:00Z"})
    added_id = archive.add_file(write_record(tmp_path / "added.jsonl", added)).game_id
    drawn = cop_record_lines(6, players=2, header={"id": COP_GID})
    archive.add_lines(drawn)

    def shown(row: str) -> list[tuple[str, str, bool, bool]]:
        """Each side of a listed game as the page shows it: its words, its name, whether in
        the winner's style and whether marked as an automatic seat."""
        return [
            (s.inner_text(), s.get_attribute("data-side") or "", "winner" in (s.get_attribute("class") or ""),
             "auto" in (s.get_attribute("class") or "").split())
            for s in page.query_selector_all(f"tr[data-row='{row}'] td[data-col=score] .side")
        ]

    page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    try:
        page.goto(server.url + "/#/games")
        page.wait_for_selector(f"tr[data-row='{GID}']", timeout=15000)
        # The table's game, its sides in their seats (ann+cy sit first) with their points.
        game = load_game(lines)
        winner = game.outcome().winner
        stored = {s["side"]: s["points_for"] for s in archive.game(GID)["sides"]}
        assert stored == game.totals
        assert page.inner_text(f"tr[data-row='{GID}'] td[data-col=table]").strip() == "oak"
        assert shown(GID) == [(f"{s} {game.totals[s]}", s, s == winner, False) for s in game.setup.sides]
        assert page.inner_text(f"tr[data-row='{GID}'] td[data-col=score]").replace("\n", "") == " · ".join(
            f"{s} {game.totals[s]}" for s in game.setup.sides
        )
        # The game added from a record: no table, and nothing of where its file was.
        other = load_game(added)
        assert page.inner_text(f"tr[data-row='{added_id}'] td[data-col=table]").strip() == ""
        assert shown(added_id) == [(f"{s} {other.totals[s]}", s, s == other.outcome().winner, False) for s in other.setup.sides]
        assert str(tmp_path) not in page.content() and "added.jsonl" not in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(tmp_path / f"games-{width}.png"), full_page=True)

        page.click("[data-choose='circle-of-power'][data-for=games]")
        page.wait_for_selector(f"tr[data-row='{COP_GID}']", timeout=15000)
        circle = load_game(drawn)
        assert circle.outcome() is not None and circle.outcome().winner is None  # a draw (C17)
        want = [(f"{e} (auto) {circle.totals[e]}" if is_dummy(e) else f"{e} {circle.totals[e]}", e, False, is_dummy(e))
                for e in circle.emperors]
        assert shown(COP_GID) == want
        assert max(circle.totals[e] for e in circle.emperors if is_dummy(e)) > max(circle.totals[p] for p in circle.setup.players)
        assert page.inner_text(f"tr[data-row='{COP_GID}'] td[data-col=result]").strip() == "draw"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(tmp_path / f"games-circle-{width}.png"), full_page=True)
    finally:
        page.close()
    keep_shots(tmp_path, "games-*.png")


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
                    assert "Season 1: settlement" in text
                    reasons = [li.inner_text() for li in page.query_selector_all("#table-oak ul.reasons li")]
                    assert f"{first.seats[0]} {first.explain(first.seats[0])}" in reasons
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
        # The game's address opens it among the games of its own kind, chosen by the keyboard too.
        other = browser.new_page()  # type: ignore[attr-defined]
        try:
            other.goto(f"{server.url}/#/games/{COP_GID}/5")
            other.wait_for_selector("[data-choose='circle-of-power'].active", timeout=15000)
            assert other.inner_text("#replay-pos") == f"event 5 of {len(lines)}"
            assert other.get_attribute("#export-csv", "href") == "/api/export.csv?game=circle-of-power"
            other.focus("[data-choose='rule-of-power']")
            other.keyboard.press("Enter")
            other.wait_for_selector("#export-csv[href='/api/export.csv?game=rule-of-power']", timeout=15000)
        finally:
            other.close()
    finally:
        page.close()
    keep_shots(tmp_path, "circle-*.png")


RAB_GID = "22dd33ee44ff5500aa11bb22cc33dd44"


def test_page_follows_a_ruse_and_bruise_table_with_its_face_down_cards_as_backs(
    browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path
) -> None:
    """A Ruse and Bruise table on the page as it happens: the round's goal cards as columns,
    every face-down card drawn as its owner's colour's back and never named (B10, B29), a card
    turned over by name in its owner's colour; after a round its distribution step by step
    (B18-B26), at the end the winner by the final score (B28)."""
    from companion.games.ruse_and_bruise.samples import sample_path

    server, token, engine = club
    lines = Path(sample_path("ruse-3")).read_text().splitlines()
    header = json.loads(lines[0])
    header["id"] = RAB_GID
    lines[0] = json.dumps(header)
    rab = registry.game("ruse-and-bruise")
    setup = rab.codec.read_setup(header)
    colour = dict(zip(setup.players, setup.colours))
    state = rab.new_state(setup)
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    backs_seen = rounds_seen = 0
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-live=yes]", timeout=15000)
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as table:
            for n in range(1, len(lines) + 1):
                assert table.post(f"/api/games/{RAB_GID}/events/{n}", content=lines[n - 1]).status_code == 201
                if n == 1:
                    continue
                state.push(rab.codec.read_move(json.loads(lines[n - 1]), setup))
                down = [(owner, card) for col in state.columns for owner, card, up in col.cards if not up]
                if len(down) < 4 and not (state.results and len(state.results) > rounds_seen):
                    continue
                page.wait_for_selector(f"#table-oak[data-events='{n}']", timeout=15000)
                if state.results and len(state.results) > rounds_seen:
                    rounds_seen = len(state.results)
                    reasons = page.inner_text("#table-oak")
                    for k, col in enumerate(state.results[-1].columns, 1):
                        assert f"Column {k}: Goal card {col.goal.id}" in reasons and col.reason in reasons
                    if rounds_seen == 1:
                        page.screenshot(path=str(tmp_path / "rab-round.png"), full_page=True)
                    continue
                backs = page.query_selector_all("#table-oak table.board .card.rab-back")
                assert sorted(b.get_attribute("title") or "" for b in backs) == sorted(f"a {colour[o]} card, face down" for o, _ in down)
                assert {b.inner_text() for b in backs} == {"▮"}
                # The table as it lies now (the last round's settlement below it names the
                # cards it revealed, some of which may lie face down again since, B27).
                text = page.inner_text("#table-oak table.board") + "".join(n.inner_text() for n in page.query_selector_all("#table-oak [data-role=note]"))
                for owner, card in down:
                    assert card is not None and f"{owner}'s {card.name}" not in text
                named = {c.get_attribute("data-card") for c in page.query_selector_all("#table-oak table.board .card:not(.rab-back)")}
                for owner, card in down:
                    assert f"{card.id}-{colour[owner]}" not in named  # type: ignore[union-attr]
                if backs_seen == 0:
                    page.screenshot(path=str(tmp_path / "rab-live.png"), full_page=True)
                backs_seen += 1
        assert backs_seen > 10 and rounds_seen == 6
        outcome = state.outcome()
        assert outcome is not None and f"Winner: {outcome.winner} with the highest score (B28)" in page.inner_text("#table-oak")
    finally:
        page.close()
    keep_shots(tmp_path, "rab-*.png")


def follow_tables(page: Any, server: ClubServer, tmp_path: Path, games: dict[str, list[str]]) -> None:
    """The live page opened on the tables, then each of ``games`` (a table: its record's lines)
    posted whole, and shown once the page has every event of it."""
    page.goto(server.url + "/#/tables")
    page.wait_for_selector("body[data-live=yes]", timeout=15000)
    for name, lines in games.items():
        post_lines(server, tmp_path, name, lines, len(lines))
        page.wait_for_selector(f"#table-{name}[data-events='{len(lines)}']", timeout=15000)


# Each "empty" (or the game's own words for no cards) a row of cards shows, by the helpers that
# write it: a labelled row of cards (a table's centre, a game's rows) and a board's cell; with
# the lines its row's label lies on (a long label wraps), and whether it is set apart from it.
_NO_CARDS = """() => [...document.querySelectorAll('#tables .centre > .meta, #tables table.board td > .meta')]
  .filter(e => !(e.previousElementSibling && e.previousElementSibling.classList.contains('card')))
  .map(e => {
    const row = e.closest('.centre');
    const label = row ? row.querySelector('.label') : e.closest('tr').querySelector('td');
    const words = document.createRange();
    words.selectNodeContents(label);
    const box = r => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
    return {table: e.closest('.table').id, role: row ? row.dataset.role || 'centre' : 'board', text: e.textContent,
            box: box(e.getBoundingClientRect()), lines: [...words.getClientRects()].map(box), label: label.textContent,
            apart: getComputedStyle(e).fontStyle !== getComputedStyle(label).fontStyle};
  })"""


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)], ids=["phone", "desktop"])
def test_a_row_without_cards_says_so_where_its_cards_would_be(
    browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path, width: int, height: int
) -> None:
    """A row of cards that holds none says "empty" (or its game's words) where its cards would
    be: on its label's line, after the label, and set apart from the label's words, however
    long the label. A Rule of Power centre before the deal, Circle of Power emperors' lines
    before their first card (C9), Love, Money, Power, Death's courts before the first noble is
    won, and every Ruse and Bruise player's goal cards before the first distribution (B28),
    whose label runs over a phone's line."""
    server, _, _ = club
    games = {
        "oak": record_lines(12, players=4, teams=2, header={"id": GID}, stop_after=1),
        "pine": cop_record_lines(1, players=3, header={"id": COP_GID}, stop_after=4),
        "ash": sample_lines("love-money-power-death", "lmpd-3", "33ee44ff5500aa11bb22cc33dd44ee55")[:6],
        "yew": sample_lines("ruse-and-bruise", "ruse-3", RAB_GID)[:6],
    }
    page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    try:
        follow_tables(page, server, tmp_path, games)
        page.screenshot(path=str(tmp_path / f"empty-{width}.png"), full_page=True)
        rows = page.evaluate(_NO_CARDS)
        assert {r["table"] for r in rows if r["text"] == "empty"} == {f"table-{name}" for name in games}
        assert [r["label"].split(" ")[0] for r in rows if r["role"] == "player"] == ["ann", "bob", "cy"]
        for r in rows:
            middle = (r["box"]["top"] + r["box"]["bottom"]) / 2
            on_a_line = [ln for ln in r["lines"] if ln["top"] <= middle <= ln["bottom"] and r["box"]["left"] >= ln["right"] - 0.5]
            assert on_a_line, f"{r['table']}: {r['text']!r} is not on the line of its row {r['label']!r}: {r}"
        for r in rows:
            assert r["apart"], f"{r['table']}: {r['text']!r} reads as part of its row's label {r['label']!r}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        page.close()
    keep_shots(tmp_path, "empty-*.png")


# Every pair of cards drawn side by side in a row or a board's cell, as copying the row gives
# them: the text between the two chips, and the selection's text of the whole row.
_CARDS_SIDE_BY_SIDE = """() => [...document.querySelectorAll('#tables .centre > .card + .card, #tables table.board td > .card + .card')]
  .map(b => {
    const a = b.previousElementSibling, row = b.parentElement;
    const between = document.createRange();
    between.setStartAfter(a);
    between.setEndBefore(b);
    getSelection().selectAllChildren(row);
    return {table: b.closest('.table').id, a: a.innerText, b: b.innerText, between: between.toString(), copied: getSelection().toString()};
  })"""


def test_cards_side_by_side_read_as_words(browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path) -> None:
    """Cards drawn side by side, in a labelled row or a board's cell, are parted by a space as
    words are, so that a row copied from the page (or read aloud) gives "3D 1M^", not "3D1M^"."""
    server, _, _ = club
    games = {
        "oak": record_lines(12, players=4, teams=2, header={"id": GID}, stop_after=8),
        "pine": cop_record_lines(1, players=3, header={"id": COP_GID}, stop_after=12),
        "yew": sample_lines("ruse-and-bruise", "ruse-3", RAB_GID)[:60],
    }
    page = browser.new_page(viewport={"width": 1366, "height": 900})  # type: ignore[attr-defined]
    try:
        follow_tables(page, server, tmp_path, games)
        page.screenshot(path=str(tmp_path / "side-by-side.png"), full_page=True)
        pairs = page.evaluate(_CARDS_SIDE_BY_SIDE)
    finally:
        page.close()
    keep_shots(tmp_path, "side-by-side.png")
    assert {p["table"] for p in pairs} == {f"table-{name}" for name in games}, pairs
    for p in pairs:
        assert p["between"] == " ", f"{p['table']}: nothing parts {p['a']!r} from {p['b']!r}: {p}"
        assert f"{p['a']} {p['b']}" in p["copied"], f"{p['table']}: copied as {p['copied']!r}"
