"""Game records in ``rop-record/1``: one JSON object per line, the way PGN writes chess.

Reading goes through a visitor (like python-chess's PGN reader): :func:`read_record` parses
each line into a move, hands it to the visitor's :meth:`RecordVisitor.visit_move`, and
raises :class:`RecordError` with the line number and the rule at the first malformed or
illegal line. :class:`Replayer` is the visitor that plays the record on a
:class:`~companion.games.rule_of_power.engine.game.GameState`, checking every rule; :func:`load_game` does all of that.

Writing: :class:`RecordWriter` appends one line per event and flushes it, so a game being
kept loses nothing when the program stops.

Games followed by a camera hold cards nobody saw. The format's ``null`` card stands for such a
card in a deal's hands and in a Mirror Swap's ``given``/``received``; a Renewal whose card was
drawn unseen is written ``"drawn": null, "unseen": true``. Records of fully seen games never
use either.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

from companion.games.rule_of_power.engine.cards import Card, UnknownCardError
from companion.games.rule_of_power.engine.game import GameSetup, GameState, IllegalMoveError
from companion.games.rule_of_power.engine.fate import check_details, fate_rule
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, DrawFate, InvalidMoveError, Move, NewRound, Pass, Play, _Unseen
from companion.observations.textio import InputError, iter_text_lines, loads_json

__all__ = [
    "FORMAT",
    "RecordError",
    "RecordVisitor",
    "Replayer",
    "RecordWriter",
    "read_record",
    "play_event",
    "load_game",
    "open_record",
    "record_lines",
    "game_event",
    "move_event",
    "dumps_event",
    "write_record",
]

FORMAT = "rop-record/1"

# The decoder's scanner itself: one JSON value from a position, with no Python wrapper.
_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]

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
    """A record that cannot be read or breaks a rule. ``line`` is 1-based, ``rule`` the
    ruling broken (``"R4"``) or ``None`` for a malformed line; ``path`` names the file when
    known."""

    def __init__(self, message: str, *, line: int, rule: str | None = None, path: str | None = None) -> None:
        self.rule = rule
        ValueError.__init__(self, f"{path}:{line}: {message}" if path else f"line {line}: {message}")
        self.line = line
        self.path = path
        self.reason = message


class RecordVisitor:
    """Receives a record event by event. Override what you need."""

    def begin_game(self, setup: GameSetup, line: int) -> None:
        pass

    def visit_event(self, event: dict[str, Any], line: int) -> None:
        """Each event as read (its JSON object, the ``game`` header included), before
        anything else is done with it; for a reader that keeps the record's own words."""

    def visit_move(self, move: Move, line: int) -> None:
        pass

    def end_game(self) -> None:
        pass


class Replayer(RecordVisitor):
    """Plays a record on a game state, checking every move against the rules."""

    def __init__(self, *, keep_history: bool = False) -> None:
        self.keep_history = keep_history
        self.game: GameState | None = None

    def begin_game(self, setup: GameSetup, line: int) -> None:
        self.game = GameState(setup, keep_history=self.keep_history)

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
    setup: GameSetup | None = None
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
                if obj is not _BLANK:
                    raise RecordError("each line must be a JSON object", line=line_no, path=path)
                blanks += 1
                if setup is None and line_no > MAX_LEADING_BLANKS:
                    raise RecordError(f'not a record: no "game" event in the first {MAX_LEADING_BLANKS} lines', line=line_no, path=path)
                if blanks > MAX_BLANK_RUN:
                    raise RecordError(f"{MAX_BLANK_RUN} blank lines in a row: not a record the companion wrote", line=line_no, path=path)
                continue
            blanks = 0
            if see is not None:
                see(obj, line_no)
            kind = obj.get("event")
            if setup is None:
                if kind != "game":
                    raise RecordError('a record starts with a "game" event', line=line_no, path=path)
                setup = _setup_from(obj, line_no, path)
                visitor.begin_game(setup, line_no)
                continue
            try:
                move = _move_from(obj, kind, setup)
            except (TypeError, KeyError, AttributeError) as exc:
                raise _wrong_type(kind, exc, line_no, path) from None
            visit(move, line_no)
    except _MOVE_ERRORS as exc:
        raise _record_error(exc, line_no, path) from None
    except InputError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(exc.reason, line=exc.line or line_no, path=path) from None
    if setup is None:
        raise RecordError('the record is empty: it needs a "game" event first', line=max(line_no, 1), path=path)
    visitor.end_game()


