"""Bad input to the ``rop`` commands is a clear error with exit status 2 (what, and where),
never a traceback, a value changed in silence or a partial file left behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        status = int(exc.code or 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("simulate", "--players", "7"), "--players: 7 is out of range: a whole number from 2 to 6"),
        (("simulate", "--players", "-2"), "--players: -2 is out of range"),
        (("simulate", "--teams", "-1"), "--teams: -1 is out of range: a whole number from 0 to 3"),
        (("simulate", "--target", "2011"), "--target: 2011 is out of range: a whole number from 11 to 101"),
        (("demo", "--plain", "--delay", "-1"), "--delay: -1 is out of range: a number from 0 to 60"),
        (("demo", "--plain", "--delay", "nan"), "--delay: nan is out of range"),
        (("demo", "--plain", "--delay", "inf"), "--delay: inf is out of range"),
        (("demo", "--players", "9"), "--players: 9 is out of range"),
        (("tags", "watch", "--seconds", "-1"), "--seconds: -1 is out of range"),
        (("tags", "watch", "--seconds", "nan"), "--seconds: nan is out of range"),
        (("tags", "watch", "--serial", ""), "the serial port name is empty"),
        (("tags", "watch", "--serial", "socket://nohostport"), "socket://nohostport: a socket:// port is written socket://HOST:PORT"),
        # A reader of a second board, with one board given: named, with the names there are.
        (("track", "--players", "ann,bob", "--serial", "loop://", "--reader", "board2:0=fate:ann"), "'board2:0' is none of this table's readers (one reader board, no USB reader"),
        (("track", "--players", "ann,bob", "--serial", "loop://", "--reader", "board:8=centre"), "'board:8' is none of this table's readers"),
    ],
)
def test_out_of_range_arguments_are_argparse_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], expected: str) -> None:
    status, err = _run(capsys, *argv)
    assert status == 2
    assert expected in err
    assert "Traceback" not in err


def test_simulate_into_a_missing_directory_leaves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = _run(capsys, "simulate", "-o", str(tmp_path / "nodir" / "x.jsonl"))
    assert status == 2 and "cannot write" in err and "no such directory" in err
    assert list(tmp_path.iterdir()) == []


def test_simulate_writes_the_whole_game_or_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    status, _ = _run(capsys, "simulate", "--players", "6", "--teams", "3", "--target", "101", "--seed", "3", "-o", str(out))
    assert status == 0
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]
    assert _run(capsys, "replay", str(out))[0] == 0


def _score(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object | bytes) -> tuple[int, str]:
    path = tmp_path / "round.json"
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return _run(capsys, "score", str(path))


POWERS = ["W001", "W002", "W003", "W004", "W005", "W006", "W007", "W008", "W009", "W010"]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"sides": {"a": {"captured": POWERS}, "b": {}}, "expansion": "false"}, '"expansion" must be true or false'),
        ({"sides": {"a": {"captured": 5}}}, "side 'a': \"captured\" must be a list of card ids"),
        ({"sides": {"a": {"captured": [["W001"]]}}}, "side 'a': \"captured\" must be a list of card ids"),
        ({"sides": {"a": {"captured": ["F001"]}}}, "F001 (Mystic Crystal) is never captured"),
        ({"sides": {"a": {"captured": ["F008"]}}}, "(R23)"),
        (b"[" * 100_000, "nested 100000 deep"),
        (b'{"sides": {"a": {"sweeps": ' + b"9" * 5000 + b"}}}", "a number longer than 100 digits"),
        ('{"sides": {}}'.encode("utf-16"), "round.json:1: not UTF-8 text"),
    ],
    ids=["expansion-text", "number", "nested-list", "crystal", "renewal", "deep", "long-number", "utf16"],
)
def test_score_files_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, expected: str) -> None:
    status, err = _score(tmp_path, capsys, data)
    assert status == 2
    assert expected in err and "round.json" in err


def test_score_accepts_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = _score(tmp_path, capsys, b"\xef\xbb\xbf" + json.dumps({"sides": {"a": {"captured": ["W001", "F002"]}}}).encode())
    assert status == 0


def test_legal_refuses_fate_cards_that_never_lie_in_the_centre(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = _run(capsys, "legal", "--center", "W002,F004", "--card", "W006")
    assert status == 2 and "F004" in err and "(R20)" in err
    assert _run(capsys, "legal", "--center", "W002,F003", "--card", "W006")[0] == 0


def test_a_record_of_blank_lines_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n" * 5_000_000)
    status, err = _run(capsys, "replay", str(path))
    assert status == 1 and 'blank.jsonl:101: not a record: no "game" event in the first 100 lines' in err
    # After the game event too: a run of blank lines is no record the companion wrote.
    path.write_bytes(b'{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"]}\n' + b"\n" * 5_000_000)
    status, err = _run(capsys, "replay", str(path))
    assert status == 1 and "blank.jsonl:1002: 1000 blank lines in a row" in err


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"[" * 50_000, "nested 50000 deep"),
        (b'{"event": "round", "dealer": ' + b"1" * 5000 + b"}", "longer than 100 digits"),
        (b'{"event": "pass", "player": "\xff"}', "not UTF-8"),
        (b"{" + b" " * 100_000 + b"}", "line longer than 65536 bytes"),
    ],
    ids=["deep", "long-number", "not-utf8", "long-line"],
)
def test_hostile_record_lines_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: bytes, expected: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"]}\n' + line + b"\n")
    status, err = _run(capsys, "replay", str(path))
    assert status == 1 and "g.jsonl:2: " in err and expected in err


@pytest.mark.parametrize("command", ["play", "track"])
def test_a_table_command_names_its_game_and_never_takes_game_for_the_games_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # argparse would otherwise read --game as an abbreviation of --games-dir.
    monkeypatch.chdir(tmp_path)
    status, err = _run(capsys, command, "--game", "nope", "--players", "ann,bob")
    assert status == 2 and "--game: invalid choice: 'nope'" in err
    assert list(tmp_path.iterdir()) == []
