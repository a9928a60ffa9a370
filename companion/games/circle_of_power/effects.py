"""What a move did, as the table sees it: which cards moved where, who won the initiative and
why, whether a city rebelled, who was knocked out, the season or game it ended.

:meth:`CircleState.apply <companion.games.circle_of_power.game.CircleState.apply>` returns an
:class:`Effects`; :meth:`~companion.games.circle_of_power.game.CircleState.effects` tells it
for a move not yet played. A dashboard animates the :attr:`Effects.transfers`; a tracker
checks the table against them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.moves import HandCard

if TYPE_CHECKING:
    from companion.games.circle_of_power.scoring import Outcome, SeasonResult

__all__ = [
    "Effects",
    "Transfer",
    "Initiative",
    "HAND",
    "PILE",
    "BATTLE_DECK",
    "TABLE",
    "GATHERED",
    "CITY",
    "CITY_DECK",
    "TROPHIES",
    "DESTROYED",
    "DISCARD",
]

HAND = "hand"
"""A player's hand cards (face down to the others)."""
PILE = "pile"
"""A dummy's face-down pile, top first (C8, C15)."""
BATTLE_DECK = "battle-deck"
"""The battle deck players draw from (C8, C15)."""
TABLE = "table"
"""The battle cards played face up in the current action (C8)."""
GATHERED = "gathered"
"""The played cards gathered face down beside the battle deck (C8), reshuffled after action 6
(C15)."""
CITY = "city"
"""An emperor's city card, face up (C4, C6)."""
CITY_DECK = "city-deck"
"""The city deck: the next available city on top (C7)."""
TROPHIES = "trophies"
"""An emperor's line of victories, face up (C12; Coloured Cities' line of history, C19)."""
DESTROYED = "destroyed"
"""An emperor's destroyed cities, face down (C18; in Coloured Cities in the line of history)."""
DISCARD = "discard"
"""Cities and trophies discarded face down behind the city deck until the season ends (C14)."""


class Transfer(NamedTuple):
    """One card moving from one place to another: ``source`` and ``destination`` are zones
    (:data:`HAND`, :data:`CITY`, ...), each with its owner (an emperor, ``None`` for the
    table's). ``card`` is :data:`~companion.games.circle_of_power.moves.UNSEEN` for a card
    moved face down that the companion did not see."""

    card: HandCard
    source: str
    source_owner: str | None
    destination: str
    destination_owner: str | None


class Initiative(NamedTuple):
    """Who holds the initiative of the action so far (C9): ``player``, the winning ``card``,
    whether it is ``trump`` for its player, and ``reason`` in words."""

    player: str
    card: Card
    trump: bool
    reason: str


class Effects(NamedTuple):
    """Everything one move did.

    - ``player``: who moved (``None`` for the table's moves: a season, a reveal, a reshuffle).
    - ``result``: the season the move ended (C16, or cut short by the Lonely Tyrant, C18).
    - ``kind``: the record's event name (``"play"``, ``"conquer"``, ...); ``action`` the action
      it belongs to (0 for a season's set-up).
    - ``card``: the card played or turned up; ``drew`` the card drawn (C8), ``drawn`` whether a
      card was drawn at all (seen or not).
    - ``initiative``: after an action's last card, who won the initiative and why (C9).
    - ``victim``: the emperor whose city was taken over (C12, C13).
    - ``transfers``: every card that moved, in order (an act also gathers the four played
      cards, C8).
    - ``rebellion``: the winner's city rebelled and cost ``lost`` (C14); ``threatened`` says
      whether the winner's city was under threat when they acted.
    - ``knocked_out``: players knocked out by the move (C18).
    - ``outcome``: the game's end, when the move ended it (C17, C18).
    """

    player: str | None
    result: SeasonResult | None = None
    kind: str = ""
    action: int = 0
    card: Card | None = None
    drew: Card | None = None
    drawn: bool = False
    initiative: Initiative | None = None
    victim: str | None = None
    transfers: tuple[Transfer, ...] = ()
    rebellion: bool = False
    lost: Card | None = None
    threatened: bool | None = None
    knocked_out: tuple[str, ...] = ()
    outcome: Outcome | None = None
