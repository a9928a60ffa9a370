"""The fixed facts of a game of Ruse and Bruise (B1, B4-B6): who plays in turn order, each
player's colour, the table's values table, and the deal as far as it was seen (the goal
stacks and the starting hands).

>>> from companion.games.ruse_and_bruise.values import EXAMPLE
>>> setup = RabSetup(("ann", "bob", "cy"), ("blue", "white", "red"), EXAMPLE)
>>> setup.colour_of("bob"), setup.goals, setup.hand_of("ann")
('white', None, None)
>>> RabSetup(("ann", "bob"), ("blue", "blue"), EXAMPLE)
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: B6: each player has a colour of their own: ann and bob are both blue
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.contract import HandedGame
from companion.contract.cards import UNSEEN, Unseen
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.ruse_and_bruise.cards import COLOURS, GOALS_PER_PLAYER, HAND_SIZE, Goal, Influence
from companion.games.ruse_and_bruise.values import ValuesTable

if TYPE_CHECKING:
    from companion.games.ruse_and_bruise import RuseAndBruise

__all__ = ["RabSetup", "MIN_PLAYERS", "MAX_PLAYERS", "GoalStack", "Hand", "default_colours"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6

GoalStack = tuple[Goal | Unseen, ...]
"""A goal stack, top first: each card as seen, :data:`~companion.contract.cards.UNSEEN` where
nobody saw it."""
Hand = tuple[Influence | Unseen, ...]
"""A hand as seen: each card, or :data:`~companion.contract.cards.UNSEEN`."""

_FORBIDDEN = (",", "=", ":")
"""Characters a player's name may not hold: ``rop legal`` writes cards as ``ann:KING`` and
values as ``ASSN=6``, lists with commas."""


def default_colours(count: int) -> tuple[str, ...]:
    """The colours of a table that names none: the box's, in order (B1)."""
    return COLOURS[:count]


THE_GAME: HandedGame[RuseAndBruise] = HandedGame("Ruse and Bruise")
"""Ruse and Bruise, as its package hands it over once it is made: the game of every set-up."""


@dataclass(frozen=True, slots=True)
class RabSetup:
    """Who plays, in turn order (clockwise, the starting player of round 1 first: 2-6
    players, B6), each player's ``colours`` (all different, B1), the table's ``values`` (B4;
    ``None`` for a set-up still waiting for it: its game cannot begin), and what was seen of
    the deal: ``goals``, one stack per player of 6 goal cards, top first, stack k heading
    column k (B6, B7; ``None`` when unseen), and ``hands``, each player's 3 starting cards
    (``None`` for a hand unseen). Cards may be given by their identifiers."""

    players: tuple[str, ...]
    colours: tuple[str, ...]
    values: ValuesTable | None
    goals: tuple[GoalStack, ...] | None = None
    hands: tuple[Hand | None, ...] | None = None

    def __post_init__(self) -> None:
        players = (self.players,) if isinstance(self.players, str) else tuple(self.players)
        object.__setattr__(self, "players", players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise IllegalMoveError("B6", f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        for name in players:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise InvalidMoveError(f"a player's name must be a non-empty word without surrounding blanks: {name!r}")
            if any(ch in name for ch in _FORBIDDEN):
                raise InvalidMoveError(f"a player's name may not hold ',', '=' or ':': {name!r}")
        if len(set(players)) != len(players):
            raise IllegalMoveError("B6", "each player sits once: a name is given twice")
        colours = tuple(self.colours)
        object.__setattr__(self, "colours", colours)
        if len(colours) != len(players):
            raise IllegalMoveError("B6", f"each player has a colour: {len(players)} players, {len(colours)} colours")
        for name, colour in zip(players, colours):
            if colour not in COLOURS:
                raise IllegalMoveError("B1", f"{name}'s colour is one of {', '.join(COLOURS)}, not {colour!r}")
        for i, colour in enumerate(colours):
            if colour in colours[:i]:
                other = players[colours.index(colour)]
                raise IllegalMoveError("B6", f"each player has a colour of their own: {other} and {players[i]} are both {colour}")
        if self.values is not None and not isinstance(self.values, ValuesTable):
            raise InvalidMoveError(f"the values table must be a ValuesTable, not {self.values!r}")
        if self.goals is not None:
            object.__setattr__(self, "goals", self._checked_goals(self.goals))
        if self.hands is not None:
            object.__setattr__(self, "hands", self._checked_hands(self.hands))

    def _checked_goals(self, goals: Sequence[Sequence[Goal | Unseen | None]]) -> tuple[GoalStack, ...] | None:
        stacks = tuple(tuple(UNSEEN if g is None else Goal.from_id(g) if isinstance(g, str) else g for g in stack) for stack in goals)
        if len(stacks) != len(self.players):
            raise IllegalMoveError("B6", f"one goal stack per player: {len(self.players)} players, {len(stacks)} stacks")
        seen: set[Goal] = set()
        for k, stack in enumerate(stacks, 1):
            if len(stack) != GOALS_PER_PLAYER:
                raise IllegalMoveError("B6", f"goal stack {k} holds {len(stack)} cards, not {GOALS_PER_PLAYER}")
            for g in stack:
                if isinstance(g, Goal):
                    if g in seen:
                        raise IllegalMoveError("B5", f"{g.id} is dealt twice: there is one of each goal card")
                    seen.add(g)
                elif not isinstance(g, Unseen):
                    raise InvalidMoveError(f"goal stack {k}: {g!r} is no goal card")
        if all(isinstance(g, Unseen) for stack in stacks for g in stack):
            return None
        return stacks

    def _checked_hands(self, hands: Sequence[Sequence[Influence | Unseen | None] | None]) -> tuple[Hand | None, ...] | None:
        out: list[Hand | None] = []
        if len(hands) != len(self.players):
            raise IllegalMoveError("B6", f"one starting hand per player: {len(self.players)} players, {len(hands)} hands")
        for name, hand in zip(self.players, hands):
            if hand is None:
                out.append(None)
                continue
            cards = tuple(UNSEEN if c is None else Influence.from_id(c) if isinstance(c, str) else c for c in hand)
            if len(cards) != HAND_SIZE:
                raise IllegalMoveError("B6", f"{name}'s starting hand holds {HAND_SIZE} cards, not {len(cards)}")
            named = [c for c in cards if isinstance(c, Influence)]
            if any(not isinstance(c, (Influence, Unseen)) for c in cards):
                raise InvalidMoveError(f"{name}'s starting hand: {hand!r} holds something that is no influence card")
            if len(set(named)) != len(named):
                raise IllegalMoveError("B1", f"{name}'s starting hand names a card twice: each player has one of each card")
            out.append(None if not named else cards)
        return None if all(h is None for h in out) else tuple(out)

    @property
    def game(self) -> RuseAndBruise:
        """Ruse and Bruise, as its package hands it over (:data:`THE_GAME`)."""
        return THE_GAME()

    def colour_of(self, player: str) -> str:
        return self.colours[self.players.index(player)]

    def hand_of(self, player: str) -> Hand | None:
        """``player``'s starting hand as seen, ``None`` when unseen."""
        if self.hands is None:
            return None
        return self.hands[self.players.index(player)]

    def with_values(self, values: ValuesTable) -> RabSetup:
        """The same table with its values table."""
        return RabSetup(self.players, self.colours, values, self.goals, self.hands)
