"""Ctrl+Q quits from every screen, as the footer and docs/dashboard.md say: the table, and
every dialog of the shell and of both games open over it (the set-up, the deal and season
dialogs, the choices of a capture or a trophy, the settlements, help, the hint, the tracker's
question, a choice of players, a hand told in private)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.screen import Screen

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ManualSource, read_moves
from companion.games.circle_of_power import GAME as CIRCLE
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import CircleSetup
from companion.games.rule_of_power import GAME as RULE
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.samples import sample_path
from tests.dashboard.driving import until


def _settled(game: Any, setup: Any, moves: list[Any]) -> tuple[Any, Any, list[Any]]:
    """The game played to the end of its first scoring period: the state, the period's
    result and the moves to there."""
    state = game.new_state(setup)
    for k, move in enumerate(moves):
        result = state.apply(move).result
        if result is not None:
            return state, result, moves[: k + 1]
    raise AssertionError("no period ends in these moves")


def _rule_of_power_settlement(app: DashboardApp) -> Screen[Any]:
    setup, moves, _ = read_moves(sample_path("duel"))
    state, result, done = _settled(RULE, setup, list(moves))
    screen = app.kit.settlement_screen()
    screen.load(state, result, done)
    return screen


def _circle_settlement(app: DashboardApp) -> Screen[Any]:
    setup, moves = simulate(["ann", "bob", "cy"], "basic", seed=4)
    state, result, done = _settled(CIRCLE, setup, moves)
    screen = app.kit.settlement_screen()
    screen.load(state, result, done)
    return screen


def _question(app: DashboardApp) -> Screen[Any]:
    from companion.dashboard.screens.question import QuestionScreen
    from companion.tracker.events import Choice, Question

    moves = list(app.game.legal_moves)[:2]
    return QuestionScreen(Question("Which card was played?", tuple(Choice(RULE.describe(m), (m,)) for m in moves)))


def _choice(app: DashboardApp) -> Screen[Any]:
    from companion.dashboard.screens.choice import ChoiceScreen

    return ChoiceScreen("A hint for whom? (only they should look)", [("ann", "ann"), ("bob", "bob")])


def _capture(app: DashboardApp) -> Screen[Any]:
    from companion.games.rule_of_power.dashboard.screens.pick import PickScreen

    return PickScreen(app.game, list(app.game.legal_moves)[:2], teaching=False)


def _trophy(app: DashboardApp) -> Screen[Any]:
    from companion.games.circle_of_power.dashboard.screens.pick import PickScreen

    setup, moves = simulate(["ann", "bob", "cy"], "basic", seed=4)
    return PickScreen("Which of bob's trophies does ann discard? (C13)", moves[2:4])


def _rule_app(*, companion_deals: bool = True, needs_setup: bool = False) -> DashboardApp:
    source = ManualSource(companion_deals=companion_deals, seed=3, first_dealer="bob")
    if needs_setup:
        return DashboardApp(source, game=RULE, needs_setup=True, games_dir=False)
    return DashboardApp(source, setup=GameSetup(("ann", "bob")), games_dir=False)


def _circle_app(*, needs_setup: bool = False, playing: bool = False) -> DashboardApp:
    """Circle of Power kept by hand: its set-up dialog, the first season's dialog, or
    (``playing``) the first action under way."""
    source = ManualSource(first_dealer="ann", seed=1)
    if needs_setup:
        return DashboardApp(source, game=CIRCLE, needs_setup=True, games_dir=False)
    if playing:
        from companion.session import GameSession

        setup, moves = simulate(["ann", "bob", "cy"], "basic", seed=4)
        state = CIRCLE.new_state(setup)
        for move in moves[:3]:
            state.push(move)
        return DashboardApp(ManualSource(), session=GameSession(game=state), games_dir=False)
    return DashboardApp(source, game=CIRCLE, setup=CircleSetup(("ann", "bob", "cy")), games_dir=False)


Open = Callable[[DashboardApp], Screen[Any]] | str | None
"""How the dialog opens: a screen pushed over the table, a key pressed, or by itself."""

CASES: dict[str, tuple[Callable[[], DashboardApp], Open]] = {
    "the table": (_rule_app, None),
    "Rule of Power's set-up dialog": (lambda: _rule_app(needs_setup=True), None),
    "the deal dialog": (lambda: _rule_app(companion_deals=False), None),
    "help": (_rule_app, "f1"),
    "the hint": (_rule_app, "f7"),
    "the choice of a capture": (_rule_app, _capture),
    "Rule of Power's settlement": (_rule_app, _rule_of_power_settlement),
    "the tracker's question": (_rule_app, _question),
    "a choice of players": (_rule_app, _choice),
    "Circle of Power's set-up dialog": (lambda: _circle_app(needs_setup=True), None),
    "the season dialog": (_circle_app, None),
    "the choice of a trophy": (lambda: _circle_app(playing=True), _trophy),
    "the season's settlement": (lambda: _circle_app(playing=True), _circle_settlement),
    "Circle of Power's help": (lambda: _circle_app(playing=True), "f1"),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("name", list(CASES))
async def test_ctrl_q_quits_from_every_screen(name: str) -> None:
    make, open_it = CASES[name]
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.screen_stack and (app.game is not None or len(app.screen_stack) > 1), "the table or its set-up")
        if name in ("the hint", "the choice of a capture", "the tracker's question"):
            await until(lambda: app.game is not None and app.game.turn is not None, "the first deal")
        if isinstance(open_it, str):
            await pilot.press(open_it)
        elif open_it is not None:
            app.push_screen(open_it(app))
        if name != "the table":
            await until(lambda: len(app.screen_stack) > 1, f"{name} open")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0, f"Ctrl+Q did not quit from {name} ({type(app.screen).__name__})"
