"""What a move did, as the table sees it, and what the game waits for next.

:meth:`RabState.apply <companion.games.ruse_and_bruise.game.RabState.apply>` returns an
:class:`Effects`; :attr:`RabState.waiting <companion.games.ruse_and_bruise.game.RabState.waiting>`
is a :class:`Waiting`: whose decision it is (the player in turn, or the owner of a Cloak or a
Traitor just turned over, who may not be the player in turn) or which move of the table's is
due, and why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from companion.games.ruse_and_bruise.cards import Influence
from companion.games.ruse_and_bruise.moves import Seen

if TYPE_CHECKING:
    from companion.games.ruse_and_bruise.scoring import Outcome, RoundResult

__all__ = ["Effects", "Waiting"]


class Effects(NamedTuple):
    """Everything one move did.

    - ``player``: who decided (``None`` for the table's moves: a round, a card turned over,
      an Explorer, an Assassin, a Storm, the reveal, the distribution);
    - ``result``: the round the move distributed (B18-B27), ``None`` otherwise;
    - ``kind``: the record's event name (``"place"``, ``"turn"``, ...);
    - ``column``: the column the move concerns (1 to N), when one does;
    - ``card``, ``owner``: the card placed, turned over, moved or discarded and its owner;
    - ``ability``: the immediate ability now due (``"EXPL"``, ...; B10), after a card turned
      over;
    - ``completed``: the columns the move made complete (B16);
    - ``turn_over``: whether the move ended a turn (the draw done, B9);
    - ``round_over``: whether the move ended the round (B16);
    - ``outcome``: the game's end, when the move ended it (B28).
    """

    player: str | None
    result: RoundResult | None = None
    kind: str = ""
    column: int | None = None
    card: Seen | None = None
    owner: str | None = None
    ability: str | None = None
    completed: tuple[int, ...] = ()
    turn_over: bool = False
    round_over: bool = False
    outcome: Outcome | None = None


class Waiting(NamedTuple):
    """What the game waits for: ``what`` is the record event due (``"round"``, ``"place"``,
    ``"turn"``, ``"explorer"``, ``"assassin"``, ``"storm"``, ``"cloak"``, ``"traitor"``,
    ``"reveal"``, ``"distribution"``, or ``"over"``); ``player`` the player deciding
    (``None`` when the table acts); ``column`` the column concerned (1 to N); ``card`` the card
    acting; ``reason`` why, in words with the ruling."""

    what: str
    player: str | None
    column: int | None
    card: Influence | None
    reason: str
