"""A game's record format, as the record reader and writer of :mod:`companion.records` ask it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from companion.contract.state import Move

__all__ = ["RecordCodec"]


class RecordCodec(Protocol):
    """A game's record format: the first line (the ``game`` event) and the events after it,
    read and written. :mod:`companion.records.format` does the lines, the checking and the
    errors; the codec knows the game's events."""

    @property
    def format(self) -> str:
        """The ``format`` of the record's ``game`` event: ``"rop-record/1"``."""

    @property
    def events(self) -> tuple[str, ...]:
        """The event names after the ``game`` event, for the reader's error messages."""

    def read_setup(self, header: Mapping[str, Any]) -> Any:
        """The :class:`Setup` of a record's ``game`` event; :class:`ValueError` (an
        :class:`~companion.contract.errors.IllegalMoveError` naming the ruling, or a plain
        message for a malformed field) when it is not one."""

    def read_move(self, event: Mapping[str, Any], setup: Any) -> Move:
        """The move of one event; :class:`ValueError` (:class:`~companion.contract.errors.
        UnknownCardError`, :class:`~companion.contract.errors.InvalidMoveError`, ...) when it is
        malformed, :class:`TypeError`, :class:`KeyError` or :class:`AttributeError` for a field
        of the wrong shape."""

    def setup_event(self, setup: Any) -> dict[str, Any]:
        """The ``game`` event of ``setup``: ``event`` and ``format`` first."""

    def move_event(self, move: Move, setup: Any) -> dict[str, Any]:
        """The event of ``move``."""

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        """The same moves with cards that were unseen when recorded filled in, where later
        moves tell them (hands dealt face down, once played)."""

    def is_period_start(self, move: Move) -> bool:
        """Whether ``move`` begins a scoring period (a round, a season)."""
