"""Where the table's calibration files live (owner registry, layouts).

Looked up in this order, first hit wins:

1. an explicit directory (the ``--calibration DIR`` option of the ``rop`` commands);
2. the ``ROP_CALIBRATION`` environment variable;
3. ``calibration/`` of the source checkout this package was loaded from;
4. ``calibration/`` in the current directory.

The standard layouts also ship inside the package (``vision/data/``), so an installed copy
works without a checkout; a layout file in the calibration directory takes precedence.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["calibration_dir", "PACKAGE_DATA"]

#: Copies of the standard layouts shipped with the package.
PACKAGE_DATA = Path(__file__).with_name("data")


def calibration_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The calibration directory to read and write (it need not exist yet)."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("ROP_CALIBRATION")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent / "calibration"
    if checkout.is_dir():
        return checkout
    return Path.cwd() / "calibration"
