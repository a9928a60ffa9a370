"""The demo table and replays in the dashboard: the clock controls, slips flagged with
their rule, the settlement, restart, and the plain commentary."""

from __future__ import annotations

import asyncio
import random

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.messages import SourceNote
from companion.games.rule_of_power.dashboard.screens.settlement import SettlementScreen
from companion.dashboard.sources import SPEEDS, DemoSource, ReplaySource
from companion.games.rule_of_power.simulation.demo import make_slip
from companion.dashboard.widgets.event_log import EventLog
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.records.format import load_game
from companion.games.rule_of_power.samples import sample_path
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup
from tests.dashboard.driving import until


@pytest.mark.asyncio
async def test_demo_steps_flags_a_slip_and_restarts() -> None:
    source = DemoSource(make_setup(4, 2), seed=7, paused=True)
    app = DashboardApp(source, teaching=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.game is not None and app.game.phase is Phase.ROUND, "the demo's first round")
        for _ in range(6):
            await pilot.press("n")
            await pilot.pause()
        game = app.game
        log = app.screen.query_one(EventLog)
        # The clock's worker may lag behind the key presses on a busy machine.
        await until(lambda: len(game.move_stack) >= 5, "five moves")
        illegal = [e for e in log.entries if e.kind == "illegal"]
        # The third turn of the demo is a slip: flagged with its rule, not applied.
        assert len(illegal) == 1 and "R" in illegal[0].text
        assert app.screen.query_one(PlayPanel).flag is not None or game.move_stack
        # The game follows the virtual table exactly: replaying the same seed agrees.
        expected = GameState(source.setup, keep_history=False)
        table = VirtualTable(source.setup, seed=7, fate=True)
        for _ in range(len(game.move_stack)):
            expected.push(table.next_move(expected))
        assert repr(expected) == repr(game)
        speed = source.speed
        await pilot.press("plus")
        assert source.speed == speed + 1
        await pilot.press("minus", "minus")
        assert source.speed == speed - 1 and source.delay == SPEEDS[speed - 1]
        await pilot.press("r")
        await until(lambda: app.game is not game, "the restarted game")
        assert len(app.game.move_stack) == 0


@pytest.mark.asyncio
async def test_demo_plays_a_round_on_its_clock_and_walks_the_settlement() -> None:
    source = DemoSource(make_setup(2), seed=11, fate=False, delay=0.03)
    app = DashboardApp(source, teaching=False)
    async with app.run_test(size=(80, 24)):
        await until(lambda: isinstance(app.screen, SettlementScreen), "the settlement")
        screen = app.screen
        # On the demo clock the settlement shows itself point by point, then closes.
        await until(lambda: not isinstance(app.screen, SettlementScreen), "the settlement closing")
        assert screen.shown == len(screen.steps)
        assert app.game is not None and len(app.game.results) >= 1


@pytest.mark.asyncio
async def test_messages_arriving_while_the_app_shuts_down_are_dropped() -> None:
    """A clocked source can post a move after the table screen's widgets are gone (the app
    shut down from outside, not by ``exit()``): the app drops it instead of failing."""
    source = DemoSource(make_setup(2), seed=11, fate=False, delay=60.0)
    app = DashboardApp(source, teaching=False)
    handled: list[bool] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None, "the demo's game")
        assert app.game is not None
        move = VirtualTable(source.setup, seed=11, fate=False).next_move(app.game)
        prune = app._prune

        async def prune_then_post(*nodes: object, **options: object) -> None:
            await prune(*nodes, **options)
            # The table screen is still first on the stack but holds no widgets any more.
            app.post_message(SourceNote("late note", "demo"))
            assert app.session is not None
            app.session.propose(move, source="demo")  # the session tells the app, which is closing
            for _ in range(20):  # let the app's message loop take both in turn
                await asyncio.sleep(0)
            handled.append(True)

        app._prune = prune_then_post
    assert handled


def test_slips_are_always_illegal() -> None:
    setup = make_setup(3)
    table = VirtualTable(setup, seed=5, fate=True)
    game = GameState(setup, keep_history=False)
    rng = random.Random(1)
    slips = 0
    for move in table.moves(game):
        if game.phase is Phase.TURN:
            slip = make_slip(game, move, rng)
            if slip is not None:
                slips += 1
                assert not game.is_legal(slip)
    assert slips > 20


