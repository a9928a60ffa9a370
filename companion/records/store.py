"""Where games are kept: one record file per game in a games directory (of any game: its
record's first line says which), written
line by line as the game is played (each line flushed and synced), so that a crash, a
closed terminal or a power cut loses no event.

Undo rewrites the file through a temporary file and an atomic rename: at every instant the
file on disk is a complete, valid record of the game as it stands.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from companion.contract import Move, Setup, State
from companion.observations.textio import InputError, decode_text
from companion.records.format import RecordError, Replayer, RecordWriter, game_id_of, iter_record_lines, open_record, read_record

__all__ = ["GAMES_DIR_ENV", "GameFile", "default_games_dir", "last_unfinished", "list_games", "load_for_resume", "repair", "ResumeReport"]

GAMES_DIR_ENV = "ROP_GAMES_DIR"


def default_games_dir() -> Path:
    """``$ROP_GAMES_DIR``, else ``$XDG_DATA_HOME/rop/games``, else ``~/.local/share/rop/games``."""
    env = os.environ.get(GAMES_DIR_ENV)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "rop" / "games"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name)[:16] or "player"


class GameFile:
    """The record file of one game, kept in step with its state."""

    def __init__(self, path: Path, setup: Setup, fp: IO[str], game_id: str | None = None) -> None:
        self.path = path
        self.setup = setup
        self.game_id = game_id
        """The game's name in its ``game`` line, kept through every rewrite."""
        self._fp = fp
        self._writer = RecordWriter(fp, setup, durable=True, header=False)

    @classmethod
    def create(cls, games_dir: Path, setup: Setup) -> GameFile:
        games_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        names = "-".join(_slug(p) for p in setup.players)
        path = games_dir / f"{stamp}-{names}.jsonl"
        n = 1
        while path.exists():
            n += 1
            path = games_dir / f"{stamp}-{names}-{n}.jsonl"
        fp = open(path, "x", encoding="utf-8")
        game_id = uuid.uuid4().hex
        RecordWriter(fp, setup, durable=True, game_id=game_id)
        return cls(path, setup, fp, game_id)

    @classmethod
    def reopen(cls, path: Path, setup: Setup) -> GameFile:
        """Continue an existing record (it must already hold the game's moves)."""
        with open(path, encoding="utf-8-sig", errors="replace") as head:
            game_id = game_id_of(head.readline())
        fp = open(path, "a", encoding="utf-8")
        return cls(path, setup, fp, game_id)

    def append(self, move: Move) -> None:
        self._writer.write(move)

    def rewrite(self, moves: Sequence[Move]) -> None:
        """Replace the file with the record of the game's ``moves`` (after an undo, a
        correction, or hands filled in)."""
        self._fp.close()
        fd, tmp = tempfile.mkstemp(prefix=".rewrite-", suffix=".jsonl", dir=self.path.parent)
        try:
            # The new file takes the place of the old one: it keeps the old one's mode.
            os.chmod(tmp, stat.S_IMODE(os.stat(self.path).st_mode))
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                for line in iter_record_lines(self.setup, moves, self.game_id):
                    out.write(line + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
            _sync_dir(self.path.parent)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        finally:
            self._fp = open(self.path, "a", encoding="utf-8")
            self._writer = RecordWriter(self._fp, self.setup, durable=True, header=False)

    def close(self) -> None:
        self._fp.close()


def _sync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def list_games(games_dir: Path) -> list[Path]:
    """The records in ``games_dir``, newest first."""
    if not games_dir.is_dir():
        return []
    files = [p for p in games_dir.glob("*.jsonl") if not p.name.startswith(".")]
    return sorted(files, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def repair(path: Path) -> bool:
    """Set aside a last line cut short (the program stopped while writing it) into a side
    file next to the record, or end a complete last line that lacks its newline. Returns
    whether the record was changed. Prefer :func:`load_for_resume`, which says what it did."""
    before = path.stat().st_size
    load_for_resume(path)
    return path.stat().st_size != before


@dataclass(frozen=True)
class ResumeReport:
    """What resuming a record kept and what it set aside, in words for the table."""

    path: Path
    events: int
    """Events kept, the ``game`` event included."""
    damaged_line: int | None = None
    """The first line set aside (1-based), or ``None`` when nothing was."""
    damaged_bytes: int = 0
    side_file: Path | None = None
    """Where the lines set aside are kept (never deleted)."""
    set_aside_lines: int = 0
    """How many lines were set aside: the damaged one and every line after it."""
    passed_over: tuple[Path, ...] = ()
    """Newer games that were not resumed because they are finished."""

    @property
    def nothing_lost(self) -> bool:
        return self.side_file is None

    @property
    def message(self) -> str:
        # The events the log numbers: the game's set-up (its first line) is not one of them.
        moves = self.events - 1
        head = f"Resumed {self.path.name}: {moves} event{'s' if moves != 1 else ''}"
        if self.side_file is None:
            text = f"{head}, nothing lost"
        elif self.set_aside_lines <= 1:
            text = f"{head}; line {self.damaged_line} ({self.damaged_bytes} bytes) was damaged and is kept in {self.side_file.name}"
        else:
            after = self.set_aside_lines - 1
            text = (
                f"{head}; line {self.damaged_line} was damaged: it and the {after} line{'s' if after > 1 else ''} after it"
                f" ({self.damaged_bytes} bytes) are kept in {self.side_file.name}"
            )
        if self.passed_over:
            names = ", ".join(p.name for p in self.passed_over)
            text += f" (newer finished game{'s' if len(self.passed_over) > 1 else ''}: {names})"
        return text


class _Counter(Replayer):
    def __init__(self) -> None:
        super().__init__(keep_history=True)
        self.last_line = 0

    def begin_game(self, setup: Setup, line: int) -> None:
        super().begin_game(setup, line)
        self.last_line = line

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        self.last_line = line


def _split_lines(data: bytes) -> list[tuple[int, bytes]]:
    """(offset, bytes of the line without its newline) for every line; a last line without
    a newline is included."""
    out = []
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            out.append((pos, data[pos:]))
            break
        out.append((pos, data[pos:end]))
        pos = end + 1
    return out


def _replay(lines: list[tuple[int, bytes]], path: str) -> tuple[_Counter, RecordError | None]:
    counter = _Counter()

    def texts() -> Iterator[str]:
        for number, (_, raw) in enumerate(lines, 1):
            try:
                yield decode_text(raw, path=path, first_line=number)
            except InputError as exc:
                raise RecordError(exc.reason, line=number, path=path) from None

    try:
        read_record(texts(), counter, path=path)
    except RecordError as exc:
        return counter, exc
    return counter, None


def load_for_resume(path: Path) -> tuple[State, ResumeReport]:
    """Replay a record with its history, ready to be continued.

    Every complete event is kept, a complete last line without its newline included. From
    the first line that cannot be read or breaks a rule (a line cut short by a crash, a
    damaged disk, an edit by hand), the rest of the file is moved to a side file next to the
    record (``GAME.jsonl.damaged``), never deleted, and the report says so. A file that is not
    a record at all (its ``game`` event cannot be read) raises :class:`RecordError` and is
    left untouched. The file keeps its inode, owner and mode: it is only truncated or
    appended to, after the side file is safely on disk.
    """
    path = Path(path)
    where = str(path)
    with open_record(path) as fp:
        try:
            data = fp.read()
        except OSError as exc:
            raise RecordError(f"cannot read the record ({exc.strerror or exc})", line=0, path=where) from None
    lines = _split_lines(data)
    counter, error = _replay(lines, where)
    if counter.game is None:
        assert error is not None
        raise RecordError(f"not a record that can be resumed: {error.reason}", line=error.line, rule=error.rule, path=where)
    damaged_line = None
    side_file = None
    damaged_bytes = 0
    if error is not None:
        damaged_line = error.line
        cut = lines[error.line - 1][0]
        tail = data[cut:]
        damaged_bytes = len(tail)
        side_file = _set_aside(path, tail)
        _truncate(path, cut)
        # The game as it stood before the damage: replayed afresh, every rule checked.
        counter, again = _replay(lines[: error.line - 1], where)
        assert again is None and counter.game is not None
    elif data and not data.endswith(b"\n"):
        _append(path, b"\n")
    events = sum(1 for _, raw in lines[: counter.last_line] if raw.strip())
    assert counter.game is not None
    set_aside = len(lines) - damaged_line + 1 if damaged_line is not None else 0
    return counter.game, ResumeReport(path, events, damaged_line, damaged_bytes, side_file, set_aside_lines=set_aside)


def _set_aside(path: Path, tail: bytes) -> Path:
    """Write ``tail`` to a new side file next to ``path`` (synced before the record is cut)."""
    side = path.with_name(path.name + ".damaged")
    n = 1
    while True:
        try:
            fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            n += 1
            side = path.with_name(f"{path.name}.damaged-{n}")
        except OSError as exc:
            raise RecordError(f"cannot keep the damaged lines aside in {side} ({exc.strerror}); the record is left as it was", line=0, path=str(path)) from None
    with os.fdopen(fd, "wb") as out:
        out.write(tail)
        out.flush()
        os.fsync(out.fileno())
    _sync_dir(path.parent)
    return side


def _truncate(path: Path, size: int) -> None:
    with open(path, "r+b") as fp:
        fp.truncate(size)
        fp.flush()
        os.fsync(fp.fileno())


def _append(path: Path, data: bytes) -> None:
    with open(path, "ab") as fp:
        fp.write(data)
        fp.flush()
        os.fsync(fp.fileno())


def last_unfinished(games_dir: Path) -> tuple[State, ResumeReport] | None:
    """The most recently written game that has no winner yet, replayed with its history
    (``None`` when every game is finished). Finished games are passed over, and the report
    names those newer than the one resumed; a game that cannot be resumed is never passed
    over in silence: it raises :class:`RecordError` saying why."""
    finished: list[Path] = []
    for path in list_games(games_dir):
        game, report = load_for_resume(path)
        if not game.is_game_over():
            return game, replace(report, passed_over=tuple(finished))
        finished.append(path)
    return None
