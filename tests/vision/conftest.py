"""Shared fixtures: a compact two-player mat that a 1080p camera sees at about 4 pixels per
module, so rendered frames read quickly at the live settings (decimate 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.layout import Layout, demo_layout, load_layout
from vision.owners import OwnerRegistry


def compact_layout() -> Layout:
    return demo_layout()


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
