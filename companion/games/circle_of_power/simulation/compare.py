"""A move the tracker made from what the sensors saw, compared with the move the table played:
alike as far as sensors can tell (hands, dummies' piles and draws lie face down, C15, C16).
For tests and benchmarks."""

from __future__ import annotations

from companion.games.circle_of_power.moves import Move, Play, Reshuffle, Season

__all__ = ["seen_alike"]


def seen_alike(tracked: Move, true: Move) -> bool:
    """``tracked`` is ``true`` as far as the sensors can tell: a season's dealer, seats, cities
    and bottom joker (not its hands and piles), a play's player and card (not the card drawn),
    any reshuffle; every other move whole."""
    if type(tracked) is not type(true):
        return False
    if type(tracked) is Season:
        assert type(true) is Season
        return (tracked.dealer, tracked.seats, dict(tracked.cities), tracked.bottom) == (true.dealer, true.seats, dict(true.cities), true.bottom)
    if type(tracked) is Play:
        assert type(true) is Play
        return (tracked.player, tracked.card) == (true.player, true.card)
    if type(tracked) is Reshuffle:
        return True
    return tracked == true
