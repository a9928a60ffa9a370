"""What one move of Love, Money, Power, Death did, as :meth:`LmpdState.apply
<companion.games.love_money_power_death.state.LmpdState.apply>` tells it (the contract's
:class:`~companion.contract.Effects`)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.scoring import Outcome, RoundResult

__all__ = ["Effects"]


@dataclass(frozen=True, slots=True)
class Effects:
    """What a move did.

    - ``player``: who made it (a commit), ``None`` for the table's moves.
    - ``kind``: ``"deal"``, ``"commit"``, ``"noble"``, ``"reveal"`` or ``"draw"``.
    - ``round``: the round it belongs to (1 for the deal).
    - ``noble``: the noble turned up (``"noble"``).
    - ``result``: the round it decided (``"reveal"``, L8-L10), ``None`` otherwise.
    - ``outcome``: the end of the game, with the last round's reveal (L12, L13).
    - ``waiting``: the players still to commit after a commit (L6).
    - ``empty``: the players who drew nothing, their piles empty (L11).
    """

    player: str | None
    kind: str
    round: int
    noble: Card | None = None
    result: RoundResult | None = None
    outcome: Outcome | None = None
    waiting: tuple[str, ...] = ()
    empty: tuple[str, ...] = ()
