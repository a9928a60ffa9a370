"""Comparing a record the tracker saved with the game played."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.moves import Move, Play, Reshuffle, Season

from tests.games.circle_of_power.tracking.harness import same_move


def assert_same_record(saved: Sequence[Move], true: Sequence[Move]) -> int:
    """The saved record is the game played: every event as the sensors tell it (:func:`same_move`),
    and every card the record fills in afterwards (hands, piles, draws: C15, C16) the one the
    table dealt. Returns how many hidden cards the record filled in."""
    assert len(saved) == len(true), (len(saved), len(true))
    filled = 0
    for n, (tracked, played) in enumerate(zip(saved, true)):
        assert same_move(tracked, played), f"event {n}: recorded {tracked} but the table played {played}"
        if type(tracked) is Season:
            assert type(played) is Season
            for name in played.seats:
                for mine, real in ((tracked.hand_of(name), played.hand_of(name)), (tracked.pile_of(name), played.pile_of(name))):
                    if mine is None:
                        continue
                    assert real is not None
                    known = [c for c in mine if isinstance(c, Card)]
                    filled += len(known)
                    if tracked.pile_of(name) is mine:
                        assert all(c is r for c, r in zip(mine, real) if isinstance(c, Card)), (n, name, mine, real)
                    else:
                        assert not Counter(known) - Counter(c for c in real if isinstance(c, Card)), (n, name, mine, real)
        elif type(tracked) is Play:
            assert type(played) is Play
            if tracked.drew is not None:
                filled += 1
                assert tracked.drew is played.drew, (n, tracked, played)
        elif type(tracked) is Reshuffle:
            assert type(played) is Reshuffle
            for name, cards in tracked.piles:
                real = played.pile_of(name)
                assert real is not None
                filled += sum(isinstance(c, Card) for c in cards)
                assert all(c is r for c, r in zip(cards, real) if isinstance(c, Card)), (n, name, cards, real)
    return filled
