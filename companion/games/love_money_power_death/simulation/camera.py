"""A game of Love, Money, Power, Death filmed at a natural pace and read back through the whole
camera path: each step of the game (:mod:`.staging`) laid out on the standard mat of its number
of players and rendered as the frames of a 1080p camera over it, a hand over every action
(:func:`vision.scenes.natural_play`), each frame read by the marker detector and the
stabiliser exactly as a real camera's frames are (``rop play --camera`` does the same). For the
tests and the table benchmark."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.love_money_power_death.moves import Move
from companion.games.love_money_power_death.setup import LmpdSetup
from companion.observations import Observation

if TYPE_CHECKING:
    from vision.layout import Layout

__all__ = ["Filmed", "film", "seated_mat"]

FRAME = (1920, 1080)
"""A 1080p camera's frame."""


@dataclass(frozen=True)
class Filmed:
    """One camera frame read: its time on the video's clock, what the camera path reported in
    it, the step of the game on the table (``scene``) and the hand's action it belongs to
    (``None`` while the table rests), and how long reading it took (seconds)."""

    at: float
    observations: list[Observation]
    scene: Any
    action: Any
    read_s: float


def seated_mat(players: Sequence[str]) -> Layout:
    """The standard mat for ``players`` as the camera reads it, its zones named after them
    (``commit:ann``)."""
    from companion.games.love_money_power_death.table import TABLE, mat
    from vision.layout import Layout

    return Layout.from_plan(mat(len(players)), game=TABLE.game).seated(players)


def film(
    setup: LmpdSetup, moves: Sequence[Move], owner: str | None = None, *, frame: tuple[int, int] = FRAME, fps: float = 10.0, seed: int = 0
) -> Iterator[Filmed]:
    """``moves`` played on the standard mat with a deck of ``owner``'s (``None``: the club's),
    filmed by a camera of ``frame`` pixels framing the whole mat (1080p: its seals 2.8 pixels
    per module) at ``fps`` frames a second, and read back frame by frame with the camera's
    defaults."""
    import time

    from companion.games.love_money_power_death import GAME
    from companion.games.love_money_power_death.simulation.staging import stage
    from vision.owners import OwnerRegistry
    from vision.reader import TableReader
    from vision.render import VirtualCamera
    from vision.scenes import natural_play
    from vision.stabiliser import Stabiliser
    from vision.watch import read_frame

    layout = seated_mat(setup.players)
    owners = [owner] if owner else []
    # The camera's defaults, as `rop play` uses them.
    reader = TableReader(layout=layout, owners=OwnerRegistry(owners + [None] * (8 - len(owners))), cards=GAME.cards, changes_only=True)
    stabiliser = Stabiliser(layout=layout)
    camera = VirtualCamera.overhead(layout.mat_mm, size=frame)
    scenes = list(stage(setup, moves, owner))
    for shot in natural_play(scenes, layout, owners, camera=camera, fps=fps, seed=seed):
        began = time.perf_counter()
        _, observed = read_frame(reader, stabiliser, shot.image, shot.at)
        yield Filmed(shot.at, observed, shot.scene, shot.action, time.perf_counter() - began)
