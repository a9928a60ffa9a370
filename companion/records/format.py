"""Game records: one JSON object per line, the way PGN writes chess, for every game.

The first line is a ``game`` event whose ``format`` names the game's codec (``rop-record/1``
for Rule of Power, ``cop-record/1`` for Circle of Power); the game is found by it
(:func:`companion.contract.registry.game_for_format`) and its codec reads and writes the events
after it. This module does what every game's records share: the lines, the checks on their
size and encoding, the dispatch, and the errors with their line numbers.

Reading goes through a visitor (like python-chess's PGN reader): :func:`read_record` parses
each line into a move, hands it to the visitor's :meth:`RecordVisitor.visit_move`, and
raises :class:`RecordError` with the line number and the rule at the first malformed or
illegal line. :class:`Replayer` is the visitor that plays the record on the game's state,
checking every rule; :func:`load_game` does all of that.

Writing: :class:`RecordWriter` appends one line per event and flushes it, so a game being
kept loses nothing when the program stops.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, Any

from companion.contract.errors import IllegalMoveError, InvalidMoveError, MalformedEventError, UnknownCardError
from companion.contract import Move, Setup, State
from companion.contract.registry import UnknownGameError, game_for_format
from companion.observations.outfiles import atomic_output
from companion.observations.textio import InputError, iter_text_lines, loads_json, open_regular

__all__ = [
    "RecordError",
    "RecordVisitor",
    "Replayer",
    "RecordWriter",
    "read_record",
    "play_event",
    "load_game",
    "open_record",
    "record_file",
    "record_lines",
    "game_event",
    "move_event",
    "dumps_event",
    "write_record",
    "save_record",
]

# The decoder's scanner itself: one JSON value from a position, with no Python wrapper.
_scan: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")

MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A record of the longest game is a few hundred kilobytes; anything this large is not one."""

MAX_RECORD_LINE = 64 * 1024
"""The longest event (a deal of six hands) is well under a kilobyte."""

MAX_LEADING_BLANKS = 100
"""Blank lines tolerated before the ``game`` event; past that the file is not a record."""

MAX_BLANK_RUN = 1000
"""Blank lines tolerated in a row anywhere: the companion writes none."""

_BLANK = object()


def _parse_line(text: str, line: int, path: str | None) -> Any:
    """One JSON value per line (``_BLANK`` for a blank line). The decoder's own entry point
    skips the wrapper that ``json.loads`` adds, which is a fair share of the cost of replaying
    a record; anything it does not take cleanly goes through the safe loader, which says what
    is wrong."""
    if len(text) > MAX_RECORD_LINE:
        raise RecordError(f"a line of {len(text)} characters is not an event (at most {MAX_RECORD_LINE})", line=line, path=path)
    try:
        obj, end = _scan(text, 0)
    except (StopIteration, ValueError, RecursionError):
        pass  # the safe loader below says what is wrong (deep nesting included)
    else:
        if end == len(text) or not text[end:].strip():
            return obj
    if not text.strip():
        return _BLANK
    try:
        return loads_json(text, path=path, line=line)
    except InputError as exc:
        raise RecordError(exc.reason, line=line, path=path) from None


class RecordError(InputError):
    """A record that cannot be read or breaks a rule. ``line`` is 1-based (0: the whole
    file), ``rule`` the ruling broken (``"R4"``) or ``None`` for a malformed line; ``path``
    names the file when known."""

    def __init__(self, message: str, *, line: int, rule: str | None = None, path: str | None = None) -> None:
        self.rule = rule
        where = (f"{path}:{line}: " if line else f"{path}: ") if path else (f"line {line}: " if line else "")
        ValueError.__init__(self, where + message)
        self.line = line
        self.path = path
        self.reason = message


