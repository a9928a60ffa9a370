"""Hidden cards (B29): hands, stacks, goal stacks and face-down cards a record may leave
unknown; every check that what was seen allows is made, the rest when the cards are seen."""

from __future__ import annotations

import random

import pytest

from companion.contract.cards import UNSEEN
from companion.contract.errors import IllegalMoveError
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.moves import Assassinate, Cloak, Place, Round
from companion.games.ruse_and_bruise.policies import simulate
from companion.games.ruse_and_bruise.record import complete_moves
from companion.games.ruse_and_bruise.samples import sample_path
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.games.ruse_and_bruise.view import kept_by
from companion.games.ruse_and_bruise.whereabouts import DISCARD, HAND, STACK, Whereabouts
from companion.records.format import load_game
from tests.games.ruse_and_bruise.helpers import card, place, play, reveal, rnd, table, turn, winners


def test_a_game_nobody_saw_a_hand_of_is_followed_and_checked_as_cards_show() -> None:
    state = play(table(2), rnd("music-3a", "trade-2"))
    # Nothing of ann's hand is known: a card placed unseen, with a draw unseen, is legal...
    assert place("ann", 1, None) in state.legal_moves and state.hand("ann") == () and state.hand_size("ann") == 3
    play(state, place("ann", 1, None), place("bob", 1, None), turn(1, "KING"))
    # ...and once a card is seen, it is where it lies: ann's King cannot be placed again.
    with pytest.raises(IllegalMoveError, match="B29: ann places KING, but ann's KING is face up in column 1"):
        state.push(place("ann", 2, "KING"))
    with pytest.raises(IllegalMoveError, match="B29: ann draws KING at the end of this turn, but ann's KING is face up in column 1"):
        state.push(place("ann", 2, "QUEEN", "KING"))
    play(state, place("ann", 2, "QUEEN"))
    assert state.column(1).cards == (("ann", card("KING"), True), ("bob", None, False))


def test_a_card_known_in_the_discard_pile_cannot_be_placed_before_the_pile_is_reshuffled() -> None:
    state = play(
        table(2, {"ann": ["KING", "EXPL", "WIZ"]}),
        rnd("music-1", "trade-1"),
        place("ann", 1, "KING", "QUEEN"),
        place("bob", 2, None),
        reveal("KING", "QUEEN"),
        winners("ann", "bob"),
        rnd("alchemy-1", "fencing-1"),
    )
    assert state.discards("ann") == (card("KING"),) and state.discards("bob") == (card("QUEEN"),)
    with pytest.raises(IllegalMoveError, match="B29: ann places KING, but ann's KING is in ann's discard pile"):
        state.push(place("ann", 1, "KING"))
    play(state, place("ann", 1, "EXPL"))
    with pytest.raises(IllegalMoveError, match="B29: bob places QUEEN, but bob's QUEEN is in bob's discard pile"):
        state.push(place("bob", 2, "QUEEN"))


def test_what_a_card_turned_over_tells_about_the_hand() -> None:
    # ann holds the King and two cards nobody saw; she places one unseen: the King or another.
    state = play(table(2, {"ann": ["KING", None, None]}), rnd("music-3a", "trade-2"), place("ann", 1, None, None))
    w = state.whereabouts("ann")
    assert w.may_be(card("KING").index, HAND) and w.may_be(card("KING").index, w.slots()[0])
    # Turned over, it is the Queen: the King is still in her hand, and cannot be drawn.
    play(state, place("bob", 1, None), turn(1, "QUEEN"))
    assert state.hand("ann") == (card("KING"),)
    play(state, place("ann", 2, "KING"))
    with pytest.raises(IllegalMoveError, match="B29: the card turned over in column 2 is ann's: not QUEEN, since ann's card there is KING"):
        play(state, place("bob", 2, None), turn(2, "QUEEN"))


