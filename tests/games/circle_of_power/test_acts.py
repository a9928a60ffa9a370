"""C10-C14: the winner must attack when they can (conquering or retaking) and regroup
otherwise, with the rebellion of a city under no threat; C11: what a dummy does."""

from __future__ import annotations

import pytest

from companion.games.circle_of_power.effects import CITY, CITY_DECK, DISCARD, GATHERED, TABLE, TROPHIES, Transfer
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Conquer, Regroup, Retake, Reveal
from companion.contract.errors import IllegalMoveError, InvalidMoveError

from .helpers import at_act, c, table, win

# ann's QH takes bob's JS (Q attacks J); nobody takes ann's QH (K's are out of play); cy's
# KD and dee's AC stand apart (A attacks K: dee threatens cy).
CITIES = {"ann": "QH", "bob": "JS", "cy": "KD", "dee": "AC"}


# ---------------------------------------------------------------------- C10


def test_c10_a_winner_who_may_attack_must_attack():
    state = at_act(CITIES, "ann")
    with pytest.raises(IllegalMoveError) as err:
        state.check(Regroup("ann"))
    assert str(err.value) == "C10: ann must attack: ann's QH may take bob's JS (Q attacks J)"
    assert set(state.legal_moves) == {Conquer("ann", "bob"), Retake("ann", "bob")}


def test_c10_only_a_city_the_circle_allows_can_be_taken():
    state = at_act(CITIES, "ann")
    with pytest.raises(IllegalMoveError, match=r"C3: ann's QH may not take dee's AC \(Q attacks J only\)"):
        state.check(Conquer("ann", "dee"))
    with pytest.raises(IllegalMoveError, match="C10: ann cannot take over ann's own city"):
        state.check(Conquer("ann", "ann"))
    with pytest.raises(InvalidMoveError, match="unknown emperor 'zed'"):
        state.check(Conquer("ann", "zed"))


def test_c10_a_winner_with_nothing_to_attack_must_regroup():
    state = at_act({"ann": "QH", "bob": "KS", "cy": "KD", "dee": "AC"}, "ann")
    with pytest.raises(IllegalMoveError) as err:
        state.check(Conquer("ann", "bob"))
    assert str(err.value) == "C10: ann's QH may take none of the other cities (Q attacks J only): ann must regroup"
    assert list(state.legal_moves) == [Regroup("ann")]


def test_c10_the_winner_chooses_which_city_and_how():
    state = at_act({"ann": "X1", "bob": "JH", "cy": "KD", "dee": "AS"}, "ann")  # a joker takes any red city
    assert set(state.legal_moves) == {Conquer("ann", "bob"), Retake("ann", "bob"), Conquer("ann", "cy"), Retake("ann", "cy")}
    why = [x.why for x in state.choices()]
    assert why[0].startswith("ann's X1 may take bob's JH (a joker attacks any red city)")


# ---------------------------------------------------------------------- C12


def test_c12_a_conquest_takes_the_losers_city_as_a_trophy_and_the_loser_takes_the_next_city():
    state = at_act(CITIES, "ann")
    effects = state.apply(Conquer("ann", "bob"))
    assert state.trophies("ann") == (c("JS"),) and state.city("ann") is c("QH") and state.city("bob") is c("JD")
    assert state.next_city is None and state.city_deck_count == 13 and state.phase is Phase.REVEAL
    assert effects.transfers[:2] == (Transfer(c("JS"), CITY, "bob", TROPHIES, "ann"), Transfer(c("JD"), CITY_DECK, None, CITY, "bob"))
    assert [t.destination for t in effects.transfers[2:]] == [GATHERED] * 4 and effects.transfers[2].source == TABLE
    state.push(Reveal(c("AH")))
    assert state.to_move == "ann" and state.leader == "ann" and state.action_number == 2  # C5: the winner leads


# ---------------------------------------------------------------------- C13


def test_c13_a_retake_discards_a_trophy_of_the_loser_and_swaps_through_the_discard():
    state = at_act(CITIES, "ann", trophies={"bob": "QD JC"})
    with pytest.raises(IllegalMoveError, match=r"C13: ann discards one of bob's trophies \(QD, JC\)"):
        state.check(Retake("ann", "bob"))
    with pytest.raises(IllegalMoveError, match=r"C13: AS is not one of bob's trophies \(QD, JC\)"):
        state.check(Retake("ann", "bob", c("AS")))
    assert {m for m in state.legal_moves if type(m) is Retake} == {Retake("ann", "bob", c("QD")), Retake("ann", "bob", c("JC"))}
    effects = state.apply(Retake("ann", "bob", c("JC")))
    assert state.trophies("bob") == (c("QD"),) and state.trophies("ann") == ()
    assert state.city("ann") is c("JS") and state.city("bob") is c("JD")
    assert state.city_discards == (c("JC"), c("QH"))
    assert effects.transfers[:4] == (
        Transfer(c("JC"), TROPHIES, "bob", DISCARD, None),
        Transfer(c("QH"), CITY, "ann", DISCARD, None),
        Transfer(c("JS"), CITY, "bob", CITY, "ann"),
        Transfer(c("JD"), CITY_DECK, None, CITY, "bob"),
    )


