"""The sensors of one table, started together, their observations merged into one stream.

This is where the camera (:mod:`vision`), the NFC readers (:mod:`hardware`) and the virtual
demo table meet; the rest of the companion sees only observations. A table is described by a
:class:`TableConfig`, built from ``rop play`` options or read from a JSON file under
``calibration/`` (``calibration/table.json`` by default):

.. code-block:: json

    {"players": ["ann", "bob"], "teams": null, "target": 11, "expansion": false,
     "first_dealer": "bob",
     "fate_decks": {"ann": ["F001", "F002", "F003", "F004", "F005", "F006", "F007"]},
     "camera": 0, "layout": 2, "video_speed": 1,
     "nfc": ["usb"], "serial": ["/dev/ttyACM0"],
     "readers": {"board:0": "centre", "board:1": "fate:ann", "board:2": "fate:bob"}}
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.cards import Card, UnknownCardError
from companion.engine.game import GameSetup
from companion.observations import DrawAnnounced, Observation, SensorState, SensorStatus

__all__ = ["TableConfig", "TableConfigError", "TableSensors"]


class TableConfigError(ValueError):
    """A table configuration that cannot be used; the message names the file and the key."""


@dataclass
class TableConfig:
    players: tuple[str, ...] = ("ann", "bob")
    teams: tuple[tuple[str, ...], ...] | None = None
    target: int = 11
    expansion: bool = False
    first_dealer: str | None = None
    fate_decks: dict[str, tuple[Card, ...]] = field(default_factory=dict)
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
    def setup(self) -> GameSetup:
        return GameSetup(self.players, self.teams, self.target, self.expansion)

    @property
    def has_camera(self) -> bool:
        return self.camera is not None or self.video is not None

    @property
    def has_nfc(self) -> bool:
        return bool(self.nfc or self.serial)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TableConfig:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise TableConfigError(f"{path}: cannot read the table configuration ({exc.strerror})") from None
        except json.JSONDecodeError as exc:
            raise TableConfigError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise TableConfigError(f"{path}: the configuration must be a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise TableConfigError(f"{path}: unknown key(s) {', '.join(unknown)}; the keys are {', '.join(sorted(known))}")
        try:
            decks = {str(p): tuple(Card.from_id(c) for c in cards) for p, cards in (data.get("fate_decks") or {}).items()}
        except UnknownCardError as exc:
            raise TableConfigError(f"{path}: fate_decks: {exc}") from None
        config = cls(
            players=tuple(data.get("players", cls.players)),
            teams=tuple(tuple(t) for t in data["teams"]) if data.get("teams") else None,
            target=int(data.get("target", 11)),
            expansion=bool(data.get("expansion", False)),
            first_dealer=data.get("first_dealer"),
            fate_decks=decks,
            camera=data.get("camera"),
            video=data.get("video"),
            video_speed=_speed(path, data.get("video_speed", 1.0)),
            layout=data.get("layout"),
            calibration=data.get("calibration"),
            nfc=list(data.get("nfc") or []),
            serial=list(data.get("serial") or []),
            readers={str(k): str(v) for k, v in (data.get("readers") or {}).items()},
        )
        for reader, zone in config.readers.items():
            if zone != "centre" and zone.partition(":")[2] not in config.players:
                raise TableConfigError(f"{path}: readers: {reader} is mapped to {zone!r}, which names no player")
        return config


def _speed(path: Path, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise TableConfigError(f"{path}: video_speed must be a number, 0 (as fast as possible) or more, not {value!r}")
    return float(value)


Emit = Callable[[Observation], None]


class TableSensors:
    """Starts the configured sensors in background threads; each observation goes to
    ``emit`` (called from those threads)."""

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

            self._nfc = NfcSensors(self.emit, nfc=self.config.nfc, serial=self.config.serial, calibration=self.config.calibration).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._nfc is not None:
            self._nfc.stop()
        for thread in self._threads:
            thread.join(timeout=2)

    def _camera_loop(self) -> None:
        from vision.camera import CameraError, FrameSource, parse_source
        from vision.layout import LayoutError, load_layout
        from vision.owners import OwnerRegistry
        from vision.paths import calibration_dir
        from vision.reader import TableReader
        from vision.tracking import Stabiliser
        from vision.watch import watch

        cfg = self.config
        try:
            layout = load_layout(cfg.layout or len(cfg.players), calibration=cfg.calibration)
            owners = OwnerRegistry.load(calibration_dir(cfg.calibration) / "owners.json")
            source = FrameSource(parse_source(cfg.camera, cfg.video), speed=cfg.video_speed, sleep=self._stop.wait)
        except (LayoutError, CameraError, ValueError, OSError) as exc:
            self.emit(SensorStatus("camera", time.monotonic(), SensorState.FAILED, str(exc)))
            return
        if source.is_file:
            self._video = source
        reader = TableReader(layout=layout, owners=owners, players=list(cfg.players))
        stabiliser = Stabiliser(source=source.name, layout=layout.seated(list(cfg.players)))
        try:
            for obs in watch(source, reader, stabiliser, on_frame=lambda image, view: not self._stop.is_set()):
                self.emit(obs)
        except CameraError as exc:
            self.emit(SensorStatus(source.name, self.clock(), SensorState.FAILED, str(exc)))
