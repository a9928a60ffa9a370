"""A game of Circle of Power filmed at a natural pace and read back through the whole camera
path: each step of the game (:mod:`.staging`) laid out on the table's layout and rendered as
camera frames with a hand over every action (:func:`vision.scenes.filmed_play`), each frame
read by the marker detector and the stabiliser exactly as a real camera's frames are
(``rop play --camera`` does the same). For the tests and the table benchmark."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from companion.games.circle_of_power.moves import Move
from companion.games.circle_of_power.setup import CircleSetup

if TYPE_CHECKING:
    from vision.layout import Layout
    from vision.scenes import Filmed

__all__ = ["film", "circle_layout", "MODULE_PX"]

MODULE_PX = 2.6
"""Pixels per seal module of a 1080p camera over Circle of Power's mat."""


def circle_layout() -> Layout:
    """Circle of Power's mat as the camera reads it (:class:`vision.layout.Layout`)."""
    from companion.games.circle_of_power.table import TABLE, mat
    from vision.layout import Layout

    return Layout.from_plan(mat(), game=TABLE.game)


def film(
    setup: CircleSetup, moves: Sequence[Move], owner: str, *, module_px: float = MODULE_PX, fps: float = 10.0, seed: int = 0
) -> Iterator[Filmed]:
    """``moves`` played on the standard Circle of Power mat with a deck of ``owner``'s, filmed
    at ``module_px`` pixels per module and ``fps`` frames a second, and read back frame by
    frame with the camera's defaults."""
    from companion.contract.registry import game
    from companion.games.circle_of_power.simulation.staging import stage
    from vision.owners import OwnerRegistry
    from vision.reader import TableReader
    from vision.scenes import filmed_play
    from vision.stabiliser import Stabiliser

    layout = circle_layout()
    # The camera's defaults, as `rop play` uses them.
    reader = TableReader(layout=layout, owners=OwnerRegistry([owner] + [None] * 7), cards=game(setup.game.name).cards, changes_only=True)
    stabiliser = Stabiliser(layout=layout)
    scenes = list(stage(setup, moves, owner))
    return filmed_play(scenes, layout, [owner], reader, stabiliser, module_px=module_px, fps=fps, seed=seed)
