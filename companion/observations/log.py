"""Observation logs: what the sensors reported during a game, one JSON line per observation.

A log lets a table hand in what its sensors saw when the companion lost the thread (``rop
play --record-observations FILE``), lets anyone play it back through the tracker and the
dashboard (``rop play --observations FILE``), and feeds the latency benchmark with a real
sensor stream. The format, ``rop-observations/1``:

- The first line is a header: ``{"format": "rop-observations/1", "game": "rule-of-power",
  "players": [...], "teams": [[...], ...] or null, "target": 11, "expansion": false,
  "first_dealer": "bob", "readers": {"board:0": "centre"}, "hands_unseen": true,
  "fate_decks": {"ann": ["F001", ...]}, "draws_visible": false}``: the game (``game``, Rule of
  Power when absent) and its set-up as its record's ``game`` event has it, and how the table
  was equipped, as the tracker needs them (``TrackerConfig.from_log`` in the tracker): the
  first dealer, the readers' zones, whether hands are dealt face down, and the game's own
  facts (Rule of Power's Fate decks and whether Fate draws are tapped).
- Every further line is one observation: ``"t"`` (seconds since the log began), ``"kind"``,
  ``"source"`` and the fields of that kind:

  ===============  ====================================================================
  ``seen``         ``card``, ``owner``, ``zone``, ``table_mm`` ([x, y] or null)
  ``gone``         ``card``, ``owner``, ``zone``
  ``back``         ``deck``, ``owner``, ``zone``, ``table_mm`` ([x, y] or null), ``mark``
  ``laid``         ``zone``, ``table_mm`` ([x, y] or null), ``mark``
  ``laid-gone``    ``zone``, ``mark``
  ``back-gone``    ``deck``, ``owner``, ``zone``, ``mark``
  ``tapped``       ``card``, ``owner``, ``reader``, ``uid``
  ``lifted``       ``card``, ``owner``, ``reader``, ``uid``
  ``unknown-tag``  ``reader``, ``uid``, ``reason``
  ``draw``         ``player``
  ``status``       ``state`` (connected, lost, reconnecting, failed, ended), ``detail``, ``readers``,
                   ``behind`` (seconds a video's reading trails its clock, when said)
  ===============  ====================================================================

Cards are written by id (``"W016"``), as in the game's records. A card lying face down is
written by its back alone (``back``: its deck's name, its copy and the camera's ``mark`` for
that physical card), never by the card it is. A card laid whose seal the camera cannot read
yet is written by its place and ``mark`` alone (``laid``); the ``seen`` line that names it
later carries the same ``mark``.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from companion.contract.errors import IllegalMoveError, InvalidMoveError, MalformedEventError, UnknownCardError
from companion.contract import Card, Setup
from companion.contract.registry import DEFAULT, UnknownGameError, game
from companion.observations import (
    BackGone,
    BackSeen,
    CardGone,
    CardLaid,
    CardLifted,
    CardSeen,
    CardTapped,
    DrawAnnounced,
    LaidGone,
    Observation,
    SensorState,
    SensorStatus,
    UnknownTag,
)
from companion.observations.facts import facts_of
from companion.observations.textio import InputError, loads_json, read_text

__all__ = [
    "FORMAT",
    "LogPlayback",
    "ObservationLog",
    "ObservationLogError",
    "ObservationRecorder",
    "observation_fields",
    "observation_json",
    "read_observation_log",
]

FORMAT = "rop-observations/1"

Emit = Callable[[Observation], None]


class ObservationLogError(InputError):
    """A log that cannot be read or written; the message names the file and the line."""


@dataclass
class ObservationLog:
    """A log read back: the table it was recorded at and its observations, timed in seconds
    since the log began. ``facts`` are the game's own facts about the table
    (:mod:`companion.observations.facts`)."""

    setup: Setup
    first_dealer: str | None = None
    readers: dict[str, str] = field(default_factory=dict)
    hands_unseen: bool = True
    facts: dict[str, Any] = field(default_factory=dict)
    observations: list[Observation] = field(default_factory=list)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.setup.players)

    def header(self) -> dict[str, Any]:
        played = self.setup.game
        out: dict[str, Any] = {"format": FORMAT, "game": played.name}
        out.update((k, v) for k, v in played.codec.setup_event(self.setup).items() if k not in ("event", "format"))
        out.update(first_dealer=self.first_dealer, readers=dict(self.readers), hands_unseen=self.hands_unseen)
        out.update(facts_of(played).facts_json(self.facts))
        return out


def observation_json(obs: Observation, t: float) -> dict[str, Any]:
    """One observation as a log line's object, ``t`` seconds into the log."""
    return {"t": round(t, 4), "source": obs.source, **observation_fields(obs)}


