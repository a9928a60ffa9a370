"""Observation logs: what the sensors reported during a game, one JSON line per observation.

A log lets a table hand in what its sensors saw when the companion lost the thread (``rop
play --record-observations FILE``), lets anyone play it back through the tracker and the
dashboard (``rop play --observations FILE``), and feeds the latency benchmark with a real
sensor stream. The format, ``rop-observations/1``:

- The first line is a header: ``{"format": "rop-observations/1", "players": [...], "teams":
  [[...], ...] or null, "target": 11, "expansion": false, "first_dealer": "bob",
  "fate_decks": {"ann": ["F001", ...]}, "readers": {"board:0": "centre"}, "hands_unseen": true,
  "draws_visible": false}``: the table, and how it was equipped, as the tracker needs them
  (``TrackerConfig.from_log`` in the tracker).
- Every further line is one observation: ``"t"`` (seconds since the log began), ``"kind"``,
  ``"source"`` and the fields of that kind:

  ===============  ====================================================================
  ``seen``         ``card``, ``owner``, ``zone``, ``table_mm`` ([x, y] or null)
  ``gone``         ``card``, ``owner``, ``zone``
  ``tapped``       ``card``, ``owner``, ``reader``, ``uid``
  ``lifted``       ``card``, ``owner``, ``reader``, ``uid``
  ``unknown-tag``  ``reader``, ``uid``, ``reason``
  ``draw``         ``player``
  ``status``       ``state`` (connected, lost, reconnecting, failed, ended), ``detail``, ``readers``
  ===============  ====================================================================

Cards are written by id (``"W016"``), as in game records.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from companion.engine.cards import Card, UnknownCardError
from companion.engine.game import GameSetup
from companion.observations import (
    CardGone,
    CardLifted,
    CardSeen,
    CardTapped,
    DrawAnnounced,
    Observation,
    SensorState,
    SensorStatus,
    UnknownTag,
)

__all__ = ["FORMAT", "LogPlayback", "ObservationLog", "ObservationLogError", "ObservationRecorder", "read_observation_log"]

FORMAT = "rop-observations/1"

Emit = Callable[[Observation], None]


class ObservationLogError(ValueError):
    """A log that cannot be read; the message names the file and the line."""


@dataclass
class ObservationLog:
    """A log read back: the table it was recorded at and its observations, timed in seconds
    since the log began."""

    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...] | None = None
    target: int = 11
    expansion: bool = False
    first_dealer: str | None = None
    fate_decks: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    readers: dict[str, str] = field(default_factory=dict)
    hands_unseen: bool = True
    draws_visible: bool = False
    observations: list[Observation] = field(default_factory=list)

    @property
    def setup(self) -> GameSetup:
        return GameSetup(self.players, self.teams, self.target, self.expansion)

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "teams": [list(t) for t in self.teams] if self.teams else None,
            "target": self.target,
            "expansion": self.expansion,
            "first_dealer": self.first_dealer,
            "fate_decks": {p: [c.id for c in cards] for p, cards in self.fate_decks.items()},
            "readers": dict(self.readers),
            "hands_unseen": self.hands_unseen,
            "draws_visible": self.draws_visible,
        }


def observation_json(obs: Observation, t: float) -> dict[str, Any]:
    """One observation as a log line's object, ``t`` seconds into the log."""
    out: dict[str, Any] = {"t": round(t, 4), "source": obs.source}
    if isinstance(obs, CardSeen):
        out.update(kind="seen", card=obs.card.id, owner=obs.owner, zone=obs.zone)
        out["table_mm"] = [round(v, 1) for v in obs.table_mm] if obs.table_mm is not None else None
    elif isinstance(obs, CardGone):
        out.update(kind="gone", card=obs.card.id, owner=obs.owner, zone=obs.zone)
    elif isinstance(obs, (CardTapped, CardLifted)):
        out.update(kind="tapped" if isinstance(obs, CardTapped) else "lifted", card=obs.card.id, owner=obs.owner, reader=obs.reader, uid=obs.uid)
    elif isinstance(obs, UnknownTag):
        out.update(kind="unknown-tag", reader=obs.reader, uid=obs.uid, reason=obs.reason)
    elif isinstance(obs, DrawAnnounced):
        out.update(kind="draw", player=obs.player)
    elif isinstance(obs, SensorStatus):
        out.update(kind="status", state=obs.state.value, detail=obs.detail, readers=list(obs.readers))
    else:
        raise TypeError(f"not an observation the log knows: {obs!r}")
    return out


