"""The rules engine of Rule of Power: pure logic, no I/O, nothing imported but the standard
library and this package.

- :mod:`~companion.games.rule_of_power.engine.cards`: the cards (R1-R3), one immutable value per card.
- :mod:`~companion.games.rule_of_power.engine.captures`: capture options (R4, R5).
- :mod:`~companion.games.rule_of_power.engine.moves`: the moves, small immutable values.
- :mod:`~companion.games.rule_of_power.engine.fate`: every Fate card's rules, one class per card (R19-R25).
- :mod:`~companion.games.rule_of_power.engine.game`: :class:`GameState` with ``legal_moves``, ``push``/``pop``,
  made of one module per part of the rules: ``setup`` (R2, R14, R16), ``position``, ``reading``,
  ``dealing`` (R15, R18), ``turns`` (R17), ``plays`` (R4-R7, R19-R25), ``rounds`` (R6, R8-R14),
  ``hidden`` (a player's view).
- :mod:`~companion.games.rule_of_power.engine.scoring`: the points of a round with their reasons (R6-R14).
- :mod:`~companion.games.rule_of_power.engine.view`: what one player may know.
"""

from companion.games.rule_of_power.engine.cards import Card, UnknownCardError
from companion.games.rule_of_power.engine.game import GameSetup, GameState, IllegalMoveError, Outcome, Phase, RoundResult, Termination
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, DrawFate, InvalidMoveError, Move, NewRound, Pass, Play

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