def observation_fields(obs: Observation) -> dict[str, Any]:
    """An observation's ``kind`` and the fields of that kind, as the log's table above lists
    them; the one JSON form of an observation, which ``rop vision watch`` prints too."""
    out: dict[str, Any]
    if isinstance(obs, CardSeen):
        out = dict(kind="seen", card=obs.card.id, owner=obs.owner, zone=obs.zone, table_mm=_mm(obs.table_mm))
        if obs.mark is not None:
            out["mark"] = obs.mark
    elif isinstance(obs, CardGone):
        out = dict(kind="gone", card=obs.card.id, owner=obs.owner, zone=obs.zone)
    elif isinstance(obs, BackSeen):
        out = dict(kind="back", deck=obs.deck, owner=obs.owner, zone=obs.zone, table_mm=_mm(obs.table_mm), mark=obs.mark)
    elif isinstance(obs, BackGone):
        out = dict(kind="back-gone", deck=obs.deck, owner=obs.owner, zone=obs.zone, mark=obs.mark)
    elif isinstance(obs, CardLaid):
        out = dict(kind="laid", zone=obs.zone, mark=obs.mark, table_mm=_mm(obs.table_mm))
    elif isinstance(obs, LaidGone):
        out = dict(kind="laid-gone", zone=obs.zone, mark=obs.mark)
    elif isinstance(obs, (CardTapped, CardLifted)):
        out = dict(kind="tapped" if isinstance(obs, CardTapped) else "lifted", card=obs.card.id, owner=obs.owner, reader=obs.reader, uid=obs.uid)
    elif isinstance(obs, UnknownTag):
        out = dict(kind="unknown-tag", reader=obs.reader, uid=obs.uid, reason=obs.reason)
    elif isinstance(obs, DrawAnnounced):
        out = dict(kind="draw", player=obs.player)
    elif isinstance(obs, SensorStatus):
        out = dict(kind="status", state=obs.state.value, detail=obs.detail, readers=list(obs.readers))
        if obs.behind is not None:
            out["behind"] = obs.behind
    else:
        raise TypeError(f"not an observation the log knows: {obs!r}")
    return out


def _mm(at: tuple[float, float] | None) -> list[float] | None:
    return None if at is None else [round(v, 1) for v in at]


class _Bad(ValueError):
    """A field of the wrong type or value; the message names the field."""


