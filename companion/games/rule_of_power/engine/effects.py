"""What a move did, as the table sees it: the cards laid, captured, put in front of a player,
put out of play, exchanged, stolen and drawn.

The engine applies every move through its :class:`Effects` (the fast path for a plain World
card excepted, which a property test keeps in agreement), so whoever needs to know what a move
did (the tracker's picture of the table, the simulated table's scenes, the commentary) reads
this instead of re-deriving the rules. :meth:`GameState.apply <companion.games.rule_of_power.engine.game.GameState.apply>`
returns it; :meth:`GameState.effects <companion.games.rule_of_power.engine.game.GameState.effects>` tells it for a
move not yet played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.moves import HandCard

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import RoundResult

__all__ = ["Effects", "Spent", "PLAYED", "HAND", "CENTRE", "FRONT"]

PLAYED = "played"
"""The card just played: shown to the table, then out of play (an event Fate card)."""
HAND = "hand"
"""A card discarded from a hand (Dark Decay, R21)."""
CENTRE = "centre"
"""A card removed from the centre (Creatures sent away by the Exorcist, R24)."""
FRONT = "front"
"""A card that lay in front of a player (two Crystals meeting R19, an Exorcist sent away R24)."""


# Immutable named tuples rather than dataclasses: the engine makes them for every play that
# leaves its fast path, and a tuple is the cheapest immutable value Python builds.
class Spent(NamedTuple):
    """A card put out of play for the rest of the round: from which zone (:data:`PLAYED`,
    :data:`HAND`, :data:`CENTRE`, :data:`FRONT`) and whose it was there (the hand or the
    place in front it leaves; for the centre, who laid it, ``None`` for a World card)."""

    card: Card
    zone: str
    player: str | None

    @property
    def owner(self) -> str | None:
        """Whose seal the card carries: a Fate card's owner, ``None`` for a World card."""
        return self.player if self.card.is_fate else None


class Effects(NamedTuple):
    """Everything one move did, in the order it happens at the table.

    - ``card``: the card played (``None`` for a draw, a pass, a deal or a new round).
    - ``laid``: the card went to the centre and stays there (it captured nothing).
    - ``captured``: the centre cards it took; they go to the player's capture stack, then the
      card itself on top (R23). ``sweep``: that capture scores a clean sweep (R7);
      ``empowered``: the card is a Wizard empowered by a Mystic Crystal (R5).
    - ``in_front``: cards laid in front of a player, where they stay (R19, R24).
    - ``spent``: cards put out of play for the round (R19, R21, R24 and the event Fate cards).
    - ``exchanged``: (giver, receiver, card) for each card changing hands (R22); a card the
      companion could not see is :data:`~companion.games.rule_of_power.engine.moves.UNSEEN`.
    - ``stolen``: (victim, card) taken from the top of a capture stack (R23).
    - ``drawn``: the World card drawn into the player's hand (R25); ``drew_fate``: the player
      took the top card of their Fate deck (R17).
    - ``round_result``: the round the move ended, when it ended one (R6-R14).
    """

    player: str | None
    card: Card | None = None
    laid: bool = False
    captured: tuple[Card, ...] = ()
    sweep: bool = False
    empowered: bool = False
    in_front: tuple[tuple[str, Card], ...] = ()
    spent: tuple[Spent, ...] = ()
    exchanged: tuple[tuple[str, str, HandCard], ...] = ()
    stolen: tuple[str, Card] | None = None
    drawn: HandCard | None = None
    drew_fate: bool = False
    round_result: RoundResult | None = None

    @property
    def result(self) -> RoundResult | None:
        """The round the move ended (the protocol's name for :attr:`round_result`)."""
        return self.round_result

