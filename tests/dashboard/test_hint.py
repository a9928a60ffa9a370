"""The coach's hint at the table: F7 (or typing hint) shows the ranked moves of the player to
move with their margins and reasons, refines while open, and Esc closes it."""

from __future__ import annotations

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.hint import HintScreen
from companion.dashboard.sources import ManualSource
from companion.games.rule_of_power.engine.game import GameSetup, Phase
from tests.dashboard.driving import dealt, type_line, until


@pytest.mark.asyncio
async def test_f7_shows_the_coachs_ranked_moves_for_the_player_to_move(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = ManualSource(companion_deals=True, seed=3, first_dealer="bob")
    app = DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        assert game.turn == "ann"
        await pilot.press("f7")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HintScreen) and screen.player == "ann"
        await until(lambda: screen.refined >= 2, "the refined hint")
        advice = screen.search.advice() if screen.search else None
        assert advice is not None and advice.player == "ann" and advice.samples > 0
        # Every move it ranks is one ann may play now (R17).
        assert all(game.is_legal(m.move) for m in advice.moves)
        title = str(screen.query_one("#hint-title").render())
        assert "Hint for ann" in title and "sampled deals" in title
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HintScreen)
        # Typed in the entry bar, the same.
        await type_line(pilot, "hint")
        assert isinstance(app.screen, HintScreen)
        await pilot.press("escape")
        await pilot.pause()


def test_a_risk_is_told_once_and_the_best_move_has_a_gain() -> None:
    """The hint's table tells a move's first risk once (its reasons end with the risks' own
    words); the best move's reasons say what it wins, not only what it leaves."""
    from dataclasses import replace

    from rich.console import Console

    from companion.coach import Coach
    from companion.dashboard.screens.hint import advice_table
    from companion.games.rule_of_power.engine.game import GameState
    from companion.games.rule_of_power.engine.moves import Deal, NewRound

    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("bob"))
    game.push(Deal.make({"ann": ["W007", "W012", "W016"], "bob": ["W011", "W021", "W033"]}, ["W030", "W040", "W029", "W039"]))
    advice = Coach("fast").advise(game, "ann", samples=24, seed=1)
    risky = next(m for m in advice.moves if m.risks)
    alone = replace(advice, moves=[replace(risky, reasons=[r.text for r in risky.risks])])
    console = Console(width=140, record=True)
    console.print(advice_table(alone))
    shown = console.export_text().lower()
    assert shown.count(risky.risks[0].text.lower()[:40]) == 1
    best = advice.best
    assert best.reasons and not best.reasons[0].startswith("risk") and " less from " not in best.reasons[0]


@pytest.mark.asyncio
async def test_the_hints_margin_is_told_in_the_games_scoring_period(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Circle of Power is scored by seasons (C16): its hint's margin is "the season points",
    never the rounds of Rule of Power."""
    from companion.commands.play import resume_app
    from companion.games.circle_of_power.game import Phase as CirclePhase
    from companion.games.circle_of_power.setup import is_dummy
    from companion.records.format import iter_record_lines
    from tests.games.circle_of_power.dashboard.driving import positions

    setup, moves = next(positions(lambda s: s.phase is CirclePhase.PLAY and not is_dummy(s.to_move or ""), seeds=range(50)))
    path = tmp_path / "kept.jsonl"
    path.write_text("".join(line + "\n" for line in iter_record_lines(setup, moves, "0" * 32)), encoding="utf-8")
    app = resume_app(str(path), tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is CirclePhase.PLAY, "the game")
        await pilot.press("f7")
        await until(lambda: isinstance(app.screen, HintScreen), "the hint")
        screen = app.screen
        assert isinstance(screen, HintScreen)
        foot = " ".join(str(screen.query_one("#hint-foot").render()).split())
        assert "Margin: the season points the move is expected to win or lose" in foot and "round" not in foot, foot
        await pilot.press("escape")
        await pilot.pause()
