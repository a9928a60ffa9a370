"""Fixtures for the NFC tests: the real firmware built once per test run, the emulated board,
a collector that waits for observations, and a clock that moves only when a test moves it."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.emulator import BoardEmulator, FirmwareBuild, build_firmware

TOOLS = ("make", "avr-gcc", "avr-objcopy", "avr-size", "cc", "pkg-config")


def _missing_tools() -> list[str]:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if shutil.which("pkg-config") and subprocess.run(["pkg-config", "--exists", "simavr"]).returncode:
        missing.append("libsimavr-dev")
    return missing


@pytest.fixture(scope="session")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> FirmwareBuild:
    missing = _missing_tools()
    if missing:
        # The test command installs them (packaging/apt-test.txt): missing means a broken set-up.
        pytest.fail(f"firmware tools missing: {', '.join(missing)} (see packaging/apt-test.txt)")
    return build_firmware(tmp_path_factory.mktemp("firmware-build"))


@pytest.fixture
def board(firmware: FirmwareBuild, tmp_path: Path) -> Iterator[BoardEmulator]:
    """An emulated board with four PN532 readers, reachable at a stable link path."""
    with BoardEmulator(firmware, chips="0123", link=tmp_path / "board") as emu:
        yield emu


class Collector:
    """Thread-safe list of whatever a sensor emits, with ways to wait for an item."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._cond = threading.Condition()

    def __call__(self, item: Any) -> None:
        with self._cond:
            self.items.append(item)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[Any], bool], timeout: float = 60.0, start: int = 0) -> Any:
        """The first item from index ``start`` on that satisfies ``predicate``. The timeout
        only bounds a test that is already failing (generous: a loaded machine is slow)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for item in self.items[start:]:
                    if predicate(item):
                        return item
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"nothing matched within {timeout} s; got: {self.items[start:]!r}")
                self._cond.wait(left)

    def of_type(self, kind: type) -> list[Any]:
        with self._cond:
            return [i for i in self.items if isinstance(i, kind)]

    def mark(self) -> int:
        with self._cond:
            return len(self.items)


@pytest.fixture
def collector() -> Collector:
    return Collector()


class ManualClock:
    """A stand-in for ``time.monotonic`` that moves only by :meth:`advance`: a debounce
    measured on it ends when the test says, however slow the machine is."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()
