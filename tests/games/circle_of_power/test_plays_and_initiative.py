"""C8 and C9: the plays of an action, the draws, and who takes the initiative."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.circle_of_power.cards import BATTLE_DECK, CITY_DECK, Card
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Play, Reveal, Season
from companion.games.circle_of_power.rules import initiative, trump_suit, why_initiative
from companion.contract.errors import IllegalMoveError

from .helpers import c, new


def table(cities, nxt="JD", hands=None, dealer="dee", players=("ann", "bob", "cy", "dee"), piles=None, bottom=None):
    """A first action ready to play: ``cities`` in seat order, ``nxt`` turned up."""
    seats = list(cities)
    state = new(players)
    jokers = [x for x in ("X1", "X2") if x not in cities.values() and x != nxt]
    bottom = bottom or jokers[-1]
    state.push(Season.make(dealer, seats, cities, bottom, hands, piles))
    state.push(Reveal(c(nxt)))
    return state


HANDS = {"ann": ["5H", "7C", "10S"], "bob": ["2D", "9D", "4S"], "cy": ["3C", "8H", "6S"], "dee": ["2S", "9H", "10D"]}
CITIES = {"ann": "KH", "bob": "QS", "cy": "X1", "dee": "AC"}


# ---------------------------------------------------------------------- C8


def test_c8_the_leader_plays_first_then_clockwise():
    state = table(CITIES, hands=HANDS)
    assert state.to_move == "ann"  # the dealer dee's left
    with pytest.raises(IllegalMoveError, match=r"C8: it is ann's turn to play in action 1 \(clockwise from ann, who leads it\), not cy's"):
        state.check(Play("cy", c("3C"), c("4D")))
    order = []
    for card in ("7C", "4S", "6S", "2S"):
        order.append(state.to_move)
        state.push(Play(state.to_move, c(card), c("3D") if state.to_move == "ann" else None))
    assert order == ["ann", "bob", "cy", "dee"]


def test_c8_a_player_plays_any_card_of_their_hand_no_duty_to_follow_suit():
    state = table(CITIES, hands=HANDS)
    assert {m.card.id for m in state.legal_moves} == {"5H", "7C", "10S"}
    state.push(Play("ann", c("10S"), c("4H")))
    assert {m.card.id for m in state.legal_moves} == {"2D", "9D", "4S"}  # no spade needs following
    with pytest.raises(IllegalMoveError, match=r"C8: 5H is not in bob's hand \(it is in ann's hand\)"):
        state.check(Play("bob", c("5H")))
    with pytest.raises(IllegalMoveError, match=r"C8: 10S is not in bob's hand \(it was played in this action by ann\)"):
        state.check(Play("bob", c("10S")))
    with pytest.raises(IllegalMoveError, match="C8: bob plays a battle card"):
        state.check(Play("bob", c("KD")))


def test_c8_a_player_draws_at_once_a_card_of_the_battle_deck():
    state = table(CITIES, hands=HANDS)
    assert state.battle_deck_count == 24
    draws = {m.drew for m in state.legal_moves}
    dealt = {c(x) for hand in HANDS.values() for x in hand}
    assert draws == set(BATTLE_DECK) - dealt  # what the deck may hold; its order is unknown
    with pytest.raises(IllegalMoveError, match=r"C8: ann cannot draw 2D: it is not in the battle deck \(it is in bob's hand\)"):
        state.check(Play("ann", c("5H"), c("2D")))
    with pytest.raises(IllegalMoveError, match="C8: ann cannot draw 5H: it is the card ann plays"):
        state.check(Play("ann", c("5H"), c("5H")))
    with pytest.raises(IllegalMoveError, match="C8: ann draws from the battle deck, which holds no city card"):
        state.check(Play("ann", c("5H"), c("JH")))
    state.push(Play("ann", c("5H"), c("4H")))
    assert state.hand("ann") == (c("7C"), c("10S"), c("4H")) and state.battle_deck_count == 23
    state.push(Play("bob", c("2D")))  # a draw nobody saw
    assert state.hand("bob") == (c("9D"), c("4S")) and state.unseen_in_hand("bob") == 1 and state.hand_size("bob") == 3


def test_c8_a_dummy_plays_the_top_of_its_pile_and_draws_nothing():
    pile = ["7D", "2H", "3H", "4H", "5D", "6D", "8D", "9C", "10C"]
    state = table({"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, hands={"ann": ["5H", "7C", "10S"], "bob": ["2D", "9D", "4S"], "cy": ["3C", "8H", "6S"]},
                  piles={"@1": pile}, dealer="cy", players=("ann", "bob", "cy"))
    assert state.to_move == "@1" and list(state.legal_moves) == [Play("@1", c("7D"))]
    with pytest.raises(IllegalMoveError, match="C8: @1 plays the top card of its pile, 7D, not 2H"):
        state.check(Play("@1", c("2H")))
    with pytest.raises(IllegalMoveError, match="C8: @1 is a dummy and draws no card"):
        state.check(Play("@1", c("7D"), c("2S")))
    state.push(Play("@1", c("7D")))
    assert state.pile("@1") == tuple(c(x) for x in pile[1:]) and state.battle_deck_count == 18


def test_c8_after_the_fourth_card_the_winner_is_to_act():
    state = table(CITIES, hands=HANDS)
    for move in (Play("ann", c("5H"), c("4H")), Play("bob", c("9D"), c("3D")), Play("cy", c("8H"), c("5D")), Play("dee", c("2S"), c("6D"))):
        assert state.phase is Phase.PLAY
        state.push(move)
    assert state.phase is Phase.ACT and state.to_move == "ann"


# ---------------------------------------------------------------------- C9


def played(state, cards):
    for card in cards:
        name = state.to_move
        state.push(Play(name, c(card)))  # draws unseen
    return state


def test_c9_a_trump_card_beats_every_card_that_is_not():
    state = played(table(CITIES), ["2H", "10D", "10S", "9S"])  # ann's 2H is the only trump card
    assert state.initiative.player == "ann" and state.to_move == "ann" and state.initiative.trump
    assert state.initiative.reason == "ann's 2H is trump for ann (ann's city is KH) and beats cy's 10S"


def test_c9_each_emperor_has_their_own_trump_suit():
    # bob's 3S is trump for bob (QS) but the same suit means nothing for dee (AC).
    state = played(table(CITIES), ["9C", "3S", "8H", "10S"])
    assert state.trump_suits == {"ann": "H", "bob": "S", "cy": "D", "dee": "C"}
    assert state.initiative.player == "bob"


def test_c9_between_trump_cards_the_higher_number_wins():
    state = played(table(CITIES), ["9H", "7S", "10D", "8C"])  # every card trump for its player
    assert state.initiative.player == "cy"
    assert "both are trump for their players and 10 is higher than 9" in state.initiative.reason


def test_c9_of_equal_cards_the_one_played_last_wins():
    state = played(table(CITIES), ["7S", "7H", "7C", "7D"])  # ann plain, bob plain, cy plain, dee plain
    assert [x for x in state.trump_suits.values()] == ["H", "S", "D", "C"]
    assert state.initiative.player == "dee"
    assert state.initiative.reason == "dee's 7D and cy's 7C are equal (neither is trump for its player) and dee's was played last"
    trumps = played(table(CITIES), ["7H", "3D", "4D", "7C"])  # ann's 7H and dee's 7C both trump
    assert trumps.initiative.player == "dee"


def test_c9_a_joker_city_takes_the_suit_of_the_next_available_city():
    state = played(table(CITIES, nxt="JD"), ["5S", "6C", "2D", "4H"])  # cy's 2D trump through JD
    assert state.trump_suits["cy"] == "D" and state.initiative.player == "cy"
    assert state.initiative.reason.startswith("cy's 2D is trump for cy (cy's city is X1 and the next available city is JD)")


def test_c9_no_trump_for_a_joker_city_when_the_next_city_is_a_joker_or_there_is_none():
    # The bottom joker is the 14th next available city (C7), and action 15 has none.
    assert trump_suit(c("X1"), c("X2")) is None and trump_suit(c("X1"), None) is None
    assert trump_suit(c("KH"), None) == "H" and trump_suit(c("KH"), c("X2")) == "H"
    trumps = [trump_suit(x, c("X2")) for x in (c("KH"), c("QS"), c("X1"), c("AC"))]
    plays = [(0, c("5S")), (1, c("6C")), (2, c("10D")), (3, c("4S"))]
    assert trumps[2] is None and initiative(plays, trumps) == 2  # a plain 10 beats plain 5, 6, 4
    assert initiative([(0, c("5H"))] + plays[1:], trumps) == 0


def test_c9_the_act_of_another_emperor_is_refused_saying_who_won_and_why():
    state = played(table({"ann": "KH", "bob": "JC", "cy": "X1", "dee": "AS"}, nxt="QD"), ["5H", "10S", "3H", "2C"])
    from companion.games.circle_of_power.moves import Conquer

    with pytest.raises(IllegalMoveError) as err:
        state.check(Conquer("bob", "dee"))
    assert str(err.value) == "C9: ann's 5H is trump for ann (ann's city is KH) and beats bob's 10S"
    assert err.value.rule == "C9"


def beats(a: Card, a_trump: str | None, b: Card, b_trump: str | None, a_later: bool) -> bool:
    """C9 for two cards, as its text says: trump beats plain; else the higher number; of equal
    cards the later one."""
    ta, tb = a.suit == a_trump, b.suit == b_trump
    if ta != tb:
        return ta
    if a.number != b.number:
        return a.number > b.number
    return a_later


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(BATTLE_DECK), min_size=4, max_size=4, unique=True),
    st.lists(st.sampled_from(CITY_DECK), min_size=5, max_size=5, unique=True),
    st.booleans(),
)
def test_c9_exactly_one_card_of_an_action_beats_all_the_others(plays, cities, none_next):
    nxt = None if none_next else cities[4]
    trumps = [trump_suit(city, nxt) for city in cities[:4]]
    order = list(enumerate(plays))  # seat k plays the k-th card
    winners = [k for k, card in order if all(beats(card, trumps[k], other, trumps[j], k > j) for j, other in order if j != k)]
    assert len(winners) == 1
    assert initiative(order, trumps) == winners[0]
    why = why_initiative(["a", "b", "c", "d"], cities[:4], nxt, order, trumps)
    assert why.startswith(["a", "b", "c", "d"][winners[0]] + "'s " + plays[winners[0]].id)
