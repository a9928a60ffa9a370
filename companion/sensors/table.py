"""The sensors of one table, started together, their observations merged into one stream.

This is where the camera (:mod:`vision`), the NFC readers (:mod:`hardware`) and the virtual
demo table meet; the rest of the companion sees only observations. A table is described by a
:class:`TableConfig`, built from ``rop play`` options or read from a JSON file under
``calibration/`` (``calibration/table.json`` by default): the game (``game``, Rule of Power
when absent) and its set-up as the game's records write it, the first dealer, the game's own
facts about the table (:mod:`companion.observations.facts`), and the sensors:

.. code-block:: json

    {"game": "rule-of-power", "players": ["ann", "bob"], "teams": null, "target": 11,
     "expansion": false, "first_dealer": "bob",
     "fate_decks": {"ann": ["F001", "F002", "F003", "F004", "F005", "F006", "F007"]},
     "camera": 0, "layout": 2, "video_speed": 1,
     "nfc": ["usb"], "serial": ["/dev/ttyACM0"],
     "readers": {"board:0": "centre", "board:1": "fate:ann", "board:2": "fate:bob"}}
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.contract.errors import IllegalMoveError, InvalidMoveError, MalformedEventError
from companion.contract import Setup
from companion.contract.registry import DEFAULT, UnknownGameError, game
from companion.observations import Observation, SensorState, SensorStatus
from companion.observations.facts import facts_of
from companion.observations.textio import InputError, read_json

__all__ = ["TableConfig", "TableConfigError", "TableSensors"]

log = logging.getLogger(__name__)

CAMERA_RETRY_S = 2.0
"""Seconds before a live camera whose reading failed is opened again."""


class TableConfigError(ValueError):
    """A table configuration that cannot be used; the message names the file and the key."""


_SENSOR_KEYS = ("camera", "video", "video_speed", "layout", "calibration", "nfc", "serial", "readers")


def _default_setup() -> Setup:
    setup: Setup = game().make_setup(("ann", "bob"))
    return setup


@dataclass
class TableConfig:
    setup: Setup = field(default_factory=_default_setup)
    """The game and its set-up: seats and options."""
    first_dealer: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    """The game's own facts about the table (Rule of Power: each player's Fate deck)."""
    camera: int | str | None = None
    video: str | None = None
    #: How fast ``video`` plays: 1 at the pace it was filmed, 0 as fast as it decodes (on
    #: the video's own clock, which then stamps typed announcements too).
    video_speed: float = 1.0
    layout: int | str | None = None
    calibration: str | None = None
    nfc: list[str] = field(default_factory=list)
    serial: list[str] = field(default_factory=list)
    readers: dict[str, str] = field(default_factory=dict)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.setup.players)

    @property
    def has_camera(self) -> bool:
        return self.camera is not None or self.video is not None

    @property
    def has_nfc(self) -> bool:
        return bool(self.nfc or self.serial)

    def check_readers(self, where: str) -> None:
        """Every reader mapped to a zone is one of the configured devices' readers (``board:0``
        ... ``board:7`` for the first ``serial`` board, ``board2:0`` ... for the second, ``usb``,
        ``usb2`` for the ``nfc`` readers); ``where`` names the origin in the error."""
        if not self.has_nfc:
            return  # a log played back, or a camera alone: the names are not checked against devices
        from hardware.sensors import reader_names

        known = reader_names(len(self.serial), len(self.nfc))
        for reader in self.readers:
            if reader not in known:
                boards = {0: "no reader board", 1: "one reader board"}.get(len(self.serial), f"{len(self.serial)} reader boards")
                usb = {0: "no USB reader", 1: "one USB reader"}.get(len(self.nfc), f"{len(self.nfc)} USB readers")
                raise TableConfigError(
                    f"{where}: readers: {reader!r} is none of this table's readers ({boards}, {usb}: "
                    f"{', '.join(known[:3])}, ...); a second board's readers are board2:0 ..., "
                    "in the order --serial is given"
                )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TableConfig:
        """Read a table configuration, every key checked for its type; a bad one is a
        :class:`TableConfigError` naming the file and the key."""
        path = Path(path)
        try:
            data = read_json(path, max_bytes=1024 * 1024)
        except InputError as exc:
            raise TableConfigError(f"{exc} (the table configuration)") from None
        if not isinstance(data, dict):
            raise TableConfigError(f"{path}: the configuration must be a JSON object")
        try:
            played = game(data.get("game", DEFAULT)) if isinstance(data.get("game", DEFAULT), str) else None
        except UnknownGameError as exc:
            raise TableConfigError(f"{path}: game: {exc}") from None
        if played is None:
            raise TableConfigError(f"{path}: game: expected a game's name, not {_shown(data.get('game'))}")
        try:
            facts = facts_of(played)
        except ValueError as exc:
            raise TableConfigError(f"{path}: {exc}") from None
        setup_keys = {k for k in played.codec.setup_event(played.make_setup(("ann", "bob"))) if k not in ("event", "format")}
        known = {"game", "first_dealer", *setup_keys, *facts.facts, *_SENSOR_KEYS}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TableConfigError(f"{path}: unknown key(s) {', '.join(unknown)}; the keys are {', '.join(sorted(known))}")
        try:
            config = cls._from_json(data, played)
        except _BadKey as exc:
            raise TableConfigError(f"{path}: {exc}") from None
        for reader, zone in config.readers.items():
            problem = facts.reader_problem(zone, config.players)
            if problem:
                raise TableConfigError(f"{path}: readers: {reader} is mapped to {problem}")
        return config

    @classmethod
    def _from_json(cls, data: dict[str, Any], played: Any) -> TableConfig:
        def texts(key: str, value: Any) -> list[str]:
            if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
                raise _BadKey(f"{key}: expected a list of names, not {_shown(value)}")
            return list(value)

        def optional(key: str, kinds: tuple[type, ...], what: str) -> Any:
            value = data.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, kinds)):
                raise _BadKey(f"{key}: expected {what}, not {_shown(value)}")
            return value

        header = {"players": ["ann", "bob"], **data}
        texts("players", header["players"])
        try:
            setup = played.codec.read_setup(header)
        except MalformedEventError as exc:
            raise _BadKey(f"{exc.key}: expected {exc.expected}, not {_shown(data.get(exc.key))}" if exc.key else str(exc)) from None
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise _BadKey(str(exc)) from None
        try:
            facts = facts_of(played).read_facts(data, setup.players)
        except ValueError as exc:
            raise _BadKey(str(exc)) from None
        readers = data.get("readers") or {}
        if not isinstance(readers, dict) or not all(isinstance(v, str) for v in readers.values()):
            raise _BadKey(f"readers: expected a map of reader to zone, not {_shown(readers)}")
        serial = texts("serial", data.get("serial") or [])
        for port in serial:
            from hardware.board_link import PortError, check_port

            try:
                check_port(port)
            except PortError as exc:
                raise _BadKey(f"serial: {exc}") from None
        config = cls(
            setup=setup,
            first_dealer=optional("first_dealer", (str,), "a player's name"),
            facts=facts,
            camera=optional("camera", (int, str), "a camera index or stream URL"),
            video=optional("video", (str,), "a video file"),
            video_speed=_video_speed(data.get("video_speed", 1.0)),
            layout=optional("layout", (int, str), "a number of players or a layout file"),
            calibration=optional("calibration", (str,), "a directory"),
            nfc=texts("nfc", data.get("nfc") or []),
            serial=serial,
            readers=dict(readers),
        )
        if config.first_dealer is not None and config.first_dealer not in setup.players:
            raise _BadKey(f"first_dealer: {config.first_dealer!r} is not one of the players")
        return config


class _BadKey(ValueError):
    pass


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _video_speed(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
        raise _BadKey(f"video_speed: expected a number, 0 (as fast as the video decodes) or more, not {_shown(value)}")
    return float(value)


Emit = Callable[[Observation], None]


class TableSensors:
    """Starts the configured sensors in background threads; each observation goes to
    ``emit`` (called from those threads). A fault in a sensor's thread ends no game: it is
    reported as that sensor's status, and the sensor goes on (a live camera is opened again)."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.emit: Emit = lambda obs: None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._nfc: Any = None
        self._video: Any = None  # the video being played, whose clock stamps everything

    def clock(self) -> float:
        """The table's clock: a video's own clock while one plays unpaced (``video_speed``
        0), else the monotonic clock. Announcements typed at the table are stamped with it, so
        they land between the right frames."""
        video = self._video
        return video.now() if video is not None else time.monotonic()

    def start(self, emit: Emit) -> TableSensors:
        self.emit = emit
        if self.config.has_camera:
            thread = threading.Thread(target=self._camera_loop, name="camera", daemon=True)
            thread.start()
            self._threads.append(thread)
        if self.config.has_nfc:
            from hardware.sensors import NfcSensors

            self._nfc = NfcSensors(self._safe_emit, nfc=self.config.nfc, serial=self.config.serial, calibration=self.config.calibration,
                                   cards=self.config.setup.game.cards).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._nfc is not None:
            self._nfc.stop()
        for thread in self._threads:
            thread.join(timeout=2)

    def _safe_emit(self, obs: Observation) -> None:
        # The consumer's fault must not end the sensor's thread (and with it the table).
        try:
            self.emit(obs)
        except Exception:  # noqa: BLE001 - logged; the sensor goes on
            log.exception("the consumer of %s failed", obs.source)

    def _camera_loop(self) -> None:
        """The camera's thread. A fault in its reading is reported as the camera's status
        (failed, with the reason); a live camera is then opened again, a video ends there."""
        while not self._stop.is_set():
            try:
                self._watch_camera()
                return
            except Exception as exc:  # noqa: BLE001 - reported; the game and the other sensors go on
                log.exception("the camera failed")
                video = self.config.video is not None
                then = "the video stops here" if video else f"opening it again in {CAMERA_RETRY_S:g} s"
                self._safe_emit(SensorStatus("camera", self.clock(), SensorState.FAILED, f"the camera failed ({type(exc).__name__}: {exc}); {then}"))
                if video:
                    return
            self._stop.wait(CAMERA_RETRY_S)

    def _watch_camera(self) -> None:
        """Frames through the reader and the stabiliser until the camera ends (a video played
        to its end, a camera that cannot be opened) or the sensors stop."""
        from vision.camera import CameraError, FrameSource, parse_source
        from vision.layout import LayoutError, load_layout
        from vision.owners import OwnerRegistry
        from vision.paths import calibration_dir
        from vision.reader import TableReader
        from vision.stabiliser import Stabiliser
        from vision.watch import watch

        cfg = self.config
        played = cfg.setup.game
        try:
            layout = load_layout(cfg.layout or len(cfg.players), calibration=cfg.calibration, game=played.name)
            owners = OwnerRegistry.load(calibration_dir(cfg.calibration) / "owners.json")
            source = FrameSource(parse_source(cfg.camera, cfg.video), speed=cfg.video_speed, sleep=self._stop.wait)
        except (LayoutError, CameraError, ValueError, OSError) as exc:
            self._safe_emit(SensorStatus("camera", time.monotonic(), SensorState.FAILED, str(exc)))
            return
        if source.is_file:
            self._video = source
        names = list(cfg.players) if layout.seats_are_players else None
        reader = TableReader(layout=layout, owners=owners, players=names, cards=played.cards, changes_only=True)
        stabiliser = Stabiliser(source=source.name, layout=layout.seated(names) if names else layout)
        try:
            for obs in watch(source, reader, stabiliser, on_frame=lambda image, view: not self._stop.is_set()):
                self._safe_emit(obs)
        except CameraError as exc:
            self._safe_emit(SensorStatus(source.name, self.clock(), SensorState.FAILED, str(exc)))
