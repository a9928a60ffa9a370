"""No word is cut at a panel's edge: every screen the snapshot tests make, and the screens of
manual play a newcomer meets at 80x24 and 160x48 (a refused move with its rule, an undo, a
correction under way, every side panel, the coach's hint), read as a person reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ManualSource
from companion.dashboard.widgets.event_log import EventLog
from companion.dashboard.widgets.status_line import fit_status
from companion.games.rule_of_power.dashboard.screens.table import SIDE_PANELS
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.engine.moves import Play
from tests.dashboard.driving import type_line, until
from tests.dashboard.screen_words import cut_words, screen_rows

SNAPSHOTS = sorted((Path(__file__).parent / "__snapshots__").rglob("*.svg"))


def test_the_reader_finds_a_cut_word() -> None:
    rows = ["│ a card of the same val│", " Round 1  [manual play, the com… ", "│ whole words only     │"]
    assert len(cut_words(rows)) == 2 and "val│" in cut_words(rows)[0]


@pytest.mark.parametrize("svg", SNAPSHOTS, ids=[p.stem for p in SNAPSHOTS])
def test_no_snapshot_screen_holds_a_cut_word(svg: Path) -> None:
    assert cut_words(screen_rows(svg.read_text(encoding="utf-8"))) == []


def test_the_status_line_keeps_whole_words() -> None:
    status = "manual play, the companion deals; correcting event 12: type the right event (Esc cancels); 1 undone (Ctrl+Y re-applies); saved"
    assert fit_status(status, 200) == f"[{status}]"
    assert fit_status(status, 60) == "[manual play; correcting event 12; 1 undone; saved]"
    assert fit_status(status, 30) == "[correcting event 12]"  # what the table is doing outlasts the rest
    assert fit_status(status, 12) == ""


async def _read(pilot, what: str) -> None:  # type: ignore[no-untyped-def]
    """Read the screen; with a dialog open, the dialog alone (the table under it is cut by
    the dialog's frame, as a page under another is)."""
    await pilot.pause()
    rows = screen_rows(pilot.app.export_screenshot())
    if len(pilot.app.screen_stack) > 1:
        box = pilot.app.screen.children[0].region
        rows = [row[box.x : box.right] for row in rows[box.y : box.bottom]]
    found = cut_words(rows)
    assert found == [], f"{what}: {found}"


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_manual_play_screens_hold_no_cut_word(tmp_path: Path, size: tuple[int, int]) -> None:
    source = ManualSource(companion_deals=True, seed=3, first_dealer="bob")
    app = DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=tmp_path, teaching=True)
    async with app.run_test(size=size) as pilot:
        await until(lambda: app.game is not None and app.game.turn is not None, "the first deal")
        game = app.game
        await _read(pilot, "the first turn")
        other = game.hand("bob")[0]
        await type_line(pilot, other.short)  # bob's card on ann's turn: R17 and its reminder
        await _read(pilot, "a refused move")
        await type_line(pilot, "pass")  # ann holds World cards: R17
        await _read(pilot, "a refused pass")
        for _ in range(2):
            move = next(m for m in game.legal_moves if isinstance(m, Play))
            await type_line(pilot, move.card.id)
            if app.screen.__class__.__name__ == "PickScreen":
                await pilot.press("1")
        await pilot.press("ctrl+z")
        await _read(pilot, "an event undone")
        await pilot.press("f6")
        log = app.screen.query_one(EventLog)
        log.highlighted = max(i for i, e in enumerate(log.entries) if e.index is not None)
        await pilot.press("enter")
        await pilot.pause()
        assert app.correcting is not None
        await _read(pilot, "a correction under way")
        await pilot.press("escape")
        for _ in SIDE_PANELS:
            await pilot.press("f4")
            await _read(pilot, "a side panel")
        await pilot.press("f7")
        await pilot.pause()
        await _read(pilot, "the coach's hint")


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_six_players_in_teams_hold_no_cut_word_in_any_side_panel(size: tuple[int, int]) -> None:
    """The widest table (six players, three teams): each side panel, turned to with F4 on a
    small terminal, is drawn at its own width, its headings whole."""
    from companion.dashboard.sources import DemoSource
    from companion.games.rule_of_power.simulation.virtual_table import make_setup

    app = DashboardApp(DemoSource(make_setup(6, 3), seed=7, paused=True), teaching=True)
    async with app.run_test(size=size) as pilot:
        await until(lambda: app.game is not None, "the demo table")
        for _ in range(30):
            await pilot.press("n")
            await pilot.pause()
        await _read(pilot, "the table")
        for _ in SIDE_PANELS:
            await pilot.press("f4")
            await _read(pilot, "a side panel")
