"""Where games are kept: one ``rop-record/1`` file per game in a games directory, written
line by line as the game is played (each line flushed and synced), so that a crash, a
closed terminal or a power cut loses no event.

Undo rewrites the file through a temporary file and an atomic rename: at every instant the
file on disk is a complete, valid record of the game as it stands.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from companion.engine.game import GameSetup, GameState
from companion.engine.moves import Move
from companion.records.format import RecordError, RecordWriter, game_id_of, iter_record_lines, load_game

__all__ = ["GAMES_DIR_ENV", "GameFile", "default_games_dir", "last_unfinished", "list_games", "load_for_resume", "repair"]

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
    """The record file of one game, kept in step with a :class:`GameState`."""

    def __init__(self, path: Path, setup: GameSetup, fp: IO[str], game_id: str | None = None) -> None:
        self.path = path
        self.setup = setup
        self.game_id = game_id
        """The game's name in its ``game`` line, kept through every rewrite."""
        self._fp = fp
        self._writer = RecordWriter(fp, setup, durable=True, header=False)

    @classmethod
    def create(cls, games_dir: Path, setup: GameSetup) -> GameFile:
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
    def reopen(cls, path: Path, setup: GameSetup) -> GameFile:
        """Continue an existing record (it must already hold the game's moves)."""
        with open(path, encoding="utf-8", errors="replace") as head:
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
    """Drop a last line cut short (the program stopped while writing it): that event was
    never recorded. Returns whether the file was changed."""
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return False
    keep = data[: data.rfind(b"\n") + 1]
    fd, tmp = tempfile.mkstemp(prefix=".repair-", suffix=".jsonl", dir=path.parent)
    with os.fdopen(fd, "wb") as out:
        out.write(keep)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    return True


def load_for_resume(path: Path) -> GameState:
    """Replay a record with its history, after dropping a line cut short."""
    repair(path)
    return load_game(path, keep_history=True)


def iter_unfinished(games_dir: Path) -> Iterator[tuple[Path, GameState]]:
    for path in list_games(games_dir):
        try:
            game = load_for_resume(path)
        except RecordError:
            continue
        if game.outcome() is None:
            yield path, game


def last_unfinished(games_dir: Path) -> tuple[Path, GameState] | None:
    """The most recently written game that has no winner yet, replayed with its history."""
    return next(iter_unfinished(games_dir), None)
