"""Where the table's calibration files live: owner registry, tag registries, table layouts,
the table configuration.

What a table writes (``owners.json``, ``tags/``, its own layouts) is the user's data and lives
in the user's data directory, so that a fresh clone or a reinstall keeps the stickers and
tags already printed and enrolled. The first of these is that directory:

1. an explicit directory (the ``--calibration DIR`` option of the ``rop`` commands);
2. the ``ROP_CALIBRATION`` environment variable;
3. ``$XDG_DATA_HOME/rop/calibration``;
4. ``~/.local/share/rop/calibration``.

The ``calibration/`` directory of the source checkout holds only the shipped defaults (the
standard layouts): :func:`calibration_file` falls back to it for a file the user has not
overridden, and nothing is ever written there.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["calibration_dir", "calibration_file", "shipped_calibration_dir"]


def calibration_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The user's calibration directory, to read and write (it need not exist yet)."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("ROP_CALIBRATION")
    if env:
        return Path(env).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME")
    # The XDG base directory rule: a relative XDG_DATA_HOME is invalid and ignored.
    base = Path(data_home) if data_home and Path(data_home).is_absolute() else Path.home() / ".local" / "share"
    return base / "rop" / "calibration"


def shipped_calibration_dir() -> Path:
    """``calibration/`` of the source checkout: the shipped defaults, read only."""
    return Path(__file__).resolve().parents[2] / "calibration"


def calibration_file(relative: str | os.PathLike[str], explicit: str | os.PathLike[str] | None = None) -> Path:
    """A calibration file to read: the user's copy when there is one, else the shipped
    default, else the user's path (where it would be written)."""
    mine = calibration_dir(explicit) / relative
    if mine.exists():
        return mine
    shipped = shipped_calibration_dir() / relative
    if shipped.exists():
        return shipped
    return mine
