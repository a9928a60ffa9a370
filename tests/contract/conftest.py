"""A third game installed for a test: registered by name as a game packaged apart is, and gone
again after the test (the registry's and the allocator's caches emptied both ways)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.contract import registry


def _forget() -> None:
    registry.forget()


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``install(name, "module:ATTR")`` registers a game for the test."""

    def add(name: str, target: str) -> None:
        monkeypatch.setitem(registry._BUILT_IN, name, target)
        _forget()

    yield add
    monkeypatch.undo()
    _forget()


@pytest.fixture
def toy(install: Any) -> Any:
    """The toy third game (:mod:`tests.contract.toy_game`), installed."""
    install("test-columns", "tests.contract.toy_game:GAME")
    return registry.game("test-columns")
