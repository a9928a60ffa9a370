"""C18 (Lonely Tyrant) and C19 (Coloured Cities): destruction, knock-outs, the colours of the
cities, and keeping a black city."""

from __future__ import annotations

import pytest

from companion.games.circle_of_power.effects import CITY, CITY_DECK, DESTROYED, TROPHIES, Transfer
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Conquer, Play, Regroup, Retake, Reveal
from companion.games.circle_of_power.scoring import Termination
from companion.contract.errors import IllegalMoveError

from .helpers import at_act, c, table, win

CITIES = {"ann": "QH", "bob": "JS", "cy": "KD", "dee": "AC"}


def counted(state, name, n):
    """``name`` has lost ``n`` cities that count in earlier seasons (the bookkeeping, C18)."""
    core = state._core
    totals = list(core.destroyed_totals)
    totals[core.emp_index[name]] = n
    core.destroyed_totals = tuple(totals)


# ---------------------------------------------------------------------- C18


def test_c18_a_conquest_destroys_the_losers_city_into_the_losers_line():
    state = at_act(CITIES, "ann", variant="lonely-tyrant")
    assert [x.act for x in state.choices()] == ["conquer"]  # no retake (C18)
    effects = state.apply(Conquer("ann", "bob"))
    assert state.destroyed_cities("bob") == (c("JS"),) and state.trophies("ann") == ()
    assert state.city("ann") is c("QH") and state.city("bob") is c("JD")
    assert effects.transfers[:2] == (Transfer(c("JS"), CITY, "bob", DESTROYED, "bob"), Transfer(c("JD"), CITY_DECK, None, CITY, "bob"))
    assert state.destroyed_count("bob") == 1 and state.destroyed_totals["bob"] == 0  # the season is not over


def test_c18_retaking_is_not_available_and_rebellion_costs_nothing():
    state = at_act(CITIES, "ann", variant="lonely-tyrant")
    with pytest.raises(IllegalMoveError, match="C18: retaking is not available in Lonely Tyrant"):
        state.check(Retake("ann", "bob"))
    quiet = at_act({"ann": "QH", "bob": "QS", "cy": "AD", "dee": "AC"}, "ann", variant="lonely-tyrant")
    assert list(quiet.legal_moves) == [Regroup("ann")]
    with pytest.raises(IllegalMoveError, match="C18: in Lonely Tyrant there are no trophies: a rebellion costs nothing"):
        quiet.check(Regroup("ann", c("JC")))


def test_c18_the_fifth_destroyed_city_knocks_a_player_out_and_the_last_player_is_the_lonely_tyrant():
    state = win(table({"ann": "QH", "@1": "KS", "bob": "JS", "@2": "AC"}, players=("ann", "bob"), variant="lonely-tyrant"), "ann")
    counted(state, "bob", 4)
    effects = state.apply(Conquer("ann", "bob"))
    assert effects.knocked_out == ("bob",) and state.knocked_out == ("bob",)
    assert state.is_game_over() and state.phase is Phase.OVER
    outcome = state.outcome()
    assert (outcome.winner, outcome.draw, outcome.how) == ("ann", False, Termination.LONELY_TYRANT)
    assert effects.outcome == outcome and effects.result is state.results[-1] and effects.result.cut_short
    assert effects.result.destroyed == {"ann": 0, "@1": 0, "bob": 1, "@2": 0}
    assert state.destroyed_totals["bob"] == 5
    with pytest.raises(IllegalMoveError, match="C18: .*the game is over"):
        state.check(Reveal(c("AH")))


