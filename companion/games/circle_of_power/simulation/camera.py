"""A game of Circle of Power filmed at a natural pace and read back through the whole camera
path: each step of the game (:mod:`.staging`) laid out on the table's layout and rendered as
camera frames with a hand over every action (:func:`vision.scenes.natural_play`), each frame
read by the marker detector and the stabiliser exactly as a real camera's frames are
(``rop play --camera`` does the same). For the tests and the table benchmark."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.circle_of_power.moves import Move
from companion.games.circle_of_power.setup import CircleSetup
from companion.observations import Observation

if TYPE_CHECKING:
    from vision.layout import Layout

__all__ = ["Filmed", "film", "camera_over"]


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


def camera_over(layout: Any, module_px: float) -> Any:
    """An overhead camera that sees the whole mat with 25 mm to spare, seals at ``module_px``
    pixels per module (a 1080p camera over Circle of Power's mat: 2.6)."""
    from vision.markers import MODULE_MM
    from vision.render import VirtualCamera

    ppm = module_px / MODULE_MM
    w, h = layout.mat_mm
    size = (int((w + 50) * ppm) // 2 * 2, int((h + 50) * ppm) // 2 * 2)
    return VirtualCamera.looking_at((w / 2, h / 2), ppm, size=size)


def circle_layout() -> Layout:
    """Circle of Power's mat as the camera reads it (:class:`vision.layout.Layout`)."""
    from companion.games.circle_of_power.table import TABLE, mat
    from vision.layout import Layout

    return Layout.from_plan(mat(), game=TABLE.game)


def film(
    setup: CircleSetup, moves: Sequence[Move], owner: str, *, module_px: float = 2.6, fps: float = 10.0, seed: int = 0
) -> Iterator[Filmed]:
    """``moves`` played on the standard Circle of Power mat with a deck of ``owner``'s, filmed
    at ``module_px`` pixels per module and ``fps`` frames a second, and read back frame by
    frame with the camera's defaults."""
    import time

    from companion.games.circle_of_power.simulation.staging import stage
    from companion.contract.registry import game
    from vision.owners import OwnerRegistry
    from vision.reader import TableReader
    from vision.scenes import natural_play
    from vision.stabiliser import Stabiliser

    layout = circle_layout()
    reader = TableReader(layout=layout, owners=OwnerRegistry([owner] + [None] * 7), cards=game(setup.game.name).cards)
    stabiliser = Stabiliser(layout=layout)  # the camera's defaults, as `rop play` uses them
    scenes = list(stage(setup, moves, owner))
    for frame in natural_play(scenes, layout, [owner], camera=camera_over(layout, module_px), fps=fps, seed=seed):
        began = time.perf_counter()
        observed = stabiliser.update(reader.read(frame.image), frame.image, frame.at)
        yield Filmed(frame.at, observed, frame.scene, frame.action, time.perf_counter() - began)
