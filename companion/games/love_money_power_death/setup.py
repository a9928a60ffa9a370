"""The fixed facts of a game of Love, Money, Power, Death: the players in seating order and the
nobles in use (L4), and what follows from them: the size of each pile and of the cards set
aside (L5), and the number of rounds (L12).

>>> setup = LmpdSetup.make(["ann", "bob", "cy", "dee", "eve"], nobles=8)
>>> setup.pile_size, setup.aside_size, setup.rounds, [c.id for c in setup.nobles]
(8, 2, 8, ['N2L', 'N2M', 'N2P', 'N2D', 'N3L', 'N3M', 'N3P', 'N3D'])
>>> len(LmpdSetup.make(["ann", "bob", "cy", "dee", "eve", "fay"]).nobles)
7
>>> LmpdSetup.make(["ann", "bob", "cy", "dee", "eve"], nobles=10)
Traceback (most recent call last):
...
companion.contract.errors.IllegalMoveError: L4: 5 players play with at most 8 nobles (nobles x players <= 42: besides the nobles, as many cards as nobles for each player), not 10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.contract import HandedGame
from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.games.love_money_power_death.cards import (
    CARD_FORMS,
    DEALT_COUNT,
    DECK_NOBLES,
    NOBLES,
    SUIT_NAMES,
    SUITS,
    Card,
)

if TYPE_CHECKING:
    from companion.games.love_money_power_death import LoveMoneyPowerDeath

__all__ = ["LmpdSetup", "MOST", "FIVES", "DEFAULT_FIVES", "HAND_SIZE", "deck_nobles", "nobles_for_count", "max_nobles", "max_players", "read_nobles"]

HAND_SIZE = 3
"""A hand is the top three cards of a player's pile (L5)."""

FIVES: tuple[str, ...] = tuple(
    f"{SUIT_NAMES[a].lower()}-{SUIT_NAMES[b].lower()}" for i, a in enumerate(SUITS) for b in SUITS[i + 1 :]
)
"""The pairs of suits a deck's two rank-5 nobles may have (L1: two different suits, which
depends on the deck): ``love-money``, ``love-power``, ..."""
DEFAULT_FIVES = "love-power"

MOST = 0
"""The number of nobles that stands for "as many as the players allow" (L4): the deck's ten for
two to four players, eight for five, seven for six, ..."""
"""The rank-5 nobles of the companion's reference deck: N5L and N5P."""

_FORBIDDEN = (",", "=", "+", "?")
"""Characters a player's name may not hold: ``rop legal`` writes plays as ``ann=3La,bob=?``
and hands as ``cy=1Pb+5M``."""


def deck_nobles(fives: str = DEFAULT_FIVES) -> tuple[Card, ...]:
    """The ten nobles of a deck whose rank-5 nobles have the suits ``fives`` (L1): a rank 2 and
    a rank 3 of each suit, and the two rank 5s."""
    if fives not in FIVES:
        raise InvalidMoveError(f"the rank-5 nobles' suits are one of {', '.join(FIVES)}, not {fives!r}")
    first, second = (n[0].upper() for n in fives.split("-"))
    return tuple(c for c in NOBLES if c.rank != 5 or c.suit in (first, second))


def nobles_for_count(count: int, fives: str = DEFAULT_FIVES) -> tuple[Card, ...]:
    """The nobles a table plays with when it chooses only how many (L4): the deck's nobles kept
    in this order, the rank 2s, the rank 3s, then the rank 5s (so that fewer nobles drop the
    fives first and keep every suit as long as they can)."""
    if type(count) is not int or not 1 <= count <= DECK_NOBLES:
        raise IllegalMoveError("L4", f"a table plays with 1 to {DECK_NOBLES} nobles, not {count!r}")
    return deck_nobles(fives)[:count]


