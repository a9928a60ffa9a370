"""The fixed facts of a game of Rule of Power: the seating (clockwise), the teams, whose members
sit alternately (R16), the target (R14) and whether the Higher Powers expansion is in (R2).

>>> setup = GameSetup(("ann", "bob", "cy", "dee"), (("ann", "cy"), ("bob", "dee")), 16)
>>> setup.sides, setup.side_of("cy"), setup.is_opponent("ann", "bob")
(('ann+cy', 'bob+dee'), 'ann+cy', True)
>>> GameSetup(("ann", "bob"), target=12)
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: R14: the target is 11, 16, 21, 26, ... not 12
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from companion.contract import HandedGame
from companion.contract.errors import IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from companion.games.rule_of_power import RuleOfPower

__all__ = ["GameSetup", "THE_GAME"]

THE_GAME: HandedGame[RuleOfPower] = HandedGame("Rule of Power")
"""Rule of Power, as its package hands it over: the game of a set-up made without one."""


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The fixed facts of a game: seating (clockwise), teams, target and expansion.

    Teams (R16) are tuples of player names; members must sit alternately, so that team
    ``i`` holds seats ``i``, ``i + k``, ``i + 2k``, ... for ``k`` teams.

    ``game`` is Rule of Power, the game this is a set-up of, handed over by the game's
    ``make_setup``; a set-up made directly gets the one its package made
    (:data:`THE_GAME`). It takes no part in comparisons.
    """

    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...] | None = None
    target: int = 11
    expansion: bool = False
    game: RuleOfPower = field(default=cast("RuleOfPower", None), kw_only=True, compare=False, repr=False)
    # Each player's side and the side names, worked out once: rules and scoring ask often.
    _side: dict[str, str] = field(init=False, repr=False, compare=False)
    _sides: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.game is None:
            object.__setattr__(self, "game", THE_GAME())
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        if not 2 <= len(players) <= 6:
            raise IllegalMoveError("R16", f"a game has 2 to 6 players, not {len(players)}")
        for name in players:
            if not isinstance(name, str) or not name or "+" in name:
                raise InvalidMoveError(f"player names must be non-empty and without '+': {name!r}")
        if len(set(players)) != len(players):
            raise IllegalMoveError("R16", "each player sits once: duplicate names in the seating")
        if self.target < 11 or (self.target - 11) % 5:
            raise IllegalMoveError("R14", f"the target is 11, 16, 21, 26, ... not {self.target}")
        if self.teams:
            teams = tuple(tuple(t) for t in self.teams)
            object.__setattr__(self, "teams", teams)
            flat = [p for t in teams for p in t]
            if not all(isinstance(p, str) for p in flat):
                raise InvalidMoveError(f"a team is a list of player names: {[list(t) for t in teams]!r}")
            if sorted(flat) != sorted(players):
                raise IllegalMoveError("R16", "the teams must hold every player exactly once")
            k = len(teams)
            sizes = {len(t) for t in teams}
            if k < 2 or len(sizes) != 1 or sizes == {1}:
                raise IllegalMoveError("R16", "teams are two or more teams of equal size, two or more players each")
            for t in teams:
                seats = [players.index(p) for p in t]
                if any((seats[0] + i * k) % len(players) not in seats for i in range(len(t))):
                    raise IllegalMoveError(
                        "R16", f"team members sit alternately around the table: {'+'.join(t)} do not"
                    )
        else:
            object.__setattr__(self, "teams", None)
        sides = tuple("+".join(t) for t in self.teams) if self.teams else players
        object.__setattr__(self, "_sides", sides)
        object.__setattr__(self, "_side", {p: side for t, side in zip(self.teams or (), sides) for p in t})

    @property
    def sides(self) -> tuple[str, ...]:
        """Side names: the players, or the teams joined with ``+`` (``ann+cy``)."""
        return self._sides

    def side_of(self, player: str) -> str:
        """The side ``player`` plays for: their team's name, or their own."""
        return self._side.get(player, player)

    def is_opponent(self, a: str, b: str) -> bool:
        side = self._side
        return a != b and side.get(a, a) != side.get(b, b)

    @property
    def deck_size(self) -> int:
        return 52 if self.expansion else 40
