"""The settlement's section on the round's biggest mistakes: the coach's review of the round,
worked out in a thread once the table reaches that section, each decision judged from its
player's view at the time."""

from __future__ import annotations

import pytest
from rich.text import Text

from companion.coach import Coach, review
from companion.games.rule_of_power.coach.review import biggest, round_span
from companion.dashboard.app import DashboardApp
from companion.games.rule_of_power.dashboard.screens.settlement import MISTAKE_SAMPLES, MISTAKES_TITLE, SettlementScreen, mistakes_text
from companion.dashboard.sources import ReplaySource
from companion.games.rule_of_power.samples import sample_path


async def _until(pilot, condition, what: str) -> None:  # type: ignore[no-untyped-def]
    # Bounded: it ends only a test that is already failing.
    for _ in range(3000):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"{what} never happened")


@pytest.mark.asyncio
async def test_the_settlement_shows_the_rounds_biggest_mistakes() -> None:
    app = DashboardApp(ReplaySource(sample_path("duel"), paused=True), settlement_autoplay=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        # Step the replay to the end of its first round: the settlement comes up by itself.
        for _ in range(200):
            if isinstance(app.screen, SettlementScreen):
                break
            await pilot.press("n")
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettlementScreen) and screen.result is not None and screen.result.number == 1
        # The table reads the settlement point by point; the coach starts on the last section
        # only when it is reached (no processor spent on it while nobody looks).
        titles = [title for title, _ in screen.steps]
        assert titles[-1] == MISTAKES_TITLE
        await pilot.press("n")
        await pilot.pause()
        assert screen.shown == 2
        assert not screen.review_begun
        await pilot.press("a")
        await pilot.pause()
        assert screen.review_begun
        await _until(pilot, lambda: not screen.reviewing, "the review")
        # The marks are rop review's, for this round's decisions only.
        assert app.game is not None
        moves = app.session.moves if app.session is not None else ()
        begin, end = round_span(moves, 1)
        expected = review(app.game.setup, list(moves[:end]), coach=Coach("fast"), samples=MISTAKE_SAMPLES, start=begin)
        assert screen.mistakes is not None
        assert [m.to_json() for m in screen.mistakes] == [m.to_json() for m in expected]
        assert expected and all(begin <= m.index < end for m in expected)
        assert screen.shown == len(screen.steps)
        title, body = screen.steps[-1]
        assert title == MISTAKES_TITLE and isinstance(body, Text)
        assert body.plain == mistakes_text(expected).plain
        for mark in biggest(expected):
            assert f"{mark.player}: {mark.played}" in body.plain and f"better: {mark.best}" in body.plain


def test_no_mistakes_and_forced_rounds_are_said_plainly() -> None:
    assert "forced" in mistakes_text([]).plain
