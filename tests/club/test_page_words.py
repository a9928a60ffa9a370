"""The live page as a newcomer reads it, in a real browser (Debian's Chromium, headless): each
table says where its game stands and whose decision it is in the game's own words, those of its
dashboard (``progress``); the page is titled after the game it shows; a card is drawn once, on
its colour, its name on hover; a replay's address opened on a phone shows the replay first."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sqlalchemy import Engine

from companion.club.archive import Archive
from companion.club.server import ClubServer
from companion.games.circle_of_power.cards import Card as CircleCard
from companion.games.circle_of_power.progress import progress as circle_progress
from companion.games.love_money_power_death.progress import progress as lmpd_progress
from companion.games.rule_of_power.club.describe import describe_event
from companion.games.rule_of_power.dashboard.cards import card_marks
from companion.games.rule_of_power.engine.cards import Card as RopCard
from companion.games.rule_of_power.progress import progress as rop_progress
from companion.games.ruse_and_bruise.progress import progress as rab_progress
from companion.records.format import load_game
from tests.club.conftest import keep_shots, post_lines, record_lines, sample_lines
from tests.club.test_page_browser import as_read

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def test_each_table_says_where_its_game_stands_in_its_own_words(
    browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path
) -> None:
    """Every table's state line is its game's progress as the game words it for its dashboard:
    Circle of Power's season and action with "To act" when the winner of the initiative must
    act (C10) and "Next: turn up a city" when the next city lies face down (C7), never "to play"
    then; Rule of Power's "To move"; Love, Money, Power, Death's round of all and who is still to
    commit (L6); Ruse and Bruise's ruling (B10). The face-down next city is drawn face down, not
    "empty", and an action without a card played says so. Every board fits its panel."""
    server, _, _ = club
    tables = {
        "oak": (sample_lines("rule-of-power", "teams-4", "a1" * 16), 30, rop_progress),
        "elm": (sample_lines("circle-of-power", "basic-3", "b1" * 16), 7, circle_progress),
        "fir": (sample_lines("circle-of-power", "basic-3", "b2" * 16), 2, circle_progress),
        "ash": (sample_lines("love-money-power-death", "lmpd-3", "c1" * 16), 3, lmpd_progress),
        "yew": (sample_lines("ruse-and-bruise", "ruse-3", "d1" * 16), 12, rab_progress),
    }
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-live=yes]", timeout=15000)
        said = {}
        for table, (lines, upto, progress) in tables.items():
            sent = post_lines(server, tmp_path, table, lines, upto)
            page.wait_for_selector(f"#table-{table}[data-events='{upto}']", timeout=15000)
            said[table] = progress(load_game(sent)).line  # type: ignore[operator]
            assert page.inner_text(f"#table-{table} [data-role=progress]") == said[table]
        assert said["elm"] == "Season 1, action 1 of 15 · To act: ann"
        assert said["fir"] == "Season 1, action 1 of 15 · Next: turn up a city"
        assert said["oak"].startswith("Round 1 · To move: ")
        assert said["ash"] == "Round 1 of 10 · To commit: ann, bob"
        assert said["yew"].startswith("Round 1 · a card arrived below bob's face-down card in column 3")
        # The city to be turned up lies face down; nothing says "empty" of it.
        nxt = page.inner_text("#table-fir [data-role=next]")
        assert "not turned up yet" in nxt and "empty" not in nxt
        assert page.query_selector("#table-fir [data-role=next] .card.unseen") is not None
        assert page.inner_text("#table-fir [data-role=plays]").split() == ["Action", "1", "of", "15", "no", "card", "played", "yet"]
        # Three panels side by side on a 1280 px screen: every board fits its panel.
        assert page.evaluate("[...document.querySelectorAll('table.board')].every(b => b.parentElement.scrollWidth <= b.parentElement.clientWidth)")
        page.screenshot(path=str(tmp_path / "words-tables-1280.png"), full_page=True)
    finally:
        page.close()
    keep_shots(tmp_path, "words-*.png")


def test_a_replay_says_where_its_game_stands_at_each_step(browser: object, club: tuple[ClubServer, str, Engine]) -> None:
    """A stored Circle of Power game replayed: each step says its season, its action and whose
    decision comes next, as the table said it live."""
    server, _, engine = club
    lines = sample_lines("circle-of-power", "basic-3", "b3" * 16)
    Archive(engine).add_lines([line + "\n" for line in lines])
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
    try:
        for n in (2, 3, 7):
            page.goto(f"{server.url}/#/games/{'b3' * 16}/{n}")
            page.wait_for_selector(f"#replay-pos:text('event {n} of {len(lines)}')", timeout=15000)
            assert page.inner_text("#replay [data-role=progress]") == circle_progress(load_game(lines[:n])).line
    finally:
        page.close()


def test_the_page_is_titled_after_the_game_it_shows(browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path) -> None:
    """A server of the default game with a Circle of Power table alone is titled after Circle of
    Power; once a Rule of Power table joins, after no game; the standings and the games after
    the game they list."""
    server, _, _ = club
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]

    def title() -> tuple[str, str]:
        return page.title(), page.inner_text("header h1")

    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-live=yes]", timeout=15000)
        assert title() == ("Club", "Club")
        post_lines(server, tmp_path, "elm", sample_lines("circle-of-power", "basic-3", "b4" * 16), 5)
        page.wait_for_selector("#table-elm[data-events='5']", timeout=15000)
        assert title() == ("Circle of Power club", "Circle of Power club")
        post_lines(server, tmp_path, "oak", sample_lines("rule-of-power", "duel", "a4" * 16), 5)
        page.wait_for_selector("#table-oak[data-events='5']", timeout=15000)
        assert title() == ("Club", "Club")
        page.click("nav a[data-view=standings]")
        page.click("[data-choose='love-money-power-death'][data-for=standings]")
        page.wait_for_selector("#player-standings th:has-text('crowns')", state="attached", timeout=15000)
        assert title() == ("Love, Money, Power, Death club", "Love, Money, Power, Death club")
    finally:
        page.close()


def _background(page: object, game: str, label: str) -> tuple[str, str]:
    """The class and the colour the page draws ``label`` of ``game`` in."""
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        """([game, label]) => {
            const box = document.createElement("div");
            box.innerHTML = cardChip(label, game, false);
            document.body.appendChild(box);
            const chip = box.firstElementChild;
            const out = [chip.className, getComputedStyle(chip).backgroundColor];
            box.remove();
            return out;
        }""",
        [game, label],
    )


def test_cards_are_drawn_on_their_colours(browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path) -> None:
    """Circle of Power's cards on their colour, as the dashboard draws them: red hearts and
    diamonds, black spades and clubs (C1), since colour decides what a joker attacks and what
    attacks a joker (C3: a joker attacks any red city, any black city attacks a joker); the
    jokers, which have no colour of their own in the basic game (C1), gold. Love, Money, Power,
    Death's cards on their suit's colour (L2). Each card's name on hover."""
    server, _, _ = club
    post_lines(server, tmp_path, "elm", sample_lines("circle-of-power", "basic-3", "b5" * 16), 7)
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#table-elm[data-events='7']", timeout=15000)
        chips = page.query_selector_all("#table-elm .card[data-card]")
        colours = set()
        for chip in chips:
            card = CircleCard.from_id(chip.get_attribute("data-card") or "")
            assert f"cop-{card.colour or 'joker'}" in (chip.get_attribute("class") or "").split()
            assert (chip.get_attribute("title") or "").startswith(card.title)
            colours.add(card.colour)
        assert colours >= {"red", "black"}
        red, black, joker = (_background(page, "circle-of-power", c) for c in ("QH", "QS", "X1"))
        assert red[1] == "rgb(179, 38, 30)" and black[1] == "rgb(11, 11, 13)" and joker[1] == "rgb(232, 185, 35)"
        assert _background(page, "circle-of-power", "7D")[1] == red[1] and _background(page, "circle-of-power", "7C")[1] == black[1]
        grey = _background(page, "circle-of-power", "no such card")[1]
        suits = {_background(page, "love-money-power-death", c)[1] for c in ("N3L", "N3M", "N3P", "N3D", "A2")}
        assert len(suits) == 5 and grey not in suits
        page.screenshot(path=str(tmp_path / "words-colours.png"))
    finally:
        page.close()
    keep_shots(tmp_path, "words-*.png")


