"""Every test runs with its own user data directory: nothing a test writes (owner slots, tag
registries) reaches the user's real calibration directory, and nothing there leaks in."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROP_CALIBRATION", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("user-data")))