def play_event(game: GameState, event: Any, *, line: int, path: str | None = None) -> Move:
    """Play one more event of a record (any but its ``game`` header) on ``game``, checked as
    :func:`read_record` checks each line; returns the move. A game followed event by event
    (a club server receiving a table's moves) needs no replay of the lines before. Raises
    :class:`RecordError` naming ``line`` and the rule broken; ``game`` is then unchanged."""
    if not isinstance(event, dict):
        raise RecordError("each line must be a JSON object", line=line, path=path)
    kind = event.get("event")
    try:
        try:
            move = _move_from(event, kind, game.setup)
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
    """A record file opened for :func:`record_lines`, its size checked first."""
    try:
        fp = open(path, "rb")
        size = os.fstat(fp.fileno()).st_size
    except OSError as exc:
        raise RecordError(f"cannot read the record ({exc.strerror or exc})", line=0, path=os.fspath(path)) from None
    if size > MAX_RECORD_BYTES:
        fp.close()
        raise RecordError(f"{size} bytes is too large to be a record (at most {MAX_RECORD_BYTES})", line=0, path=os.fspath(path))
    return fp


def record_lines(fp: IO[bytes], path: str | None = None) -> Iterator[str]:
    """The lines of a record file as text: UTF-8 (a byte-order mark is dropped), each line
    read with a bounded length, a byte that is not UTF-8 an error naming its line."""
    try:
        yield from iter_text_lines(fp, path=path, max_line=MAX_RECORD_LINE)
    except InputError as exc:
        raise RecordError(exc.reason, line=exc.line, path=path) from None


def load_game(source: str | os.PathLike[str] | Iterable[str], *, keep_history: bool = False) -> GameState:
    """Replay a record (a path, or lines) with every rule checked; returns the final state."""
    replayer = Replayer(keep_history=keep_history)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        with open_record(path) as fp:
            try:
                read_record(record_lines(fp, path), replayer, path=path)
            except OSError as exc:
                raise RecordError(f"cannot read the record ({exc.strerror or exc})", line=0, path=path) from None
    else:
        read_record(source, replayer)
    assert replayer.game is not None
    return replayer.game


# ---------------------------------------------------------------------- events -> moves


class _Malformed(ValueError):
    pass


# What reading an event as a move and playing it may raise: each a RecordError at its line.
_MOVE_ERRORS = (IllegalMoveError, InvalidMoveError, UnknownCardError, _Malformed)


def _setup_from(obj: Mapping[str, Any], line: int, path: str | None) -> GameSetup:
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise RecordError(f"unknown record format {fmt!r}: this reader knows {FORMAT!r}", line=line, path=path)
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError('"players" must be a list of names', line=line, path=path)
    teams = obj.get("teams")
    if teams is not None and (not isinstance(teams, list) or not all(isinstance(t, list) for t in teams)):
        raise RecordError('"teams" must be null or a list of lists of names', line=line, path=path)
    target = obj.get("target", 11)
    expansion = obj.get("expansion", False)
    if not isinstance(target, int) or isinstance(target, bool):
        raise RecordError('"target" must be a number', line=line, path=path)
    if not isinstance(expansion, bool):
        raise RecordError('"expansion" must be true or false', line=line, path=path)
    try:
        return GameSetup(
            tuple(players),
            tuple(tuple(t) for t in teams) if teams else None,
            target,
            expansion,
        )
    except IllegalMoveError as exc:
        raise RecordError(str(exc), line=line, rule=exc.rule, path=path) from None
    except InvalidMoveError as exc:
        raise RecordError(str(exc), line=line, path=path) from None


_card = Card.from_id
_by_id = Card._by_id


def _cards(value: Any, key: str) -> tuple[Card, ...]:
    if not value:
        if value is None or value == []:
            return ()
        raise _Malformed(f'"{key}" must be a list of card ids')
    if type(value) is not list:
        raise _Malformed(f'"{key}" must be a list of card ids')
    try:
        # The exact ids of a well-formed record take the fast dictionary path.
        return tuple(map(_by_id.__getitem__, value))
    except (KeyError, TypeError):
        pass
    try:
        return tuple(_card(x) for x in value)
    except (UnknownCardError, TypeError):
        bad = next(x for x in value if not _is_card_id(x))
        raise UnknownCardError(str(bad), f'"{key}": unknown card id {bad!r}') from None