def max_nobles(players: int) -> int:
    """The most nobles ``players`` players may use (L4: nobles x players <= 42), at most ten."""
    return min(DECK_NOBLES, DEALT_COUNT // players)


def max_players(nobles: int) -> int:
    """The most players a table with ``nobles`` nobles may seat (L4)."""
    return DEALT_COUNT // nobles


def read_nobles(value: object) -> tuple[Card, ...]:
    """Nobles named by a list of identifiers (or cards), or one text separated by commas or
    ``+``; :class:`~companion.contract.errors.UnknownCardError` or
    :class:`~companion.contract.errors.IllegalMoveError` (L4) otherwise."""
    items: Iterable[object]
    if isinstance(value, str):
        items = [p for p in (s.strip() for s in value.replace("+", ",").split(",")) if p]
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        raise InvalidMoveError(f'"nobles" must be a list of nobles (N2L, N3M, N5D), not {value!r}')
    out = []
    for item in items:
        if isinstance(item, Card):
            card = item
        elif isinstance(item, str):
            try:
                card = Card.from_id(item)
            except UnknownCardError as exc:
                raise UnknownCardError(item, f'"nobles": {exc}') from None
        else:
            raise InvalidMoveError(f'"nobles" must list noble identifiers (N2L, N3M), not {item!r}')
        if not card.is_noble:
            raise IllegalMoveError("L4", f"{card.id} is no noble: the nobles in use are nobles ({CARD_FORMS})")
        out.append(card)
    return tuple(out)


THE_GAME: HandedGame[LoveMoneyPowerDeath] = HandedGame("Love, Money, Power, Death")
"""Love, Money, Power, Death, as its package hands it over once it is made: the game of every set-up."""


@dataclass(frozen=True, slots=True)
class LmpdSetup:
    """Who plays, in seating order (two or more, L4), and the nobles in use (L4), in catalogue
    order. A table the rules do not allow is refused when made, naming the ruling."""

    players: tuple[str, ...]
    nobles: tuple[Card, ...]

    def __post_init__(self) -> None:
        players = (self.players,) if isinstance(self.players, str) else tuple(self.players)
        object.__setattr__(self, "players", players)
        if len(players) < 2:
            raise IllegalMoveError("L4", f"a game has two or more players, not {len(players)}")
        for name in players:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise InvalidMoveError(f"a player's name must be a non-empty word without surrounding blanks: {name!r}")
            if any(ch in name for ch in _FORBIDDEN):
                raise InvalidMoveError(f"a player's name may not hold ',', '=', '+' or '?': {name!r}")
        if len(set(players)) != len(players):
            twice = next(p for p in players if players.count(p) > 1)
            raise IllegalMoveError("L4", f"each player sits once: {twice} is named twice")
        nobles = read_nobles(self.nobles)
        if not nobles:
            raise IllegalMoveError("L4", "a table plays with at least one noble")
        seen: set[Card] = set()
        for card in nobles:
            if card in seen:
                raise IllegalMoveError("L4", f"{card.id} is named twice: one deck holds each noble once")
            seen.add(card)
        fives = [c.id for c in nobles if c.rank == 5]
        if len(fives) > 2:
            raise IllegalMoveError("L4", f"one deck holds two rank-5 nobles, not {len(fives)} ({', '.join(fives)})")
        object.__setattr__(self, "nobles", tuple(sorted(nobles)))
        if len(players) > DEALT_COUNT:
            raise IllegalMoveError("L4", f"at most {DEALT_COUNT} players can play (nobles x players <= 42, with one noble at least), not {len(players)}")
        if len(nobles) * len(players) > DEALT_COUNT:
            most = max_nobles(len(players))
            raise IllegalMoveError(
                "L4",
                f"{len(players)} players play with at most {most} noble{'s' if most != 1 else ''} (nobles x players <= 42: "
                f"besides the nobles, as many cards as nobles for each player), not {len(nobles)}",
            )

    @classmethod
    def make(cls, players: Sequence[str], nobles: int | str | Sequence[str | Card] = MOST, fives: str = DEFAULT_FIVES) -> LmpdSetup:
        """A table of ``players`` with ``nobles``: how many of a deck's (L4, see
        :func:`nobles_for_count`; ``fives`` says the suits of the deck's rank-5 nobles; 0, the
        default, as many as the players allow), or which ones (identifiers)."""
        if isinstance(nobles, bool):
            raise InvalidMoveError(f"the nobles are a number or a list of nobles, not {nobles!r}")
        if isinstance(nobles, str) and nobles.strip().isdigit():
            nobles = int(nobles)
        if isinstance(nobles, int):
            count = max(1, max_nobles(max(1, len(players)))) if nobles == MOST else nobles
            chosen = nobles_for_count(count, fives)
        else:
            chosen = read_nobles(nobles)
        return cls(tuple(players), chosen)

    @property
    def game(self) -> LoveMoneyPowerDeath:
        """Love, Money, Power, Death, as its package hands it over (:data:`THE_GAME`)."""
        return THE_GAME()

    @property
    def pile_size(self) -> int:
        """Each player's pile as dealt: floor(42 / players) cards (L5)."""
        return DEALT_COUNT // len(self.players)

    @property
    def aside_size(self) -> int:
        """The cards set aside face down, out of the game: 42 mod players (L5)."""
        return DEALT_COUNT % len(self.players)

    @property
    def hand_size(self) -> int:
        """The hand drawn at the deal: the top three of the pile, or all of it (L5)."""
        return min(HAND_SIZE, self.pile_size)

    @property
    def rounds(self) -> int:
        """A game has as many rounds as nobles in use (L12)."""
        return len(self.nobles)
