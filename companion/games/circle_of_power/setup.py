"""The fixed facts of a game of Circle of Power: the players in their clockwise order, the
variant and the target (C4, C17-C19).

>>> setup = CircleSetup(("ann", "bob", "cy"), "coloured-cities")
>>> setup.dummies, setup.target
(('@1',), 6)
>>> CircleSetup(("ann", "@bob"))
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: C4: a player's name may not begin with '@' (dummies are @1, @2, ...): '@bob'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from companion.contract import HandedGame
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from companion.games.circle_of_power import CircleOfPower

__all__ = [
    "CircleSetup",
    "VARIANTS",
    "BASIC",
    "LONELY_TYRANT",
    "COLOURED_CITIES",
    "MAX_TARGET",
    "is_dummy",
    "THE_GAME",
]

BASIC = "basic"
LONELY_TYRANT = "lonely-tyrant"
COLOURED_CITIES = "coloured-cities"
VARIANTS: tuple[str, ...] = (BASIC, LONELY_TYRANT, COLOURED_CITIES)
"""The variants a record may name: the basic rules, Lonely Tyrant (C18), Coloured Cities (C19)."""

MAX_TARGET = 99
"""The highest target a table may choose (C17); the rulebook's is 6."""

_FORBIDDEN = (",", "=", "+")
"""Characters a player's name may not hold: ``rop legal`` writes seats as ``ann=KH,bob=QS``
and lines as ``bob=QD+JH``."""


THE_GAME: HandedGame[CircleOfPower] = HandedGame("Circle of Power")
"""Circle of Power, as its package hands it over: the game of a set-up made without one."""


def is_dummy(name: str) -> bool:
    """Whether ``name`` is an auto emperor's (C4: ``@1``, ``@2``, ...)."""
    return name.startswith("@")


@dataclass(frozen=True, slots=True)
class CircleSetup:
    """Who plays, clockwise (2-4 players, C4), the ``variant`` (``basic``, ``lonely-tyrant`` or
    ``coloured-cities``) and the ``target`` of trophies that ends the game (C17, 6 unless the
    table chose another; Lonely Tyrant ignores it). The missing emperors are dummies.

    ``game`` is Circle of Power, the game this is a set-up of, handed over by the game's
    ``make_setup``; a set-up made directly gets the one its package made
    (:data:`THE_GAME`). It takes no part in comparisons."""

    players: tuple[str, ...]
    variant: str = BASIC
    target: int = 6
    game: CircleOfPower = field(default=cast("CircleOfPower", None), kw_only=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.game is None:
            object.__setattr__(self, "game", THE_GAME())
        players = tuple(self.players) if not isinstance(self.players, str) else (self.players,)
        object.__setattr__(self, "players", players)
        if not 2 <= len(players) <= 4:
            raise IllegalMoveError("C4", f"a game has 2 to 4 players (dummies fill the other seats), not {len(players)}")
        for name in players:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise InvalidMoveError(f"a player's name must be a non-empty word without surrounding blanks: {name!r}")
            if name.startswith("@"):
                raise IllegalMoveError("C4", f"a player's name may not begin with '@' (dummies are @1, @2, ...): {name!r}")
            if any(ch in name for ch in _FORBIDDEN):
                raise InvalidMoveError(f"a player's name may not hold ',', '=' or '+': {name!r}")
        if len(set(players)) != len(players):
            raise IllegalMoveError("C4", "each player sits once: a name is given twice")
        if self.variant not in VARIANTS:
            raise InvalidMoveError(f"unknown variant {self.variant!r}: one of {', '.join(VARIANTS)}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or not 1 <= self.target <= MAX_TARGET:
            raise InvalidMoveError(f"the target is a whole number from 1 to {MAX_TARGET}, not {self.target!r}")

    @property
    def dummies(self) -> tuple[str, ...]:
        """The dummies of the first season: ``@1``, ``@2``, ... for the missing emperors (C4)."""
        return tuple(f"@{k}" for k in range(1, 5 - len(self.players)))

    @property
    def lonely_tyrant(self) -> bool:
        """Whether knock-outs count (C18, C19)."""
        return self.variant != BASIC
