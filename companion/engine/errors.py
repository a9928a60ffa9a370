"""The engine's two kinds of refusal, one ``ValueError`` subclass each (as python-chess has)."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "InvalidMoveError"]


class IllegalMoveError(ValueError):
    """A move that breaks a rule of the game. ``rule`` is the ruling it breaks (``"R4"``),
    the message says how, in words for the table."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message if message.startswith(rule + ":") else f"{rule}: {message}")


class InvalidMoveError(ValueError):
    """A move that is malformed whatever the game state (an unknown player, a Fate card's
    detail given to a card it does not belong to, ...). A well-formed move that breaks a rule
    raises :class:`IllegalMoveError` instead."""
