"""The firmware fixture of the NFC tests, for the Love, Money, Power, Death tables played on the
board."""

from tests.hardware.conftest import firmware  # noqa: F401 - the fixture, built once per run