class RecordVisitor:
    """Receives a record event by event. Override what you need."""

    def begin_game(self, setup: Setup, line: int) -> None:
        """The ``game`` event, read: ``setup.game`` is the game the record is of."""

    def visit_event(self, event: dict[str, Any], line: int) -> None:
        """Each event as read (its JSON object, the ``game`` header included), before
        anything else is done with it; for a reader that keeps the record's own words."""

    def visit_move(self, move: Move, line: int) -> None:
        pass

    def end_game(self) -> None:
        pass


class Replayer(RecordVisitor):
    """Plays a record on its game's state, checking every move against the rules."""

    def __init__(self, *, keep_history: bool = False) -> None:
        self.keep_history = keep_history
        self.game: Any = None
        """The state played (the game's own :class:`~companion.contract.State`)."""

    def begin_game(self, setup: Setup, line: int) -> None:
        self.game = setup.game.new_state(setup, keep_history=self.keep_history)

    def visit_move(self, move: Move, line: int) -> None:
        assert self.game is not None
        self.game.push(move)


def read_record(lines: Iterable[str], visitor: RecordVisitor, *, path: str | None = None) -> None:
    """Parse ``lines`` (a file or any iterable of strings) and feed ``visitor``.

    Blank lines are skipped. Raises :class:`RecordError` at the first problem, with the line
    number and, for a move that breaks a rule, the rule; what was visited before stays visited.
    The work per line is bounded (:data:`MAX_RECORD_LINE`), and a file whose first lines are
    not a ``game`` event is refused at once.
    """
    setup: Any = None
    read_move: Any = None
    line_no = 0
    blanks = 0
    visit = visitor.visit_move
    scan = _scan
    # Called only when the visitor wants the events: a plain replay pays nothing for it.
    see = visitor.visit_event if type(visitor).visit_event is not RecordVisitor.visit_event else None
    try:
        for line_no, text in enumerate(lines, 1):
            # The common line, one well-formed JSON object, is decoded right here: this loop
            # runs for every event of every replay. Anything else takes _parse_line.
            if len(text) <= MAX_RECORD_LINE:
                try:
                    obj, end = scan(text, 0)
                except (StopIteration, ValueError, RecursionError):
                    obj = _parse_line(text, line_no, path)
                else:
                    if end != len(text) and text[end:].strip():
                        obj = _parse_line(text, line_no, path)
            else:
                obj = _parse_line(text, line_no, path)
            if type(obj) is not dict:
                blanks = _blank_line(obj, blanks + 1, line_no, before_header=setup is None, path=path)
                continue
            blanks = 0
            if see is not None:
                see(obj, line_no)
            if setup is None:
                if obj.get("event") != "game":
                    raise RecordError('a record starts with a "game" event', line=line_no, path=path)
                setup = _setup_from(obj, line_no, path)
                read_move = setup.game.codec.read_move
                visitor.begin_game(setup, line_no)
                continue
            try:
                move = read_move(obj, setup)
            except (TypeError, KeyError, AttributeError) as exc:
                raise _wrong_type(obj.get("event"), exc, line_no, path) from None
            visit(move, line_no)
    except _MOVE_ERRORS as exc:
        raise _record_error(exc, line_no, path) from None
    except InputError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(exc.reason, line=exc.line or line_no, path=path) from None
    if setup is None:
        if line_no == 0:
            raise RecordError("the file is empty: there is no game in it", line=0, path=path)
        raise RecordError('the record is empty: it needs a "game" event first', line=line_no, path=path)
    visitor.end_game()


def _blank_line(obj: Any, blanks: int, line: int, *, before_header: bool, path: str | None) -> int:
    """A line that is no event: a blank one is skipped (``blanks`` in a row, this one
    counted), within bounds that only a file that is not a record exceeds; anything else is an
    error."""
    if obj is not _BLANK:
        raise RecordError("each line must be a JSON object", line=line, path=path)
    if before_header and line > MAX_LEADING_BLANKS:
        raise RecordError(f'not a record: no "game" event in the first {MAX_LEADING_BLANKS} lines', line=line, path=path)
    if blanks > MAX_BLANK_RUN:
        raise RecordError(f"{MAX_BLANK_RUN} blank lines in a row: not a record the companion wrote", line=line, path=path)
    return blanks


