"""A game kept with ``rop play`` survives the program being killed: every event typed
before the kill is in the record, and ``rop play --resume`` continues from there."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import sys
import termios
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.commands.play import ResumeError, resume_app
from companion.records.store import (
    GameFile,
    last_unfinished,
    list_games,
    load_for_resume,
    repair,
)
from companion.dashboard.widgets.event_log import EventLog
from companion.games.rule_of_power.engine.game import GameSetup, GameState, Phase
from companion.games.rule_of_power.engine.moves import Play
from companion.records.format import RecordError, load_game
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable
from tests.dashboard.driving import entry_text, play_move

ROP = str(Path(sys.executable).with_name("rop"))


class Terminal:
    """``rop`` running in a pseudo-terminal of 80x24, typed into like a keyboard and killed
    with SIGKILL like a crash or a power cut. Its output is drained in a thread, and a test
    waits on it (:meth:`wait_until`), never on the clock."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, TERM="xterm-256color")
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover - the child becomes rop
            os.execve(ROP, [ROP, *args], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.output = bytearray()
        self.ended = False
        self._drawn = threading.Condition()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            with self._drawn:
                if not data:
                    self.ended = True
                else:
                    self.output += data
                self._drawn.notify_all()
            if not data:
                return

    def shows(self, text: str) -> bool:
        return text.encode() in self.output

    def wait_until(self, condition: Callable[[], bool], timeout: float = 120.0) -> None:
        """Return once ``condition()`` holds: checked now and each time ``rop`` draws on the
        terminal. It draws after every change it makes, and writes the record before it
        tells the screen, so a condition on the record is seen as soon as it holds. The
        timeout only bounds a test that is already failing."""
        with self._drawn:
            self._drawn.wait_for(lambda: condition() or self.ended, timeout)
            if not condition():
                tail = bytes(self.output[-3000:])
                raise AssertionError(f"{'rop ended' if self.ended else 'timed out'}; the screen ended with {tail!r}")

    def focus(self) -> None:
        """The terminal window gains focus (what a terminal reports when focus events are on)."""
        os.write(self.fd, b"\x1b[I")

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def enter(self) -> None:
        os.write(self.fd, b"\r")

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def _playable(path: Path) -> GameState | None:
    """The game in the record when the player to move may play a card."""
    try:
        game = load_game(path)
    except RecordError:
        return None  # the last line is being written
    return game if any(isinstance(m, Play) for m in game.legal_moves) else None


def _lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


@pytest.mark.slow
def test_killed_mid_game_and_resumed_with_nothing_lost(tmp_path: Path) -> None:
    games = tmp_path / "games"
    app = Terminal("play", "--players", "ann,bob", "--companion-deals", "--seed", "5", "--games-dir", str(games))
    try:
        app.wait_until(lambda: bool(list_games(games)) and _lines(list_games(games)[0]) >= 3)
        path = list_games(games)[0]
        app.wait_until(lambda: app.shows("F1 help"))  # the entry bar is up
        app.focus()
        typed: list[Play] = []
        while len(typed) < 7:
            # After a hand's last play the companion writes the next deal: wait for it (and
            # for a line being written to be whole) until a card may be played.
            app.wait_until(lambda: _playable(path) is not None)
            game = _playable(path)
            assert game is not None
            move = next(m for m in game.legal_moves if isinstance(m, Play))
            before = _lines(path)
            app.type(entry_text(move))
            app.enter()
            options = game.capture_options(move.card)
            if len(options) > 1:
                seen = len(app.output)
                app.wait_until(lambda seen=seen: b"Which one?" in app.output[seen:])
                app.type(str(options.index(move.capture) + 1))
            try:
                app.wait_until(lambda before=before: _lines(path) > before)
            except AssertionError as exc:
                raise AssertionError(f"{move} was not recorded: {exc}") from None
            typed.append(move)
        expected = list(load_game(path, keep_history=True).move_stack)
    finally:
        app.kill()
    # Killed: the record holds every event typed, and is the last unfinished game.
    found = last_unfinished(games)
    assert found is not None
    game, report = found
    assert report.path == path and report.nothing_lost
    assert list(game.move_stack) == expected
    # The round, the deals the companion made, and the seven plays typed, in order.
    assert [m for m in expected if isinstance(m, Play)] == typed
    # Resumed in a terminal: the dashboard shows the game as it stood.
    again = Terminal("play", "--resume", "--games-dir", str(games))
    try:
        again.wait_until(lambda: again.shows("Resumed"))
        again.wait_until(lambda: again.shows(f"Deal {game.deal_number} of 6"))
    finally:
        again.kill()
    assert list(load_game(path, keep_history=True).move_stack) == expected


@pytest.mark.asyncio
async def test_resume_continues_exactly_where_the_game_stood(tmp_path: Path) -> None:
    setup = GameSetup(("ann", "bob", "cy"))
    table = VirtualTable(setup, seed=9, fate=True)
    game = GameState(setup)
    record = GameFile.create(tmp_path, setup)
    for _ in range(25):
        move = table.next_move(game)
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
        assert resumed is not None
        assert list(resumed.move_stack) == list(game.move_stack)
        assert repr(resumed) == repr(game)
        log = app.screen.query_one(EventLog)
        assert any("Resumed" in e.text for e in log.entries)
        assert sum(1 for e in log.entries if e.index is not None) == 25
        # Carry on: the next move is typed and saved after the others.
        assert resumed.phase is Phase.TURN
        move = next(m for m in resumed.legal_moves if isinstance(m, Play) and m.card.is_world)
        await play_move(pilot, app, move)
        assert list(load_game(record.path, keep_history=True).move_stack) == list(game.move_stack) + [move]
        # "undo" typed in the entry bar (a word with an n in it) undoes it, on disk too.
        await pilot.press(*"undo", "enter")
        await pilot.pause()
        assert list(load_game(record.path, keep_history=True).move_stack) == list(game.move_stack)


def test_repair_sets_aside_only_a_line_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    header = '{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"]}\n'
    path.write_text(header + '{"event": "round", "dealer": "bob"}\n{"c"', encoding="utf-8")
    assert repair(path)
    assert path.read_text(encoding="utf-8") == header + '{"event": "round", "dealer": "bob"}\n'
    assert (tmp_path / "g.jsonl.damaged").read_text(encoding="utf-8") == '{"c"'
    assert not repair(path)


def test_a_finished_game_is_not_resumed(tmp_path: Path) -> None:
    from companion.records.format import write_record
    from companion.games.rule_of_power.simulation.virtual_table import simulate_game

    setup = GameSetup(("ann", "bob"))
    _, moves = simulate_game(setup, seed=1)
    write_record(tmp_path / "done.jsonl", setup, moves)
    assert last_unfinished(tmp_path) is None
    assert load_for_resume(tmp_path / "done.jsonl")[0].outcome() is not None


def test_play_reports_a_bad_setup_and_a_missing_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["play", "--players", "ann,bob,cy", "--teams", "2", "--games-dir", str(tmp_path)]) == 2
    assert "R16" in capsys.readouterr().err
    assert main(["play", "--players", "ann,bob", "--target", "12"]) == 2
    assert "R14" in capsys.readouterr().err
    with pytest.raises(ResumeError, match="no unfinished game"):
        resume_app(None, tmp_path)
