"""R4, R5: capture options, checked against the rulebook's examples and a brute force."""

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.rule_of_power.engine.captures import capture_options, has_capture, is_valid_capture, sort_options
from companion.games.rule_of_power.engine.cards import FATE_CARDS, WORLD_DECK, EXPANSION_CARDS, parse_cards


def ids(options):
    return sorted(sorted(c.id for c in o) for o in options)


def test_rulebook_example_six_takes_two_and_four():
    """Rulebook: with a 2 and a 4 on the table a 6 must capture both."""
    assert ids(capture_options(parse_cards("W002,W014"), 6)) == [["W002", "W014"]]


def test_ten_over_ten_and_ten_over_two_and_eight():
    """Rulebook: a 10 over a 10, or the sum of more cards (a 2 and an 8)."""
    assert ids(capture_options(parse_cards("W020"), 10)) == [["W020"]]
    assert ids(capture_options(parse_cards("W012,W028"), 10)) == [["W012", "W028"]]


def test_single_card_of_same_value_must_be_taken_alone():
    """Rulebook / R4: if a single card matches, the player must take a single card."""
    centre = parse_cards("W006,W012,W024,W036")
    assert ids(capture_options(centre, 6)) == [["W006"], ["W036"]]
    assert is_valid_capture(centre, 6, parse_cards("W012,W024")).startswith("R4")
    assert is_valid_capture(centre, 6, parse_cards("W036")) is None


def test_no_option_means_the_card_stays():
    centre = parse_cards("W009,W018")
    assert capture_options(centre, 3) == []
    assert not has_capture(centre, 3)
    assert is_valid_capture(centre, 3, ()) is None


def test_capture_is_compulsory():
    """R4: a card that can capture may not be played without capturing."""
    reason = is_valid_capture(parse_cards("W002,W014"), 6, ())
    assert reason.startswith("R4") and "2P W002 + 4M W014" in reason


def test_sum_must_match_and_cards_must_be_in_centre():
    centre = parse_cards("W002,W013,W015")
    assert "add up to 5" in is_valid_capture(centre, 6, parse_cards("W002,W013"))
    assert "not in the centre" in is_valid_capture(centre, 6, parse_cards("W002,W024"))


def test_empowered_wizard_takes_the_whole_centre():
    """R5: with a Crystal in play a value-1 card captures everything, its only option."""
    centre = parse_cards("W002,W014,W035,W021")
    assert ids(capture_options(centre, 1, empowered=True)) == [sorted(c.id for c in centre)]
    assert capture_options((), 1, empowered=True) == []
    assert is_valid_capture(centre, 1, parse_cards("W021"), empowered=True).startswith("R5")
    assert is_valid_capture(centre, 1, centre, empowered=True) is None


def test_warlock_and_vampire_in_the_centre_count_with_their_value():
    """R4: a Warlock (1) or Vampire (10) lying in the centre is captured like a World card."""
    warlock, vampire = FATE_CARDS[1], FATE_CARDS[2]
    assert ids(capture_options((vampire, WORLD_DECK[3]), 10)) == [["F003"]]
    assert ids(capture_options((warlock, WORLD_DECK[1]), 3)) == [["F002", "W002"]]


def test_worst_case_centre_has_over_1300_options():
    centre = [c for c in WORLD_DECK if c.value <= 5][:20]
    options = capture_options(centre, 10)
    assert len(options) == 1342
    assert len({frozenset(o) for o in options}) == 1342


def test_sort_options_is_centre_order():
    centre = parse_cards("W035,W002,W014,W011")
    options = sort_options(centre, capture_options(centre, 6))
    assert [[c.id for c in o] for o in options] == [["W035", "W011"], ["W002", "W014"]]


deck = WORLD_DECK + EXPANSION_CARDS + FATE_CARDS[1:3]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(deck), max_size=11, unique=True), st.integers(1, 13))
def test_options_match_brute_force(centre, value):
    """R4 stated directly: singles of the value, else every subset of 2+ summing to it."""
    singles = [(c,) for c in centre if c.value == value]
    if singles:
        expected = singles
    else:
        expected = [s for k in range(2, len(centre) + 1) for s in combinations(centre, k) if sum(c.value for c in s) == value]
    got = capture_options(centre, value)
    assert sorted(map(frozenset, got), key=sorted) == sorted(map(frozenset, expected), key=sorted)
    assert has_capture(centre, value) == bool(expected)
    for option in got:
        assert is_valid_capture(centre, value, option) is None