def _str(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if key not in data:
        raise _Bad(f"missing {key!r}")
    if not isinstance(value, str):
        raise _Bad(f'"{key}" must be a text, not {_shown(value)}')
    return value


def _opt_str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise _Bad(f'"{key}" must be a text or null, not {_shown(value)}')
    return value


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _Bad(f'"{key}" must be true or false, not {_shown(value)}')
    return value


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _Bad(f'"{key}" must be a number, not {_shown(value)}')
    return float(value)


def _card(data: dict[str, Any], cards: Any, key: str = "card") -> Card:
    value = data.get(key)
    if not isinstance(value, str):
        raise _Bad(f'"{key}" must be a card id, not {_shown(value)}')
    try:
        card: Card = cards.from_id(value)
    except UnknownCardError as exc:
        raise _Bad(str(exc)) from None
    return card


def _names(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise _Bad(f'"{key}" must be a list of names, not {_shown(value)}')
    return tuple(value)


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _observation(data: dict[str, Any], cards: Any) -> Observation:
    """One observation line; ``cards``: the game's catalogue, by which cards are read."""
    if "t" not in data:
        raise _Bad("missing 't'")
    at = _number(data["t"], "t")
    kind = data.get("kind")
    source = _str(data, "source")
    if kind in ("seen", "gone"):
        card = _card(data, cards)
        owner, zone = _opt_str(data, "owner"), _opt_str(data, "zone")
        if kind == "gone":
            return CardGone(source, at, card, owner, zone)
        return CardSeen(source, at, card, owner, zone, _table_mm(data), _mark(data) if "mark" in data else None)
    if kind in ("laid", "laid-gone"):
        zone = _opt_str(data, "zone")
        if kind == "laid-gone":
            return LaidGone(source, at, zone, _mark(data))
        return CardLaid(source, at, zone, _table_mm(data), _mark(data))
    if kind in ("back", "back-gone"):
        deck, owner, zone = _str(data, "deck"), _opt_str(data, "owner"), _opt_str(data, "zone")
        mark = _mark(data)
        if kind == "back-gone":
            return BackGone(source, at, deck, owner, zone, mark)
        return BackSeen(source, at, deck, owner, zone, _table_mm(data), mark)
    if kind in ("tapped", "lifted"):
        cls = CardTapped if kind == "tapped" else CardLifted
        uid = data.get("uid", "")
        if not isinstance(uid, str):
            raise _Bad(f'"uid" must be a text, not {_shown(uid)}')
        return cls(source, at, _card(data, cards), _opt_str(data, "owner"), _str(data, "reader"), uid)
    if kind == "unknown-tag":
        return UnknownTag(source, at, _str(data, "reader"), _str(data, "uid"), _str(data, "reason"))
    if kind == "draw":
        return DrawAnnounced(source, at, _str(data, "player"))
    if kind == "status":
        state = data.get("state")
        states = [s.value for s in SensorState]
        if state not in states:
            raise _Bad(f'"state" must be one of {", ".join(states)}, not {_shown(state)}')
        detail = data.get("detail", "")
        if not isinstance(detail, str):
            raise _Bad(f'"detail" must be a text, not {_shown(detail)}')
        behind = data.get("behind")
        if behind is not None and (type(behind) not in (int, float) or not 0 <= behind < 1e9):
            raise _Bad(f'"behind" must be a number of seconds, not {_shown(behind)}')
        return SensorStatus(source, at, SensorState(state), detail, _names(data.get("readers") or [], "readers"), None if behind is None else float(behind))
    raise _Bad(f"unknown kind {kind!r:.40} (seen, gone, laid, laid-gone, back, back-gone, tapped, lifted, unknown-tag, draw, status)")


def _mark(data: dict[str, Any]) -> int:
    mark = data.get("mark")
    if isinstance(mark, bool) or not isinstance(mark, int):
        raise _Bad(f'"mark" must be a whole number, not {_shown(mark)}')
    return mark


def _table_mm(data: dict[str, Any]) -> tuple[float, float] | None:
    mm = data.get("table_mm")
    if mm is not None and (not isinstance(mm, list) or len(mm) != 2):
        raise _Bad(f'"table_mm" must be [x, y] or null, not {_shown(mm)}')
    return (_number(mm[0], "table_mm"), _number(mm[1], "table_mm")) if mm else None


def _header(header: dict[str, Any]) -> ObservationLog:
    """The table of a log's first line, every field checked: the set-up by the same checks as
    a game record's ``game`` event, the game's facts by the game's own."""
    try:
        played = game(header.get("game", DEFAULT)) if isinstance(header.get("game", DEFAULT), str) else None
    except UnknownGameError as exc:
        raise _Bad(str(exc)) from None
    if played is None:
        raise _Bad(f'"game" must name a game, not {_shown(header.get("game"))}')
    if "players" not in header:
        raise _Bad("missing 'players'")
    players = _names(header["players"], "players")
    try:
        facts = facts_of(played).read_facts(header, players)
    except ValueError as exc:
        raise _Bad(str(exc)) from None
    readers = header.get("readers") or {}
    if not isinstance(readers, dict) or not all(isinstance(v, str) for v in readers.values()):
        raise _Bad(f'"readers" must map each reader to its zone, not {_shown(readers)}')
    try:
        # "format" is the log's own; the set-up fields are the game record's.
        setup = played.codec.read_setup({k: v for k, v in header.items() if k != "format"})
    except (IllegalMoveError, InvalidMoveError, MalformedEventError) as exc:
        raise _Bad(str(exc)) from None
    log = ObservationLog(
        setup,
        first_dealer=_opt_str(header, "first_dealer"),
        readers=dict(readers),
        hands_unseen=_bool(header, "hands_unseen", True),
        facts=facts,
    )
    if log.first_dealer is not None and log.first_dealer not in setup.players:
        raise _Bad(f'"first_dealer" {log.first_dealer!r} is not one of the players')
    return log


MAX_LOG_BYTES = 256 * 1024 * 1024


def read_observation_log(path: str | os.PathLike[str]) -> ObservationLog:
    """Read a log. A last line cut short (the companion was killed while writing it) is
    dropped; any other bad line, bad byte or wrong field is an :class:`ObservationLogError`
    naming the file and the line."""
    path = Path(path)
    try:
        text = read_text(path, max_bytes=MAX_LOG_BYTES)
    except InputError as exc:
        raise ObservationLogError(f"cannot read the observation log: {exc.reason}", path=path, line=exc.line) from None
    rows = text.split("\n")
    if not rows or not rows[0].strip():
        raise ObservationLogError(f"empty; an observation log begins with a {FORMAT} header", path=path, line=1)
    try:
        header = loads_json(rows[0], path=path, line=1)
    except InputError as exc:
        raise ObservationLogError(f"the header is {exc.reason}", path=path, line=1) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ObservationLogError(f'not an observation log (the header must say "format": "{FORMAT}")', path=path, line=1)
    try:
        log = _header(header)
    except _Bad as exc:
        raise ObservationLogError(f"header: {exc}", path=path, line=1) from None
    cards = log.setup.game.cards
    last = len(rows)
    while last > 1 and not rows[last - 1].strip():
        last -= 1
    for number, row in enumerate(rows[1:last], start=2):
        if not row.strip():
            continue
        try:
            data = loads_json(row, path=path, line=number)
        except InputError as exc:
            if number == last and not text.endswith("\n"):
                break  # cut short by a crash: it was never whole
            raise ObservationLogError(exc.reason, path=path, line=number) from None
        try:
            if not isinstance(data, dict):
                raise _Bad("an observation is a JSON object")
            log.observations.append(_observation(data, cards))
        except _Bad as exc:
            raise ObservationLogError(str(exc), path=path, line=number) from None
    return log


class ObservationRecorder:
    """Writes observations to a log (:meth:`record`), a line at a time and flushed at once, so that a crash loses nothing written. Safe to call from the sensors'
    threads. Times are written from the moment the recorder was made, on ``clock`` (the
    clock the sensors stamp their observations with). A log already there is never written
    over unless ``overwrite`` says so."""

    def __init__(self, path: str | os.PathLike[str], table: ObservationLog, *, clock: Callable[[], float] = time.monotonic, overwrite: bool = False) -> None:
        self.path = Path(path)
        try:
            self._file: IO[str] = self.path.open("w" if overwrite else "x", encoding="utf-8")
        except FileExistsError:
            raise ObservationLogError("a file of that name exists already; choose another name for the observation log", path=self.path) from None
        except OSError as exc:
            raise ObservationLogError(f"cannot write the observation log ({exc.strerror})", path=self.path) from None
        self._lock = threading.Lock()
        self._began = clock()
        self._write(table.header())

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, separators=(", ", ": ")) + "\n")
        self._file.flush()

    def record(self, obs: Observation) -> None:
        with self._lock:
            if self._file.closed:
                return
            self._write(observation_json(obs, obs.at - self._began))

    def close(self) -> None:
        with self._lock:
            self._file.close()


