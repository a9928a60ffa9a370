"""Driving the dashboard in tests with real key presses."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

from companion.dashboard.app import DashboardApp
from companion.games.rule_of_power.dashboard.screens.pick import PickScreen
from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Pass, Play


async def until(condition: Callable[[], bool], what: str = "what the test waits for", limit: float = 300.0) -> None:
    """Return once ``condition()`` holds, checked each time the app has had a moment to handle
    what reached it: its sources run in threads and on clocks of their own, so a busy machine
    only makes this take longer. ``limit`` seconds end only a test that is already failing.
    The app runs meanwhile on the same event loop; its screen need not be idle (a source's
    clock may keep it busy)."""
    try:
        async with asyncio.timeout(limit):
            while not condition():
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"{what}: never came") from None


async def dealt(app: DashboardApp) -> GameState:
    """The game once the companion's own first deal is on the table: the source deals through
    the session as the app starts, which a busy machine may make take a moment."""
    await until(lambda: app.game is not None and app.game.phase is Phase.TURN, "the first deal")
    assert isinstance(app.game, GameState)
    return app.game


def entry_text(move: Move) -> str:
    """What a scorekeeper types for ``move`` (the capture is picked afterwards if needed)."""
    if isinstance(move, DrawFate):
        return "fate"
    if isinstance(move, Pass):
        return "pass"
    assert isinstance(move, Play)
    return move.card.id.lower()


async def type_line(pilot: Pilot, text: str) -> None:
    await pilot.press(*[("space" if ch == " " else ch) for ch in text], "enter")
    await pilot.pause()


async def play_move(pilot: Pilot, app: DashboardApp, move: Move) -> None:
    """Type ``move`` into the entry bar and pick its capture when asked."""
    await type_line(pilot, entry_text(move))
    if isinstance(app.screen, PickScreen):
        index = app.screen.moves.index(move)
        await pilot.press(str(index + 1))
        await pilot.pause()


async def play_round(pilot: Pilot, app: DashboardApp, choose=lambda moves: moves[0]) -> int:
    """Play the current round to its end by typing each move; returns the moves typed."""
    game = app.game
    assert game is not None
    rounds = len(game.results)
    typed = 0
    while len(game.results) == rounds:
        assert game.phase is Phase.TURN, game
        moves = [m for m in game.legal_moves if not (isinstance(m, Play) and m.card.is_fate and not m.card.to_centre)]
        await play_move(pilot, app, choose(moves))
        typed += 1
        assert typed < 200
    await pilot.pause()
    assert isinstance(app.screen, SettlementScreen)
    return typed


def same_moves(a: GameState, b: GameState) -> bool:
    return list(a.move_stack) == list(b.move_stack)


def panel_text(panel) -> str:  # type: ignore[no-untyped-def]
    """The text a game panel shows, as plain text."""
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(panel.render_game(panel.game))
    return console.export_text()
