"""A game's record format, as the record reader and writer of :mod:`companion.records` ask it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from companion.contract.errors import MalformedEventError, UnknownCardError
from companion.contract.state import Move

__all__ = ["RecordCodec", "read_card"]

_C = TypeVar("_C")


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


def read_card(value: Any, key: str, known: Mapping[str, _C], parse: Callable[[str], _C], expected: str = "a card id") -> _C:
    """The card that field ``key`` of a record's event names: ``known`` holds the game's cards by
    their canonical id (the fast way, since a record names them so), ``parse`` reads any other
    form the game accepts. Anything but a text is malformed (``"card" must be a card id, not
    7``); a text that names no card says which field held it."""
    if type(value) is str:
        card = known.get(value)
        if card is not None:
            return card
        try:
            return parse(value)
        except UnknownCardError as exc:
            raise UnknownCardError(value, f'"{key}": {exc}') from None
    raise MalformedEventError(f'"{key}" must be {expected}, not {value!r}', key=key, expected=expected)
