"""A game of Ruse and Bruise filmed at a natural pace and read back through the whole camera
path: each step of the game (:mod:`.staging`) laid out on the game's standard mat and rendered
as camera frames with a hand over every action, each frame read by the seal detector and the
stabiliser exactly as a real camera's frames are (:func:`vision.scenes.filmed_play`; ``rop play
--camera`` does the same). For the tests and the table benchmark."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from companion.games.ruse_and_bruise.moves import Move
from companion.games.ruse_and_bruise.setup import RabSetup

if TYPE_CHECKING:
    from vision.layout import Layout
    from vision.scenes import Filmed

__all__ = ["film", "rab_layout", "MODULE_PX"]

MODULE_PX = 2.8
"""Pixels per seal module of a 1080p camera over the standard mats (``rop calibrate`` says so)."""


def rab_layout(players: int) -> Layout:
    """Ruse and Bruise's standard mat for ``players`` as the camera reads it."""
    from companion.games.ruse_and_bruise.table import TABLE, mat
    from vision.layout import Layout

    return Layout.from_plan(mat(players), game=TABLE.game)


def film(setup: RabSetup, moves: Sequence[Move], *, module_px: float = MODULE_PX, fps: float = 10.0, seed: int = 0) -> Iterator[Filmed]:
    """``moves`` played on the standard mat for the table's players, filmed at ``module_px``
    pixels per module and ``fps`` frames a second, and read back frame by frame with the
    camera's defaults."""
    from companion.games.ruse_and_bruise.cards import CARDS
    from companion.games.ruse_and_bruise.simulation.staging import stage
    from vision.reader import TableReader
    from vision.scenes import filmed_play
    from vision.stabiliser import Stabiliser

    layout = rab_layout(len(setup.players))
    # The camera's defaults, as `rop play` uses them.
    reader = TableReader(layout=layout, players=list(setup.players), cards=CARDS, changes_only=True)
    stabiliser = Stabiliser(layout=layout.seated(list(setup.players)))
    return filmed_play(list(stage(setup, moves)), layout, [], reader, stabiliser, module_px=module_px, fps=fps, seed=seed)
