"""Where the table's calibration files live: owner registry, table layouts, tag registries,
the table configuration. One lookup for every part of the companion, first hit wins:

1. an explicit directory (the ``--calibration DIR`` option of the ``rop`` commands);
2. the ``ROP_CALIBRATION`` environment variable;
3. ``calibration/`` of the source checkout this package was loaded from;
4. ``calibration/`` in the current directory.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["calibration_dir"]


def calibration_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The calibration directory to read and write (it need not exist yet)."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("ROP_CALIBRATION")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2] / "calibration"
    if checkout.is_dir():
        return checkout
    return Path.cwd() / "calibration"