def play_event(game: State, event: Any, *, line: int, path: str | None = None) -> Move:
    """Play one more event of a record (any but its ``game`` header) on ``game``, checked as
    :func:`read_record` checks each line; returns the move. A game followed event by event
    (a club server receiving a table's moves) needs no replay of the lines before. Raises
    :class:`RecordError` naming ``line`` and the rule broken; ``game`` is then unchanged."""
    if not isinstance(event, dict):
        raise RecordError("each line must be a JSON object", line=line, path=path)
    kind = event.get("event")
    try:
        try:
            move = game.setup.game.codec.read_move(event, game.setup)
        except (TypeError, KeyError, AttributeError) as exc:
            raise _wrong_type(kind, exc, line, path) from None
        game.push(move)
    except _MOVE_ERRORS as exc:
        raise _record_error(exc, line, path) from None
    return move


def _wrong_type(kind: Any, exc: Exception, line: int, path: str | None) -> RecordError:
    """A field of a shape the event's reader did not expect (a list where a card id belongs):
    a malformed line like any other, never a traceback."""
    return RecordError(f"a field of this {kind} event has the wrong type ({exc})", line=line, path=path)


def _record_error(exc: Exception, line: int, path: str | None) -> RecordError:
    """An event refused by the reader or the rules, as the record's error at ``line``."""
    rule = exc.rule if isinstance(exc, IllegalMoveError) else None
    return RecordError(str(exc), line=line, rule=rule, path=path)


def open_record(path: str | os.PathLike[str]) -> IO[bytes]:
    """A record file opened for :func:`record_lines`: a regular file (a FIFO or a device is
    refused, naming what it is), its size checked first."""
    try:
        fp = open_regular(path)
        size = os.fstat(fp.fileno()).st_size
    except InputError as exc:
        raise RecordError(exc.reason, line=0, path=os.fspath(path)) from None
    except OSError as exc:
        raise RecordError(f"cannot read the record ({exc.strerror or exc})", line=0, path=os.fspath(path)) from None
    if size > MAX_RECORD_BYTES:
        fp.close()
        raise RecordError(f"{size} bytes is too large to be a record (at most {MAX_RECORD_BYTES})", line=0, path=os.fspath(path))
    return fp


@contextlib.contextmanager
def record_file(path: str | os.PathLike[str]) -> Iterator[Iterator[str]]:
    """The lines of the record file at ``path`` as :func:`read_record` takes them, read as
    every record file is read: :func:`open_record` and :func:`record_lines` (a regular file
    of bounded size, line by line, each line bounded, UTF-8). A file that cannot be read, or
    breaks off while it is, is a :class:`RecordError` naming it."""
    name = os.fspath(path)
    with open_record(name) as fp:
        try:
            yield record_lines(fp, name)
        except OSError as exc:
            raise RecordError(f"cannot read the record ({exc.strerror or exc})", line=0, path=name) from None


def record_lines(fp: IO[bytes], path: str | None = None) -> Iterator[str]:
    """The lines of a record file as text: UTF-8 (a byte-order mark is dropped), each line
    read with a bounded length, a byte that is not UTF-8 an error naming its line."""
    try:
        yield from iter_text_lines(fp, path=path, max_line=MAX_RECORD_LINE)
    except InputError as exc:
        raise RecordError(exc.reason, line=exc.line, path=path) from None


def load_game(source: str | os.PathLike[str] | Iterable[str], *, keep_history: bool = False) -> Any:
    """Replay a record (a path, or lines) with every rule checked; returns the final state
    (of the game the record's ``format`` names)."""
    replayer = Replayer(keep_history=keep_history)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        with record_file(path) as lines:
            read_record(lines, replayer, path=path)
    else:
        read_record(source, replayer)
    assert replayer.game is not None
    return replayer.game


