"""A card laid that the camera cannot name is a question on the dashboard once it has lain
unnamed for a few seconds on the sensors' clock (never a guess), answered by typing a few
letters of the card."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from companion.dashboard.app import DashboardApp
from companion.dashboard.screens.question import QuestionScreen
from companion.dashboard.sources import ManualSource
from companion.dashboard.tracker_source import TrackerSource
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.engine.moves import Play
from companion.observations import CardLaid, CardSeen
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from companion.tracker.events import Choice, Question
from tests.dashboard.driving import until
from tests.dashboard.test_tracker_dashboard import ObservationFeed


class Clock:
    """The sensors' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.asyncio
async def test_a_card_laid_unread_is_asked_about_and_typing_its_code_answers_it() -> None:
    setup = GameSetup(("ann", "bob"))
    feed = ObservationFeed()
    clock = Clock()
    tracker = Tracker(GameSession(setup), TrackerConfig(first_dealer="bob", facts={"draws_visible": False}))
    source = TrackerSource(tracker, feed, label="test camera", clock=clock)
    app = DashboardApp(source, setup=setup, games_dir=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: feed.emit is not None and app.game is not None and app.game.round_number == 1)
        for cid in ("W002", "W014", "W035", "W029"):
            feed.emit(CardSeen("camera", 1.0, Card.from_id(cid), None, "centre"))
        await until(lambda: app.game.deal_number == 1)
        assert app.game.turn == "ann"
        clock.now = 2.0
        feed.emit(CardLaid("camera", 2.0, "centre", (300.0, 250.0), 1))
        await until(lambda: source.tracker.view.laid == {1: ("centre", 2.0)}, "the tracker taking the card in")
        await pilot.pause()
        assert not isinstance(app.screen, QuestionScreen) and len(app.game.move_stack) == 2  # nothing guessed
        clock.now = 5.5  # unnamed for longer than unexplained_after (3 s)
        await until(lambda: isinstance(app.screen, QuestionScreen), "the question on the screen")
        question = source.tracker.question
        assert question is not None
        assert question.prompt == "A card lies in the centre that the camera cannot read: which card did ann play?"
        labels = [c.label for c in question.choices]
        assert "ann plays 8P W008 Champion of Powers" in labels, labels
        assert len(labels) > 9 and app.screen.narrowed  # every card ann may hold: narrowed by typing
        await pilot.press(*"w008", "enter")
        await until(lambda: len(app.game.move_stack) == 3, "the answer applied")
        assert app.game.move_stack[-1] == Play("ann", Card.from_id("W008"))
        assert not isinstance(app.screen, QuestionScreen)
        # The game goes on from there: bob lays his card, seen at once.
        feed.emit(CardSeen("camera", 6.0, Card.from_id("W013"), None, "centre"))
        await until(lambda: len(app.game.move_stack) == 4, "bob's play")
        assert app.game.move_stack[-1] == Play("bob", Card.from_id("W013"))


@pytest.mark.asyncio
async def test_a_question_of_many_choices_is_narrowed_by_typing() -> None:
    """A card laid unread may be any card the player may hold: twenty choices and more, more
    than the digit keys answer. Typing a few letters of the answer narrows them; Enter picks."""
    setup = GameSetup(("ann", "bob"))
    cards = [Card.from_id(f"W{n:03d}") for n in range(1, 25)]
    question = Question("which card did ann play?", tuple(Choice(f"ann plays {c.id} {c.name}", (Play("ann", c),)) for c in cards))
    app = DashboardApp(ManualSource(companion_deals=True, seed=3, first_dealer="bob"), setup=setup, games_dir=False)
    answers: list[int | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = QuestionScreen(question)
        await app.push_screen(screen, answers.append)
        await pilot.pause()
        assert screen.narrowed
        await pilot.press(*"w013")
        await pilot.pause()
        shown = screen.query_one(OptionList)
        assert [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)] == [f"13. ann plays W013 {cards[12].name}"]
        await pilot.press("enter")
        await until(lambda: answers == [12], "the answer")
        # Up and down move through what is left; a few letters of a name narrow too.
        screen = QuestionScreen(question)
        await app.push_screen(screen, answers.append)
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await until(lambda: answers == [12, 2], "the third answer")
