"""Circle of Power's table screen read as a person reads it, at a laptop's 80x24 and at 160x48:
every panel in sight (one at a time on the small terminal, F4 turning the page), nothing it
says broken or cut at its edge, the action's cards, initiative and the winner's choices with
why, the circle with who may take whom, the season's settlement, and F1 explaining every
code; then snapshots of the same screens (update with --snapshot-update after a deliberate
change, and look at the report before committing)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

import pytest
from rich.console import Console, RenderableType
from textual.widget import Widget

from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.help import HelpScreen
from companion.dashboard.sources import DemoSource, ManualSource, ReplaySource
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.dashboard.kit import LEGEND
from companion.games.circle_of_power.dashboard.screens.settlement import SeasonSettlement
from companion.games.circle_of_power.dashboard.screens.table import SIDE_PANELS
from companion.games.circle_of_power.dashboard.widgets.action import ActionPanel
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Move
from companion.games.circle_of_power.samples import sample_path
from companion.games.circle_of_power.setup import CircleSetup, is_dummy
from companion.session import GameSession
from tests.dashboard.driving import panel_text, until
from tests.games.circle_of_power.dashboard.driving import positions

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]

_SPLIT = re.compile(r"[\s\u2500-\u259f▊▎▔▁]+")
"""Blanks and the box-drawing and block characters of borders and scroll bars."""


def _words(text: str) -> set[str]:
    return {w for w in _SPLIT.split(text) if w}


def _rendered(renderable: RenderableType) -> str:
    console = Console(width=300, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def screen_lines(app: DashboardApp) -> list[str]:
    """The terminal as the person at the table sees it, line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown_words(app: DashboardApp, widget: Widget) -> set[str]:
    """The words ``widget`` shows on screen, inside its border."""
    region = widget.content_region
    lines = screen_lines(app)[region.y : region.bottom]
    return _words("\n".join(line[region.x : region.right] for line in lines))


def cut_words(app: DashboardApp, widget: Widget, full: str) -> set[str]:
    """Words on screen that the widget's text ``full`` (laid out with room to spare) does not
    have: a word broken by the wrapping, or cut at the edge."""
    return shown_words(app, widget) - _words(full)


def _acting(state: CircleState) -> bool:
    """A player (not a dummy) has won the initiative in season 2 and chooses among two acts or
    more, one of them a retake."""
    if state.season_number < 2 or state.phase is not Phase.ACT or is_dummy(state.to_move or ""):
        return False
    acts = {c.act for c in state.choices()}
    return len(state.choices()) >= 2 and "retake" in acts


def _position() -> tuple[CircleSetup, list[Move]]:
    return next(positions(_acting, players=("ann", "bob", "cy"), seeds=range(500)))


def _app(setup: CircleSetup, moves: list[Move]) -> DashboardApp:
    state = GAME.new_state(setup)
    for move in moves:
        state.push(move)
    return DashboardApp(ManualSource(), session=GameSession(game=state), games_dir=False)


