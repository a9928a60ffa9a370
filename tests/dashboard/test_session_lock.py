"""Every panel reads the session's game under the session's lock, whatever redraws it: a
tracker's thread may be playing the next move on the same game object meanwhile (a record
played back at full speed), and a state half changed is no state to draw."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ManualSource
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel
from companion.games.rule_of_power.engine.game import GameSetup
from tests.dashboard.driving import dealt, until


def _spy_on_reads(app: DashboardApp) -> list[tuple[str, bool]]:
    """Each panel's reading of the game from now on, with whether the session's lock was held."""
    lock: Any = app.table.session.lock  # type: ignore[union-attr]
    reads: list[tuple[str, bool]] = []
    for panel in app.table.query(GamePanel):
        render = panel.render_game

        def reading(game: Any, _render: Any = render, _name: str = type(panel).__name__) -> Any:
            reads.append((_name, lock._is_owned()))
            return _render(game)

        panel.render_game = reading  # type: ignore[method-assign]
    return reads


@pytest.mark.asyncio
async def test_a_resize_redraws_the_panels_under_the_session_s_lock(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = DashboardApp(ManualSource(companion_deals=True, seed=3, first_dealer="bob"), setup=GameSetup(("ann", "bob")), games_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await dealt(app)
        await pilot.pause()
        reads = _spy_on_reads(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert reads, "a resize redraws the panels"
        assert [name for name, held in reads if not held] == []


@pytest.mark.asyncio
async def test_risks_arriving_redraw_the_play_panel_under_the_session_s_lock(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = DashboardApp(
        ManualSource(companion_deals=True, seed=3, first_dealer="bob"), setup=GameSetup(("ann", "bob")), games_dir=tmp_path, teaching=True
    )
    async with app.run_test(size=(160, 48)) as pilot:
        await dealt(app)
        reads = _spy_on_reads(app)
        panel = app.table.query_one(PlayPanel)
        await until(lambda: panel.risks is not None, "the risks weighed")
        await pilot.pause()
        assert ("PlayPanel", True) in reads
        assert [name for name, held in reads if not held] == []
