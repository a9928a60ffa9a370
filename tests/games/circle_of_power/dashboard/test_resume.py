"""A game of Circle of Power kept with ``rop play --game circle-of-power`` survives the program
being killed: every event typed before the kill is in the ``cop-record/1`` file, and ``rop play
--resume`` continues from there, by the same keys."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.commands.play import resume_app
from companion.dashboard.widgets.event_log import EventLog
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Play, Reveal, Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import is_dummy
from companion.records.format import RecordError, load_game
from companion.records.store import GameFile, last_unfinished
from tests.dashboard.test_resume import Terminal
from tests.games.circle_of_power.dashboard.driving import keep, kept_by_hand


def _lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def _game(path: Path) -> CircleState | None:
    """The game in the record, ``None`` while its last line is being written."""
    try:
        return load_game(path)  # type: ignore[no-any-return]
    except RecordError:
        return None


def _typing(game: CircleState) -> bool:
    """The table is to type the next event (the companion makes the dummies' acts itself)."""
    if game.phase is Phase.ACT:
        return not is_dummy(game.to_move or "")
    return game.phase in (Phase.REVEAL, Phase.PLAY)


def _typed(game: CircleState) -> str:
    """What the scorekeeper types next: a city turned up, a card played (any the rules allow:
    the hands are face down), or the winner's first choice."""
    if game.phase is Phase.ACT:
        return "1"
    if game.phase is Phase.REVEAL:
        move = GAME.chance_move(game, random.Random(len(game.move_stack)))
        assert type(move) is Reveal
        return "joker" if move.card.is_joker else move.card.id
    assert game.phase is Phase.PLAY
    who = game.to_move
    assert who is not None
    return next(card.id for card in GAME.cards if card.is_battle and game.is_legal(Play(who, card)))


@pytest.mark.asyncio
async def test_resume_continues_a_circle_of_power_game_where_it_stood(tmp_path: Path) -> None:
    setup, simulated = simulate(["ann", "bob", "cy"], "coloured-cities", seed=12)
    moves = kept_by_hand(simulated)
    record = GameFile.create(tmp_path, setup)
    game = GAME.new_state(setup)
    for move in moves[:30]:
        game.push(move)
        record.append(move)
    # The program stopped while writing the next line: half a line on disk.
    record._fp.write('{"event": "play", "player": "')
    record._fp.flush()
    record.close()
    app = resume_app(None, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        resumed = app.game
        assert resumed is not None and resumed.setup == setup
        assert list(resumed.move_stack) == moves[:30]
        log = app.screen.query_one(EventLog)
        assert any("Resumed" in e.text for e in log.entries)
        # The first season's dealer goes on as recorded (C5).
        first = moves[0]
        assert type(first) is Season
        assert app.source.table.first_dealer == first.dealer  # type: ignore[attr-defined]
        # Carried on by keyboard to the next act, the dummies' and the table's own moves
        # following by themselves; every event is saved after the others.
        await keep(pilot, app, moves, stop=lambda s: len(s.move_stack) >= 45)
        assert kept_by_hand(list(load_game(record.path, keep_history=True).move_stack)) == list(resumed.move_stack)
        before = list(resumed.move_stack)
        await pilot.press(*"undo", "enter")
        await pilot.pause()
        assert kept_by_hand(list(load_game(record.path, keep_history=True).move_stack)) == before[:-1]


@pytest.mark.slow
def test_killed_mid_season_and_resumed_with_nothing_lost(tmp_path: Path) -> None:
    games = tmp_path / "games"
    app = Terminal("play", "--game", "circle-of-power", "--players", "ann,bob,cy", "--seed", "5", "--games-dir", str(games))
    try:
        app.wait_until(lambda: app.shows("Shuffle for me"))
        app.type("\x12")  # Ctrl+R: the companion shuffles the cities
        app.type("\x13")  # Ctrl+S: the season starts
        app.wait_until(lambda: any(_lines(p) >= 2 for p in games.glob("*.jsonl")))
        path = next(games.glob("*.jsonl"))
        app.wait_until(lambda: app.shows("Next: turn up"))  # the season dialog is closed
        app.focus()
        typed: list[str] = []
        while len(typed) < 12:
            app.wait_until(lambda: (g := _game(path)) is not None and _typing(g))
            game = _game(path)
            assert game is not None
            text = _typed(game)
            before = _lines(path)
            app.type(text.lower())
            app.enter()
            try:
                app.wait_until(lambda before=before: _lines(path) > before)
            except AssertionError as exc:
                raise AssertionError(f"{text} was not recorded: {exc}") from None
            typed.append(text)
        expected = list(load_game(path, keep_history=True).move_stack)
    finally:
        app.kill()
    # Killed: the record holds every event typed, and is the last unfinished game.
    found = last_unfinished(games)
    assert found is not None
    game, report = found
    assert report.path == path and report.nothing_lost
    assert list(game.move_stack) == expected
    shown = ["joker" if m.card.is_joker else m.card.id for m in expected if type(m) in (Reveal, Play)]
    assert shown == [t for t in typed if t != "1"]
    assert any(type(m) is Play and is_dummy(m.player) for m in expected)  # the dummy's card was typed too
    # Resumed in a terminal: the dashboard shows the game as it stood.
    again = Terminal("play", "--resume", "--games-dir", str(games))
    try:
        again.wait_until(lambda: again.shows("Resumed"))
        # After "Season 1", in bold; the short form once the status line knows it is narrow.
        n = game.action_number
        again.wait_until(lambda: again.shows(f", action {n}/15") or again.shows(f", action {n} of 15"))
    finally:
        again.kill()
    assert list(load_game(path, keep_history=True).move_stack) == expected
