"""C4-C7: emperors and dummies in their seats, the dealer and the leader, the season's
set-up counts, and the next available city."""

from __future__ import annotations

import random

import pytest

from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import BATTLE_DECK
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Play, Reveal, Season
from companion.contract.errors import IllegalMoveError, InvalidMoveError

from .helpers import c, new, walk

CITIES4 = {"ann": "KH", "bob": "QS", "cy": "X1", "dee": "AC"}


def season(seats, dealer=None, cities=None, bottom="X2", hands=None, piles=None, *, deal=True):
    """A season's set-up; unless ``hands`` or ``piles`` are given, every card is dealt face up
    (from a shuffled battle deck), so that random walks can go on from it."""
    names = list(seats)
    cities = cities or dict(zip(names, ["KH", "QS", "X1", "AC"]))
    if deal and hands is None and piles is None:
        deck = [x.id for x in BATTLE_DECK]
        random.Random(len(names)).shuffle(deck)
        hands = {n: [deck.pop() for _ in range(3)] for n in names if not n.startswith("@")}
        piles = {n: [deck.pop() for _ in range(9)] for n in names if n.startswith("@")}
    return Season.make(dealer or next(n for n in names if not n.startswith("@")), names, cities, bottom, hands, piles)


def round_table(seats):
    """Seats as a round table: the same whichever seat the list starts from."""
    seats = tuple(seats)
    return min(seats[k:] + seats[:k] for k in range(len(seats)))


def finish_season(state, rng):
    """Random legal moves until the season is over."""
    for _ in walk(state, rng):
        if state.phase in (Phase.SEASON, Phase.OVER):
            return


# ---------------------------------------------------------------------- C4


def test_c4_the_first_season_seats_the_players_and_dummies_named_from_1():
    state = new(("ann", "bob", "cy"))
    with pytest.raises(IllegalMoveError, match="C4: the emperors are the players ann, bob, cy and the dummy @1"):
        state.check(season(["ann", "bob", "cy", "@2"]))
    with pytest.raises(IllegalMoveError, match="C4: the players sit in their clockwise order ann, bob, cy"):
        state.check(season(["ann", "cy", "bob", "@1"]))
    for seats in (["ann", "bob", "cy", "@1"], ["@1", "bob", "cy", "ann"], ["bob", "@1", "cy", "ann"]):
        assert state.is_legal(season(seats)), seats


def test_c4_two_dummies_sit_opposite_each_other():
    state = new(("ann", "bob"))
    with pytest.raises(IllegalMoveError, match="C4: two dummies sit opposite each other"):
        state.check(season(["ann", "bob", "@1", "@2"]))
    assert state.is_legal(season(["ann", "@1", "bob", "@2"]))


def test_c4_each_emperor_sits_once():
    state = new()
    with pytest.raises(IllegalMoveError, match="C4: each emperor sits once"):
        state.check(Season.make("ann", ["ann", "bob", "cy", "cy"], {"ann": "KH", "bob": "QS", "cy": "X1"}, "X2"))
    with pytest.raises(InvalidMoveError):
        state.check(Season.make("ann", ["ann", "bob", "cy"], {"ann": "KH", "bob": "QS", "cy": "X1"}, "X2"))


def test_c4_a_single_dummy_changes_places_with_the_emperor_on_its_right_each_season():
    rng = random.Random(5)
    state = new(("ann", "bob", "cy"))
    state.push(season(["ann", "bob", "cy", "@1"]))
    # Three places between the three players: after three seasons the dummy is back.
    expected = [("ann", "bob", "@1", "cy"), ("ann", "@1", "bob", "cy"), ("@1", "ann", "bob", "cy"), ("ann", "bob", "@1", "cy")]
    for seats in expected:
        finish_season(state, rng)
        if state.is_game_over():
            break
        assert round_table(state.expected_seats()) == round_table(seats)
        wrong = tuple(state.seats)
        with pytest.raises(IllegalMoveError, match=r"C4: this season the emperors sit .* \(@1 moves one seat counter-clockwise"):
            state.check(season(wrong, dealer=state.expected_dealer()))
        rotated = state.expected_seats()[1:] + state.expected_seats()[:1]  # the table is round
        state.push(season(rotated, dealer=state.expected_dealer()))
        assert state.dummies == ("@1",)
    assert state.season_number >= 3


def test_c4_two_dummies_never_move():
    rng = random.Random(2)
    state = new(("ann", "bob"))
    state.push(season(["ann", "@1", "bob", "@2"]))
    finish_season(state, rng)
    assert state.expected_seats() == ("ann", "@1", "bob", "@2")