# ---------------------------------------------------------------------- the game event


# What reading an event as a move and playing it may raise, whatever the game: each a
# RecordError at its line.
_MOVE_ERRORS = (IllegalMoveError, InvalidMoveError, UnknownCardError, MalformedEventError)


def _setup_from(obj: Mapping[str, Any], line: int, path: str | None) -> Setup:
    """The game's set-up from the ``game`` event, by the codec its ``format`` names."""
    try:
        game = game_for_format(obj.get("format"))
    except UnknownGameError as exc:
        raise RecordError(str(exc), line=line, path=path) from None
    try:
        return game.codec.read_setup(obj)
    except IllegalMoveError as exc:
        raise RecordError(str(exc), line=line, rule=exc.rule, path=path) from None
    except (InvalidMoveError, MalformedEventError) as exc:
        raise RecordError(str(exc), line=line, path=path) from None


def game_event(setup: Setup, game_id: str | None = None) -> dict[str, Any]:
    """The ``game`` event that opens a record of ``setup``'s game; ``game_id`` names the game
    wherever its record is copied (a club archive recognises it by that)."""
    fields = setup.game.codec.setup_event(setup)
    out: dict[str, Any] = {"event": "game", "format": fields.pop("format")}
    fields.pop("event", None)
    if game_id:
        out["id"] = game_id
    out.update(fields)
    return out


def game_id_of(line: str) -> str | None:
    """The ``id`` of a record's ``game`` line, if it has one."""
    try:
        header = json.loads(line)
    except ValueError:
        return None
    value = header.get("id") if isinstance(header, dict) else None
    return value if isinstance(value, str) else None


def move_event(move: Move, setup: Setup) -> dict[str, Any]:
    """The record event of ``move`` in a game of ``setup``."""
    return setup.game.codec.move_event(move, setup)


def dumps_event(event: Mapping[str, Any]) -> str:
    return json.dumps(event, separators=(", ", ": "), ensure_ascii=False)


class RecordWriter:
    """Writes a record event by event; each line is flushed (and, with ``durable``, synced
    to disk) as soon as it is written."""

    def __init__(self, fp: IO[str], setup: Setup, *, durable: bool = False, header: bool = True, game_id: str | None = None) -> None:
        self.fp = fp
        self.setup = setup
        self.durable = durable
        self._event = setup.game.codec.move_event
        if header:
            self._write(game_event(setup, game_id))

    def _write(self, event: Mapping[str, Any]) -> None:
        self.fp.write(dumps_event(event) + "\n")
        self.fp.flush()
        if self.durable:
            os.fsync(self.fp.fileno())

    def write(self, move: Move) -> None:
        self._write(self._event(move, self.setup))


def write_record(path: str | os.PathLike[str], setup: Setup, moves: Iterable[Move]) -> None:
    with open(path, "w", encoding="utf-8") as fp:
        writer = RecordWriter(fp, setup)
        for move in moves:
            writer.write(move)


def save_record(output: str | os.PathLike[str], setup: Setup, moves: Iterable[Move]) -> None:
    """Write the record of a game to ``output`` (``-``: standard output) as its moves come:
    a file is written through a temporary one that takes its place only once the record is
    whole, so that a game that cannot be finished or written leaves nothing behind. Raises
    :class:`~companion.observations.outfiles.OutputError` or :class:`OSError` naming the file."""
    if os.fspath(output) == "-":
        writer = RecordWriter(sys.stdout, setup)
        for move in moves:
            writer.write(move)
        return
    with atomic_output(output) as out:
        writer = RecordWriter(out, setup)
        for move in moves:
            writer.write(move)


def iter_record_lines(setup: Setup, moves: Iterable[Move], game_id: str | None = None) -> Iterator[str]:
    """The lines of the record of a game with ``setup`` and ``moves``."""
    yield dumps_event(game_event(setup, game_id))
    event = setup.game.codec.move_event
    for move in moves:
        yield dumps_event(event(move, setup))
