"""The ``rop legal`` question (record-format.md): the initiative, the trump suits, the
winner's choices with why, and the threat, as JSON and in words."""

from __future__ import annotations

import pytest

from companion.games.circle_of_power.query import legal, parse_next, parse_plays, parse_seats, parse_trophies
from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError


def ask(seats, nxt, plays, **kwargs):
    return legal(parse_seats(seats), parse_next(nxt), parse_plays(plays), **kwargs)


def test_the_example_of_the_record_format():
    answer = ask("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=7H,cy=10S,@1=2C,ann=9H")
    assert answer.to_json() == {
        "trumps": {"ann": "H", "bob": "S", "cy": "D", "@1": "C"},
        "winner": "ann",
        "choices": [{"act": "conquer", "victim": "bob"}, {"act": "retake", "victim": "bob"}],
        "threatened": True,
    }


def test_the_words_give_the_initiative_each_trump_each_choice_with_why_and_the_threat():
    lines = ask("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=7H,cy=10S,@1=2C,ann=9H", trophies=parse_trophies("bob=QD+JH")).lines()
    assert lines[0].startswith("Initiative: ann, ann's 9H beats @1's 2C") and lines[0].endswith("(C9)")
    assert lines[1] == "Trump suits: ann hearts (KH), bob spades (QS), cy diamonds (X1: the next available city JD), @1 clubs (AC)"
    assert "ann may conquer bob: ann's KH may take bob's QS (K attacks Q)" in lines[2]
    assert "ann discards one of bob's trophies (QD, JH)" in lines[3]
    assert lines[-1] == "Threat: ann's city KH is under threat from cy's X1 and @1's AC"


def test_a_winner_with_nothing_to_attack_must_regroup():
    answer = ask("ann=QH,bob=KS,cy=KD,dee=AC", "JD", "ann=10H,bob=2S,cy=2D,dee=2C", trophies=parse_trophies("ann=JS"))
    assert answer.to_json()["choices"] == [{"act": "regroup"}] and answer.to_json()["threatened"] is True
    assert "ann must regroup: ann's QH may take none of the other cities (Q attacks J only)" in answer.lines()[2]
    assert "no rebellion (C14)" in answer.lines()[2]
    quiet = ask("ann=QH,bob=QS,cy=AD,dee=AC", "JD", "ann=10H,bob=2S,cy=3D,dee=4C", trophies=parse_trophies("ann=JS"))
    assert quiet.to_json()["threatened"] is False and "it rebels and ann discards a trophy of ann's choice (JS)" in quiet.lines()[2]


def test_coloured_cities_lists_a_black_attackers_conquest_twice_and_a_dummy_its_one_act():
    black = ask("ann=KS,bob=QH,cy=KD,dee=AC", "JD", "ann=10S,bob=2H,cy=2D,dee=2C", variant="coloured-cities")
    assert black.to_json()["choices"] == [
        {"act": "conquer", "victim": "bob", "keep": False},
        {"act": "conquer", "victim": "bob", "keep": True},
        {"act": "retake", "victim": "bob"},
    ]
    dummy = ask("ann=QS,bob=JH,@1=X1,dee=KD", "AC", "@1=10C,dee=2D,ann=2S,bob=2H")
    assert dummy.winner == "@1" and dummy.to_json()["choices"] == [{"act": "conquer", "victim": "bob"}]
    assert "first city counter-clockwise" in dummy.lines()[2]
    lonely = ask("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=7H,cy=10S,@1=2C,ann=9H", variant="lonely-tyrant")
    assert lonely.to_json()["choices"] == [{"act": "conquer", "victim": "bob"}]


def test_action_15_has_no_next_city_and_a_joker_no_trump():
    answer = ask("ann=KH,bob=QS,cy=X1,@1=AC", "none", "bob=7H,cy=10S,@1=2C,ann=3H")
    assert answer.trumps["cy"] is None and "cy none (X1: no next available city)" in answer.lines()[1]


def test_fewer_than_four_plays_give_the_initiative_so_far():
    answer = ask("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=7H,cy=10D")
    assert answer.winner == "cy" and answer.lines()[0].startswith("Initiative so far: cy")


@pytest.mark.parametrize(
    "seats, nxt, plays, error, words",
    [
        ("ann=KH,bob=QS,cy=X1", "JD", "bob=7H", IllegalMoveError, "C4: there are always four emperors"),
        ("ann=KH,bob=QS,cy=X1,ann=AC", "JD", "bob=7H", IllegalMoveError, "C4: each emperor sits once"),
        ("ann=KH,bob=KH,cy=X1,@1=AC", "JD", "bob=7H", IllegalMoveError, "C6: KH is the city of two emperors"),
        ("ann=7H,bob=QS,cy=X1,@1=AC", "JD", "bob=8H", IllegalMoveError, "C6: ann's city 7H is a battle card"),
        ("ann=KH,bob=QS,cy=X1,@1=AC", "KH", "bob=7H", IllegalMoveError, "C7: KH is an emperor's city"),
        ("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=7H,@1=2C", IllegalMoveError, "C8: play goes clockwise: after bob comes cy, not @1"),
        ("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=7H,cy=7H", IllegalMoveError, "C6: 7H is played twice"),
        ("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "bob=QD", IllegalMoveError, "C8: bob plays a battle card"),
        ("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "zed=7H", InvalidMoveError, "plays: 'zed' is not seated"),
        ("ann=KH,bob=QS,cy=X1,@1=AC", "JD", "", IllegalMoveError, "C8: no card is played yet"),
        ("ann KH,bob=QS", "JD", "bob=7H", InvalidMoveError, "--seats: write name=card"),
        ("ann=KX,bob=QS,cy=X1,@1=AC", "JD", "bob=7H", UnknownCardError, "'KX' is no card"),
    ],
)
def test_a_position_the_rules_do_not_allow_is_refused(seats, nxt, plays, error, words):
    with pytest.raises(error) as err:
        ask(seats, nxt, plays)
    assert words in str(err.value)


def test_a_bare_joker_in_the_seats_is_the_first_joker_not_yet_named():
    assert [card.id for _, card in parse_seats("ann=joker,bob=QS,cy=joker,@1=AC")] == ["X1", "QS", "X2", "AC"]
