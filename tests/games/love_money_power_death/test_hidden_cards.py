"""L14: the noble pile, the piles and the cards set aside are face down, a hand is its owner's,
a commitment is face down until the reveal; a game may record any of them unseen, and every
check that what was seen allows is made: a card comes out once; a card known to be in one
player's pile or hand, or set aside, is neither played nor drawn by another; a known pile is
drawn from the top; nothing is drawn from an empty pile; the rest at the reveal."""

from __future__ import annotations

import random

import pytest

from companion.contract import IllegalMoveError
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.state import Phase, ordinal

from .helpers import c, commit_all, dealt, full_deal, play_round, table

THREE = {"ann": ["4Mb", "A3", "1Da"], "bob": ["A2", "3Ma", "2Lb"], "cy": ["2Pa", "5D", "A6"]}


class TestACardComesOutOnce:
    def test_a_card_revealed_in_an_earlier_round_is_not_revealed_again(self) -> None:
        state = table()
        state.push(Deal.make(hands={"ann": THREE["ann"]}))
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, seen=False)
        commit_all(state, {"ann": None, "bob": None, "cy": None})
        state.push(TurnUp.of("N2L"))
        with pytest.raises(IllegalMoveError, match="^L14: bob revealed A2, which is revealed in round 1: a card comes out once"):
            state.push(Reveal.of(state.players, {"ann": "1Da", "bob": "A2", "cy": "5D"}))
        with pytest.raises(IllegalMoveError, match="^L14: cy revealed 1Da, which is in ann's hand: a card comes out once"):
            state.push(Reveal.of(state.players, {"ann": "A3", "bob": "3Ma", "cy": "1Da"}))

    def test_two_players_cannot_reveal_the_same_card(self) -> None:
        state = table()
        state.push(Deal())
        commit_all(state, {"ann": None, "bob": None, "cy": None})
        state.push(TurnUp.of("N3P"))
        with pytest.raises(IllegalMoveError, match="^L14: bob revealed 5D, which another player revealed in the same move: a card comes out once"):
            state.push(Reveal.of(state.players, {"ann": "5D", "bob": "5D", "cy": "1La"}))

    def test_a_noble_comes_up_once(self) -> None:
        state = table(["ann", "bob"], ["N3P", "N2L"])
        state.push(Deal())
        play_round(state, "N3P", {"ann": "1La", "bob": "2Ma"}, seen=False)
        commit_all(state, {"ann": None, "bob": None})
        with pytest.raises(IllegalMoveError, match="^L14: N3P is the noble of round 1: a card comes out once"):
            state.push(TurnUp.of("N3P"))
        assert state.turn_candidates() == [c("N2L")]


class TestAKnownCardIsNotAnothersToPlay:
    def test_a_card_known_in_one_players_hand_is_not_committed_by_another(self) -> None:
        state = dealt(hands=THREE)
        with pytest.raises(IllegalMoveError, match="^L14: ann committed A2, which is in bob's hand: a card comes out once"):
            state.push(Commit.of("ann", "A2"))

    def test_a_card_known_in_a_pile_is_not_committed(self) -> None:
        state = dealt(hands=THREE, draws={"bob": ["5M"]})
        with pytest.raises(IllegalMoveError, match="^L14: ann committed 5M, which is 1st in bob's pile: a card comes out once"):
            state.push(Commit.of("ann", "5M"))

    def test_a_card_set_aside_is_neither_played_nor_drawn(self) -> None:
        full = dealt(["ann", "bob", "cy", "dee"], hands={"ann": ["4Mb", "A3", "1Da"]}, aside=["5M", "A6"])
        assert full.aside == (c("5M"), c("A6")) and full.where(c("A6")) == "set aside"
        state2 = table(["ann", "bob", "cy", "dee"])
        state2.push(Deal.make(aside=["5M", "A6"], hands={"ann": ["4Mb", "A3", "1Da"]}))
        with pytest.raises(IllegalMoveError, match="^L14: bob committed 5M, which is set aside: a card comes out once"):
            state2.push(Commit.of("bob", "5M"))
        commit_all(state2, {"ann": "4Mb", "bob": None, "cy": None, "dee": None})
        state2.push(TurnUp.of("N2L"))
        with pytest.raises(IllegalMoveError, match="^L14: cy revealed A6, which is set aside"):
            state2.push(Reveal.of(state2.players, {"ann": "4Mb", "bob": "1La", "cy": "A6", "dee": "2Da"}))
        state2.push(Reveal.of(state2.players, {"ann": "4Mb", "bob": "1La", "cy": "1Lb", "dee": "2Da"}))
        with pytest.raises(IllegalMoveError, match="^L14: dee drew 5M, which is set aside"):
            state2.push(Draw.of(state2.players, {"dee": "5M"}))

    def test_a_card_known_in_a_hand_is_not_drawn_by_another(self) -> None:
        state = table()
        state.push(Deal.make(hands={"ann": THREE["ann"]}))
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, seen=False, draw=False)
        with pytest.raises(IllegalMoveError, match="^L14: bob drew A3, which is in ann's hand: a card comes out once"):
            state.push(Draw.of(state.players, {"bob": "A3"}))


