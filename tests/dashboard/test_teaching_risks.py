"""Teaching mode (F2): every legal move of the player to move with its risk, weighed from that
player's view in a thread, and filled in without holding up the table."""

from __future__ import annotations

import pytest

from companion.games.rule_of_power.coach.policies import decision_key
from companion.games.rule_of_power.coach.risks import SCAN_SAMPLES, RiskScan
from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ManualSource
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel, risk_text
from companion.games.rule_of_power.engine.game import GameSetup, Phase
from tests.dashboard.driving import dealt, play_move


async def _weighed(pilot, panel: PlayPanel) -> None:  # type: ignore[no-untyped-def]
    # Bounded: it ends only a test that is already failing.
    for _ in range(2000):
        if not panel.risks_pending:
            return
        await pilot.pause(0.01)
    raise AssertionError("the risks never came")


def _app(tmp_path, teaching: bool = True) -> DashboardApp:  # type: ignore[no-untyped-def]
    source = ManualSource(companion_deals=True, seed=3, first_dealer="bob")
    return DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=tmp_path, teaching=teaching)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_teaching_mode_shows_each_moves_risk(tmp_path, size) -> None:  # type: ignore[no-untyped-def]
    app = _app(tmp_path)
    async with app.run_test(size=size) as pilot:
        game = await dealt(app)
        panel = app.table.query_one(PlayPanel)
        assert game.turn == "ann"
        await _weighed(pilot, panel)
        # The scan the panel ran is the coach's, from ann's view, with the same seed.
        expected = RiskScan(game, "ann").run(SCAN_SAMPLES).risks()
        assert panel.risks == expected
        shown = str(panel.render())
        risky = [m for m in game.legal_moves if expected.get(decision_key(m))]
        assert risky, "this deal should leave ann at least one risky move"
        assert "weighing the risks" not in shown
        assert shown.count("risk ") == len(risky)
        for move in risky:
            first = expected[decision_key(move)][0]
            assert first.by == "bob" and f"risk {first.chance:.0%}: bob takes" in first.short
            assert risk_text(first, compact=size == (80, 24)).plain in shown
        # The next position gets its own risks: the old ones are not shown for it.
        await play_move(pilot, app, risky[0])
        await play_move(pilot, app, list(app.game.legal_moves)[0])
        assert app.game.turn == "ann"
        await _weighed(pilot, panel)
        assert panel.risks == RiskScan(app.game, "ann").run(SCAN_SAMPLES).risks()


@pytest.mark.asyncio
async def test_no_risks_are_weighed_outside_teaching_mode(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = _app(tmp_path, teaching=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.table.query_one(PlayPanel)
        assert panel.risks_for is None and not panel.risks_pending
        await pilot.press("f2")
        await pilot.pause()
        assert panel.risks_for is not None
        await _weighed(pilot, panel)
        assert panel.risks is not None
