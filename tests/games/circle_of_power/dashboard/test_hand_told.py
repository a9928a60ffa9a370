"""The coach's hint at a table kept by keyboard, where no hand is ever seen (C6): an act gets a
hint from what is public; a player's card gets one once the player told the companion their
hand privately (F8), which neither the shared screen nor the record shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from companion.commands.play import resume_app
from companion.dashboard.screens.hint import HintScreen
from companion.games.circle_of_power.dashboard.screens.hand import HandScreen
from companion.games.circle_of_power.dashboard.widgets.emperors import EmperorsPanel
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Move
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import CircleSetup, is_dummy
from companion.records.format import iter_record_lines
from tests.dashboard.driving import until
from tests.dashboard.screen_words import screen_rows
from tests.games.circle_of_power.dashboard.driving import kept_by_hand, type_line


def _position(find) -> tuple[CircleSetup, list[Move], CircleState]:
    """The first position of a simulated 3-player game where ``find`` holds: the set-up, the
    moves to it as a keyboard keeps them, and the game as it really stands (every hand known)."""
    for seed in range(100):
        setup, moves = simulate(["ann", "bob", "cy"], "basic", seed=seed)
        state = CircleState(setup, keep_history=False)
        for k, move in enumerate(moves):
            if find(state):
                return setup, kept_by_hand(moves[:k]), state
            state.push(move, check=False)
    raise AssertionError("no such position")


def _record(tmp_path: Path, setup: CircleSetup, moves: list[Move]) -> Path:
    path = tmp_path / "kept.jsonl"
    path.write_text("".join(line + "\n" for line in iter_record_lines(setup, moves, "0" * 32)), encoding="utf-8")
    return path


def _screen_text(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_rows(app.export_screenshot()))


async def _hint_title(app) -> str:  # type: ignore[no-untyped-def]
    await until(lambda: isinstance(app.screen, HintScreen), "the hint")
    screen = app.screen

    def title() -> str:
        return str(screen.query_one("#hint-title").render())

    await until(lambda: not title().startswith("Thinking") and title().strip() != "", "the hint's first figures")
    return title()


@pytest.mark.asyncio
async def test_an_act_gets_a_hint_though_no_hand_was_seen(tmp_path: Path) -> None:
    """C10-C14: the act is decided by what lies face up."""
    setup, moves, _ = _position(lambda s: s.phase is Phase.ACT and not is_dummy(s.to_move or "") and len(set(s.legal_moves)) > 1)
    app = resume_app(str(_record(tmp_path, setup, moves)), tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is Phase.ACT, "the act")
        assert app.game.unseen_in_hand(app.game.to_move) == 3
        await pilot.press("f7")
        title = await _hint_title(app)
        assert title.startswith(f"Hint for {app.game.to_move}:"), title
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_a_hand_told_privately_gives_the_hint_for_a_card_and_is_never_shown(tmp_path: Path) -> None:
    # Before the reshuffle of season 1, no card of the hand has been shown anywhere yet (C15).
    setup, moves, real = _position(
        lambda s: s.season_number == 1 and s.phase is Phase.PLAY and 2 <= s.action_number <= 6 and not is_dummy(s.to_move or "")
    )
    me = real.to_move
    assert me is not None
    hand = real.hand(me)
    path = _record(tmp_path, setup, moves)
    app = resume_app(str(path), tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is Phase.PLAY, "the game")
        await pilot.press("f7")
        title = await _hint_title(app)
        body = " ".join(str(app.screen.query_one("#hint-body").render()).split())
        assert f"No hint: the companion has not seen 3 of the 3 cards in {me}'s hand" in title
        assert "F8" in body and "never shown" in body, body
        await pilot.press("escape")
        record_before = path.read_bytes()

        # F8: the hand typed hidden; a card that cannot be in it is refused and cleared.
        await pilot.press("f8")
        await until(lambda: isinstance(app.screen, HandScreen), "the hand dialog")
        dialog = app.screen
        assert dialog.query_one("#hand-player", Input).value == me
        played = next(card for _, name, card in app.game.season_plays if name != me)
        await type_line(pilot, played.id.lower())
        assert isinstance(app.screen, HandScreen) and "C8" in str(dialog.query_one("#hand-error").render())
        assert dialog.query_one("#hand-cards", Input).value == ""
        await type_line(pilot, " ".join(c.id.lower() for c in hand))
        await until(lambda: not isinstance(app.screen, HandScreen), "the dialog closing")
        await pilot.pause()

        # The shared screen says the hand was given, never which cards; the record is untouched.
        emperors = str(app.screen.query_one(EmperorsPanel).render())
        assert f"{me}'s hand: given (3 cards)" in " ".join(emperors.split()), emperors
        shown = _screen_text(app)
        for card in hand:
            assert card.id not in shown.split() and f" {card.id} " not in shown, (card, shown)
        assert path.read_bytes() == record_before
        assert app.game.unseen_in_hand(me) == 3  # the game as the table kept it

        await pilot.press("f7")
        title = await _hint_title(app)
        assert title.startswith(f"Hint for {me}:"), title
        ranked = _screen_text(app)
        assert all(card.id in ranked for card in hand), ranked
        await pilot.press("escape")
