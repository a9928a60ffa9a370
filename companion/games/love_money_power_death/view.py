"""A player's view of a game of Love, Money, Power, Death: what they may know, and nothing more
(L14).

Face up, and so in every view: the nobles in use, the noble turned this round, every revealed
card, the courts and the discarded nobles, who has committed, and how many cards lie in each
pile, each hand, the noble pile and the cards set aside. Face down, and so only in its owner's
view: a hand and the card its owner committed. Nobody's view holds a pile's cards, its owner's
included (L5), the noble pile's order, the cards set aside, or another player's commitment
before the reveal (L6, L7).

Two states with equal views are the same to the player: :meth:`LmpdState.resample
<companion.games.love_money_power_death.state.LmpdState.resample>` keeps the view, and the
tests check it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import Commit, Seen
from companion.games.love_money_power_death.scoring import Outcome, RoundResult

if TYPE_CHECKING:
    from companion.games.love_money_power_death.state import LmpdState

__all__ = ["LmpdView", "make_view"]


@dataclass(frozen=True, slots=True)
class LmpdView:
    """What ``player`` may know of the game."""

    player: str
    phase: str
    """``"deal"``, ``"commit"``, ``"noble"``, ``"reveal"``, ``"draw"`` or ``"over"``."""
    round: int
    """The round under way (the last one once the game is over), from 1."""
    nobles_left: tuple[Card, ...]
    """The nobles in use not turned yet, in catalogue order (their order in the pile is
    hidden)."""
    noble: Card | None
    """This round's noble, once turned (L7)."""
    noble_pile: int
    """How many nobles lie face down."""
    hand: tuple[Card, ...]
    """The player's own hand as the companion saw it, in catalogue order, without the card
    they committed when the companion saw which it was (with it when it did not: then
    :attr:`commit` is unseen and the card is one of these or of the unseen ones)."""
    hand_unseen: int
    """Cards of the player's own hand the companion did not see."""
    commit: Seen | None
    """The card the player committed this round (``UNSEEN`` when the companion did not see
    which), ``None`` before they commit."""
    committed: tuple[str, ...]
    """The players who have committed this round, in seating order (never what)."""
    hand_sizes: Mapping[str, int]
    """How many cards each player holds in hand (a committed card no longer counts)."""
    pile_sizes: Mapping[str, int]
    aside: int
    """How many cards lie set aside (L5)."""
    rounds: tuple[RoundResult, ...]
    """Every decided round: the noble, every revealed card, the winner and why."""
    courts: Mapping[str, tuple[Card, ...]]
    discarded: tuple[Card, ...]
    totals: Mapping[str, int]
    outcome: Outcome | None
    decisions: tuple[Commit, ...] = ()
    """The player's legal commits when they are deciding (L6), in catalogue order: one for
    each card of their hand the companion saw, and one face down (unseen) when it did not see
    every card; empty when they have no decision now. What a player of a playout chooses
    from."""


def make_view(state: LmpdState, player: str) -> LmpdView:
    seat = state.players.index(player) if player in state.players else -1
    return LmpdView(
        player=player,
        phase=state.phase.value,
        round=state.round_number,
        nobles_left=state.nobles_left,
        noble=state.noble,
        noble_pile=state.noble_pile_count,
        hand=state.hand(player) if seat >= 0 else (),
        hand_unseen=state.hand_unseen(player) if seat >= 0 else 0,
        commit=state.commit_of(player) if seat >= 0 else None,
        committed=state.committed,
        hand_sizes=state.hand_sizes,
        pile_sizes=state.pile_sizes,
        aside=state.aside_count,
        rounds=state.rounds,
        courts=state.courts,
        discarded=state.discarded,
        totals=state.totals,
        outcome=state.outcome(),
        decisions=tuple(state.moves_of(player)) if seat >= 0 else (),
    )
