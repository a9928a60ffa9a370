"""C1-C3: the 54 cards, their identifiers, colours and the decks, what players type, and the
circle of who may attack whom."""

from __future__ import annotations

import itertools

import pytest

from companion.games.circle_of_power.cards import (
    ALL_CARDS,
    BATTLE_DECK,
    CARDS,
    CITY_DECK,
    X1,
    X2,
    Card,
    attack_range,
    attack_reason,
    colour_in_attack,
    may_attack,
)
from companion.contract.errors import UnknownCardError
from companion.contract import Card as CardProtocol
from companion.contract import Catalogue, SealMarker


def test_c1_the_deck_is_52_cards_and_two_jokers_one_object_each():
    assert len(ALL_CARDS) == 54 == len(set(ALL_CARDS)) == len({c.id for c in ALL_CARDS})
    assert [c.id for c in ALL_CARDS[:13]] == ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    assert [c.id for c in ALL_CARDS[52:]] == ["X1", "X2"]
    assert Card.from_id("10H") is Card.from_id("10h") is Card.from_id("10♥") is CARDS.parse("10 of hearts")
    assert all(Card.from_id(c.id) is c for c in ALL_CARDS)


def test_c1_spades_and_clubs_are_black_hearts_and_diamonds_red_a_joker_neither():
    assert {c.colour for c in ALL_CARDS if c.suit in ("S", "C")} == {"black"}
    assert {c.colour for c in ALL_CARDS if c.suit in ("H", "D")} == {"red"}
    assert X1.colour is None and X1.suit is None and X2.colour is None


def test_c2_battle_deck_is_the_36_numbers_and_city_deck_the_18_others():
    assert len(BATTLE_DECK) == 36 and {c.number for c in BATTLE_DECK} == set(range(2, 11))
    assert len(CITY_DECK) == 18 and {c.rank for c in CITY_DECK} == {"J", "Q", "K", "A", "X"}
    assert set(BATTLE_DECK) | set(CITY_DECK) == set(ALL_CARDS) and not set(BATTLE_DECK) & set(CITY_DECK)
    assert all(c.number == int(c.rank) for c in BATTLE_DECK)
    assert all(c.number == 0 and c.is_city and not c.is_battle for c in CITY_DECK)


@pytest.mark.parametrize(
    "text, card_id",
    [("7h", "7H"), ("QS", "QS"), ("10♥", "10H"), ("10h", "10H"), ("q♠", "QS"), ("x1", "X1"), ("X2", "X2"),
     ("queen of spades", "QS"), ("Ten of Hearts", "10H"), ("7 of clubs", "7C"), ("ace of diamond", "AD"),
     ("t♣", "10C"), ("  k d ", "KD"), ("joker", "X1"), ("second joker", "X2"), ("joker 2", "X2"), ("a♦️", "AD")],
)
def test_c1_every_form_a_player_types(text, card_id):
    assert CARDS.parse(text).id == card_id


def test_c1_a_bare_joker_in_a_list_is_the_first_joker_not_yet_named():
    assert [c.id for c in CARDS.parse_many("joker, KH, joker")] == ["X1", "KH", "X2"]
    assert [c.id for c in CARDS.parse_many(["X1", "joker"])] == ["X1", "X2"]
    assert [c.id for c in CARDS.parse_many("")] == []


@pytest.mark.parametrize("text", ["1H", "11S", "ZH", "", "queen of stars", "7", "joker 3", "W007"])
def test_c1_a_text_that_names_no_card_says_which_forms_are_accepted(text):
    with pytest.raises(UnknownCardError) as err:
        CARDS.parse(text)
    assert "rank" in str(err.value) or "no card given" in str(err.value)


def test_c1_record_ids_are_strict():
    with pytest.raises(UnknownCardError, match="C1"):
        Card.from_id("queen of spades")