class TestAKnownPileIsDrawnFromTheTop:
    def test_the_top_card_and_no_other(self) -> None:
        state = dealt(hands=THREE, draws={"ann": ["2La", "5M"]}, order=["N3P"])
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, draw=False)
        with pytest.raises(IllegalMoveError, match="^L14: ann drew 5M, but the top of ann's pile is 2La"):
            state.push(Draw.of(state.players, {"ann": "5M"}))
        state.push(Draw.of(state.players, {"ann": "2La"}))
        assert c("2La") in state.hand("ann") and state.pile("ann")[0] is c("5M")

    def test_a_card_known_deeper_in_a_pile_whose_top_is_unseen(self) -> None:
        state = table()
        pile = [None] * 14
        pile[5] = "5M"
        state.push(Deal.make(piles={"ann": pile}))
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, seen=False, draw=False)
        with pytest.raises(IllegalMoveError, match="^L14: ann drew 5M, which is 3rd in ann's pile: a pile is drawn from the top"):
            state.push(Draw.of(state.players, {"ann": "5M"}))
        with pytest.raises(IllegalMoveError, match="^L14: bob drew 5M, which is 3rd in ann's pile: a card comes out once"):
            state.push(Draw.of(state.players, {"bob": "5M"}))

    def test_the_noble_pile_too(self) -> None:
        state = table()
        state.push(Deal.make(order=[None, None, "N5P", None, None, None, None, None, None, None]))
        commit_all(state, {"ann": None, "bob": None, "cy": None})
        with pytest.raises(IllegalMoveError, match="^L14: N5P is 3rd in the noble pile: the noble pile is turned from the top"):
            state.push(TurnUp.of("N5P"))
        assert c("N5P") not in state.turn_candidates() and len(state.turn_candidates()) == 9


class TestNothingFromAnEmptyPile:
    def test_an_empty_pile_draws_nothing(self) -> None:
        state = table(["ann", "bob", "cy", "dee", "eve", "fay"])
        state.push(Deal())
        rng = random.Random(7)
        for _ in range(5):
            commit_all(state, dict.fromkeys(state.players))
            state.push(TurnUp(state.turn_candidates()[0]))
            state.push(state.random_table_move(rng))  # the reveal, each card from a hand unseen
            if state.round_number == 6:
                break
            state.push(Draw.of(state.players))
        assert state.pile_sizes == dict.fromkeys(state.players, 0) and state.phase is Phase.DRAW
        with pytest.raises(IllegalMoveError, match="^L11: eve's pile is empty: eve drew nothing, not 5D"):
            state.push(Draw.of(state.players, {"eve": "5D"}))
        state.push(Draw.of(state.players))
        assert state.hand_sizes == dict.fromkeys(state.players, 2)


class TestTheRestAtTheReveal:
    def test_a_game_kept_from_one_players_view(self) -> None:
        state = table()
        state.push(Deal.make(hands={"ann": THREE["ann"]}))
        assert state.hand_unseen("ann") == 0 and state.hand_unseen("bob") == 3 and state.pile("ann") == (UNSEEN,) * 11
        assert state.moves_of("bob") == [Commit("bob", UNSEEN)]
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, seen=False, draw=False)
        # bob's and cy's cards were face down: they came from the hands the companion did not see.
        assert state.hand_unseen("bob") == 2 and state.hand("bob") == ()
        state.push(Draw.of(state.players, {"ann": "2La"}))
        assert state.hand("ann") == (c("2La"), c("1Da"), c("A3")) and state.hand_unseen("bob") == 3

    def test_a_commit_seen_from_an_unseen_hand_places_the_card(self) -> None:
        state = table()
        state.push(Deal())
        state.push(Commit.of("bob", "3Ma"))
        assert state.hand("bob") == () and state.commit_of("bob") is c("3Ma") and state.hand_unseen("bob") == 2
        with pytest.raises(IllegalMoveError, match="^L14: ann committed 3Ma, which is committed by bob"):
            state.push(Commit.of("ann", "3Ma"))

    def test_a_full_deal_places_every_card(self) -> None:
        state = table()
        deal = full_deal(state)
        state.push(deal)
        for player, pile in deal.piles:
            for k, card in enumerate(pile[3:]):
                assert state.where(card) == f"{ordinal(k + 1)} in {player}'s pile"  # type: ignore[arg-type]


class TestWhereACardIs:
    def test_a_card_in_ones_own_pile_is_not_in_ones_hand_yet(self) -> None:
        state = dealt(hands=THREE, draws={"ann": ["2La", "5M"]})
        with pytest.raises(IllegalMoveError, match="^L14: ann committed 5M, which is 2nd in ann's pile: it is not in ann's hand yet"):
            state.push(Commit.of("ann", "5M"))

    def test_a_committed_card_is_said_to_be_committed(self) -> None:
        state = table()
        state.push(Deal())
        state.push(Commit.of("bob", "3Ma"))
        assert state.where(c("3Ma")) == "committed by bob"
        with pytest.raises(IllegalMoveError, match="^L14: ann committed 3Ma, which is committed by bob: a card comes out once"):
            state.push(Commit.of("ann", "3Ma"))

    def test_the_draw_is_listed_as_far_as_the_piles_are_known(self) -> None:
        state = table()
        state.push(Deal.make(piles={"ann": ["4Mb", "A3", "1Da", "2La"] + [None] * 10}))
        play_round(state, "N3P", {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}, seen=False, draw=False)
        (draw,) = state.legal_moves
        assert draw == Draw((("ann", c("2La")), ("bob", UNSEEN), ("cy", UNSEEN))) and state.is_legal(draw)