class LogPlayback:
    """A log played back as a sensor: each observation is emitted when its time comes,
    ``speed`` times faster than it was recorded (0: all at once). Observations are stamped on
    the playback's :meth:`clock`, which is the log's time (so the tracker waits as long, in
    the table's time, as it did at the table). ``now`` and ``sleep`` are the real clock and
    its waiting, unless a test gives its own."""

    def __init__(
        self,
        observations: Iterable[Observation],
        *,
        speed: float = 1.0,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], bool] | None = None,
    ) -> None:
        self.observations = list(observations)
        self.speed = speed
        self._stop = threading.Event()
        self._now = now
        self._sleep = sleep or self._stop.wait
        """Waits the seconds given; true when the playback was stopped meanwhile."""
        self._thread: threading.Thread | None = None
        self._started = now()
        self._base = self.observations[0].at if self.observations else 0.0

    def clock(self) -> float:
        """The log's time now."""
        if self.speed <= 0:
            return self.observations[-1].at if self.observations else 0.0
        return self._base + (self._now() - self._started) * self.speed

    def start(self, emit: Emit) -> LogPlayback:
        self._started = self._now()
        self._thread = threading.Thread(target=self._run, args=(emit,), name="observation-log", daemon=True)
        self._thread.start()
        return self

    def _run(self, emit: Emit) -> None:
        for obs in self.observations:
            if self.speed > 0:
                wait = (obs.at - self._base) / self.speed - (self._now() - self._started)
                if wait > 0 and self._sleep(wait):
                    return
            if self._stop.is_set():
                return
            emit(obs)

    def wait(self) -> None:
        """Until every observation of the log has been emitted (or the playback stopped)."""
        if self._thread is not None:
            self._thread.join()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
