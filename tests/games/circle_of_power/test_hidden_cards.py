"""A game the companion cannot fully see: hands and piles dealt face down, draws nobody saw.
Everything that can be checked is, and the rest as the hidden cards are played (C6, C8, C15,
"What the companion may not assume")."""

from __future__ import annotations

import random

import pytest

from companion.games.circle_of_power.cards import BATTLE_DECK
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import UNSEEN, Play, Reshuffle, Reveal, Season
from companion.games.circle_of_power.policies import simulate
from companion.contract.errors import IllegalMoveError

from .helpers import c, censor, new, replay, table, walk

UNSEEN_TABLE = {"ann": "QH", "bob": "JS", "cy": "KD", "@1": "AC"}


def test_a_hand_nobody_saw_may_hold_any_card_not_seen_elsewhere():
    state = table(UNSEEN_TABLE, players=("ann", "bob", "cy"))
    state.push(Play("@1", c("2C")))  # the dealer cy's left leads
    assert state.to_move == "ann" and not list(state.legal_moves)  # nothing of ann's hand is known
    assert Play("ann", c("7H")) in state.legal_moves and state.is_legal(Play("ann", c("7H"), c("5C"))) and not state.is_legal(Play("ann", c("7H"), c("2C")))
    state.push(Play("ann", c("7H")))
    assert state.unseen_in_hand("ann") == 3 and state.hand_size("ann") == 3  # the draw was unseen too
    with pytest.raises(IllegalMoveError, match=r"C8: 7H is not in bob's hand \(it was played in this action by ann\)"):
        state.check(Play("bob", c("7H")))


def test_c6_a_card_seen_in_actions_1_to_6_never_comes_back_before_the_reshuffle():
    state = table(UNSEEN_TABLE, players=("ann", "bob", "cy"))
    for card in ("2C", "7H", "2S", "3S"):
        state.push(Play(state.to_move, c(card)))
    state.push(state._dummy_act(state._core.turn) if state.is_dummy(state.to_move) else next(iter(state.legal_moves)))
    if state.phase is Phase.REVEAL:
        state.push(Reveal(c("AH")))
    me = state.to_move
    with pytest.raises(IllegalMoveError, match=r"C8: 7H .*\(it was played in action 1 by ann, C6\)"):
        state.check(Play(me, c("7H")))


def test_a_dummys_pile_nobody_saw_gives_any_card_not_seen_elsewhere_and_it_shows_as_played():
    state = table(UNSEEN_TABLE, players=("ann", "bob", "cy"), dealer="cy")
    assert state.to_move == "@1" and len(list(state.legal_moves)) == 36  # any card: only chance decides
    state.push(Play("@1", c("9D")))
    assert state.pile("@1")[0] is UNSEEN and state.hand_size("@1") == 8
    with pytest.raises(IllegalMoveError, match="C8: 9D is not in ann's hand"):
        state.check(Play("ann", c("9D")))


def unseen_record(seed=3, players=("ann", "bob", "cy"), variant="basic", viewer=None):
    setup, moves = simulate(list(players), variant, seed)
    return setup, moves, censor(moves, viewer)


def test_a_game_followed_by_a_camera_that_sees_no_hidden_card_replays():
    for seed in range(4):
        setup, moves, seen = unseen_record(seed, variant=("basic", "coloured-cities")[seed % 2])
        state = replay(setup, seen)
        assert state.is_game_over() and state.outcome() == replay(setup, moves).outcome()


def test_c15_after_the_reshuffle_hidden_cards_kept_from_before_and_new_ones_stay_apart():
    setup, moves, seen = unseen_record(5)
    k = next(i for i, m in enumerate(seen) if type(m) is Reshuffle)
    state = replay(setup, seen[: k + 1])
    if state.phase is Phase.REVEAL:
        state.push(seen[k + 1])
    early = {x for a, _, x in state.season_plays if a <= 6}
    late = sorted(set(state.game.cards) & set(x for x in state.game.cards if x.is_battle) - early)
    me = state.to_move
    if state.is_dummy(me):
        # the dummy's six new cards are cards of actions 1-6 (C15)
        with pytest.raises(IllegalMoveError, match=r"cannot be the top card of @1's pile \(it was not played in actions 1-6"):
            state.check(Play(me, late[0]))
        state.push(Play(me, sorted(early)[0]))
        me = state.to_move
    # a player holds only cards kept from before the reshuffle until drawing: no card of 1-6
    with pytest.raises(IllegalMoveError, match=r"is not in .*'s hand \(it was played in actions 1-6 and went into the reshuffled battle deck, C15\)"):
        state.check(Play(me, sorted(early)[1]))
    # nor draw a card kept from before it
    with pytest.raises(IllegalMoveError, match=r"C15: .* cannot draw .*: it is not in the battle deck \(it was not played in actions 1-6"):
        state.check(Play(me, late[1], late[2]))


def test_an_unseen_season_with_partial_hands_checks_the_cards_it_shows():
    state = new(("ann", "bob", "cy"))
    move = Season.make("cy", ["ann", "bob", "cy", "@1"], UNSEEN_TABLE | {"cy": "KD"}, "X2", {"ann": ["7H", None, None]})
    state.push(move)
    state.push(Reveal(c("JD")))
    assert state.hand("ann") == (c("7H"),) and state.unseen_in_hand("ann") == 2
    assert state.to_move == "@1"
    with pytest.raises(IllegalMoveError, match=r"C8: 7H cannot be the top card of @1's pile \(it is in ann's hand\)"):
        state.check(Play("@1", c("7H")))


def test_views_show_only_what_a_player_may_know():
    setup, moves = simulate(["ann", "bob", "cy"], "basic", 2)
    for cut in (20, 45):  # before and after the reshuffle
        state = replay(setup, moves[:cut], keep_history=True)
        view = state.view("ann")
        assert view.hand == tuple(sorted(state.hand("ann"))) and view.player == "ann"
        assert view.hand_sizes == {n: state.hand_size(n) for n in state.seats}
        # the battle cards ann cannot place: not in ann's hand, not played since the deck was
        # made (after the reshuffle, the cards of actions 1-6 are back in the deck, C15)
        gone = {x for a, _, x in state.season_plays if (a > 6) == state.reshuffled}
        assert view.unseen == frozenset(BATTLE_DECK) - set(state.hand("ann")) - gone
        assert state.view("bob") != view


def test_resample_deals_the_hidden_cards_again_and_keeps_the_view():
    rng = random.Random(1)
    for seed in range(6):
        setup, moves = simulate(["ann", "bob", "cy", "dee"][: 2 + seed % 3], ("basic", "coloured-cities")[seed % 2], seed)
        for cut in (5, 30, 52, 75):
            state = replay(setup, moves[:cut], keep_history=True)
            for player in setup.players:
                world = state.resample(player, rng)
                assert world.view(player) == state.view(player)
                assert world.move_stack == []
                # the world is complete where the player cannot see, and playable
                for name in world.seats:
                    if name != player and not world.is_dummy(name):
                        assert world.unseen_in_hand(name) == 0
                if world.to_move is not None:
                    assert all(world.is_legal(m) for m in list(world.legal_moves)[:5])
                if player == setup.players[0]:
                    for _ in walk(world, rng, steps=60):  # the world plays on, every rule checked
                        pass
