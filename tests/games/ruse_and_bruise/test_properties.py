"""Invariants over random games (hypothesis): every card is in exactly one place, push and pop
restore a position exactly, and a player's view is the same in every world resampled from it."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.cards import INFLUENCE
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.policies import POLICIES, deal, play_out
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.games.ruse_and_bruise.view import kept_by

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")
ALL = (1 << len(INFLUENCE)) - 1


def _game(seed: int, players: int, level: str = "random") -> tuple[Any, list[Any]]:
    rng = random.Random(seed)
    setup = deal(NAMES[:players], EXAMPLE, rng)
    state = RabState(setup, keep_history=False)
    return setup, play_out(state, [POLICIES[level]()] * players, rng)


def _snapshot(state: RabState) -> tuple[Any, ...]:
    """Everything a position is."""
    c = state._core
    return (
        c.phase, c.round, c.turn, c.starter, c.placer, c.cols, c.goals, c.closed, c.judged, c.stacks, c.seen_goals,
        c.known, tuple(t.value for t in c.public), c.pending, c.at, c.slot_next, c.won, c.results, c.outcome,
    )  # fmt: skip


def _conserved(state: RabState) -> None:
    """Each player's 25 cards: each in exactly one place (B1), the piles holding their counts."""
    for p, name in enumerate(state.players):
        w = state.whereabouts(name)
        assert w.unsure == 0
        up = 0
        for col in state.columns:
            for owner, card, face_up in col.cards:
                if owner == name and face_up:
                    assert card is not None and not up & card.bit
                    up |= card.bit
        hidden = 0
        for place, cards in w.cands.items():
            assert cards.bit_count() == w.capacity(place) and not hidden & cards
            hidden |= cards
        assert not up & hidden and up | hidden == ALL, name
        face_down = sum(1 for col in state.columns for owner, _, face_up in col.cards if owner == name and not face_up)
        assert len(w.slots()) == face_down and w.hand + w.stack + w.discard + face_down + up.bit_count() == 25


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), level=st.sampled_from(list(POLICIES)))
def test_cards_are_conserved_and_push_pop_restore_every_position(seed: int, players: int, level: str) -> None:
    setup, moves = _game(seed, players, level)
    state = GAME.new_state(setup)
    snapshots = [_snapshot(state)]
    for m in moves:
        state.push(m)
        _conserved(state)
        snapshots.append(_snapshot(state))
    assert state.is_game_over()
    rng = random.Random(seed)
    # Taken back some moves and played again, and taken back to the start: exactly as it was.
    back = rng.randint(1, len(moves))
    for k in range(back):
        assert state.pop() == moves[-1 - k]
        assert _snapshot(state) == snapshots[-2 - k]
    for m in moves[len(moves) - back :]:
        state.push(m)
    assert _snapshot(state) == snapshots[-1]
    while state.move_stack:
        state.pop()
    assert _snapshot(state) == snapshots[0]
    copy = state.copy()
    for m in moves[:40]:
        copy.push(m)
    assert _snapshot(state) == snapshots[0]  # a copy is independent


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), keeper=st.integers(0, 5))
def test_views_are_unchanged_by_resampling(seed: int, players: int, keeper: int) -> None:
    setup, moves = _game(seed, players)
    # The full record, and the record one player's companion keeps (B29).
    kept_setup, kept = kept_by(setup, moves, NAMES[keeper % players])
    rng = random.Random(seed)
    for s, ms in ((setup, moves), (kept_setup, kept)):
        state = GAME.new_state(s)
        for k, m in enumerate(ms):
            state.push(m)
            if rng.random() < 0.08:
                for player in state.players:
                    view = state.view(player)
                    world = state.resample(player, rng)
                    assert world.view(player) == view
                    assert world.whereabouts(player) == state.whereabouts(player)
                    assert all(world.whereabouts(other).unsure == 0 for other in state.players if other != player)
