"""The sensors' contract: what the camera, the NFC readers and the simulated table report
about the physical table, before any rule is applied.

Data flows one way: sensors -> observations -> tracker -> session -> dashboard and record.
The sensor packages (``vision``, ``hardware``) import this package and the contract (the
card catalogue and the table spec of the game a table names), and no game.

- :mod:`~companion.observations.types`: the observations themselves.
- :mod:`~companion.observations.scene`: what lies face up where, step by step.
- :mod:`~companion.observations.log`: observation logs, written and played back.
- :mod:`~companion.observations.paths`: where the table's calibration lives.
"""

from companion.observations.types import (
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
    behind_words,
)

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
    "behind_words",
]
