"""Ruse and Bruise at the table by keyboard: a round kept in the dashboard with real key
presses (face-down cards shown as their owner's back, the settlement column by column), the
entry words, the hint (F7) and teaching mode (F2) at a table that names no hand, and the demo
table's players."""

from __future__ import annotations

import random

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.kit import EntryError
from companion.dashboard.screens.hint import HintScreen
from companion.dashboard.screens.settlement import Settlement
from companion.dashboard.sources import ManualSource, read_moves
from companion.dashboard.widgets.base import GamePanel
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.dashboard.kit import RabKit, column_line
from companion.games.ruse_and_bruise.moves import Place, Reveal, Round, TurnOver
from companion.games.ruse_and_bruise.values import EXAMPLE
from tests.dashboard.driving import panel_text, type_line, until
from tests.games.ruse_and_bruise.helpers import place, play, rnd, table, turn

ROUND = ("round music-3a trade-2", "ann 1", "bob 1 KING", "turn QUEEN", "ann 2", "bob 2", "turn DRAGON", "ann 1")  # the King, named, is turned over by the companion (B10)


def _words(app: DashboardApp) -> str:
    return " ".join(" ".join(panel_text(p) for p in app.screen_stack[0].query(GamePanel)).split())


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_a_round_is_kept_by_keyboard_face_down_cards_as_backs(tmp_path, size) -> None:  # type: ignore[no-untyped-def]
    setup = GAME.make_setup(["ann", "bob"], values=EXAMPLE)
    app = DashboardApp(ManualSource(seed=1), game=GAME, setup=setup, games_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await until(lambda: app.game is not None, "the game")
        state = app.game
        for line in ROUND[:3]:
            await type_line(pilot, line)
        await until(lambda: len(state.move_stack) == 3, "bob's card", limit=60)
        words = _words(app)
        # bob's King was typed, but the screen is shared: it shows as his back (B8).
        assert "1 music-3a (3) 2/3: [blue] ann · [white] bob" in words
        assert "KING" not in words
        await type_line(pilot, "undo")
        await until(lambda: len(state.move_stack) == 2, "the undo", limit=60)
        await type_line(pilot, "bob 1 KING")
        await until(lambda: len(state.move_stack) == 3, "bob's card again", limit=60)
        for line in ROUND[3:]:
            await type_line(pilot, line)
        await until(lambda: state.phase.value == "reveal", "the round's end", limit=60)
        assert "1 music-3a (3) 3/3, complete: QUEEN ann · KING bob · [blue] ann" in _words(app)
        await type_line(pilot, "reveal FENCER WIZ")
        await until(lambda: len(state.results) == 1, "the distribution", limit=60)
        await until(lambda: isinstance(app.screen, Settlement), "the settlement", limit=60)
        await pilot.press("a")
        await pilot.pause()
        steps = [title for title, _ in app.screen.steps]
        assert steps == ["Column 1", "Column 2", "ann", "bob"]
        shown = " ".join(str(body) for _, body in app.screen.steps)
        assert "Goal card music-3a" in shown and "sums:" in shown and "(B26)" in shown and "B28" in shown
        await pilot.press("escape")
    assert app.game_file is not None
    _, moves, error = read_moves(app.game_file.path)
    assert error is None
    assert [type(m) for m in moves[:4]] == [Round, Place, Place, TurnOver] and isinstance(moves[-2], Reveal)
    assert moves[2] == Place.make("bob", 1, "KING")


def test_the_entry_words_and_their_refusals() -> None:
    kit = RabKit(GAME)
    state = table(2, hands={"ann": ["KING", "QUEEN", "EXPL"], "bob": None})
    assert kit.parse_move("round music-3a trade-2", state) == rnd("music-3a", "trade-2")
    play(state, rnd("music-3a", "trade-2"))
    assert kit.parse_move("ann 2 king", state) == place("ann", 2, "KING")
    assert kit.parse_move("bob 1", state) == place("bob", 1, None)
    with pytest.raises(EntryError, match="unknown influence card 'NOCARD'"):
        kit.parse_move("ann 2 NOCARD", state)
    with pytest.raises(EntryError, match="ann N CARD, or ann pass"):
        kit.parse_move("ann two", state)
    with pytest.raises(EntryError, match="no Invisibility Cloak waits now"):
        kit.parse_move("cloak none", state)
    assert kit.parse_move("hello", state) is None
    play(state, place("ann", 1, "EXPL", "JULIET"), place("bob", 1, None))
    assert kit.parse_move("turn EXPL", state) == turn(1, "EXPL")
    # The Explorer's move is the rules' (B11): the companion makes it.
    play(state, turn(1, "EXPL"))
    assert kit.table_move(state) is not None and state.is_legal(kit.table_move(state))
    assert column_line(state, 1) == "1 music-3a (3) 2/3: EXPL ann · [white] bob"


@pytest.mark.parametrize("level", ["random", "rule-of-thumb"])
def test_the_demo_table_plays_a_whole_game(level) -> None:  # type: ignore[no-untyped-def]
    kit = RabKit(GAME)
    setup = kit.demo.setup(3)
    assert setup.values == EXAMPLE and all(h is not None for h in setup.hands)
    demo = kit.demo.table(setup, seed=2, level=level, slips=0.0)
    state = GAME.new_state(setup)
    while (move := demo.next_move(state)) is not None:
        state.push(move)
    assert state.is_game_over() and len(state.results) == 6


def test_the_demo_coach_decides_from_its_view() -> None:
    kit = RabKit(GAME)
    setup = kit.demo.setup(2)
    demo = kit.demo.table(setup, seed=1, level="coach", slips=0.0)
    state = GAME.new_state(setup)
    decided = 0
    while decided < 3:
        move = demo.next_move(state)
        assert move is not None and state.is_legal(move)
        decided += state.to_move is not None
        state.push(move)
    assert "coach" in kit.demo.level_words and kit.demo.levels == ("random", "rule-of-thumb", "coach")


@pytest.mark.asyncio
async def test_f7_ranks_a_traitors_exchange_says_why_not_a_hand_never_seen_and_f2_teaches_from_the_cards_face_up(tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = GAME.make_setup(["ann", "bob"], values=EXAMPLE)
    app = DashboardApp(ManualSource(seed=1), game=GAME, setup=setup, games_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None, "the game")
        state = app.game
        for line in ("round music-3a trade-2", "ann 1 TRAITOR", "bob 1"):
            await type_line(pilot, line)
        # bob's card turns ann's Traitor over (the companion knows it: it turns it itself, B10).
        await until(lambda: state.waiting.what == "traitor", "ann's Traitor", limit=60)
        # F2: each column as the cards face up make it, never a hand (the screen is shared, B8).
        await pilot.press("f2")
        await pilot.pause()
        assert app.teaching
        words = _words(app)
        assert "1 music-3a (3) 2/3: TRAITOR ann · [white] bob face up: ann 10 (ann leads); 1 down" in words
        assert "2 trade-2 (2) 0/2: empty nothing face up" in words
        # F7 at the Traitor (B15): its exchanges ranked; they need no card of the hand.
        await pilot.press("f7")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HintScreen) and screen.player == "ann"
        await until(lambda: screen.refined >= 1, "the hint", limit=120)
        assert screen.search is not None
        assert {m.text for m in screen.search.advice().moves} == {"keep the goal cards", "exchange the goal cards with column 2"}
        await pilot.press("escape")
        await pilot.pause()
        await type_line(pilot, "traitor keep")
        await until(lambda: state.to_move == "ann" and state.waiting.what == "place", "ann's turn", limit=60)
        # F7 at ann's placement: the keyboard table never saw her hand, and the hint says so.
        await pilot.press("f7")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HintScreen) and screen.search is None
        title = str(screen.query_one("#hint-title").render())
        assert "No hint: the companion has not seen any of the 3 cards in ann's hand" in title and "B8" in title
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert not app.teaching and "face up" not in _words(app)
