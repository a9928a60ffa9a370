"""Circle of Power's screens: the table screen (:mod:`.table`), the season's settlement
(:mod:`.settlement`), the table's set-up (:mod:`.setup`), a season's set-up (:mod:`.season`)
and the choice of a trophy (:mod:`.pick`)."""

from pathlib import Path

__all__ = ["TCSS"]

TCSS = Path(__file__).with_name("circle.tcss")
"""The layout of these screens."""
