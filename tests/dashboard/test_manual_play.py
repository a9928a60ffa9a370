"""Manual play driven by real key presses: a whole round, illegal entries, undo, correction,
the deal dialog, the setup dialog, help and the saved record."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList
from textual.widgets import Input, Static

from companion.dashboard.app import DashboardApp
from companion.games.rule_of_power.dashboard.screens.deal import DealScreen
from companion.dashboard.screens.help import HelpScreen
from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen
from companion.games.rule_of_power.dashboard.screens.setup import SetupScreen
from companion.dashboard.sources import ManualSource
from companion.dashboard.widgets.event_log import EventLog
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel
from companion.games.rule_of_power.dashboard.widgets.scores import ScoresPanel
from companion.games.rule_of_power.engine.game import GameSetup, Phase
from companion.games.rule_of_power.engine.moves import Play
from companion.records.format import load_game
from tests.dashboard.driving import dealt, panel_text, play_move, play_round, type_line, until


def _app(tmp_path: Path, *, players=("ann", "bob"), teams=None, companion_deals=True, seed=3, fate_sets=None) -> DashboardApp:
    source = ManualSource(companion_deals=companion_deals, seed=seed, first_dealer=players[-1], fate_sets=fate_sets)
    return DashboardApp(source, setup=GameSetup(players, teams), games_dir=tmp_path)


def _record(app: DashboardApp):
    assert app.game_file is not None
    return load_game(app.game_file.path, keep_history=True)


@pytest.mark.asyncio
async def test_a_whole_round_typed_on_the_keyboard_is_scored_and_saved(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        assert game.deal_number == 1
        typed = await play_round(pilot, app, choose=lambda moves: moves[-1])
        assert typed >= 36  # six deals of three cards each for two players
        result = game.results[0]
        # The settlement walks point by point: every step shown after the presses.
        screen = app.screen
        assert isinstance(screen, SettlementScreen)
        assert screen.shown == 1
        for _ in range(len(screen.steps) - 1):
            await pilot.press("space")
        await pilot.pause()
        assert screen.shown == len(screen.steps)
        verdict = dict(screen.steps)["Verdict"]
        assert "another round" in str(verdict) or "wins" in str(verdict)
        assert isinstance(app.screen, SettlementScreen)
        await pilot.press("space")  # past the last step: closes
        await pilot.pause()
        assert not isinstance(app.screen, SettlementScreen)
        # What is on disk is the game as played, and it scores the same.
        saved = _record(app)
        assert list(saved.move_stack) == list(game.move_stack)
        assert saved.results[0].totals == result.totals
        # The scores panel shows the final round with the totals.
        scores = app.screen.query_one(ScoresPanel)
        assert "final" in str(scores.border_title)


@pytest.mark.asyncio
async def test_illegal_and_mistyped_entries_are_flagged_and_lose_nothing(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        before = list(game.move_stack)
        me = game.turn
        other = next(p for p in game.players if p != me)
        not_mine = game.hand(other)[0]
        await type_line(pilot, not_mine.id)
        panel = app.screen.query_one(PlayPanel)
        assert panel.flag is not None and panel.flag.rule == "R17"
        assert "not in" in panel.flag.text
        shown = panel.render_game(game).plain
        # The reminder of the rule comes after what the table needs next: the legal moves.
        assert "In short, R17:" in shown
        assert shown.index("ILLEGAL") < shown.index("In short")
        await type_line(pilot, "W0x9")
        assert panel.flag is not None and "not understood" in panel.flag.text
        entry = app.screen.query_one("#entry")
        assert entry.value == "W0x9"  # kept, to be corrected
        await pilot.press("ctrl+u")
        await type_line(pilot, "pass")  # holding World cards: R17
        assert panel.flag is not None and panel.flag.rule == "R17"
        log = app.screen.query_one(EventLog)
        assert sum(1 for e in log.entries if e.kind == "illegal") == 2
        assert list(game.move_stack) == before
        assert list(_record(app).move_stack) == before


@pytest.mark.asyncio
async def test_undo_redo_and_correcting_an_event_rewrite_the_record(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        for _ in range(4):
            move = next(m for m in game.legal_moves if isinstance(m, Play))
            await type_line(pilot, move.card.id)
            if app.screen.__class__.__name__ == "PickScreen":
                await pilot.press("1")
                await pilot.pause()
        played = list(game.move_stack)
        assert len(played) == 6  # round, deal, four plays
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert list(game.move_stack) == played[:-1]
        assert list(_record(app).move_stack) == played[:-1]
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert list(game.move_stack) == played
        assert list(_record(app).move_stack) == played
        # Correct the third event (the first play): pick it in the log, Enter, type the right one.
        await pick_event(pilot, app, 2)
        assert app.correcting == 2 and list(game.move_stack) == played  # nothing changed yet
        before = app.session.position_before(2)
        first = played[2]
        other = next(m for m in before.legal_moves if isinstance(m, Play) and m.card is not first.card and not m.card.is_fate)
        await type_line(pilot, other.card.id)
        if app.screen.__class__.__name__ == "PickScreen":
            await pilot.press("1")
            await pilot.pause()
        assert app.correcting is None and game.move_stack[2].card is other.card
        # The events after it were applied again where they still fit; the rest are reported.
        assert list(_record(app).move_stack) == list(game.move_stack)
        notes = [e.text for e in app.screen.query_one(EventLog).entries if e.index is None]
        assert any("Event 3 corrected" in n for n in notes)
        assert not app.session.redo_moves
        await pilot.press("ctrl+y")  # nothing left to redo, nothing fired
        await pilot.pause()
        assert list(_record(app).move_stack) == list(game.move_stack)


async def pick_event(pilot, app: DashboardApp, index: int) -> None:
    """Pick event ``index`` in the event log (F6, Enter) to correct it."""
    await pilot.press("f6")
    log = app.screen.query_one(EventLog)
    log.highlighted = next(i for i, e in enumerate(log.entries) if e.index == index)
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.asyncio
async def test_a_correction_followed_by_redo_never_fires_a_stale_move(tmp_path: Path) -> None:
    """Two deals played, event 13 corrected, then Ctrl+Y: the correction re-applied the later
    events that fit, so nothing stale is left to redo; and an undo made stale by a new move
    says so and cannot fire later."""
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await dealt(app)
        while game.deal_number < 3:
            move = next(m for m in game.legal_moves if isinstance(m, Play))
            await play_move(pilot, app, move)
        played = list(game.move_stack)
        assert len(played) > 13
        # Event 13 (index 12) is a play; correct it to another card of the same player.
        before = app.session.position_before(12)
        wrong = played[12]
        assert isinstance(wrong, Play)
        right = next(m for m in before.legal_moves if isinstance(m, Play) and m.card is not wrong.card)
        await pick_event(pilot, app, 12)
        await play_move(pilot, app, right)
        assert game.move_stack[12] == right
        log = app.screen.query_one(EventLog)
        assert not [e for e in log.entries if e.kind == "illegal"]
        for _ in range(3):
            await pilot.press("ctrl+y")
            await pilot.pause()
        assert not [e for e in log.entries if e.kind == "illegal"]
        assert list(_record(app).move_stack) == list(game.move_stack)
        # An undo, then a different move: the undone one is dropped, and the log says so.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert len(app.session.redo_moves) == 1
        undone = app.session.redo_moves[0]
        other = next((m for m in game.legal_moves if isinstance(m, Play) and m != undone), None)
        if other is not None:
            await play_move(pilot, app, other)
            assert not app.session.redo_moves
            assert any("can no longer be re-applied" in e.text for e in log.entries)
            count = len(game.move_stack)
            await pilot.press("ctrl+y")
            await pilot.pause()
            assert len(game.move_stack) == count and not [e for e in log.entries if e.kind == "illegal"]


@pytest.mark.asyncio
async def test_the_deal_dialog_takes_typed_hands_and_face_down_hands(tmp_path: Path) -> None:
    app = _app(tmp_path, companion_deals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(
            lambda: isinstance(app.screen, DealScreen) and getattr(app.screen.focused, "id", None) == "deal-centre",
            "the deal dialog, ready for the centre",
        )
        # Type a wrong centre first: the dialog names the rule and stays open.
        await type_line(pilot, "w1 w2 w3")
        for _ in range(2):
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, DealScreen)
        assert "R15" in str(app.screen.query_one("#deal-error").render())
        # Fix the centre, give ann her cards, leave bob's face down.
        centre = app.screen.query_one("#deal-centre")
        centre.value = "W001 W002 W003 W004"
        app.screen.query_one("#deal-ann").value = "10m 9m 8m"
        await pilot.press("ctrl+s")
        await pilot.pause()
        game = app.game
        assert game is not None and game.phase is Phase.TURN
        assert [c.id for c in game.hand("ann")] == ["W020", "W019", "W018"]
        assert game.unseen_in_hand("bob") == 3
        saved = _record(app)
        assert saved.unseen_in_hand("bob") == 3


@pytest.mark.asyncio
async def test_setup_dialog_starts_a_team_game(tmp_path: Path) -> None:
    app = DashboardApp(ManualSource(), needs_setup=True, games_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        # The dialog mounted down to its selects' own parts (a value set earlier has no label to show).
        await until(lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#setup-error")) and bool(app.screen.query("#teams SelectCurrent #label")), "the set-up dialog")
        app.screen.query_one("#players").value = "ann, bob, cy"
        app.screen.query_one("#teams").value = 2
        await pilot.press("ctrl+s")
        await until(lambda: "R16" in str(app.screen.query_one("#setup-error").render()), "the refusal citing R16")
        app.screen.query_one("#players").value = "ann, bob, cy, dee"
        app.screen.query_one("#companion-deals").value = True
        await pilot.press("ctrl+s")
        game = await dealt(app)
        assert game.setup.sides == ("ann+cy", "bob+dee")
        assert game.phase is Phase.TURN
        assert app.game_file is not None and app.game_file.path.parent == tmp_path


@pytest.mark.asyncio
async def test_help_and_palette_list_the_bindings(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        groups = app.help_groups()
        keys = {b.key for _, bindings in groups for b in bindings}
        assert {"ctrl+z", "ctrl+y", "f5", "f2", "f3"} <= keys
        assert "space" not in keys  # the clock keys belong to the demo and replays
        await pilot.press("escape")
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert any(t.startswith("Undo") for t in titles) and any(t.startswith("Teaching") for t in titles)


@pytest.mark.asyncio
async def test_the_command_palette_runs_a_table_command(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not app.teaching
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        await pilot.press(*"Teaching")

        def offers_teaching() -> bool:
            # The palette gathers what matches in a worker and lists it in batches.
            commands = palette.query_one(CommandList)
            index = commands.highlighted
            return index is not None and "Teaching" in str(commands.get_option_at_index(index).prompt)

        await until(offers_teaching, "the Teaching command in the palette")
        await pilot.press("enter")
        await until(lambda: app.teaching, "teaching mode")
        await pilot.pause()
        # Teaching mode lists the legal moves of the player to move with their points.
        panel = app.screen.query_one(PlayPanel)
        assert "legal moves" in panel_text(panel)


@pytest.mark.asyncio
async def test_the_deal_dialog_comes_back_when_every_hand_is_played_out(tmp_path: Path) -> None:
    app = _app(tmp_path, companion_deals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, DealScreen), "the deal dialog")
        await pilot.press("ctrl+r", "ctrl+s")  # shuffle for me, deal
        await pilot.pause()
        game = app.game
        assert game is not None and game.deal_number == 1
        while game.phase is Phase.TURN:
            move = next(m for m in game.legal_moves if isinstance(m, Play))
            await play_move(pilot, app, move)
        assert game.phase is Phase.DEAL
        assert isinstance(app.screen, DealScreen)
        assert "Deal 2 of 6" in str(app.screen.query_one(Static).render())


@pytest.mark.asyncio
async def test_the_deal_dialogs_buttons_and_enter_work_as_its_keys(tmp_path: Path) -> None:
    """Enter goes from hand to hand; the buttons shuffle for the table and deal, as Ctrl+R
    and Ctrl+S do."""
    app = _app(tmp_path, companion_deals=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: isinstance(app.screen, DealScreen), "the deal dialog")
        dialog = app.screen
        await until(lambda: len(dialog.query(Input)) > 1, "the dialog's hands")
        inputs = list(dialog.query(Input))
        inputs[0].focus()
        await until(lambda: dialog.focused is inputs[0], "the first field focused")
        await pilot.press("enter")
        # Focus moves once the dialog has handled the submission, on its own time.
        await until(lambda: dialog.focused is inputs[1], "the next field focused")
        await pilot.click("#shuffle")
        assert all(i.value for i in inputs)
        await pilot.click("#deal")
        await until(lambda: app.game is not None and app.game.deal_number == 1, "the deal made")


@pytest.mark.asyncio
async def test_the_footer_shows_the_key_that_quits_while_cards_are_typed(tmp_path: Path) -> None:
    """Q is a letter of the entry bar in manual play; Ctrl+Q quits there, and the footer says so."""
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = {b.binding.key: b.binding.description for b in app.screen.active_bindings.values() if b.binding.show}
        assert shown.get("ctrl+q") == "Quit"
        await pilot.press("q")
        assert app.screen.query_one("#entry").value == "q" and app.is_running
        await pilot.press("ctrl+u", "ctrl+q")
        await pilot.pause()
        assert not app.is_running
