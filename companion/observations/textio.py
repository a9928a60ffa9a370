"""Reading text and JSON that comes from outside the companion: records, score files,
observation logs, tag registries, table configurations, owner registries.

Every reader of such a file goes through here, so that every one of them keeps the same
promise: bad input gives an :class:`InputError` naming the file and the line, never a Python
traceback, whatever the bytes are.

- Text is UTF-8. A UTF-8 byte-order mark (what some Windows editors write first) is accepted
  and dropped. Anything else that is not UTF-8 (a Windows shell writes UTF-16 by default) is
  an error naming the line of the first bad byte.
- Only a regular file is read (:func:`open_regular`): a FIFO would wait for a writer for
  ever and a device such as ``/dev/zero`` never ends.
- Sizes are bounded before any work is done on them: a whole file (:data:`MAX_FILE_BYTES`)
  and one line (:data:`MAX_LINE_CHARS`), so a hostile file costs bounded time and memory.
- JSON is loaded by :func:`loads_json`: nesting deeper than :data:`MAX_JSON_DEPTH`, numbers
  longer than :data:`MAX_NUMBER_DIGITS` digits and the non-standard ``NaN``/``Infinity`` are
  refused with a clear message, where Python's own decoder would raise ``RecursionError``
  or a ``ValueError`` about integer conversion.

This module lives in the observations package because that is the one package the records,
the observations, the vision and the hardware code may all import.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator
from typing import IO, Any

__all__ = [
    "InputError",
    "MAX_FILE_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_LINE_CHARS",
    "MAX_NUMBER_DIGITS",
    "decode_text",
    "file_kind",
    "iter_text_lines",
    "loads_json",
    "open_regular",
    "read_json",
    "read_text",
]

MAX_FILE_BYTES = 256 * 1024 * 1024
"""No outside file the companion reads is anywhere near this (a long game's record is a
few hundred kilobytes)."""

MAX_LINE_CHARS = 1024 * 1024
"""One line of a record, a log or a registry is well under a kilobyte."""

MAX_JSON_DEPTH = 64
"""The deepest file the companion reads nests four levels."""

MAX_NUMBER_DIGITS = 100
"""No number the companion reads needs more digits; Python's own limit (4300) would raise
an error our readers do not expect, and long numbers cost quadratic time to convert."""

_BOM = b"\xef\xbb\xbf"


class InputError(ValueError):
    """Outside input that cannot be read: ``path`` and ``line`` (1-based, 0 for the whole
    file) say where, ``reason`` what is wrong."""

    def __init__(self, reason: str, *, path: str | os.PathLike[str] | None = None, line: int = 0) -> None:
        self.reason = reason
        self.path = os.fspath(path) if path is not None else None
        self.line = line
        super().__init__(f"{_where(self.path, line)}{reason}")


def _where(path: str | None, line: int) -> str:
    if path and line:
        return f"{path}:{line}: "
    if path:
        return f"{path}: "
    if line:
        return f"line {line}: "
    return ""


# ------------------------------------------------------------------------------ text


def decode_text(data: bytes, *, path: str | os.PathLike[str] | None = None, first_line: int = 1) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), else :class:`InputError`
    naming the line of the first byte that is not UTF-8."""
    if first_line == 1 and data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        hint = ""
        if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 1 and b"\x00" in data[:2]):
            hint = " (it looks like UTF-16, which a Windows shell writes by default: save it as UTF-8)"
        raise InputError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be read{hint}", path=path, line=line) from None


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``os.stat().st_mode``) is, in words: ``"a character device"``."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def open_regular(path: str | os.PathLike[str]) -> IO[bytes]:
    """``path`` opened for reading in binary, if it is a regular file (a symbolic link to one
    is followed); :class:`InputError` naming it and what it is otherwise. A FIFO is opened
    without waiting for a writer, so that it is refused at once; a file that cannot be opened
    at all raises the :class:`OSError`, for the caller to word."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"not a regular file: it is {file_kind(mode)}", path=path)
        if nonblocking:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The whole of a text file, size checked before it is read."""
    data = _read_bytes(path, max_bytes)
    return decode_text(data, path=path)


def _read_bytes(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    try:
        with open(path, "rb") as fp:
            size = os.fstat(fp.fileno()).st_size
            if size > max_bytes:
                raise InputError(f"{size} bytes is too large to be this file (at most {max_bytes})", path=path)
            data = fp.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read it ({exc.strerror or exc})", path=path) from None
    if len(data) > max_bytes:  # a pipe or a device: no size until it is read
        raise InputError(f"too large to be this file (more than {max_bytes} bytes)", path=path)
    return data


def iter_text_lines(
    fp: IO[bytes], *, path: str | os.PathLike[str] | None = None, max_line: int = MAX_LINE_CHARS
) -> Iterator[str]:
    """The lines of a binary stream as text, each without its line ending. A line longer
    than ``max_line`` bytes is an error (read no further than the limit: bounded memory)."""
    readline = fp.readline
    limit = max_line + 1
    line_no = 0
    while True:
        raw = readline(limit)
        if not raw:
            return
        line_no += 1
        if len(raw) > max_line and raw[-1:] != b"\n":
            raise InputError(f"line longer than {max_line} bytes: not this kind of file", path=path, line=line_no)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = decode_text(raw, path=path, first_line=line_no)  # raises, naming the line
        if line_no == 1 and text[:1] == "\ufeff":
            text = text[1:]
        yield text.rstrip("\r\n")


# ------------------------------------------------------------------------------ JSON


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    if len(digits) > MAX_NUMBER_DIGITS + 1:  # + 1: the minus sign
        raise ValueError(f"a number longer than {MAX_NUMBER_DIGITS} digits")
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def loads_json(text: str, *, path: str | os.PathLike[str] | None = None, line: int = 0) -> Any:
    """One JSON value from ``text``, or :class:`InputError` saying what is wrong and where
    (``line`` is the line ``text`` came from, for one-value-per-line files; for a whole
    file, the decoder's own line is used)."""
    # Cheap counts first: only text with many brackets or long digit runs is looked at closely.
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        depth = _max_depth(text)
        if depth > MAX_JSON_DEPTH:
            raise InputError(f"not valid JSON here: nested {depth} deep (at most {MAX_JSON_DEPTH})", path=path, line=line or 1)
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        where = line + exc.lineno - 1 if line else exc.lineno
        raise InputError(f"not valid JSON ({exc.msg} at column {exc.colno})", path=path, line=where) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not valid JSON ({exc})", path=path, line=line or 1) from None


def _max_depth(text: str) -> int:
    """The deepest bracket nesting outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def read_json(path: str | os.PathLike[str], *, max_bytes: int = 16 * 1024 * 1024) -> Any:
    """A whole file holding one JSON value (a table configuration, a score file)."""
    return loads_json(read_text(path, max_bytes=max_bytes), path=path)
