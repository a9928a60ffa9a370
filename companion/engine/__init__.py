"""The rules engine of Rule of Power: pure logic, no I/O, nothing imported but the standard
library and this package.

- :mod:`~companion.engine.cards`: the cards (R1-R3), one immutable value per card.
- :mod:`~companion.engine.captures`: capture options (R4, R5).
- :mod:`~companion.engine.moves`: the moves, small immutable values.
- :mod:`~companion.engine.fate`: every Fate card's rules, one class per card (R19-R25).
- :mod:`~companion.engine.game`: :class:`GameState` with ``legal_moves``, ``push``/``pop``.
- :mod:`~companion.engine.scoring`: the points of a round with their reasons (R6-R14).
- :mod:`~companion.engine.view`: what one player may know.
"""

from companion.engine.cards import Card, UnknownCardError
from companion.engine.game import GameSetup, GameState, IllegalMoveError, Outcome, Phase, RoundResult, Termination
from companion.engine.moves import UNSEEN, Deal, DrawFate, InvalidMoveError, Move, NewRound, Pass, Play

__all__ = [
    "Card",
    "UnknownCardError",
    "GameSetup",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "Phase",
    "RoundResult",
    "Termination",
    "UNSEEN",
    "Move",
    "NewRound",
    "Deal",
    "Play",
    "DrawFate",
    "Pass",
]