async def _panels_uncut(app: DashboardApp, ids: Iterable[str]) -> None:
    table = app.screen_stack[0]
    for panel_id in ids:
        panel = table.query_one(f"#{panel_id}")
        assert panel.display, f"{panel_id} is in sight"
        cut = cut_words(app, panel, panel_text(panel))
        assert not cut, f"{panel_id}: {sorted(cut)} cut or broken on screen"


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_the_table_explains_the_action_and_the_circle_uncut(size: tuple[int, int]) -> None:
    setup, moves = _position()
    app = _app(setup, moves)
    async with app.run_test(size=size) as pilot:
        await until(lambda: app.game is not None, "the game")
        await pilot.pause()
        game = app.game
        assert game is not None
        winner = game.to_move
        assert winner is not None
        table = app.screen_stack[0]
        screen = "\n".join(screen_lines(app))
        assert f"Season {game.season_number}, action {game.action_number}" in screen
        assert f"To act:  {winner}" in screen
        action = " ".join(panel_text(table.query_one(ActionPanel)).split())
        # The four cards in play order, who holds the initiative and why (C9), the choices.
        for name, card in game.played:
            assert name in action and card.id in action
        assert "C9" in action and f"{winner} must take a city (C10), type 1-{len(game.choices())}" in action
        for k in range(1, len(game.choices()) + 1):
            assert f" {k} " in f" {action} "
        await _panels_uncut(app, ["status", "action"])
        if size == (80, 24):
            # One side panel at a time: the circle first, F4 turns to each of the others.
            for panel_id, _title in SIDE_PANELS:
                shown = [pid for pid, _ in SIDE_PANELS if table.query_one(f"#{pid}").display]
                assert shown == [panel_id]
                await _panels_uncut(app, [panel_id])
                await pilot.press("f4")
                await pilot.pause()
        else:
            assert "attacks" in action  # the long reasons: which city attacks which (C3)
            await _panels_uncut(app, [pid for pid, _ in SIDE_PANELS])
        circle = " ".join(panel_text(table.query_one("#circle")).split())
        assert "J ────> Q" in circle and "A <──── K" in circle and "joker" in circle
        me = game.city(winner)
        assert me is not None and f"> {winner} {me.id} may take" in circle


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_the_season_settlement_reads_uncut(size: tuple[int, int]) -> None:
    app = DashboardApp(ReplaySource(sample_path("coloured-3"), paused=True), games_dir=False)
    async with app.run_test(size=size) as pilot:
        await until(lambda: app.game is not None, "the replay")
        await pilot.pause()
        await pilot.press("end")
        await until(lambda: app.game is not None and app.game.outcome() is not None, "the end of the record")
        await pilot.press("f3")
        await until(lambda: isinstance(app.screen, SeasonSettlement), "the settlement")
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SeasonSettlement)
        full = "\n".join(t + "\n" + _rendered(body) for t, body in screen.steps)
        assert "Verdict" in full and "Totals" in full and "C19" in full
        cut = cut_words(app, screen.query_one("#steps-body"), full)
        assert not cut, f"{sorted(cut)} cut or broken on screen"


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_f1_explains_every_code_on_the_screen(size: tuple[int, int]) -> None:
    setup, moves = _position()
    app = _app(setup, moves)
    async with app.run_test(size=size) as pilot:
        await until(lambda: app.game is not None, "the game")
        await pilot.press("f1")
        await until(lambda: isinstance(app.screen, HelpScreen), "the help screen")
        text = _rendered(app.screen.body)  # type: ignore[attr-defined]
        for code, meaning in LEGEND:
            assert code in text and meaning.split(":")[0].split(",")[0] in text
        # How moves are typed, and the keys of the game's own dialogs.
        for typed in ("7h", "10♥", "joker", "conquer bob", "retake bob QD", "regroup QD"):
            assert typed in text
        assert "Season dialog" in text and "Choosing a trophy" in text


# ---------------------------------------------------------------------- snapshots


def _steps_app() -> DashboardApp:
    setup = GAME.make_setup(["ann", "bob", "cy"], variant="coloured-cities")
    return DashboardApp(DemoSource(setup, seed=3, paused=True, level="rule-of-thumb"), teaching=True, games_dir=False)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_demo_table(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    # The demo table stepped into its second action: cards down, a slip flagged.
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app = pilot.app
        await until(lambda: app.game is not None, "the game")
        for _ in range(12):
            before = len(app.game.move_stack)
            await pilot.press("n")
            for _ in range(200):
                await pilot.pause()
                if len(app.game.move_stack) > before or app.table.log_widget.entries[-1].kind == "illegal":
                    break
        await pilot.pause()

    assert snap_compare(_steps_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_winner_choosing(snap_compare, size) -> None:  # type: ignore[no-untyped-def]
    setup, moves = _position()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await until(lambda: pilot.app.game is not None, "the game")
        # The entry bar's cursor shown steadily: a blinking one would differ run to run.
        pilot.app.screen.query_one("#entry").cursor_blink = False
        await pilot.pause()

    assert snap_compare(_app(setup, moves), terminal_size=size, run_before=run_before)
