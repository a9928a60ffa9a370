"""A move the tracker made from what the sensors saw, compared with the move the table played:
alike as far as sensors can tell (the deal and the draws lie face down, L5, L11; a commit the
camera saw face down is known by its back, one it did not see only by the noble turned after
it, L7). For tests and
benchmarks."""

from __future__ import annotations

from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move

__all__ = ["seen_alike"]


def seen_alike(tracked: Move, true: Move) -> bool:
    """``tracked`` is ``true`` as far as the sensors can tell: any deal and any draw (nobody
    sees them); a commit seen (tapped) is the same player's same card, and a commit unseen is
    one of the round's commits (its back seen says whose it is, but the noble turned says only
    that every player has committed, not in which order); every other move whole."""
    if type(tracked) is not type(true):
        return False
    if type(tracked) is Deal or type(tracked) is Draw:
        return True
    if type(tracked) is Commit:
        assert type(true) is Commit
        return tracked.card is UNSEEN or tracked == true
    return tracked == true
