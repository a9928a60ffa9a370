"""Love, Money, Power, Death's screens: the table screen (:mod:`.table`) and the settlement of
a round (:mod:`.settlement`)."""

from pathlib import Path

__all__ = ["TCSS"]

TCSS = Path(__file__).with_name("lmpd.tcss")
"""The layout of these screens."""