def _observation(data: dict[str, Any], at: float) -> Observation:
    kind = data.get("kind")
    source = str(data["source"])
    if kind in ("seen", "gone"):
        card = Card.from_id(data["card"])
        if kind == "gone":
            return CardGone(source, at, card, data.get("owner"), data.get("zone"))
        mm = data.get("table_mm")
        return CardSeen(source, at, card, data.get("owner"), data.get("zone"), (float(mm[0]), float(mm[1])) if mm else None)
    if kind in ("tapped", "lifted"):
        cls = CardTapped if kind == "tapped" else CardLifted
        return cls(source, at, Card.from_id(data["card"]), data.get("owner"), str(data["reader"]), str(data.get("uid", "")))
    if kind == "unknown-tag":
        return UnknownTag(source, at, str(data["reader"]), str(data["uid"]), str(data["reason"]))
    if kind == "draw":
        return DrawAnnounced(source, at, str(data["player"]))
    if kind == "status":
        return SensorStatus(source, at, SensorState(data["state"]), str(data.get("detail", "")), tuple(data.get("readers") or ()))
    raise ValueError(f"unknown kind {kind!r} (seen, gone, tapped, lifted, unknown-tag, draw, status)")


def read_observation_log(path: str | os.PathLike[str]) -> ObservationLog:
    """Read a log. A last line cut short (the companion was killed while writing it) is
    dropped; any other bad line is an :class:`ObservationLogError` naming file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ObservationLogError(f"{path}: cannot read the observation log ({exc.strerror})") from None
    rows = text.split("\n")
    if not rows or not rows[0].strip():
        raise ObservationLogError(f"{path}:1: empty; an observation log begins with a {FORMAT} header")
    try:
        header = json.loads(rows[0])
    except json.JSONDecodeError as exc:
        raise ObservationLogError(f"{path}:1: the header is not JSON ({exc.msg})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ObservationLogError(f"{path}:1: not an observation log (the header must say \"format\": \"{FORMAT}\")")
    try:
        log = ObservationLog(
            players=tuple(str(p) for p in header["players"]),
            teams=tuple(tuple(t) for t in header["teams"]) if header.get("teams") else None,
            target=int(header.get("target", 11)),
            expansion=bool(header.get("expansion", False)),
            first_dealer=header.get("first_dealer"),
            fate_decks={str(p): tuple(Card.from_id(c) for c in cards) for p, cards in (header.get("fate_decks") or {}).items()},
            readers={str(k): str(v) for k, v in (header.get("readers") or {}).items()},
            hands_unseen=bool(header.get("hands_unseen", True)),
            draws_visible=bool(header.get("draws_visible", False)),
        )
    except (KeyError, TypeError, ValueError, UnknownCardError) as exc:
        raise ObservationLogError(f"{path}:1: header: {_reason(exc)}") from None
    last = len(rows)
    while last > 1 and not rows[last - 1].strip():
        last -= 1
    for number, row in enumerate(rows[1:last], start=2):
        if not row.strip():
            continue
        try:
            data = json.loads(row)
        except json.JSONDecodeError as exc:
            if number == last and not text.endswith("\n"):
                break  # cut short by a crash: it was never whole
            raise ObservationLogError(f"{path}:{number}: not JSON ({exc.msg})") from None
        try:
            if not isinstance(data, dict):
                raise TypeError("an observation is a JSON object")
            log.observations.append(_observation(data, float(data["t"])))
        except (KeyError, TypeError, ValueError, UnknownCardError) as exc:
            raise ObservationLogError(f"{path}:{number}: {_reason(exc)}") from None
    return log


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc)


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
            raise ObservationLogError(f"{self.path}: a file of that name exists already; choose another name for the observation log") from None
        except OSError as exc:
            raise ObservationLogError(f"{self.path}: cannot write the observation log ({exc.strerror})") from None
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
    the table's time, as it did at the table)."""

    def __init__(self, observations: Iterable[Observation], *, speed: float = 1.0) -> None:
        self.observations = list(observations)
        self.speed = speed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = time.monotonic()
        self._base = self.observations[0].at if self.observations else 0.0

    def clock(self) -> float:
        """The log's time now."""
        if self.speed <= 0:
            return self.observations[-1].at if self.observations else 0.0
        return self._base + (time.monotonic() - self._started) * self.speed

    def start(self, emit: Emit) -> LogPlayback:
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, args=(emit,), name="observation-log", daemon=True)
        self._thread.start()
        return self

    def _run(self, emit: Emit) -> None:
        for obs in self.observations:
            if self.speed > 0:
                wait = (obs.at - self._base) / self.speed - (time.monotonic() - self._started)
                if wait > 0 and self._stop.wait(wait):
                    return
            if self._stop.is_set():
                return
            emit(obs)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
