"""A player's view of a game of Circle of Power: what they may know, and nothing more.

Everything face up is public: the cities, the next available city, the lines of victories
(destroyed cities lie face down, but the table saw each one go), every card played this
season, the discards' contents (each was face up before it was discarded). Hands and the
dummies' piles are face down: a player sees their own hand only, and of the others how many
cards each holds. :attr:`CircleView.unseen` is the battle cards the player cannot place.

Two states with equal views are the same to the player: :meth:`CircleState.resample
<companion.games.circle_of_power.game.CircleState.resample>` keeps the view, and the tests
check it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.circle_of_power.cards import BATTLE_MASK, Card, cards_of_mask
from companion.games.circle_of_power.scoring import Outcome, SeasonResult

if TYPE_CHECKING:
    from companion.games.circle_of_power.game import CircleState

__all__ = ["CircleView", "make_view"]


@dataclass(frozen=True, slots=True)
class CircleView:
    """What ``player`` may know of the game."""

    player: str
    phase: str
    season: int
    action: int
    to_move: str | None
    seats: tuple[str, ...]
    dealer: str | None
    leader: str | None
    cities: Mapping[str, Card | None]
    next_city: Card | None
    city_deck_count: int
    city_discards: tuple[Card, ...]
    trophies: Mapping[str, tuple[Card, ...]]
    destroyed: Mapping[str, tuple[Card, ...]]
    trump_suits: Mapping[str, str | None]
    played: tuple[tuple[str, Card], ...]
    """The cards of the action under way, in order."""
    season_plays: tuple[tuple[int, str, Card], ...]
    """Every card played this season: (action, emperor, card)."""
    hand: tuple[Card, ...]
    """The player's own hand as the companion saw it."""
    hand_unseen: int
    """Cards of the player's own hand the companion did not see."""
    hand_sizes: Mapping[str, int]
    """How many cards each emperor holds (a dummy: its pile)."""
    battle_deck_count: int
    reshuffled: bool
    unseen: frozenset[Card]
    """The battle cards the player cannot place: in the battle deck, the other hands and the
    dummies' piles."""
    totals: Mapping[str, int]
    destroyed_totals: Mapping[str, int]
    knocked_out: tuple[str, ...]
    results: tuple[SeasonResult, ...]
    outcome: Outcome | None


def make_view(state: CircleState, player: str) -> CircleView:
    c = state._core  # the view is part of the engine and reads its state directly
    seat = c.seat_of.get(player, -1)
    hand = c.hands[seat] if seat >= 0 else ()
    unseen_in_hand = c.hidden[seat] + c.hidden_old[seat] if seat >= 0 else 0
    located = sum(x.bit for x in hand) | (c.played_b if c.reshuffled else c.played_a)
    seats = c.seats
    return CircleView(
        player=player,
        phase=c.phase.value,
        season=c.season,
        action=c.action,
        to_move=state.to_move,
        seats=seats,
        dealer=c.dealer_name,
        leader=state.leader,
        cities=dict(zip(seats, c.cities)),
        next_city=c.next_city,
        city_deck_count=c.city_left,
        city_discards=c.discards,
        trophies=dict(zip(seats, c.trophies)),
        destroyed=dict(zip(seats, c.destroyed)),
        trump_suits=state.trump_suits,
        played=state.played,
        season_plays=state.season_plays,
        hand=tuple(sorted(hand)),
        hand_unseen=unseen_in_hand,
        hand_sizes={name: state.hand_size(name) for name in seats},
        battle_deck_count=c.deck_count,
        reshuffled=c.reshuffled,
        unseen=frozenset(cards_of_mask(BATTLE_MASK & ~located)),
        totals=state.totals,
        destroyed_totals=state.destroyed_totals,
        knocked_out=c.knocked,
        results=c.results,
        outcome=c.outcome,
    )
