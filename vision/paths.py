"""Where the table's calibration files live (owner registry, layouts): the companion's one
lookup, :func:`companion.observations.paths.calibration_dir`.

The standard layouts also ship inside the package (``vision/data/``), so an installed copy
works without a checkout; a layout file in the calibration directory takes precedence.
"""

from __future__ import annotations

from pathlib import Path

from companion.observations.paths import calibration_dir, calibration_file, shipped_calibration_dir

__all__ = ["calibration_dir", "calibration_file", "shipped_calibration_dir", "PACKAGE_DATA"]

#: Copies of the standard layouts shipped with the package.
PACKAGE_DATA = Path(__file__).with_name("data")
