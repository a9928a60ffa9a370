"""The Action panel says what the table does next in the words of how it gives the companion its
moves: at an NFC table (the play, city and line readers of docs/tracker.md) what to tap and on
which reader, never what to type; under a camera alone, what to lay."""

from __future__ import annotations

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.tracker_source import TrackerSource
from companion.games.circle_of_power.dashboard.widgets.action import ActionPanel
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Conquer, Retake
from companion.games.circle_of_power.setup import is_dummy
from companion.games.circle_of_power.simulation.taps import taps_for
from companion.session import GameSession
from companion.tracker import Tracker
from tests.dashboard.driving import panel_text, until
from tests.dashboard.test_tracker_dashboard import ObservationFeed
from tests.games.circle_of_power.tracking.harness import OWNER, CopRun


def _action(app: DashboardApp) -> str:
    return " ".join(panel_text(app.screen_stack[0].query_one(ActionPanel)).split())


@pytest.mark.asyncio
async def test_an_nfc_table_is_told_what_to_tap_never_what_to_type() -> None:
    run = CopRun(2, "basic", seed=0, readers=True)
    feed = ObservationFeed()
    tracker = Tracker(GameSession(run.setup), run.tracker.config)
    app = DashboardApp(TrackerSource(tracker, feed, label="NFC"), games_dir=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: feed.emit is not None and app.game is not None, "the table")
        await pilot.pause()
        said = _action(app)
        assert "tap the bottom joker, then each city from the dealer's left, on the city reader (C6)" in said, said
        seen: set[str] = set()
        for move, taps in taps_for(run.setup, run.moves, OWNER):
            game = app.game
            assert game is not None
            said = _action(app)
            assert "type" not in said.lower() and "F5" not in said, said
            if game.phase is Phase.REVEAL and game.city_deck_count > 1:
                assert "turn up the top card of the city deck and tap it on the city reader (C7)" in said, said
                seen.add("reveal")
            elif game.phase is Phase.PLAY and not is_dummy(game.to_move or ""):
                assert f"{game.to_move} plays a card. Tap it on the play reader" in said, said
                seen.add("play")
            elif game.phase is Phase.ACT and type(move) in (Conquer, Retake) and not is_dummy(move.player):
                assert f"{move.player} must take a city (C10):" in said and f"Tap: {move.player} taps the city taken over on the line reader" in said, said
                seen.add("act")
            if seen == {"reveal", "play", "act"}:
                break
            count = len(game.move_stack)
            for tap in taps:
                feed.emit(tap)
            await until(lambda: len(app.game.move_stack) > count or not taps, f"{move} kept")
            await pilot.pause()
        assert seen == {"reveal", "play", "act"}, seen


@pytest.mark.asyncio
async def test_a_table_under_a_camera_alone_is_told_what_to_lay() -> None:
    run = CopRun(2, "basic", seed=0)
    feed = ObservationFeed()
    app = DashboardApp(TrackerSource(Tracker(GameSession(run.setup), run.tracker.config), feed, label="camera"), games_dir=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: feed.emit is not None and app.game is not None, "the table")
        await pilot.pause()
        said = _action(app)
        assert "the bottom joker face up on the city deck, each city in its seat, then the city deck on the joker (C6)" in said, said
        assert "type" not in said.lower() and "F5" not in said