def test_c13_a_retake_of_a_loser_without_trophies_costs_nothing():
    state = at_act(CITIES, "ann")
    with pytest.raises(IllegalMoveError, match="C13: bob has no trophy: the retake costs bob nothing, so no discard"):
        state.check(Retake("ann", "bob", c("QD")))
    state.push(Retake("ann", "bob"))
    assert state.city("ann") is c("JS") and state.city_discards == (c("QH"),)


# ---------------------------------------------------------------------- C14


def test_c14_a_city_under_threat_does_not_rebel():
    state = at_act({"ann": "QH", "bob": "KS", "cy": "AD", "dee": "AC"}, "ann", trophies={"ann": "JC"})
    assert state.threatened("ann") and state.threat("ann") == "ann's city QH is under threat from bob's KS"
    with pytest.raises(IllegalMoveError) as err:
        state.check(Regroup("ann", c("JC")))
    assert str(err.value) == "C14: ann's city QH was under threat from bob's KS: no rebellion"
    effects = state.apply(Regroup("ann"))
    assert not effects.rebellion and effects.threatened and state.trophies("ann") == (c("JC"),)
    assert state.city("ann") is c("JD") and state.city_discards == (c("QH"),)


def test_c14_a_city_under_no_threat_rebels_and_costs_a_trophy_of_the_winners_choice():
    state = at_act({"ann": "QH", "bob": "QS", "cy": "AD", "dee": "AC"}, "ann", trophies={"ann": "JC JH"})
    assert not state.threatened("ann")
    with pytest.raises(IllegalMoveError) as err:
        state.check(Regroup("ann"))
    assert str(err.value) == (
        "C14: ann's city QH was under threat from nobody: it rebels, and ann must discard one of ann's trophies (JC, JH)"
    )
    with pytest.raises(IllegalMoveError, match=r"C14: KC is not one of ann's trophies \(JC, JH\)"):
        state.check(Regroup("ann", c("KC")))
    assert set(state.legal_moves) == {Regroup("ann", c("JC")), Regroup("ann", c("JH"))}
    effects = state.apply(Regroup("ann", c("JH")))
    assert effects.rebellion and effects.lost is c("JH") and not effects.threatened
    assert state.trophies("ann") == (c("JC"),) and state.city_discards == (c("JH"), c("QH"))


def test_c14_without_a_trophy_the_rebellion_costs_nothing():
    state = at_act({"ann": "QH", "bob": "QS", "cy": "AD", "dee": "AC"}, "ann")
    with pytest.raises(IllegalMoveError, match="C14: ann has no trophy to lose"):
        state.check(Regroup("ann", c("JC")))
    assert not state.apply(Regroup("ann")).rebellion


# ---------------------------------------------------------------------- C11


def test_c11_a_dummy_conquers_the_first_city_counter_clockwise_it_may_take():
    # @1's X1 may take bob's JH (on its right) and dee's KD (further round): bob first.
    cities = {"ann": "QS", "bob": "JH", "@1": "X1", "dee": "KD"}
    state = win(table(cities, players=("ann", "bob", "dee")), "@1")
    assert list(state.legal_moves) == [Conquer("@1", "bob")]
    for other in (Conquer("@1", "dee"), Retake("@1", "bob"), Regroup("@1")):
        with pytest.raises(IllegalMoveError, match="C11: @1 is a dummy: it conquers bob, the first emperor counter-clockwise"):
            state.check(other)
    state.push(Conquer("@1", "bob"))
    assert state.trophies("@1") == (c("JH"),)


def test_c11_a_dummy_gives_up_the_trophy_it_won_last():
    cities = {"ann": "QS", "bob": "QH", "@1": "KD", "dee": "KS"}  # KD takes Q: ann and bob
    state = win(table(cities, players=("ann", "bob", "dee")), "@1")
    assert list(state.legal_moves) == [Conquer("@1", "bob")]  # bob sits on @1's right
    quiet = {"ann": "QS", "bob": "QH", "@1": "AD", "dee": "AS"}  # AD takes no Q or A, and no J threatens it
    state = win(table(quiet, players=("ann", "bob", "dee")), "@1")
    state._core.trophies[2] = (c("QC"), c("KH"))
    assert list(state.legal_moves) == [Regroup("@1", c("KH"))]
    with pytest.raises(IllegalMoveError, match="C11: @1 is a dummy: it regroups, giving up KH, the trophy it won last"):
        state.check(Regroup("@1", c("QC")))
