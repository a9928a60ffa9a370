"""Snapshots of the main screens at 80x24 and 160x48 (fixed seeds, paused clocks, no
saving, so that every run draws the same screen). Update with --snapshot-update after a
deliberate change, and look at the report before committing."""

from __future__ import annotations

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import DemoSource, ManualSource, ReplaySource
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.samples import sample_path
from companion.games.rule_of_power.simulation.virtual_table import make_setup
from tests.dashboard.driving import until

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]


def demo_app() -> DashboardApp:
    return DashboardApp(DemoSource(make_setup(4, 2), seed=7, paused=True), teaching=True)


def _events(app: DashboardApp) -> int:
    """Moves applied and slips flagged so far."""
    log = app.table.log_widget
    return (len(app.game.move_stack) if app.game else 0) + sum(1 for e in log.entries if e.kind == "illegal")


async def _weighed(pilot) -> None:  # type: ignore[no-untyped-def]
    """Teaching mode's risks of the position shown are in (they are weighed in a thread)."""
    panel = pilot.app.table.query_one(PlayPanel)
    for _ in range(2000):  # bounded: it ends only a test that is already failing
        if not panel.risks_pending:
            break
        await pilot.pause(0.01)
    await pilot.pause()


async def _steps(pilot, n: int) -> None:  # type: ignore[no-untyped-def]
    """Step the demo clock ``n`` times, each step seen through before the next."""
    await pilot.pause()
    for _ in range(n):
        before = _events(pilot.app)
        await pilot.press("n")
        for _ in range(100):
            await pilot.pause()
            if _events(pilot.app) > before:
                break
    await _weighed(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_demo_table(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    # 24 steps: the second deal under way, a Mystic Crystal in play, a slip flagged.
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _steps(pilot, 24)

    assert snap_compare(demo_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_settlement(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        await pilot.press("end")
        # Every move of the record applied, however busy the machine.
        await until(lambda: pilot.app.game is not None and pilot.app.game.outcome() is not None, "the end of the record")
        await pilot.press("f3")
        await pilot.pause()
        await pilot.press("a")
        for _ in range(3000):  # the coach's review of the round, in its thread
            if not pilot.app.screen.reviewing:
                break
            await pilot.pause(0.01)
        await pilot.pause()

    app = DashboardApp(ReplaySource(sample_path("teams-4"), paused=True))
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_manual_play_choosing_a_capture(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        pilot.app.screen.query_one("#entry").cursor_blink = False
        await pilot.press(*"w040", "enter")
        await _weighed(pilot)

    source = ManualSource(companion_deals=True, seed=5, first_dealer="bob")
    app = DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=False, teaching=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_side_panels_turn_with_f4_on_a_small_terminal(snap_compare) -> None:  # type: ignore[no-untyped-def]
    # 80x24 shows one side panel: F4 twice turns from the scores to the Pride of Dragons.
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _steps(pilot, 24)
        await pilot.press("f4", "f4")
        await pilot.pause()

    assert snap_compare(demo_app(), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_replay_stepped_back(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    # Six moves of a record, then one back: the table as it was after the fifth.
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _steps(pilot, 6)
        await pilot.press("b")
        for _ in range(100):
            await pilot.pause()
            if pilot.app.game is not None and len(pilot.app.game.move_stack) == 5:
                break
        await _weighed(pilot)

    app = DashboardApp(ReplaySource(sample_path("duel"), paused=True), teaching=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_teaching_mode_risks(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    # ann's first move of a manual game: each legal move with its points and its risk.
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        pilot.app.screen.query_one("#entry").cursor_blink = False
        await _weighed(pilot)

    source = ManualSource(companion_deals=True, seed=3, first_dealer="bob")
    app = DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=False, teaching=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_help_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    source = ManualSource(companion_deals=True, seed=5, first_dealer="bob")
    app = DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=False)
    assert snap_compare(app, terminal_size=(80, 24), press=["f1"])