def test_c18_a_knocked_out_player_plays_the_season_out_and_further_losses_count_nothing():
    state = win(table({"ann": "QH", "bob": "JS", "cy": "KD", "@1": "AC"}, variant="lonely-tyrant"), "ann")
    counted(state, "bob", 4)
    state.push(Conquer("ann", "bob"))
    assert state.knocked_out == ("bob",) and not state.is_game_over()  # ann and cy are still in
    state.push(Reveal(c("QC")))
    assert state.city("bob") is c("JD") and state.to_move == "ann"
    win(state, "ann")  # ann's QH takes bob's JD again
    state.push(Conquer("ann", "bob"))
    assert state.destroyed_cities("bob") == (c("JS"), c("JD")) and state.destroyed_count("bob") == 5


def test_c18_destroying_a_dummys_city_counts_nothing():
    state = at_act({"ann": "QH", "bob": "KS", "cy": "KD", "@1": "JS"}, "ann", variant="lonely-tyrant")
    state.push(Conquer("ann", "@1"))
    assert state.destroyed_cities("@1") == (c("JS"),) and state.destroyed_count("@1") == 0


# ---------------------------------------------------------------------- C19


def test_c19_a_red_loser_is_conquered_a_black_one_destroyed():
    red = at_act({"ann": "KS", "bob": "QH", "cy": "KD", "dee": "AC"}, "ann", variant="coloured-cities")
    red.push(Conquer("ann", "bob"))
    assert red.trophies("ann") == (c("QH"),) and red.destroyed_cities("bob") == ()
    black = at_act({"ann": "KH", "bob": "QS", "cy": "KD", "dee": "AC"}, "ann", variant="coloured-cities")
    effects = black.apply(Conquer("ann", "bob"))
    assert black.trophies("ann") == () and black.destroyed_cities("bob") == (c("QS"),) and black.destroyed_count("bob") == 1
    assert black.line("bob") == ((c("QS"), False),) and red.line("ann") == ((c("QH"), True),)
    assert effects.transfers[0] == Transfer(c("QS"), CITY, "bob", DESTROYED, "bob")


def test_c19_a_red_attacker_gives_its_city_to_the_loser_and_takes_the_next():
    state = at_act({"ann": "KH", "bob": "QS", "cy": "KD", "dee": "AC"}, "ann", variant="coloured-cities")
    assert [(x.act, x.keep) for x in state.choices()] == [("conquer", False), ("retake", None)]
    with pytest.raises(IllegalMoveError, match="C19: ann's KH is red in this attack: ann must give it to bob"):
        state.check(Conquer("ann", "bob", keep=True))
    effects = state.apply(Conquer("ann", "bob"))
    assert state.city("bob") is c("KH") and state.city("ann") is c("JD")
    assert Transfer(c("KH"), CITY, "ann", CITY, "bob") in effects.transfers
    assert Transfer(c("JD"), CITY_DECK, None, CITY, "ann") in effects.transfers


def test_c19_a_black_attacker_chooses_to_give_or_keep_its_city():
    give = at_act({"ann": "KS", "bob": "QH", "cy": "KD", "dee": "AC"}, "ann", variant="coloured-cities")
    assert set(give.legal_moves) >= {Conquer("ann", "bob"), Conquer("ann", "bob", keep=True)}
    keep = give.copy()
    give.push(Conquer("ann", "bob"))
    assert give.city("bob") is c("KS") and give.city("ann") is c("JD")
    keep.push(Conquer("ann", "bob", keep=True))
    assert keep.city("ann") is c("KS") and keep.city("bob") is c("JD")


def test_c19_a_joker_takes_the_colour_of_the_other_city():
    # A joker attacks red cities only, so as an attacker it is red and gives itself away.
    joker = at_act({"ann": "X1", "bob": "QH", "cy": "KS", "dee": "AC"}, "ann", variant="coloured-cities")
    assert [(x.act, x.keep) for x in joker.choices() if x.act == "conquer"] == [("conquer", False)]
    joker.push(Conquer("ann", "bob"))
    assert joker.trophies("ann") == (c("QH"),) and joker.city("bob") is c("X1")
    # Attacked by a black city, a joker is black: destroyed.
    victim = at_act({"ann": "KS", "bob": "X1", "cy": "KD", "dee": "AC"}, "ann", variant="coloured-cities")
    victim.push(Conquer("ann", "bob", keep=True))
    assert victim.destroyed_cities("bob") == (c("X1"),) and victim.trophies("ann") == ()


