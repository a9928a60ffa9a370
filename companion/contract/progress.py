"""Where a game stands, in the game's own words: its period and whose decision comes next.

A game words its progress once (its ``progress`` function, next to its rules), and every
screen says it from there: the dashboard's status line and the club's live page. So a
spectator reads "Season 2, action 4 of 15 · To act: bob" where the table reads the same.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Progress"]


class Progress(NamedTuple):
    """A game's progress in its words.

    >>> Progress("Season 1, action 3 of 15", "To act", who="bob").line
    'Season 1, action 3 of 15 · To act: bob'
    >>> Progress("Season 1, action 4 of 15", "Next", what="turn up a city").line
    'Season 1, action 4 of 15 · Next: turn up a city'
    """

    period: str
    """The period under way in the game's words (``"Round 2"``, ``"Season 1, action 3 of
    15"``), ``"New game"`` before the first."""
    label: str = ""
    """What is due (``"To play"``, ``"To act"``, ``"To commit"``, ``"Next"``); ``""`` when
    :attr:`what` says it whole, or when the game is over."""
    who: str = ""
    """The players whose decision it is (``"bob"``, ``"ann, cy"``); ``""`` when the table
    itself acts."""
    what: str = ""
    """What the table does when nobody decides (``"turn up a city"``)."""

    @property
    def due(self) -> str:
        """What is due, without the period: ``"To act: bob"``."""
        said = self.who or self.what
        return f"{self.label}: {said}" if self.label and said else self.label or said

    @property
    def line(self) -> str:
        """The whole line, the period first."""
        return f"{self.period} · {self.due}" if self.due else self.period
