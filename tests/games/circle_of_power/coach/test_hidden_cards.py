"""The coach never peeks: two worlds that differ only in cards the player cannot see (the other
hands, the dummies' piles, the battle deck) get the same advice, number for number, for the
same seed."""

from __future__ import annotations

import random

import pytest

from companion.coach import Coach
from companion.games.circle_of_power.game import CircleState, Phase

from tests.games.circle_of_power.helpers import censor

from .positions import find, is_act, is_play


def _advice(state: CircleState, player: str, seed: int = 7) -> dict:
    data = Coach("fast").advise(state, player, samples=6, seed=seed).to_json()
    data.pop("elapsed_ms")
    return data


def _as_seen_by(spot, player: str) -> CircleState:
    """The same position replayed from a record kept at ``player``'s seat: every other hand,
    pile and draw unseen."""
    state = CircleState(spot.setup, keep_history=False)
    for move in censor(spot.moves, player)[: spot.index]:
        state.push(move)
    return state


@pytest.mark.parametrize(
    "what",
    [
        ("a card in the first actions", lambda s: is_play(s) and s.action_number <= 3),
        ("a card after the reshuffle", lambda s: is_play(s) and s.reshuffled),
        ("an act", is_act),
    ],
    ids=lambda w: w[0],
)
def test_worlds_differing_only_in_hidden_cards_get_the_same_advice(what):
    _, predicate = what
    spot = find(predicate, players=("ann", "bob", "cy"))
    real = spot.state
    me = real.to_move
    assert me is not None
    # Other worlds of the same view: the hidden cards dealt otherwise, twice.
    others = [real.resample(me, random.Random(k)) for k in (1, 2)]
    for world in others:
        assert world.view(me) == real.view(me)
        assert any(world.hand(p) != real.hand(p) for p in real.players if p != me) or real.phase is Phase.ACT
    seen = _as_seen_by(spot, me)
    assert seen.view(me) == real.view(me) and any(seen.unseen_in_hand(p) for p in real.players if p != me)
    advice = _advice(real, me)
    assert advice["moves"] and advice["samples"] == 6
    for state in [*others, seen]:
        assert _advice(state, me) == advice


def test_another_seed_draws_other_samples():
    spot = find(is_play)
    me = spot.state.to_move
    assert _advice(spot.state, me, seed=1) != _advice(spot.state, me, seed=2)