def test_what_the_counts_tell() -> None:
    # Three cards in hand, the King known; two placed unseen, then turned over.
    w = Whereabouts.dealt([card("KING"), None, None])
    w = w.placed(None, 0).placed(None, 1)
    assert w.hand == 1
    w = w.turned_up(card("QUEEN").index, 0)
    # The King may still be in the hand or at slot 1.
    assert w.may_be(card("KING").index, 1) and w.may_be(card("KING").index, HAND)
    w = w.turned_up(card("KING").index, 1)
    # The hand's one card is neither the King nor the Queen; every other card may be it.
    assert not w.may_be(card("KING").index, HAND) and w.may_be(card("JULIET").index, HAND)
    # A stack whose only card is known: a draw nobody saw takes that card.
    w2 = Whereabouts({HAND: 0, STACK: card("WIZ").bit, DISCARD: 0}, 0, 1, 0)
    assert w2.drew(None).known(HAND) == card("WIZ").bit


def test_a_record_kept_by_one_player_replays_with_every_rule_checked() -> None:
    for seed in range(4):
        setup, moves = simulate(["ann", "bob", "cy"], EXAMPLE, seed, "rule-of-thumb")
        kept_setup, kept = kept_by(setup, moves, "bob")
        assert kept_setup.goals is None and kept_setup.hand_of("ann") is None and kept_setup.hand_of("bob") == setup.hand_of("bob")
        assert all(m.card is UNSEEN for m in kept if isinstance(m, Place) and m.player != "bob")
        assert any(isinstance(m, Round) for m in kept)
        full = GAME.new_state(setup)
        state = GAME.new_state(kept_setup)
        for m, k in zip(moves, kept):
            full.push(m)
            state.push(k)
            # bob sees the same game in both: his view of the kept record is his view of the
            # full one, but for where the other players' cards may be (the kept record knows
            # no more than bob: the same); his own cards are named in both.
            assert state.view("bob") == full.view("bob")
        assert state.outcome() == full.outcome() and GAME.summary(state) == GAME.summary(full)


def test_the_shipped_sample_kept_by_ann_replays() -> None:
    state = load_game(sample_path("ruse-by-ann-4"))
    assert state.is_game_over() and state.setup.hand_of("bob") is None


def test_cards_placed_unseen_are_filled_in_when_a_later_event_names_them() -> None:
    setup, moves = simulate(["ann", "bob", "cy"], EXAMPLE, 3)
    kept_setup, kept = kept_by(setup, moves, "ann")
    completed = complete_moves(kept)
    # Every card placed is named now as in the full record, once it was turned over or revealed;
    # an Assassin's victim nobody saw stays unseen (the draws stay unseen too).
    unnamed = 0
    for full, done in zip(moves, completed):
        if isinstance(full, Place):
            assert isinstance(done, Place) and done.card in (full.card, UNSEEN)
            unnamed += done.card is UNSEEN
        elif isinstance(full, Cloak) and full.placed:
            assert isinstance(done, Cloak) and done.card is full.card
    assert unnamed == sum(1 for m in kept if isinstance(m, Assassinate) and m.discard is UNSEEN) > 0
    assert sum(1 for m in kept if isinstance(m, Place) and m.card is UNSEEN) > 3 * unnamed
    state = GAME.new_state(kept_setup)
    full = GAME.new_state(setup)
    for m, f in zip(completed, moves):
        state.push(m)
        full.push(f)
    assert state.is_game_over() and state.outcome() == full.outcome()


def test_resampled_worlds_keep_the_view_and_draw_what_may_be() -> None:
    setup, moves = simulate(["ann", "bob", "cy", "dee"], EXAMPLE, 8, "rule-of-thumb")
    state = GAME.new_state(setup)
    rng = random.Random(3)
    for k, m in enumerate(moves):
        state.push(m)
        if k % 17:
            continue
        for player in state.players:
            world = state.resample(player, rng)
            assert world.view(player) == state.view(player) and world.move_stack == []
            # Everything hidden from the player is known in the world, and where it may be.
            for other in state.players:
                if other == player:
                    assert world.whereabouts(other) == state.whereabouts(other)
                    continue
                public = state.whereabouts(other, public=True)
                w = world.whereabouts(other)
                assert w.unsure == 0
                for place, cards in w.cands.items():
                    assert cards & ~public.at(place) == 0
            # The world plays on under the rules.
            probe = world.copy()
            if probe.to_move is not None:
                probe.push(next(iter(probe.legal_moves)))
            elif not probe.is_game_over():
                probe.push(probe.random_table_move(rng))
