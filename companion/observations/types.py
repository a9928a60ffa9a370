"""What the sensors report about the physical table, before any rule is applied.

Data flows one way: sensors (camera, NFC readers, the demo table) produce these plain
values; the tracker turns them into moves of the game. Nothing here knows the rules.

Zones are named as in the table layouts under ``calibration/``: ``"centre"``, ``"deck"``,
``"capture:<player>"``, ``"fate:<player>"``, ``"hand:<player>"``. Readers are named by the
hardware (``"usb"``, ``"board:0"`` ... ``"board:7"``, a second board's ``"board2:0"``) and mapped to zones by configuration.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from companion.contract import Card

__all__ = [
    "Observation",
    "CardSeen",
    "CardGone",
    "BackSeen",
    "BackGone",
    "CardLaid",
    "LaidGone",
    "CardTapped",
    "CardLifted",
    "SensorState",
    "SensorStatus",
    "UnknownTag",
    "DrawAnnounced",
]


@dataclass(frozen=True, slots=True)
class Observation:
    """Common fields: which sensor (``source``, e.g. ``"camera"``, ``"serial:/dev/ttyACM0"``)
    and when (``at``, seconds on the monotonic clock of the process that observed it)."""

    source: str
    at: float


@dataclass(frozen=True, slots=True)
class CardSeen(Observation):
    """A card came to lie face up in a zone (camera), stable long enough to be trusted.
    ``mark``: the card is the one the camera reported laid before it could name it
    (:class:`CardLaid` with that mark): it has lain there since then."""

    card: Card
    owner: str | None
    zone: str | None
    table_mm: tuple[float, float] | None = None
    mark: int | None = None


@dataclass(frozen=True, slots=True)
class CardGone(Observation):
    """A card that lay in a zone is no longer there (camera), for long enough to be sure."""

    card: Card
    owner: str | None
    zone: str | None


@dataclass(frozen=True, slots=True)
class BackSeen(Observation):
    """A card came to lie face down in a zone (camera), stable long enough to be trusted, its
    back's seal naming the deck (``deck``, the deck's name in the game's table spec) and the
    copy (``owner``: a player's name, a colour of the box, or ``None``), never which card. The
    backs of one copy look alike: ``mark`` is the camera's number for this physical card, so
    that :class:`BackGone` tells which one left."""

    deck: str
    owner: str | None
    zone: str | None
    table_mm: tuple[float, float] | None = None
    mark: int = 0


@dataclass(frozen=True, slots=True)
class BackGone(Observation):
    """The face-down card ``mark`` (:class:`BackSeen`) is no longer there, for long enough to be
    sure: taken up, or turned face up (a :class:`CardSeen` then names it)."""

    deck: str
    owner: str | None
    zone: str | None
    mark: int = 0


@dataclass(frozen=True, slots=True)
class CardLaid(Observation):
    """A card came to lie face up in a zone (camera), stable long enough to be trusted, whose
    seal the camera sees but cannot read yet (blur, glare, a card still settling): a card was
    laid there, not yet which. ``mark`` is the camera's number for it: the :class:`CardSeen`
    that names it later carries the same mark, or a :class:`LaidGone` says it left unnamed."""

    zone: str | None
    table_mm: tuple[float, float] | None = None
    mark: int = 0


@dataclass(frozen=True, slots=True)
class LaidGone(Observation):
    """The card laid unread with ``mark`` (:class:`CardLaid`) is no longer there, never named."""

    zone: str | None
    mark: int = 0


@dataclass(frozen=True, slots=True)
class CardTapped(Observation):
    """A tagged card entered the field of an NFC reader."""

    card: Card
    owner: str | None
    reader: str
    uid: str = ""


@dataclass(frozen=True, slots=True)
class CardLifted(Observation):
    """A tagged card left the field of an NFC reader."""

    card: Card
    owner: str | None
    reader: str
    uid: str = ""


@dataclass(frozen=True, slots=True)
class UnknownTag(Observation):
    """A tag was read that names no card: not enrolled, or its content is unreadable.
    ``reason`` says which, in words for the table."""

    reader: str
    uid: str
    reason: str


@dataclass(frozen=True, slots=True)
class DrawAnnounced(Observation):
    """A player announced that they drew a Fate card (a key on the dashboard, a button by the
    table): no camera can see a card taken from the top of a face-down deck."""

    player: str


class SensorState(enum.Enum):
    CONNECTED = "connected"
    LOST = "lost"
    RECONNECTING = "reconnecting"
    FAILED = "failed"
    ENDED = "ended"  # a recording played to its end: nothing more will come


@dataclass(frozen=True, slots=True)
class SensorStatus(Observation):
    """A sensor's connection changed; ``detail`` says why in words (port, error). ``behind``:
    how many seconds a video played at its pace trails the video's clock, when that is what
    changed (0 once the reading has caught up)."""

    state: SensorState
    detail: str = ""
    readers: tuple[str, ...] = field(default=())
    behind: float | None = None


def behind_words(behind: float) -> str:
    """How a video's lag is said, wherever it is said: ``3.2 s behind the video``."""
    return f"{behind:.1f} s behind the video"