def find_knock_out(players, variant, seeds=range(60)):
    """A game in which a player is knocked out and the game goes on, at the next season."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new(players, variant)
        for _ in walk(state, rng):
            if state.phase is Phase.SEASON and state.knocked_out:
                return state, rng
    raise AssertionError("no game with a knock-out that goes on")


def test_c4_c18_a_knocked_out_player_is_replaced_by_a_new_dummy_and_no_dummy_moves_any_more():
    state, rng = find_knock_out(("ann", "bob", "cy"), "lonely-tyrant")
    out = state.knocked_out[0]
    before = state.seats
    expected = state.expected_seats()
    assert expected == tuple("@2" if n == out else n for n in before)  # @1 did not move
    with pytest.raises(IllegalMoveError, match="knocked out: a new dummy takes each seat"):
        state.check(season(before, dealer=state.expected_dealer()))
    state.push(season(expected, dealer=state.expected_dealer()))
    assert state.dummies == tuple(n for n in expected if n.startswith("@"))
    assert "@2" in state.totals and state.totals["@2"] == 0
    finish_season(state, rng)
    if not state.is_game_over():
        assert state.expected_seats() == expected  # from the first knock-out on, nobody moves
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        state.check(Play(out, c("2H")))


# ---------------------------------------------------------------------- C5


def test_c5_the_first_dealer_is_free_but_a_dummy_never_deals():
    state = new(("ann", "bob", "cy"))
    with pytest.raises(IllegalMoveError, match="C5: dummies never deal"):
        state.check(season(["ann", "bob", "cy", "@1"], dealer="@1"))
    with pytest.raises(IllegalMoveError, match="C5"):
        state.check(season(["ann", "bob", "cy", "@1"], dealer="zed"))
    assert state.is_legal(season(["ann", "bob", "cy", "@1"], dealer="cy"))


def test_c5_the_emperor_on_the_dealers_left_leads_the_first_action_even_a_dummy():
    state = new(("ann", "bob", "cy"))
    state.push(season(["ann", "bob", "cy", "@1"], dealer="cy"))
    state.push(Reveal(c("JD")))
    assert state.to_move == "@1" and state.leader == "@1"


def test_c5_the_deal_passes_clockwise_to_the_next_player_skipping_dummies():
    rng = random.Random(3)
    state = new(("ann", "bob", "cy"))
    state.push(season(["ann", "bob", "cy", "@1"], dealer="cy"))
    finish_season(state, rng)
    assert state.expected_dealer() == "ann"
    seats = state.expected_seats()
    with pytest.raises(IllegalMoveError, match="C5: the deal passes clockwise to the next player still in the game: ann deals, not bob"):
        state.check(season(seats, dealer="bob"))
    state.push(season(seats, dealer="ann"))
    state.push(Reveal(c("JD")))
    assert state.leader == seats[(seats.index("ann") + 1) % 4]


def test_c5_the_deal_skips_a_knocked_out_player():
    state, _ = find_knock_out(("ann", "bob", "cy"), "lonely-tyrant")
    out = state.knocked_out[0]
    players = ("ann", "bob", "cy")
    k = players.index(state.dealer)
    expected = next(players[(k + s) % 3] for s in (1, 2, 3) if players[(k + s) % 3] != out)
    assert state.expected_dealer() == expected


# ---------------------------------------------------------------------- C6


def test_c6_set_up_counts_for_each_table():
    for players, battle_left in ((("ann", "bob", "cy", "dee"), 24), (("ann", "bob", "cy"), 18), (("ann", "bob"), 12)):
        state = new(players)
        state.push(GAME.chance_move(state, random.Random(1)))
        assert state.city_deck_count == 14 and state.battle_deck_count == battle_left
        for name in state.seats:
            assert state.hand_size(name) == (9 if name.startswith("@") else 3)


@pytest.mark.parametrize(
    "hands, piles, message",
    [
        ({"ann": ["2H", "3H"]}, None, "C6: a player's hand holds 3 cards, and ann is given 2"),
        ({"ann": ["2H", "3H", "KD"]}, None, "C6: hands and piles are dealt from the battle deck"),
        ({"ann": ["2H", "3H", "4H"], "bob": ["2H", "5H", "6H"]}, None, "C6: 2H is dealt twice"),
        ({"@1": ["2H", "3H", "4H"]}, None, "C6: @1 is a dummy: its cards form a face-down pile"),
        (None, {"@1": ["2H"] * 1}, "C6: a dummy's pile holds 9 cards, and @1 is given 1"),
        (None, {"ann": ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]}, "C6: ann is a player"),
        ({"ann": ["2H", "3H", "4H"]}, {"@1": ["2H", "5S", "6S", "7S", "8S", "9S", "10S", "2D", "3D"]}, "C6: 2H is dealt twice"),
    ],
)
def test_c6_hands_of_three_and_piles_of_nine_every_card_once(hands, piles, message):
    state = new(("ann", "bob", "cy"))
    with pytest.raises(IllegalMoveError) as err:
        state.check(season(["ann", "bob", "cy", "@1"], hands=hands, piles=piles))
    assert str(err.value).startswith(message)


def test_c6_one_city_each_and_a_joker_at_the_bottom():
    state = new()
    seats = ["ann", "bob", "cy", "dee"]
    with pytest.raises(IllegalMoveError, match="C6: a city is a J, Q, K, A or a joker"):
        state.check(season(seats, cities={"ann": "KH", "bob": "QS", "cy": "7H", "dee": "AC"}))
    with pytest.raises(IllegalMoveError, match="C6: KH is dealt as a city twice"):
        state.check(season(seats, cities={"ann": "KH", "bob": "KH", "cy": "X1", "dee": "AC"}))
    with pytest.raises(IllegalMoveError, match="C6: every emperor gets a city: dee has none"):
        state.check(season(seats, cities={"ann": "KH", "bob": "QS", "cy": "X1"}))
    with pytest.raises(IllegalMoveError, match="C6: a joker lies face up at the bottom of the city deck, not JD"):
        state.check(season(seats, bottom="JD"))
    with pytest.raises(IllegalMoveError, match="C6: X1 cannot be both a city and the bottom"):
        state.check(season(seats, bottom="X1"))


# ---------------------------------------------------------------------- C7


def test_c7_the_first_card_is_turned_up_before_any_play():
    state = new()
    state.push(season(["ann", "bob", "cy", "dee"]))
    assert state.phase is Phase.REVEAL and state.to_move is None and state.next_city is None
    with pytest.raises(IllegalMoveError, match="C7: bob cannot play a card: the next available city must be turned up first"):
        state.check(Play("bob", c("2H")))
    with pytest.raises(IllegalMoveError, match="C7: X2 lies at the bottom of the city deck and comes out last: 13 cards lie above it"):
        state.check(Reveal(c("X2")))
    with pytest.raises(IllegalMoveError, match="C7: KH is not in the city deck: it is ann's city"):
        state.check(Reveal(c("KH")))
    with pytest.raises(IllegalMoveError, match="C7: 7H is a battle card"):
        state.check(Reveal(c("7H")))
    state.push(Reveal(c("JD")))
    assert state.next_city is c("JD") and state.city_deck_count == 14 and state.phase is Phase.PLAY


def test_a_table_move_out_of_its_time_cites_its_own_ruling_with_its_reminder():
    """A city card turned up when none is due breaks C7 (the city deck: a card is turned up
    when a city is taken); a new season while one is under way breaks C16 (a season ends after
    its 15th action); a reshuffle out of its time, C15. The refusal the table reads names that
    ruling and reminds it in plain words."""
    from companion.games.circle_of_power.dashboard.words import RULE_HINTS, refusal

    state = new()
    state.push(season(["ann", "bob", "cy", "dee"]))
    state.push(Reveal(c("JD")))
    assert state.phase is Phase.PLAY
    reveal = Reveal(c("AS"))
    with pytest.raises(IllegalMoveError) as err:
        state.check(reveal)
    assert str(err.value) == "C7: no city card is turned up now: bob is to play a card in action 1"
    flag = refusal(reveal, err.value)
    assert flag.rule == "C7" and flag.text.endswith(RULE_HINTS["C7"])
    rng = random.Random(3)
    next(m for m in walk(state, rng) if state.action_number == 10 and state.phase is Phase.PLAY)
    again = season(["ann", "bob", "cy", "dee"], dealer="bob")
    with pytest.raises(IllegalMoveError) as err:
        state.check(again)
    assert str(err.value).startswith("C16: season 1 is under way (10 of 15 actions): ")
    assert refusal(again, err.value).rule == "C16"
    from companion.games.circle_of_power.moves import Reshuffle

    with pytest.raises(IllegalMoveError, match=r"^C15: the battle deck cannot be reshuffled now \(once, after action 6\): "):
        state.check(Reshuffle())


def test_c7_one_city_card_per_action_the_bottom_joker_14th_and_none_in_action_15():
    for variant in ("basic", "lonely-tyrant"):
        rng = random.Random(7)
        state = new(variant=variant)
        nexts = {}
        for _ in walk(state, rng):
            if state.phase is Phase.PLAY and state.season_number == 1:
                nexts[state.action_number] = (state.next_city, state.city_deck_count)
            if state.season_number == 2:
                break
        assert all(nexts[a][0] is not None and nexts[a][1] == 15 - a for a in range(1, 15)), nexts
        assert nexts[15] == (None, 0)


def test_c7_the_14th_city_is_the_bottom_joker():
    rng = random.Random(11)
    state = new()
    seen = []
    for move in walk(state, rng):
        if type(move) is Reveal:
            seen.append(move.card)
        if state.season_number == 1 and state.phase is Phase.SEASON:
            break
    assert len(seen) == 14 and seen[-1] is state.bottom and state.bottom not in seen[:-1]