def _hand_cards(value: Any, key: str) -> tuple[Card | _Unseen, ...]:
    """Cards from a hand, where ``null`` is a card the companion did not see."""
    if type(value) is list:
        try:
            # A hand of exact ids, nothing unseen: the common case, on the fast path.
            return tuple(map(_by_id.__getitem__, value))
        except (KeyError, TypeError):
            pass
    if isinstance(value, list) and None in value:
        if not all(x is None or isinstance(x, str) for x in value):
            raise _Malformed(f'"{key}" must be a list of card ids (null for a card nobody saw)')
        return tuple(UNSEEN if x is None else _card(x) for x in value)
    return _cards(value, key)


def _is_card_id(x: Any) -> bool:
    try:
        _card(x)
        return True
    except (UnknownCardError, TypeError):
        return False


def _name(obj: Mapping[str, Any], key: str = "player") -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise _Malformed(f'"{key}" must name a player')
    return value


def _card_or_none(obj: Mapping[str, Any], key: str) -> Card | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Malformed(f'"{key}" must be a card id or null')
    return _card(value)


def _drawn(obj: Mapping[str, Any], key: str) -> Card | _Unseen | None:
    """R25: the card a Renewal drew; ``null`` with ``"unseen": true`` when nobody saw it."""
    if obj.get(key) is None and obj.get("unseen") is True:
        return UNSEEN
    return _card_or_none(obj, key)


def _discards(obj: Mapping[str, Any], key: str) -> tuple[tuple[str, Card], ...]:
    """R21: each opponent's discarded card."""
    value = obj.get(key) or {}
    if not isinstance(value, dict) or not all(isinstance(c, str) for c in value.values()):
        raise _Malformed(f'"{key}" must map each opponent to the card id they discard')
    return tuple((str(p), _card(c)) for p, c in value.items())


_READ_DETAIL: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "target": _name,
    "given": lambda obj, key: _hand_cards(obj.get(key), key),
    "received": lambda obj, key: _hand_cards(obj.get(key), key),
    "stolen": _card_or_none,
    "drawn": _drawn,
    "discards": _discards,
}
"""How each detail of a Fate card's play is read from its event (the card's rule says which)."""


def _move_from(obj: Mapping[str, Any], kind: Any, setup: GameSetup) -> Move:
    if kind == "play":
        player = obj.get("player")
        if type(player) is not str:
            player = _name(obj)
        card_id = obj.get("card")
        card = _by_id.get(card_id) if type(card_id) is str else None
        if card is None:
            if not isinstance(card_id, str):
                raise _Malformed('"card" must be a card id')
            card = _card(card_id)
        if card.to_centre:
            return Play(player, card, _cards(obj.get("capture"), "capture"))
        # A Fate card's event carries the details its rule names (R19-R25), nothing else.
        details = fate_rule(card).details
        if not details:
            return Play(player, card)
        return Play(player, card, **{name: _READ_DETAIL[name](obj, name) for name in details})
    if kind == "draw_fate" or kind == "pass":
        player = obj.get("player")
        if type(player) is not str:
            player = _name(obj)
        return DrawFate(player) if kind == "draw_fate" else Pass(player)
    if kind == "deal":
        hands = obj.get("hands")
        if not isinstance(hands, dict):
            raise _Malformed('"hands" must map each player to their cards')
        parsed = []
        for p, cards in hands.items():
            if not isinstance(cards, list):
                raise _Malformed(f'"hands": {p}\'s cards must be a list')
            parsed.append((str(p), _hand_cards(cards, f"hands.{p}")))
        return Deal(tuple(parsed), _cards(obj.get("center"), "center"))
    if kind == "round":
        dealer = _name(obj, "dealer")
        decks = obj.get("fate_decks") or {}
        if not isinstance(decks, dict):
            raise _Malformed('"fate_decks" must map each player to their Fate deck')
        return NewRound(
            dealer,
            tuple((str(p), _cards(cards, f"fate_decks.{p}")) for p, cards in decks.items()),
            bool(obj.get("fate_order_known", True)),
        )
    if kind == "game":
        raise _Malformed('a second "game" event: one record holds one game')
    raise _Malformed(f"unknown event {kind!r} (expected round, deal, play, draw_fate or pass)")


# ---------------------------------------------------------------------- moves -> events


def game_event(setup: GameSetup, game_id: str | None = None) -> dict[str, Any]:
    """The ``game`` event that opens a record; ``game_id`` names the game wherever its record
    is copied (a club archive recognises it by that)."""
    out: dict[str, Any] = {"event": "game", "format": FORMAT}
    if game_id:
        out["id"] = game_id
    out.update(
        players=list(setup.players),
        teams=[list(t) for t in setup.teams] if setup.teams else None,
        target=setup.target,
        expansion=setup.expansion,
    )
    return out


