"""Teaching mode (F2): every legal move of the player to move with its risk, weighed from that
player's view in a thread, and filled in without holding up the table."""

from __future__ import annotations

import pytest

from companion.games.rule_of_power.coach.policies import decision_key
from companion.games.rule_of_power.coach.risks import SCAN_SAMPLES, RiskScan
from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.hint import position_key
from companion.dashboard.sources import ManualSource
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel, risk_text
from companion.games.rule_of_power.engine.game import GameSetup, Phase
from tests.dashboard.driving import dealt, play_move


async def _weighed(pilot, panel: PlayPanel) -> None:  # type: ignore[no-untyped-def]
    """The risks of the position the game is in are weighed and on the panel (the panel may
    not have been handed that position yet when this is called)."""
    # Bounded: it ends only a test that is already failing.
    for _ in range(2000):
        if panel.game is not None and panel.risks_for == position_key(panel.game) and not panel.risks_pending:
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


@pytest.mark.asyncio
async def test_once_the_hint_weighs_a_risk_the_play_panel_shows_the_hint_s_figure(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Teaching mode and the hint (F7) estimate the same risks; the screen shows one figure
    for one thing: the hint's, on more sampled deals, once it has one for this position."""
    from companion.dashboard.screens.hint import HintScreen

    app = _app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        game = await dealt(app)
        panel = app.table.query_one(PlayPanel)
        await _weighed(pilot, panel)
        await pilot.press("f7")
        for _ in range(2000):  # bounded: it ends only a test that is already failing
            if app.hint is not None:
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, HintScreen) and app.hint is not None
        assert app.hint.position == position_key(game)
        assert {m.key for m in app.hint.advice.moves} == {decision_key(m) for m in game.legal_moves}
        await pilot.press("escape")
        await pilot.pause()
        advice = app.hint.advice  # the last figures the hint posted before it closed
        hint = {m.key: m.risks for m in advice.moves}
        shown = str(panel.render())
        assert "risks as the hint (F7) weighs them" in shown and "weighing the risks" not in shown
        risky = [m for m in game.legal_moves if hint[decision_key(m)]]
        own = panel.risks or {}
        # The two estimates differ here (the reason one of them must give way).
        assert any(own.get(decision_key(m), [None])[0] != hint[decision_key(m)][0] for m in risky)
        assert risky, "this deal should leave ann at least one risky move"
        assert shown.count("risk ") == len(risky)
        for move in risky:
            found = advice.find(move)
            assert found is not None
            assert risk_text(found.risks[0]).plain in shown  # type: ignore[arg-type]
        # The next position is weighed afresh by the panel: the hint was for the last one.
        await play_move(pilot, app, risky[0])
        await play_move(pilot, app, list(app.game.legal_moves)[0])
        await _weighed(pilot, panel)
        assert "risks as the hint" not in str(panel.render())
