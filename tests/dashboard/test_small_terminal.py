"""The dashboard on a laptop's 80x24: one side panel at a time (F4 turns the page), every code
explained by F1 in every mode, and a replay that steps back."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.help import HelpScreen
from companion.dashboard.screens.table import TableScreen
from companion.games.rule_of_power.dashboard.kit import LEGEND
from companion.games.rule_of_power.dashboard.screens.table import SIDE_PANELS
from companion.dashboard.sources import DemoSource, ManualSource, ReplaySource
from companion.dashboard.tracker_source import TrackerSource
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Play
from companion.session import GameSession
from companion.games.rule_of_power.samples import sample_path
from companion.games.rule_of_power.simulation.virtual_table import make_setup
from companion.tracker import Tracker, TrackerConfig
from tests.dashboard.driving import dealt, type_line
from tests.dashboard.screen_words import screen_rows


class NoSensors:
    """Sensors that report nothing: the tracker mode with a quiet table."""

    def __call__(self, emit):  # type: ignore[no-untyped-def]
        return self

    def stop(self) -> None:
        pass


async def wait_until(pilot, done, tries: int = 200) -> None:  # type: ignore[no-untyped-def]
    """Let the app work until ``done()`` holds (a bounded number of frames, no clock)."""
    for _ in range(tries):
        await pilot.pause()
        if done():
            return
    raise AssertionError("the dashboard never got there")


def shown_side_panels(app: DashboardApp) -> list[str]:
    table = app.screen_stack[0]
    return [pid for pid, _ in SIDE_PANELS if table.query_one(f"#{pid}").display]


@pytest.mark.asyncio
async def test_one_side_panel_at_a_time_on_80x24_and_f4_turns_the_page() -> None:
    app = DashboardApp(DemoSource(make_setup(4, 2), seed=7, paused=True), teaching=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.game is not None)
        assert shown_side_panels(app) == ["scores"]
        assert app.screen_stack[0].query_one("#scores").border_subtitle == "F4: Power Ring"
        seen = []
        for _ in SIDE_PANELS:
            await pilot.press("f4")
            await pilot.pause()
            seen += shown_side_panels(app)
        assert seen == [pid for pid, _ in SIDE_PANELS[1:]] + ["scores"]
        status = app.screen_stack[0].query_one("#status")
        assert status.size.height == 1


@pytest.mark.asyncio
async def test_every_panel_at_once_on_a_large_terminal() -> None:
    app = DashboardApp(DemoSource(make_setup(4, 2), seed=7, paused=True))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.game is not None)
        table = app.screen_stack[0]
        assert isinstance(table, TableScreen)
        assert shown_side_panels(app) == [pid for pid, _ in SIDE_PANELS]
        assert table.check_action("next_panel", ()) is False


def _apps() -> list[tuple[str, DashboardApp]]:
    setup = GameSetup(("ann", "bob"))
    tracker = Tracker(GameSession(setup), TrackerConfig(first_dealer="bob"))
    return [
        ("demo", DashboardApp(DemoSource(make_setup(4, 2), seed=7, paused=True))),
        ("replay", DashboardApp(ReplaySource(sample_path("duel"), paused=True))),
        ("manual", DashboardApp(ManualSource(companion_deals=True, seed=5, first_dealer="bob"), setup=setup, games_dir=False)),
        ("tracker", DashboardApp(TrackerSource(tracker, NoSensors(), label="camera"), setup=setup, games_dir=False)),
    ]


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["demo", "replay", "manual", "tracker"])
async def test_f1_explains_every_code_in_every_mode(mode: str) -> None:
    app = dict(_apps())[mode]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.game is not None)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        console = Console(file=io.StringIO(), width=160, color_system=None)
        console.print(app.screen.body)
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert "Reading the screen" in text
        for code, meaning in LEGEND:
            assert code in text and meaning.split(":")[0].split(",")[0] in text
        for code in ("Pride 0-3-1..", "hand 3+1F", "1Po 2Poo 3Pooo", "takes 6P 4P", "P Powers", "0->3", "F4"):
            assert code in text
        f4 = [b for _, bindings in app.screen.groups for b in bindings if getattr(b, "key", "") == "f4"]
        assert f4, "the page key of a small terminal is listed"
        back = [b for _, bindings in app.screen.groups for b in bindings if getattr(b, "action", "") == "step_back"]
        assert bool(back) == (mode == "replay")


@pytest.mark.asyncio
async def test_a_replay_steps_back_one_move_at_a_time() -> None:
    source = ReplaySource(sample_path("duel"), paused=True)
    app = DashboardApp(source)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.game is not None)
        for n in range(1, 5):
            await pilot.press("n")
            await wait_until(pilot, lambda n=n: len(app.game.move_stack) == n)
        centre_after_3 = None
        await pilot.press("b")
        await wait_until(pilot, lambda: len(app.game.move_stack) == 3)
        centre_after_3 = app.game.centre
        assert source.paused and source.index == 3
        await pilot.press("n")
        await wait_until(pilot, lambda: len(app.game.move_stack) == 4)
        await pilot.press("b")
        await wait_until(pilot, lambda: len(app.game.move_stack) == 3)
        assert app.game.centre == centre_after_3
        for n in (2, 1, 0):
            await pilot.press("b")
            await wait_until(pilot, lambda n=n: len(app.game.move_stack) == n)
        assert source.back() is False  # at the start of the record


@pytest.mark.asyncio
async def test_a_finished_replay_steps_back_and_plays_on() -> None:
    source = ReplaySource(sample_path("duel"), paused=True)
    app = DashboardApp(source, settlement_autoplay=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.game is not None)
        await pilot.press("end")
        await wait_until(pilot, lambda: app.game.outcome() is not None, tries=2000)
        total = len(app.game.move_stack)
        await pilot.press("n")  # the clock finds nothing more: the replay is finished
        await wait_until(pilot, lambda: source.finished)
        await pilot.press("b")
        await wait_until(pilot, lambda: len(app.game.move_stack) == total - 1)
        assert app.game.outcome() is None and not source.finished
        await pilot.press("n")
        await wait_until(pilot, lambda: len(app.game.move_stack) == total)
        assert app.game.outcome() is not None


@pytest.mark.asyncio
async def test_the_entry_suggests_short_forms_and_ids() -> None:
    from companion.games.rule_of_power.dashboard.entry import card_candidates
    from companion.games.rule_of_power.dashboard.screens.table import CardSuggester
    from companion.games.rule_of_power.engine import Deal, NewRound

    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound("bob"))
    game.push(Deal.make({"ann": ["W016", "W033", "W005"], "bob": ["W017", "W021", "W040"]}, ["W002", "W014", "W013", "W001"]))
    suggester = CardSuggester(lambda: game)
    assert [c.id for c in card_candidates(game)] == ["W016", "W033", "W005"]
    assert await suggester.get_suggestion("6") == "6M"
    assert await suggester.get_suggestion("3") == "3D"
    assert await suggester.get_suggestion("w03") == "W033"
    assert await suggester.get_suggestion("th") == "thief"


def _wrong_capture(game: GameState) -> str:
    """An entry the rules refuse for R4: a card of the hand of the player to move taking a
    centre card that its value does not match."""
    from companion.contract.errors import IllegalMoveError

    me = game.turn
    assert me is not None
    for card in game.hand(me):
        for taken in game.centre:
            try:
                game.check(Play(me, card, (taken,)))
            except IllegalMoveError as exc:
                if exc.rule == "R4":
                    return f"{card.short} x {taken.short}"
    raise AssertionError("no wrong capture in this position")


@pytest.mark.asyncio
@pytest.mark.parametrize("teaching", [False, True], ids=["plain", "teaching"])
async def test_a_refused_move_reads_whole_with_its_rule_and_reminder_on_80x24(teaching: bool) -> None:
    """The play panel takes the main column's rows the event log can spare: the refused move and
    its rule are in sight to the last word. Without teaching mode the plain-words reminder ("In
    short, R4: ...") follows it whole; in teaching mode the legal moves come first (what the
    player needs next), and the reminder takes the rows left, in whole words, marked "..." when
    cut."""
    from companion.games.rule_of_power.dashboard.commentary import rule_hint
    from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel

    app = DashboardApp(ManualSource(companion_deals=True, seed=3, first_dealer="bob"), setup=GameSetup(("ann", "bob")), games_dir=False, teaching=teaching)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        for entry, rule in ((_wrong_capture(game), "R4"), ("pass", "R17")):
            await type_line(pilot, entry)
            panel = app.screen.query_one(PlayPanel)
            assert panel.flag is not None and panel.flag.rule == rule
            region = panel.content_region
            rows = screen_rows(app.export_screenshot())[region.y : region.bottom]
            shown = " ".join(" ".join(row[region.x : region.right].split()) for row in rows)
            assert " ".join(panel.flag.text.split()) in shown, f"{entry!r}: {shown!r}"
            reminder = f"In short, {rule}: {rule_hint(rule)}"
            if not teaching:
                assert reminder in shown, f"{entry!r}: {shown!r}"
                continue
            first = list(app.game.legal_moves)[0] if app.game is not None else None
            assert first is not None and isinstance(first, Play)
            assert "ann's legal moves" in shown and first.card.short in shown.split("legal moves", 1)[1], f"{entry!r}: {shown!r}"
            told = shown[shown.index("In short") :] if "In short" in shown else ""
            assert not told or told == reminder or (told.endswith(" ...") and reminder.startswith(told[: -len(" ...")])), f"{entry!r}: {told!r}"


@pytest.mark.asyncio
async def test_the_centre_shows_every_card_after_the_terminal_is_resized() -> None:
    """Grown from 80x24 to 160x48 the centre's cards turn from chips to big cards, laid out
    at their new height (every card in sight, not the first row of each); shrunk back, chips."""
    from companion.games.rule_of_power.dashboard.widgets.centre import CentreCards

    app = DashboardApp(ManualSource(companion_deals=True, seed=3, first_dealer="bob"), setup=GameSetup(("ann", "bob")), games_dir=False)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        assert len(game.centre) == 4
        for size, words in (((160, 48), lambda c: c.id), ((80, 24), lambda c: c.short), ((160, 48), lambda c: c.id)):
            await pilot.resize_terminal(*size)
            centre = app.screen.query_one(CentreCards)
            await wait_until(pilot, lambda: centre.has_class("-compact") == (size == (80, 24)) and centre.size.width > 0)
            await pilot.pause()
            region = centre.content_region
            shown = " ".join(row[region.x : region.right] for row in screen_rows(app.export_screenshot())[region.y : region.bottom])
            for card in game.centre:
                assert words(card) in shown, f"{size}: {card.id} out of sight in {shown!r}"