def game_id_of(line: str) -> str | None:
    """The ``id`` of a record's ``game`` line, if it has one."""
    try:
        header = json.loads(line)
    except ValueError:
        return None
    value = header.get("id") if isinstance(header, dict) else None
    return value if isinstance(value, str) else None


def _ids(cards: Iterable[Any]) -> list[Any]:
    return [None if c is UNSEEN else c.id for c in cards]


_WRITE_DETAIL: dict[str, Callable[[Any], dict[str, Any]]] = {
    "target": lambda v: {"target": v},
    "given": lambda v: {"given": _ids(v)},
    "received": lambda v: {"received": _ids(v)},
    "stolen": lambda v: {"stolen": v.id if v else None},
    "drawn": lambda v: {"drawn": None, "unseen": True} if v is UNSEEN else {"drawn": v.id if v else None},
    "discards": lambda v: {"discards": {p: c.id for p, c in v}},
}
"""How each detail of a Fate card's play is written into its event."""


def move_event(move: Move, setup: GameSetup | None = None) -> dict[str, Any]:
    """The record event of a move. With ``setup``, hands and Fate decks follow the seating."""
    if isinstance(move, Play):
        out: dict[str, Any] = {"event": "play", "player": move.player, "card": move.card.id}
        card = move.card
        check_details(move)  # a detail the card does not carry is refused, not dropped
        if card.to_centre:
            out["capture"] = _ids(move.capture)
        else:
            for name in fate_rule(card).details:
                out.update(_WRITE_DETAIL[name](getattr(move, name)))
        return out
    if isinstance(move, DrawFate):
        return {"event": "draw_fate", "player": move.player}
    if isinstance(move, Pass):
        return {"event": "pass", "player": move.player}
    if isinstance(move, Deal):
        order = setup.players if setup else [p for p, _ in move.hands]
        out = {"event": "deal", "hands": {p: _ids(move.hand_of(p)) for p in order}}
        if move.centre:
            out["center"] = _ids(move.centre)
        return out
    if isinstance(move, NewRound):
        out = {"event": "round", "dealer": move.dealer, "fate_decks": {p: _ids(c) for p, c in move.fate_decks if c}}
        if not move.fate_order_known:
            out["fate_order_known"] = False
        return out
    raise InvalidMoveError(f"not a move: {move!r}")


def dumps_event(event: Mapping[str, Any]) -> str:
    return json.dumps(event, separators=(", ", ": "), ensure_ascii=False)


class RecordWriter:
    """Writes a record event by event; each line is flushed (and, with ``durable``, synced
    to disk) as soon as it is written."""

    def __init__(self, fp: IO[str], setup: GameSetup, *, durable: bool = False, header: bool = True, game_id: str | None = None) -> None:
        self.fp = fp
        self.setup = setup
        self.durable = durable
        if header:
            self._write(game_event(setup, game_id))

    def _write(self, event: Mapping[str, Any]) -> None:
        self.fp.write(dumps_event(event) + "\n")
        self.fp.flush()
        if self.durable:
            os.fsync(self.fp.fileno())

    def write(self, move: Move) -> None:
        self._write(move_event(move, self.setup))


def write_record(path: str | os.PathLike[str], setup: GameSetup, moves: Iterable[Move]) -> None:
    with open(path, "w", encoding="utf-8") as fp:
        writer = RecordWriter(fp, setup)
        for move in moves:
            writer.write(move)


def iter_record_lines(setup: GameSetup, moves: Iterable[Move], game_id: str | None = None) -> Iterator[str]:
    """The lines of the record of a game with ``setup`` and ``moves``."""
    yield dumps_event(game_event(setup, game_id))
    for move in moves:
        yield dumps_event(move_event(move, setup))


@dataclass(frozen=True)
class ReplaySummary:
    """What ``rop replay`` reports for one record."""

    rounds: list[dict[str, Any]]
    totals: dict[str, int]
    winner: str | None
    finished: bool

    @classmethod
    def of(cls, game: GameState) -> ReplaySummary:
        outcome = game.outcome()
        return cls(
            rounds=[
                {
                    "scores": {s: p.to_json() for s, p in r.score.sides.items()},
                    "rule_of_power": r.score.rule_of_power,
                }
                for r in game.results
            ],
            totals=game.totals,
            winner=outcome.winner if outcome else None,
            finished=outcome is not None,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rounds": self.rounds, "totals": self.totals, "winner": self.winner}
        if not self.finished:
            out["finished"] = False
        return out