def test_c19_a_retake_swaps_the_cities_and_takes_no_card_from_the_deck():
    state = at_act({"ann": "KS", "bob": "QH", "cy": "KD", "dee": "AC"}, "ann", variant="coloured-cities", trophies={"bob": "JC"})
    state.push(Retake("ann", "bob", c("JC")))
    assert state.city("ann") is c("QH") and state.city("bob") is c("KS") and state.trophies("bob") == ()
    assert state.next_city is c("JD") and state.city_deck_count == 14
    assert state.phase is Phase.PLAY  # the same card stays face up: no reveal
    with pytest.raises(IllegalMoveError, match="C7: no city card is turned up now"):
        state.check(Reveal(c("AH")))


def test_c19_rebellion_discards_a_trophy_never_a_destroyed_city():
    state = at_act({"ann": "QH", "bob": "QS", "cy": "AD", "dee": "AC"}, "ann", variant="coloured-cities", trophies={"ann": "JH"})
    state._core.destroyed[0] = (c("JS"),)
    with pytest.raises(IllegalMoveError, match=r"C14: JS is not one of ann's trophies \(JH\) \(a destroyed city is never lost to rebellion, C19\)"):
        state.check(Regroup("ann", c("JS")))
    assert list(state.legal_moves) == [Regroup("ann", c("JH"))]


def test_c19_keep_is_only_for_coloured_cities():
    state = at_act({"ann": "KS", "bob": "QH", "cy": "KD", "dee": "AC"}, "ann")
    with pytest.raises(IllegalMoveError, match="C19: only in Coloured Cities may an attacker keep their city"):
        state.check(Conquer("ann", "bob", keep=True))


def test_c19_a_black_dummy_keeps_its_city():
    cities = {"ann": "QH", "bob": "JD", "@1": "KS", "dee": "KD"}
    state = win(table(cities, "AH", players=("ann", "bob", "dee"), variant="coloured-cities"), "@1")
    assert list(state.legal_moves) == [Conquer("@1", "ann", keep=True)]
    with pytest.raises(IllegalMoveError, match="C11: @1 is a dummy: it conquers ann and keeps its city"):
        state.check(Conquer("@1", "ann"))


def test_c19_c20_a_knocked_out_player_cannot_win_whatever_their_trophies():
    from companion.games.circle_of_power.scoring import decide_after_season

    outcome = decide_after_season({"ann": 9, "bob": 6, "cy": 2}, ("ann", "bob", "cy"), ("ann",), 6)
    assert outcome.winner == "bob" and not outcome.draw
    assert decide_after_season({"ann": 9, "bob": 5, "cy": 2}, ("ann", "bob", "cy"), ("ann",), 6) is None


def test_c19_both_ends_are_open():
    state = win(table({"ann": "KS", "@1": "KH", "bob": "QS", "@2": "AD"}, players=("ann", "bob"), variant="coloured-cities"), "ann")
    counted(state, "bob", 4)
    state.push(Conquer("ann", "bob"))  # QS is black: destroyed, the fifth
    assert state.outcome().how is Termination.LONELY_TYRANT and state.outcome().winner == "ann"
    assert state.knocked_out == ("bob",)


def test_plays_are_refused_after_the_game_is_over():
    state = win(table({"ann": "QH", "@1": "KS", "bob": "JS", "@2": "AC"}, players=("ann", "bob"), variant="lonely-tyrant"), "ann")
    counted(state, "bob", 4)
    state.push(Conquer("ann", "bob"))
    assert not list(state.legal_moves) and state.to_move is None
    with pytest.raises(IllegalMoveError, match="C18: ann cannot play a card: the game is over"):
        state.check(Play("ann", c("2H")))
