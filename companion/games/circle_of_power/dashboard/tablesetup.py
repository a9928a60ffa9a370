"""A Circle of Power table for manual play: the players clockwise (2-4, dummies in the other
seats, C4), the variant (C18, C19), the target (C17) and the first season's dealer (C5).

>>> table = build_table_choice("ann, bob, cy", variant="lonely-tyrant", dealer="bob")
>>> table.setup.players, table.setup.dummies, table.first_dealer
(('ann', 'bob', 'cy'), ('@1',), 'bob')
>>> build_table_choice("ann,bob", teams=2)
Traceback (most recent call last):
...
companion.games.circle_of_power.dashboard.tablesetup.SetupError: Circle of Power has no teams: its table is set by the players, the variant, the target and the first dealer
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.dashboard import kit
from companion.games.circle_of_power.setup import VARIANTS, CircleSetup
from companion.contract.errors import IllegalMoveError, InvalidMoveError

__all__ = ["CircleTableChoice", "SetupError", "build_table_choice", "first_seats"]


class SetupError(kit.SetupError):
    """A table the rules do not allow (C4, C17), or a field that is not understood."""


_OTHER_OPTIONS = {
    "teams": "teams",
    "expansion": "expansion",
    "fate": "Fate decks",
    "fate_decks": "Fate decks",
    "companion_deals": "dealing by the companion (the season's cities are typed, or shuffled in the season dialog)",
}


@dataclass(frozen=True)
class CircleTableChoice:
    """A table as the set-up dialog or the command line chose it (:class:`~companion.dashboard.
    kit.TableChoice`)."""

    setup: CircleSetup
    first_dealer: str | None = None

    @property
    def options(self) -> dict[str, Any]:
        """What manual play needs besides the set-up: the first season's dealer (C5)."""
        return {"first_dealer": self.first_dealer}

    @property
    def facts(self) -> dict[str, Any]:
        """The table's facts for a tracker: none beyond the set-up."""
        return {}


def _players(text: str) -> list[str]:
    return [p for p in re.split(r"[\s,]+", text.strip()) if p]


def build_table_choice(
    players: str, *, variant: str | None = None, target: int | None = None, dealer: str | None = None, seed: int | None = None, **other: Any
) -> CircleTableChoice:
    """The table ``players`` (clockwise, separated by commas or blanks) make with ``variant``,
    ``target`` and the first ``dealer`` (default: the first player listed); :class:`SetupError`
    saying what is wrong. Options of other games (``teams``...) are refused by name."""
    del seed  # the companion shuffles nothing at the table's set-up
    for name in other:
        what = _OTHER_OPTIONS.get(name, name.replace("_", "-"))
        raise SetupError(f"Circle of Power has no {what}: its table is set by the players, the variant, the target and the first dealer")
    names = _players(players)
    chosen = variant or "basic"
    if chosen not in VARIANTS:
        raise SetupError(f"the variant is one of {', '.join(VARIANTS)}, not {chosen!r}")
    try:
        setup = CircleSetup(tuple(names), chosen, 6 if target is None else target)
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise SetupError(str(exc)) from None
    first = (dealer or "").strip() or None
    if first is not None and first not in names:
        raise SetupError(f"C5: the first dealer is one of the players ({', '.join(names)}), not {first!r}")
    return CircleTableChoice(setup, first or names[0])


def first_seats(setup: CircleSetup) -> tuple[str, ...]:
    """The first season's seats the companion proposes (C4): the players in their order, a
    single dummy after the last, two dummies each between two players (opposite each other)."""
    players, dummies = setup.players, setup.dummies
    if len(dummies) == 2:
        return (players[0], dummies[0], players[1], dummies[1])
    return players + dummies
