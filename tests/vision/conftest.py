"""Shared fixtures: a compact two-player mat that a 1080p camera sees at about 4 pixels per
module, so rendered frames read quickly at the live settings (decimate 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.layout import Layout, MatMarkerPlace, Zone, load_layout
from vision.markers import MAT_MARKER_MM, MatCorner
from vision.owners import OwnerRegistry


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def compact_layout() -> Layout:
    w, h = 640.0, 360.0
    markers = tuple(MatMarkerPlace(c, p, MAT_MARKER_MM) for c, p in zip(MatCorner, [(40, 40), (w - 40, 40), (w - 40, h - 40), (40, h - 40)]))
    zones = (
        Zone("centre", _rect(90, 110, 470, 250)),
        Zone("deck", _rect(490, 110, 590, 250)),
        Zone("capture:0", _rect(320, 260, 550, 355)),
        Zone("fate:0", _rect(90, 260, 300, 355)),
        Zone("capture:1", _rect(90, 5, 320, 100)),
        Zone("fate:1", _rect(340, 5, 550, 100)),
    )
    return Layout("compact 2 players", 2, (w, h), markers, zones)


@pytest.fixture
def compact() -> Layout:
    return compact_layout()


@pytest.fixture
def compact_file(tmp_path: Path) -> Path:
    path = tmp_path / "compact.json"
    path.write_text(json.dumps(compact_layout().to_json()))
    # Round trip through the file format, as the command line reads it.
    load_layout(path)
    return path


@pytest.fixture
def owners() -> OwnerRegistry:
    return OwnerRegistry(["ann", "bob", None, None, None, None, None, None])


@pytest.fixture
def calibration_dir(tmp_path: Path, owners: OwnerRegistry) -> Path:
    """A calibration directory holding the owner registry (ann = slot 0, bob = slot 1)."""
    d = tmp_path / "cal"
    owners.save(d / "owners.json")
    return d
