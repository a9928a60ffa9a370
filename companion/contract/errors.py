"""The refusals every game's rules raise, one ``ValueError`` subclass each (as python-chess
has): the session, the record reader and the commands catch these, whatever the game."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "InvalidMoveError", "UnknownCardError", "MalformedEventError"]


class IllegalMoveError(ValueError):
    """A move that breaks a rule of the game. ``rule`` is the ruling it breaks (``"R4"``,
    ``"C9"``), the message says how, in words for the table."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message if message.startswith(rule + ":") else f"{rule}: {message}")


class InvalidMoveError(ValueError):
    """A move that is malformed whatever the game state (an unknown player, a detail given to
    a card it does not belong to, ...). A well-formed move that breaks a rule raises
    :class:`IllegalMoveError` instead."""


class UnknownCardError(ValueError):
    """A text that names no card of the game; the message says which forms are accepted."""

    def __init__(self, text: str, reason: str | None = None) -> None:
        self.text = text
        super().__init__(reason or f"{text!r} is no card")


class MalformedEventError(ValueError):
    """A record's event whose fields are not what the game's record format says (a card id
    where a list belongs, a missing name): the codec's refusal, before any rule is asked.
    ``key`` and ``expected`` name the field and what it must be, when one field is at fault,
    so that readers of other files (a table configuration) can say it in their own words."""

    def __init__(self, message: str, *, key: str | None = None, expected: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.expected = expected

    @classmethod
    def field(cls, key: str, expected: str) -> MalformedEventError:
        """Field ``key`` is not ``expected`` (``"a whole number"``)."""
        return cls(f'"{key}" must be {expected}', key=key, expected=expected)
