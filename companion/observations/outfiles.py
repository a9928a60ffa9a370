"""Writing an output file the user named (a simulated record, a calibration image, a marker
sheet) so that nothing partial is ever left behind: the content goes to a hidden temporary
file next to the target, which replaces the target only once it is complete. A target that
cannot be written is an :class:`OutputError` naming it and why, before any work is done.

The target is written as an editor writes a file: a symbolic link is followed, and the file
it points to is the one replaced (the link stays a link); a file replaced keeps its
permissions; and only a regular file is ever replaced, never a device, a FIFO or a socket,
which would otherwise become a regular file in its place."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from companion.observations.textio import file_kind

__all__ = ["OutputError", "atomic_output", "check_writable_dir"]


class OutputError(ValueError):
    """An output that cannot be written: ``path`` and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"cannot write {self.path}: {reason}")


def check_writable_dir(directory: str | os.PathLike[str], *, create: bool = False) -> Path:
    """``directory``, checked to be a directory this process may write into (made first
    with ``create``)."""
    d = Path(directory)
    if create:
        try:
            d.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise OutputError(d, "it is a file, not a directory") from None
        except OSError as exc:
            raise OutputError(d, exc.strerror or str(exc)) from None
    if not d.is_dir():
        raise OutputError(d, "no such directory" if not d.exists() else "it is not a directory")
    if not os.access(d, os.W_OK | os.X_OK):
        raise OutputError(d, "the directory is not writable")
    return d


def _written(path: Path) -> Path:
    """The file writing ``path`` replaces: ``path``, or for a symbolic link the file it leads
    to (which may not be there yet: a dangling link is written through, as an editor would)."""
    try:
        linked = stat.S_ISLNK(os.lstat(path).st_mode)
    except FileNotFoundError:
        return path
    except OSError as exc:  # a name too long, a directory on the way that is a file
        raise OutputError(path, exc.strerror or str(exc)) from None
    return Path(os.path.realpath(path)) if linked else path


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO]:
    """A file to write ``path`` through; it takes the place of ``path`` (of the file it links
    to, for a symbolic link) when the block ends without an exception, and is removed
    otherwise. A ``path`` that is there and is not a regular file is an :class:`OutputError`."""
    named = Path(path)
    target = _written(named)
    try:
        existing: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise OutputError(named, exc.strerror or str(exc)) from None
    if existing is not None and not stat.S_ISREG(existing):
        what = file_kind(existing)
        raise OutputError(named, "it is a directory" if stat.S_ISDIR(existing) else f"it is {what}, not a regular file")
    try:
        parent = check_writable_dir(target.parent)
    except OutputError as exc:
        raise OutputError(named, f"{exc.reason} ({exc.path})") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=parent)
    except OSError as exc:
        raise OutputError(target, exc.strerror or str(exc)) from None
    try:
        # A file replaced keeps its mode; a new one gets the mode any new file would get
        # (mkstemp makes it private).
        if existing is not None:
            os.chmod(tmp, stat.S_IMODE(existing))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        encoding = None if "b" in mode else "utf-8"
        with open(fd, mode, encoding=encoding) as out:
            yield out
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
