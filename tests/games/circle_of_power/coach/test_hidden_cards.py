"""The coach never peeks: two worlds that differ only in cards the player cannot see (the other
hands, the dummies' piles, the battle deck) get the same advice, number for number, for the
same seed."""

from __future__ import annotations

import random

import pytest

from companion.coach import Coach, CoachError
from companion.contract.errors import IllegalMoveError
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


def _kept_by_keyboard(spot) -> CircleState:
    """The same position as a table kept by keyboard records it: no hand, pile or draw seen."""
    state = CircleState(spot.setup, keep_history=False)
    for move in censor(spot.moves, None)[: spot.index]:
        state.push(move)
    return state


def test_an_act_is_judged_from_what_is_public_when_the_hand_is_unseen():
    """C10-C14: the winner's act is decided by the cities, the lines and the next available
    city, all face up: a table kept by keyboard, which never saw a hand, gets a hint for it,
    ranking every act the rules allow."""
    spot = find(is_act, players=("ann", "bob", "cy"))
    state = _kept_by_keyboard(spot)
    me = state.to_move
    assert me is not None and state.unseen_in_hand(me) == 3
    advice = Coach("fast").advise(state, me, samples=6, seed=3)
    acts = {m.move for m in advice.moves}
    assert acts == set(state.legal_moves) and advice.samples == 6
    # The same with another seed: the worlds deal the unseen hand, and the public facts alone decide.
    assert {m.move for m in Coach("fast").advise(state, me, samples=6, seed=4).moves} == acts


def test_a_card_is_still_judged_only_from_a_hand_the_companion_knows():
    spot = find(is_play, players=("ann", "bob", "cy"))
    state = _kept_by_keyboard(spot)
    me = state.to_move
    with pytest.raises(CoachError, match=rf"has not seen 3 of the 3 cards in {me}'s hand"):
        Coach("fast").advise(state, me, samples=2)


def test_a_hand_told_privately_gives_a_hint_for_a_card():
    """The player tells the companion their hand (C6, C8): the copy that knows it is judged
    like a position whose hand was seen, number for number; the game itself is unchanged."""
    spot = find(is_play, players=("ann", "bob", "cy"))
    real = spot.state
    me = real.to_move
    seen_by_me = _as_seen_by(spot, me)
    kept = _kept_by_keyboard(spot)
    told = kept.with_hand(me, real.hand(me))
    assert kept.unseen_in_hand(me) == 3 and told.unseen_in_hand(me) == 0
    assert sorted(told.hand(me)) == sorted(real.hand(me))
    assert _advice(told, me) == _advice(seen_by_me, me)


def test_a_hand_told_wrong_is_refused_naming_the_ruling():
    spot = find(lambda s: is_play(s) and s.action_number >= 2, players=("ann", "bob", "cy"))
    kept = _kept_by_keyboard(spot)
    me = kept.to_move
    played = next(card for _, name, card in kept.season_plays if name != me)
    with pytest.raises(IllegalMoveError, match=rf"C8: {played.id} cannot be in {me}'s hand"):
        kept.with_hand(me, [played])
    with pytest.raises(IllegalMoveError, match=r"C6: .* holds 3 cards, and 4 were told"):
        kept.with_hand(me, [c for c in kept.view(me).unseen][:4])