def test_cards_are_immutable_and_copy_as_themselves():
    import copy
    import pickle

    card = Card.from_id("QS")
    with pytest.raises(AttributeError):
        card.rank = "K"  # type: ignore[misc]
    assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card
    assert repr(card) == "Card.from_id('QS')" and eval(repr(card)) is card


def test_the_catalogue_and_cards_follow_the_protocol():
    assert isinstance(Card.from_id("QS"), CardProtocol)
    catalogue: Catalogue = CARDS
    assert catalogue.game == "circle-of-power" and catalogue.markers is not None
    assert catalogue.markers.decode(catalogue.markers.encode(Card.from_id("QS"), 3)) == SealMarker(Card.from_id("QS"), 3)
    assert list(catalogue) == list(ALL_CARDS)
    card = catalogue.from_id("10H")
    assert (card.short, card.label, card.long_label, card.title) == ("10H", "10H", "10H ten of hearts", "ten of hearts")
    assert (catalogue.sticker_label(card), catalogue.sticker_name(card)) == ("10H", "ten of hearts")
    assert catalogue.nfc_text(card, "ann") == "Circle of Power: ten of hearts, 10H (ann)"
    assert catalogue.nfc_record_type == "urn:nfc:ext:ruleofpower.org:cop-card"
    assert X2.title == "second joker" and Card.from_id("QS").symbol == "Q♠"
    assert catalogue.forms and all(f.examples for f in catalogue.forms)


def ruling_c3(attacker: Card, defender: Card) -> bool:
    """C3 as its text says it, one clause per line."""
    circle = "JQKA"
    face = lambda x: x.rank in circle  # noqa: E731
    if face(attacker) and face(defender):
        return circle[(circle.index(attacker.rank) - 1) % 4] == defender.rank
    if attacker.is_joker and face(defender):
        return defender.suit in "HD"
    if face(attacker) and defender.is_joker:
        return attacker.suit in "SC"
    return False


def test_c3_the_circle_for_every_pair_of_city_cards():
    for a, d in itertools.product(CITY_DECK, CITY_DECK):
        if a is not d:
            assert may_attack(a, d) == ruling_c3(a, d), (a, d)


def test_c3_each_direction_of_the_circle_and_the_jokers():
    pairs = {("QS", "JH"): True, ("KH", "QS"): True, ("AD", "KC"): True, ("JC", "AH"): True,
             ("JH", "QS"): False, ("JH", "KS"): False, ("QD", "AS"): False, ("KS", "KH"): False,
             ("X1", "JH"): True, ("X1", "AD"): True, ("X1", "JS"): False, ("JS", "X2"): True,
             ("AC", "X1"): True, ("AH", "X1"): False, ("X1", "X2"): False, ("X2", "X1"): False}
    for (a, d), expected in pairs.items():
        assert may_attack(Card.from_id(a), Card.from_id(d)) is expected, (a, d)
    assert not any(may_attack(b, x) or may_attack(x, b) for b in BATTLE_DECK[:5] for x in CITY_DECK)


def test_c3_reasons_in_words():
    assert attack_reason(Card.from_id("QH"), Card.from_id("JS")) == "Q attacks J"
    assert attack_reason(X1, Card.from_id("KD")) == "a joker attacks any red city"
    assert attack_reason(Card.from_id("KS"), X2) == "a black city attacks a joker"
    assert attack_reason(Card.from_id("KH"), X2).startswith("a red city never attacks a joker")
    assert attack_reason(X1, X2) == "two jokers never interact"
    assert attack_reason(Card.from_id("QH"), Card.from_id("AS")) == "Q attacks J only"
    assert attack_range(Card.from_id("QS")) == "QS attacks J and jokers"
    assert attack_range(X1) == "a joker attacks red cities only"


def test_c19_a_joker_takes_the_colour_of_the_other_city():
    assert colour_in_attack(X1, Card.from_id("QH")) == "red"
    assert colour_in_attack(X2, Card.from_id("KS")) == "black"
    assert colour_in_attack(Card.from_id("KS"), X2) == "black"