@pytest.mark.asyncio
async def test_replay_to_the_end_matches_the_record() -> None:
    path = sample_path("duel-fate")
    app = DashboardApp(ReplaySource(path, paused=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        expected = load_game(path)
        # Every move of the record applied, however busy the machine.
        await until(lambda: app.game is not None and app.game.outcome() is not None, "the end of the record")
        assert app.game is not None
        assert app.game.totals == expected.totals
        assert app.game.outcome() == expected.outcome()
        log = app.screen.query_one(EventLog)
        assert any("wins the game" in e.text for e in log.entries)
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, SettlementScreen)
        # The palette offers the settlement's own keys too.
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert any(t.startswith("Show all") for t in titles) and any(t.startswith("Next point") for t in titles)
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.shown == len(app.screen.steps)
        assert "wins the game" in str(dict(app.screen.steps)["Verdict"])


def test_plain_demo_prints_the_commentary(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["demo", "--plain", "--sample", "duel", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Round 1:") and "Winner:" in out


def test_replay_tui_reports_a_missing_record(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    from companion.cli import main

    assert main(["replay", str(tmp_path / "nothing.jsonl"), "--tui"]) == 1
    assert "nothing.jsonl" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_a_replay_stops_at_an_illegal_move_and_flags_it(tmp_path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"]}\n'
        '{"event": "round", "dealer": "bob"}\n'
        '{"event": "deal", "hands": {"ann": ["W016", "W012", "W001"], "bob": ["W027", "W018", "W040"]}, '
        '"center": ["W002", "W014", "W026", "W035"]}\n'
        '{"event": "play", "player": "ann", "card": "W016", "capture": ["W002", "W014"]}\n'
        '{"event": "play", "player": "bob", "card": "W027", "capture": []}\n',
        encoding="utf-8",
    )
    app = DashboardApp(ReplaySource(path, paused=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(6):
            await pilot.press("n")
            await pilot.pause()
        entries = app.screen.query_one(EventLog).entries
        illegal = [e for e in entries if e.kind == "illegal"]
        assert len(illegal) == 1 and "R4" in illegal[0].text
        assert any("replay stops" in e.text for e in entries)
        assert app.game is not None and len(app.game.move_stack) == 2


def test_demo_without_a_terminal_prints_the_commentary(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    # Under pytest standard input and output are no terminal: the dashboard cannot be drawn.
    assert main(["demo", "--sample", "duel", "--delay", "0"]) == 0
    captured = capsys.readouterr()
    assert "no terminal" in captured.err and captured.out.startswith("Round 1:")


@pytest.mark.asyncio
async def test_the_settlement_keys_win_over_the_clock_keys() -> None:
    path = sample_path("duel")
    app = DashboardApp(ReplaySource(path, paused=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        source = app.source
        await pilot.press("end")
        await until(lambda: app.game is not None and app.game.outcome() is not None, "the end of the record")
        await pilot.press("f3")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettlementScreen) and screen.shown == 1
        await pilot.press("space", "n", "right")
        await pilot.pause()
        assert screen.shown == 4
        assert source.paused  # Space went to the settlement, not to the clock


@pytest.mark.asyncio
@pytest.mark.parametrize("level", ["greedy", "coach:fast"])
async def test_the_demo_plays_at_the_chosen_level(level: str) -> None:
    # The players think in a thread; the game is the virtual table's at that level, move for
    # move, and the table takes keys meanwhile.
    source = DemoSource(make_setup(2), seed=5, fate=True, paused=True, level=level)
    app = DashboardApp(source, teaching=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(12):
            await pilot.press("n")
            await pilot.pause()
        game = app.game
        assert game is not None
        for _ in range(400):  # bounded: the steps are taken one by one as the players think
            if len(game.move_stack) >= 8 and not source._steps:
                break
            await pilot.pause(0.05)
        moves = list(game.move_stack)
        assert len(moves) >= 8
        expected = GameState(source.setup)
        table = VirtualTable(source.setup, seed=5, fate=True, policy=level)
        for _ in moves:
            expected.push(table.next_move(expected))
        assert expected.move_stack == moves


def test_rop_demo_takes_a_level() -> None:
    from companion.cli import build_parser

    args = build_parser().parse_args(["demo", "--level", "greedy"])
    assert args.level == "greedy"
    # Without --level each game's demo plays its strongest: Rule of Power's coach.
    from companion.commands.demo import demo_level
    from companion.contract.registry import game

    assert demo_level(build_parser().parse_args(["demo"]), game("rule-of-power")) == "coach"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo", "--level", "genius"])
