"""One card notation for every command and dialog: ids, loose ids, short forms and names
(Card.parse), and why a sum is not a capture option (R4, R5)."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.games.rule_of_power.engine.captures import capture_options, refused_captures
from companion.games.rule_of_power.engine.cards import ALL_CARDS, CARD_FORMS, Card, UnknownCardError, parse_cards


@pytest.mark.parametrize(
    "text,card_id",
    [
        ("W036", "W036"),
        ("w036", "W036"),
        ("w36", "W036"),
        (" W7 ", "W007"),
        ("6d", "W036"),
        ("6D", "W036"),
        ("10m", "W020"),
        ("1P", "W001"),
        ("13d", "W052"),
        ("thief", "F006"),
        ("Mirror Swap", "F005"),
        ("crystal", "F001"),
        ("Fire Dragon", "W007"),
        ("servant of  darkness", "W036"),
        ("f3", "F003"),
    ],
)
def test_parse_accepts_every_form(text, card_id):
    assert Card.parse(text) is Card.from_id(card_id)


def test_every_card_reads_back_from_its_short_form_id_and_labels():
    for card in ALL_CARDS:
        assert Card.parse(card.id) is card
        assert Card.parse(card.short) is card
        assert Card.parse(card.label.split()[0]) is card


@pytest.mark.parametrize("text", ["", "W053", "F009", "14m", "6x", "dragon", "W0366"])
def test_parse_refuses_with_the_accepted_forms(text):
    with pytest.raises(UnknownCardError) as err:
        Card.parse(text)
    message = str(err.value)
    assert "no card" in message
    if text.strip() and text not in ("W053", "F009", "14m", "W0366"):
        assert CARD_FORMS in message


def test_parse_cards_mixes_forms_and_names_the_bad_one():
    assert [c.id for c in parse_cards("2p, W014 ,w35,thief")] == ["W002", "W014", "W035", "F006"]
    with pytest.raises(UnknownCardError, match="'7z'"):
        parse_cards("2p,7z")


def test_labels_name_a_card_the_same_way_everywhere():
    assert Card.parse("6m").label == "6M W016"
    assert Card.parse("7p").long_label == "7P W007 Fire Dragon"
    assert Card.parse("thief").label == "Thief F006"


def test_a_sum_shadowed_by_a_single_card_is_explained():
    centre = parse_cards("2p,4m,6e")
    assert capture_options(centre, 6) == [(Card.parse("6e"),)]
    (refusal,) = refused_captures(centre, 6)
    assert [c.id for c in refusal.cards] == ["W002", "W014"] and refusal.rule == "R4"
    assert "2P + 4M would make 6" in refusal.reason and "6E W026" in refusal.reason


def test_two_singles_and_the_empowered_wizard_and_nothing_to_take():
    two = refused_captures(parse_cards("6e,2p,4m,6m"), 6)
    assert "2 single 6s lie in the centre" in two[0].reason
    crystal = refused_captures(parse_cards("1m,2p,3e"), 1, empowered=True)
    assert [c.id for c in crystal[0].cards] == ["W011"] and crystal[0].rule == "R5"
    (none,) = refused_captures(parse_cards("2p,9m"), 6)
    assert none.cards == () and "fewer than two are smaller" in none.reason
    (short,) = refused_captures(parse_cards("2p,3m"), 6)
    assert "add up to only 5" in short.reason
    (miss,) = refused_captures(parse_cards("4p,4m"), 6)
    assert "no two or more of them add up to exactly 6" in miss.reason
    assert refused_captures(parse_cards("2p,4m"), 6) == []
    assert refused_captures((), 6) == []


def test_rop_legal_takes_short_forms_and_explains(capsys):
    assert main(["legal", "--center", "2p,4m,W026", "--card", "6d"]) == 0
    out = capsys.readouterr().out
    assert "6D W036 Servant of Darkness on 2P W002, 4M W014, 6E W026" in out
    assert "2P + 4M would make 6, but a single 6 lies in the centre (6E W026), and a single card must be taken (R4)" in out
    assert main(["legal", "--center", "2p,4m,6e", "--card", "6d", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["card"] == "W036" and data["options"] == [["W026"]]
    assert data["refused"] == [{"cards": ["W002", "W014"], "reason": data["refused"][0]["reason"], "rule": "R4"}]


def test_rop_legal_names_the_argument_and_the_forms(capsys):
    assert main(["legal", "--center", "2p,zz", "--card", "6d"]) == 2
    err = capsys.readouterr().err
    assert "--center" in err and "'zz'" in err and "6M" in err
    assert main(["legal", "--center", "2p", "--card", "w99"]) == 2
    assert "--card" in capsys.readouterr().err


def test_rop_score_reads_short_forms(capsys, tmp_path):
    f = tmp_path / "round.json"
    f.write_text(json.dumps({"sides": {"ann": {"captured": ["1p", "2p", "3p", "fire dragon"]}, "bob": {"captured": ["W027"]}}}))
    assert main(["score", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sides"]["ann"]["power_master"] == 3
