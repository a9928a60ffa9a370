"""A move the tracker made from what the sensors saw, compared with the move the table played:
alike as far as the sensors can tell (the draws are never seen, B9, B29; a camera alone sees a
face-down card as no card at all). For tests and benchmarks."""

from __future__ import annotations

from companion.games.ruse_and_bruise.moves import UNSEEN, Assassinate, Cloak, Move, Place, Round

__all__ = ["seen_alike", "named_alike"]


def seen_alike(tracked: Move, true: Move) -> bool:
    """``tracked`` is ``true`` as far as the sensors can tell: a round's goal cards (not the
    cards drawn to start it), a placement's player, column and card, where seen (not the card
    drawn), a Cloak's choice and its card, where seen, an Assassin's victim, where seen; every
    other move whole."""
    return _alike(tracked, true, unseen=True)


def named_alike(tracked: Move, true: Move) -> bool:
    """As :func:`seen_alike`, every card placed named: what a table whose cards are tapped as
    they are placed keeps (B8, B14)."""
    return _alike(tracked, true, unseen=False)


def _alike(tracked: Move, true: Move, *, unseen: bool) -> bool:
    if type(tracked) is not type(true):
        return False
    if type(tracked) is Round:
        assert type(true) is Round
        return tracked.goals == true.goals
    if type(tracked) is Place:
        assert type(true) is Place
        return (tracked.player, tracked.column) == (true.player, true.column) and _card(tracked.card, true.card, unseen)
    if type(tracked) is Cloak:
        assert type(true) is Cloak
        return (tracked.player, tracked.placed) == (true.player, true.placed) and _card(tracked.card, true.card, unseen)
    if type(tracked) is Assassinate:
        assert type(true) is Assassinate
        return _card(tracked.discard, true.discard, unseen)  # a victim goes unturned (B12): named where it was tapped
    return tracked == true


def _card(tracked: object, true: object, unseen: bool) -> bool:
    return tracked is true or (unseen and tracked is UNSEEN)
