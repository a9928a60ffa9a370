"""Resuming a saved game keeps every complete event, moves any damaged tail to a side file
next to the record (never deletes it), says exactly what it set aside, refuses a file that is
not a record without touching it, and keeps the file's mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.records.format import RecordError, iter_record_lines, load_game
from companion.records.store import GameFile, last_unfinished, load_for_resume
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable

SETUP = GameSetup(("ann", "bob", "cy"))


def _played(n: int, seed: int = 9) -> GameState:
    table = VirtualTable(SETUP, seed=seed, fate=True)
    game = GameState(SETUP, keep_history=True)
    for _ in range(n):
        game.push(table.next_move(game))
    return game


def _record(game: GameState) -> bytes:
    return "".join(line + "\n" for line in iter_record_lines(game.setup, game.move_stack)).encode("utf-8")


def test_a_complete_last_event_without_its_newline_is_kept(tmp_path: Path) -> None:
    game = _played(12)
    path = tmp_path / "g.jsonl"
    path.write_bytes(_record(game)[:-1])  # the newline itself was never written
    resumed, report = load_for_resume(path)
    assert list(resumed.move_stack) == list(game.move_stack)
    assert report.events == 13 and report.nothing_lost and report.side_file is None
    assert report.message == "Resumed g.jsonl: 12 events, nothing lost"  # as the log numbers them
    assert path.read_bytes() == _record(game)  # ready to be appended to
    assert not list(tmp_path.glob("*.damaged*"))


def test_a_damaged_line_sets_aside_the_tail_and_keeps_what_precedes(tmp_path: Path) -> None:
    game = _played(20)
    lines = _record(game).splitlines(keepends=True)
    lines[10] = b'{"event": "play", "player": "ann", "card": "W9' + b"\xff" + b'"}\n'
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    os.chmod(path, 0o640)
    resumed, report = load_for_resume(path)
    assert list(resumed.move_stack) == list(game.move_stack)[:9]
    tail = b"".join(lines[10:])
    assert report.damaged_line == 11 and report.damaged_bytes == len(tail)
    assert report.side_file == tmp_path / "g.jsonl.damaged" and report.side_file.read_bytes() == tail
    assert not report.nothing_lost
    assert report.set_aside_lines == len(lines) - 10
    assert report.message == (
        f"Resumed g.jsonl: 9 events; line 11 was damaged: it and the {len(lines) - 11} lines after it"
        f" ({len(tail)} bytes) are kept in g.jsonl.damaged"
    )
    assert path.read_bytes() == b"".join(lines[:10])
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    # Resumed again: nothing more to set aside, and the first side file is not overwritten.
    again, second = load_for_resume(path)
    assert list(again.move_stack) == list(resumed.move_stack) and second.nothing_lost


def test_a_last_line_cut_short_is_named_with_its_bytes(tmp_path: Path) -> None:
    game = _played(6)
    path = tmp_path / "g.jsonl"
    path.write_bytes(_record(game) + b'{"event": "play", "player": "an')
    resumed, report = load_for_resume(path)
    assert list(resumed.move_stack) == list(game.move_stack)
    assert report.message == "Resumed g.jsonl: 6 events; line 8 (31 bytes) was damaged and is kept in g.jsonl.damaged"


def test_a_move_that_breaks_a_rule_is_set_aside_too(tmp_path: Path) -> None:
    game = _played(15)
    lines = _record(game).splitlines(keepends=True)
    lines.insert(8, lines[7])  # the same play twice: the card is no longer in the hand
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(lines))
    resumed, report = load_for_resume(path)
    assert report.damaged_line == 9
    assert report.side_file is not None and report.side_file.read_bytes() == b"".join(lines[8:])
    assert list(resumed.move_stack) == list(game.move_stack)[:7]


def test_a_file_that_is_not_a_record_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_bytes(b"shopping list\neggs\nmilk")  # no newline after the last line
    os.chmod(path, 0o604)
    before = path.stat()
    with pytest.raises(RecordError, match=r"notes\.jsonl:1: not a record that can be resumed"):
        load_for_resume(path)
    assert path.read_bytes() == b"shopping list\neggs\nmilk"
    after = path.stat()
    assert (after.st_mtime_ns, after.st_mode) == (before.st_mtime_ns, before.st_mode)
    assert list(tmp_path.iterdir()) == [path]


def test_the_newest_game_is_resumed_even_when_damaged(tmp_path: Path) -> None:
    old, new = _played(6, seed=1), _played(14, seed=2)
    (tmp_path / "a-old.jsonl").write_bytes(_record(old))
    os.utime(tmp_path / "a-old.jsonl", (1_000_000, 1_000_000))
    (tmp_path / "b-new.jsonl").write_bytes(_record(new) + b'{"event": "pl\x00ay"}\n')
    found = last_unfinished(tmp_path)
    assert found is not None
    game, report = found
    assert report.path == tmp_path / "b-new.jsonl" and report.damaged_line == 16
    assert list(game.move_stack) == list(new.move_stack)


def test_a_newest_game_that_cannot_be_resumed_is_an_error_saying_why(tmp_path: Path) -> None:
    (tmp_path / "a-old.jsonl").write_bytes(_record(_played(6)))
    os.utime(tmp_path / "a-old.jsonl", (1_000_000, 1_000_000))
    (tmp_path / "b-new.jsonl").write_bytes('{"event": "game", "format": "rop-record/9"}\n'.encode())
    with pytest.raises(RecordError, match=r"b-new\.jsonl:1: .*unknown record format"):
        last_unfinished(tmp_path)


def test_a_byte_order_mark_is_accepted_and_utf16_is_a_clear_error(tmp_path: Path) -> None:
    game = _played(5)
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + _record(game))
    assert list(load_game(path, keep_history=True).move_stack) == list(game.move_stack)
    assert list(load_for_resume(path)[0].move_stack) == list(game.move_stack)
    wide = tmp_path / "wide.jsonl"
    wide.write_bytes(_record(game).decode().encode("utf-16"))
    with pytest.raises(RecordError, match=r"wide\.jsonl:1: .*UTF-16"):
        load_game(wide)
    with pytest.raises(RecordError, match="UTF-16"):
        load_for_resume(wide)


def test_undo_rewrites_keep_the_file_mode(tmp_path: Path) -> None:
    game = _played(4)
    record = GameFile.create(tmp_path, SETUP)
    for move in game.move_stack:
        record.append(move)
    os.chmod(record.path, 0o600 if stat.S_IMODE(record.path.stat().st_mode) != 0o600 else 0o640)
    mode = stat.S_IMODE(record.path.stat().st_mode)
    game.pop()
    record.rewrite(game.move_stack)
    record.close()
    assert stat.S_IMODE(record.path.stat().st_mode) == mode
    assert list(load_game(record.path, keep_history=True).move_stack) == list(game.move_stack)


def test_a_record_cut_at_every_byte_resumes_exactly(tmp_path: Path) -> None:
    """A kill -9 can stop the writer at any byte: whatever is on disk resumes to the events
    whose lines are complete, and record + side file hold every byte that was written."""
    game = _played(8)
    data = _record(game)
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    header_end = ends[0]
    moves = list(game.move_stack)
    path = tmp_path / "g.jsonl"
    for cut in range(header_end - 1, len(data) + 1):
        for side in tmp_path.glob("*.damaged*"):
            side.unlink()
        prefix = data[:cut]
        path.write_bytes(prefix)
        resumed, report = load_for_resume(path)
        # A line is an event once its closing brace is written; its newline may be missing.
        complete = sum(1 for end in ends[1:] if end - 1 <= cut)
        assert list(resumed.move_stack) == moves[:complete], cut
        kept = path.read_bytes()
        side = report.side_file.read_bytes() if report.side_file else b""
        if side:
            assert kept + side == prefix, cut
        else:
            assert kept in (prefix, prefix + b"\n"), cut
        assert kept.endswith(b"\n"), cut
        assert report.nothing_lost == (side == b""), cut


def test_a_record_cut_inside_its_game_event_is_refused_untouched(tmp_path: Path) -> None:
    data = _record(_played(1))
    path = tmp_path / "g.jsonl"
    for cut in range(1, data.index(b"\n")):
        path.write_bytes(data[:cut])
        with pytest.raises(RecordError, match="not a record that can be resumed"):
            load_for_resume(path)
        assert path.read_bytes() == data[:cut]