def test_a_card_is_written_once_in_the_games_notation(browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path) -> None:
    """No card is written twice: Rule of Power's reasons name a card as the README does ("3P
    W003 Temple of Power") and the page draws it once ("3Pooo", its name on hover), as the event
    log and the centre do; Circle of Power's event log writes "5S", not "5S five of spades";
    Ruse and Bruise's writes "HERMIT", not "HERMIT Hermit"."""
    server, _, _ = club
    rop = post_lines(server, tmp_path, "oak", sample_lines("rule-of-power", "teams-4", "a6" * 16), 30)
    post_lines(server, tmp_path, "elm", sample_lines("circle-of-power", "basic-3", "b6" * 16), 9)
    post_lines(server, tmp_path, "yew", sample_lines("ruse-and-bruise", "ruse-3", "d6" * 16), 12)
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
    try:
        page.goto(server.url + "/")
        for table, n in (("oak", 30), ("elm", 9), ("yew", 12)):
            page.wait_for_selector(f"#table-{table}[data-events='{n}']", timeout=15000)
        game = load_game(rop)
        ring = game.provisional_score().power_ring.explain()
        assert "W003" in ring or "W002" in ring or "W001" in ring  # the reason names Ring cards
        shown = page.inner_text("#table-oak [data-role=ring]")
        assert shown == as_read(ring)
        for chip in page.query_selector_all("#table-oak .card[data-card]"):
            card = RopCard.from_id(chip.get_attribute("data-card") or "")
            assert chip.inner_text() == (card.short + card_marks(card) if card.is_world else card.name)
            assert chip.get_attribute("title") == card.long_label
        # Nothing written before a card repeats it: "holds 3P 3Pooo" was the fault.
        text = page.inner_text("#table-oak")
        assert not re.search(r"\b(\d+[A-Z]) \1", text) and not re.search(r"\b[WF]\d{3}\b", text)
        moves = [li.inner_text() for li in page.query_selector_all("#table-oak ol.moves li")]
        events = [json.loads(line) for line in rop]
        assert moves == [as_read(describe_event(e)) for e in reversed(events[-len(moves):])]
        circle = page.inner_text("#table-elm ol.moves")
        assert "plays" in circle and not re.search(r"\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of \w+", circle)
        assert all(len(c.inner_text().split()) == 1 for c in page.query_selector_all("#table-elm ol.moves .card"))
        rab = page.inner_text("#table-yew ol.moves")
        assert "is turned over" in rab and "HERMIT Hermit" not in rab and "CLOAK Invisibility Cloak" not in rab
        page.screenshot(path=str(tmp_path / "words-once.png"), full_page=True)
    finally:
        page.close()
    keep_shots(tmp_path, "words-*.png")


