"""Files and paths that are no record file: a FIFO, a device, a symbolic link, an empty file, a
name too long. A command that reads a record refuses anything but a regular file at once,
naming it and what it is (never waiting on a FIFO, never reading a device that does not end);
a command that writes a file follows a symbolic link as an editor would and never replaces a
device; a name too long is refused by name, the rest of the batch going on."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.rule_of_power.samples import sample_path

DUEL = sample_path("duel")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().err


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO with a writer waiting on it that writes nothing: a reader that opens it reads
    its end at once, so that a command that reads it instead of refusing it ends all the same
    (and says the wrong thing)."""
    path = tmp_path / "game.jsonl"
    os.mkfifo(path)

    def writer() -> None:
        os.close(os.open(path, os.O_WRONLY))  # waits for a reader

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    yield path
    # A command that never opened it left the writer waiting: a reader of our own lets it go.
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    thread.join()
    os.close(reader)


COMMANDS = [
    ("hint", "--player", "ann"),
    ("review",),
    ("replay",),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_fifo_is_refused_at_once_by_name(capsys: pytest.CaptureFixture[str], fifo: Path, command: tuple[str, ...]) -> None:
    status, err = _run(capsys, command[0], str(fifo), *command[1:])
    assert status in (1, 2)
    assert err == f"rop {command[0]}: {fifo}: not a regular file: it is a FIFO (a named pipe)\n"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_device_is_refused_by_name(capsys: pytest.CaptureFixture[str], command: tuple[str, ...]) -> None:
    # /dev/null ends at once; /dev/zero, refused the same way, would never end.
    status, err = _run(capsys, command[0], os.devnull, *command[1:])
    assert status in (1, 2)
    assert err == f"rop {command[0]}: {os.devnull}: not a regular file: it is a character device\n"


def test_club_add_refuses_a_fifo_a_device_and_a_name_too_long_and_stores_the_rest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fifo: Path
) -> None:
    long = tmp_path / ("x" * 5000 + ".jsonl")
    db = str(tmp_path / "club.sqlite")
    status = main(["club", "add", str(fifo), os.devnull, str(long), str(DUEL), "--db", db])
    out, err = capsys.readouterr()
    assert status == 2 and "Traceback" not in err
    assert f"rop club add: refused {fifo}: not a regular file: it is a FIFO (a named pipe)\n" in err
    assert f"rop club add: refused {os.devnull}: not a regular file: it is a character device\n" in err
    assert f"rop club add: refused {long}: cannot read the record (File name too long)\n" in err
    assert out.startswith(f"{DUEL}: stored as game ")
    assert err.endswith("1 stored, 0 replaced, 0 already stored, 3 refused\n")


def test_an_empty_record_has_no_game_in_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    for argv in (["hint", str(empty), "--player", "ann"], ["review", str(empty)], ["replay", str(empty)]):
        status, err = _run(capsys, *argv)
        assert status in (1, 2)
        assert err == f"rop {argv[0]}: {empty}: the file is empty: there is no game in it\n"


def test_hint_reads_no_further_than_the_line_asked_for(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # What follows the position is not read: a garbled line after it is no concern of the hint.
    path = tmp_path / "game.jsonl"
    path.write_bytes(DUEL.read_bytes().replace(b"\n", b"\n\xff garbled\n", 1))
    status, err = _run(capsys, "hint", str(path), "--player", "ann", "--line", "1")
    assert f"{path}:2: not UTF-8" not in err
    assert status == 2 and "nobody is to move: the game waits for the next round" in err
    status, err = _run(capsys, "hint", str(path), "--player", "ann", "--line", "3")
    assert status == 2 and f"{path}:2: not UTF-8 text" in err


# ------------------------------------------------------------------ writing: rop simulate -o


def test_simulate_writes_through_a_symbolic_link_as_an_editor_would(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "games" / "kept.jsonl"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "latest.jsonl"
    link.symlink_to(target)
    status, _ = _run(capsys, "simulate", "--seed", "3", "-o", str(link))
    assert status == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith('{"event": "game"')
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the file replaced keeps its permissions
    assert sorted(p.name for p in target.parent.iterdir()) == ["kept.jsonl"]
    # A link to a file not there yet makes it, as an editor would.
    dangling = tmp_path / "next.jsonl"
    dangling.symlink_to(tmp_path / "games" / "new.jsonl")
    assert _run(capsys, "simulate", "--seed", "3", "-o", str(dangling))[0] == 0
    assert dangling.is_symlink() and (tmp_path / "games" / "new.jsonl").read_text() == target.read_text()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_simulate_never_replaces_what_is_not_a_regular_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out.jsonl"
    if kind == "fifo":
        os.mkfifo(out)
        said = "it is a FIFO (a named pipe), not a regular file"
    else:
        out.symlink_to(os.devnull)  # a device, through a link: the link is followed, the device refused
        said = "it is a character device, not a regular file"
    status, err = _run(capsys, "simulate", "--seed", "3", "-o", str(out))
    assert status == 2 and err == f"rop simulate: cannot write {out}: {said}\n"
    assert stat.S_ISFIFO(out.lstat().st_mode) if kind == "fifo" else out.is_symlink() and stat.S_ISCHR(out.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_simulate_refuses_a_name_too_long(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / ("x" * 5000)
    status, err = _run(capsys, "simulate", "--seed", "3", "-o", str(out))
    assert status == 2 and err == f"rop simulate: cannot write {out}: File name too long\n"
