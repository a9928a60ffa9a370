"""A player's view of the game: what they may know, and nothing more.

Teaching hints must not peek at other hands, so they work from a :class:`PlayerView`:
the player's own hand and Fate cards, everything face up or seen by all (the centre, every
capture as it was made, Fate cards in play, discards), the size of every other hand, and the
World cards the player cannot place (:attr:`PlayerView.unseen`), which the rulebook tells a
good player to count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.rule_of_power.engine.cards import Card

if TYPE_CHECKING:
    from companion.games.rule_of_power.engine.game import GameState

__all__ = ["PlayerView", "make_view"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: str
    hand: tuple[Card, ...]
    """The player's World cards (face-down ones the companion has not seen are left out)."""
    fate_hand: tuple[Card, ...]
    fate_deck_left: frozenset[Card]
    """The cards still in the player's own Fate deck (they chose it; its order is secret)."""
    hand_sizes: Mapping[str, int]
    """How many cards every player holds, World and Fate together."""
    centre: tuple[Card, ...]
    stacks: Mapping[str, tuple[Card, ...]]
    """Every capture stack: captures are made in front of everybody."""
    sweeps: Mapping[str, int]
    in_play: tuple[tuple[str, Card], ...]
    discards: tuple[Card, ...]
    deck_count: int
    known_elsewhere: Mapping[Card, str]
    """Cards the player knows to be in another hand (given away in a Mirror Swap)."""
    unseen: frozenset[Card]
    """World cards the player cannot place: in the deck or in other players' hands."""
    turn: str | None
    dealer: str | None
    deal_number: int
    last_deal: bool


def make_view(game: GameState, seat: int) -> PlayerView:
    c = game._core  # the view is part of the engine and reads its state directly
    players = game.players
    hand = c.hands[seat]
    located: set[Card] = set(hand)
    located.update(c.centre)
    for stack in c.stacks:
        located.update(stack)
    located.update(x for x in c.discards if x.is_world)
    known: dict[Card, str] = {}
    for viewer, card, holder in c.revealed:
        if viewer == seat and card in c.hands[holder]:
            known[card] = players[holder]
    located.update(known)
    # Before the first round no card is in play, so none is unseen.
    deck = game._deck if c.round_no else ()
    unseen = frozenset(x for x in deck if x not in located)
    return PlayerView(
        player=players[seat],
        hand=hand,
        fate_hand=c.fate_hands[seat],
        fate_deck_left=frozenset(c.fate_decks[seat]) - frozenset(c.fate_hands[seat]),
        hand_sizes={p: game.hand_size(p) for p in players},
        centre=c.centre,
        stacks={p: c.stacks[i] for i, p in enumerate(players)},
        sweeps={p: len(c.sweeps[i]) for i, p in enumerate(players)},
        in_play=game.in_play,
        discards=c.discards,
        deck_count=c.deck_count,
        known_elsewhere=known,
        unseen=unseen,
        turn=game.turn,
        dealer=game.dealer,
        deal_number=c.deal_no,
        last_deal=c.last_deal,
    )