def test_a_replay_link_opened_on_a_phone_shows_the_replay_first(
    browser: object, club: tuple[ClubServer, str, Engine], tmp_path: Path
) -> None:
    """A replay's address opened at 390x844 shows the replay at once, in sight, the list of
    games after it, however many games the club keeps."""
    server, _, engine = club
    archive = Archive(engine)
    ids = [archive.add_lines(record_lines(seed, players=2, header={"date": f"2026-03-{seed:02d}T20:00:00Z"})).game_id for seed in range(1, 13)]
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    try:
        page.goto(f"{server.url}/#/games/{ids[0]}/5")
        page.wait_for_selector("#replay-pos", timeout=15000)
        page.wait_for_selector(f"tr[data-row='{ids[-1]}']", timeout=15000)
        replay = page.eval_on_selector("#replay", "e => e.getBoundingClientRect().toJSON()")
        listed = page.eval_on_selector("#game-list", "e => e.getBoundingClientRect().toJSON()")
        scrubber = page.eval_on_selector("#replay-scrubber", "e => e.getBoundingClientRect().toJSON()")
        assert replay["top"] < listed["top"] and replay["bottom"] <= listed["top"]
        assert 0 <= scrubber["top"] and scrubber["bottom"] <= PHONE["height"]  # in sight, without scrolling
        assert page.inner_text("#replay-pos").startswith("event 5 of ")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(tmp_path / "words-replay-390.png"))
    finally:
        page.close()
    keep_shots(tmp_path, "words-*.png")
