"""L1 (the deck: ten nobles, six agents, 36 resources; ranks and suits), L2 (the suits' names
and letters) and L3 (identifiers, and the forms a reader accepts)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.contract import SealMarker, UnknownCardError
from companion.games.love_money_power_death.cards import (
    AGENTS,
    ALL_CARDS,
    CARDS,
    DEALT,
    NOBLES,
    RESOURCES,
    SUIT_EMBLEMS,
    SUIT_NAMES,
    SUITS,
    Card,
)
from companion.games.love_money_power_death.setup import FIVES, deck_nobles


class TestL1TheDeck:
    @pytest.mark.parametrize("fives", FIVES)
    def test_a_deck_is_52_cards_ten_nobles_six_agents_36_resources(self, fives: str) -> None:
        deck = deck_nobles(fives) + DEALT
        assert len(deck) == len(set(deck)) == 52
        assert Counter(c.kind for c in deck) == {"noble": 10, "agent": 6, "resource": 36}

    @pytest.mark.parametrize("fives", FIVES)
    def test_the_nobles_are_a_two_and_a_three_of_each_suit_and_two_fives_of_different_suits(self, fives: str) -> None:
        nobles = deck_nobles(fives)
        assert sorted((c.rank, c.suit) for c in nobles if c.rank != 5) == sorted((r, s) for r in (2, 3) for s in SUITS)
        fives_suits = [c.suit for c in nobles if c.rank == 5]
        assert len(fives_suits) == 2 and len(set(fives_suits)) == 2
        assert {SUIT_NAMES[s].lower() for s in fives_suits} == set(fives.split("-"))

    def test_twelve_noble_identifiers_of_which_a_deck_holds_ten(self) -> None:
        assert [c.id for c in NOBLES] == ["N2L", "N2M", "N2P", "N2D", "N3L", "N3M", "N3P", "N3D", "N5L", "N5M", "N5P", "N5D"]
        assert len(ALL_CARDS) == 54

    def test_the_resources_are_two_of_each_rank_one_to_four_and_one_five_per_suit(self) -> None:
        for suit in SUITS:
            ranks = Counter(c.rank for c in RESOURCES if c.suit == suit)
            assert ranks == {1: 2, 2: 2, 3: 2, 4: 2, 5: 1}
        assert len(RESOURCES) == 36

    def test_a_rank_is_the_crowns_of_a_noble_or_the_emblems_of_a_resource(self) -> None:
        assert (Card.from_id("N5D").rank, Card.from_id("N2L").rank, Card.from_id("4Mb").rank, Card.from_id("5P").rank) == (5, 2, 4, 5)

    def test_an_agent_has_neither_suit_nor_rank(self) -> None:
        assert [c.id for c in AGENTS] == ["A1", "A2", "A3", "A4", "A5", "A6"]
        assert all(c.suit is None and c.rank == 0 and c.is_agent and not c.is_noble for c in AGENTS)

    def test_the_cards_are_one_object_each_and_sort_in_catalogue_order(self) -> None:
        assert Card.from_id("4Mb") is Card.from_id("4mb") is CARDS.parse("4 Money b")
        assert sorted([Card.from_id(x) for x in ("A1", "5D", "N2L", "1La")]) == [Card.from_id(x) for x in ("N2L", "1La", "5D", "A1")]
        with pytest.raises(AttributeError):
            Card.from_id("A1").rank = 3  # type: ignore[misc]
        import copy
        import pickle

        card = Card.from_id("3Pb")
        assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card


class TestL2Suits:
    def test_the_four_suits_are_named_after_the_game(self) -> None:
        assert SUIT_NAMES == {"L": "Love", "M": "Money", "P": "Power", "D": "Death"}

    def test_each_suit_stands_for_one_resource_emblem(self) -> None:
        assert SUIT_EMBLEMS == {"L": "Diplomatic", "M": "Treasure", "P": "Population", "D": "Martial"}

    def test_a_card_says_its_suit_in_words(self) -> None:
        assert (Card.from_id("N3P").suit_name, Card.from_id("2Db").suit_name, Card.from_id("A6").suit_name) == ("Power", "Death", None)
        assert Card.from_id("N3P").title == "Power noble, 3 crowns"
        assert Card.from_id("4Mb").title == "Money 4 (copy b)" and Card.from_id("5L").title == "Love 5"
        assert Card.from_id("A2").title == "agent 2" and Card.from_id("4Mb").long_label == "4Mb Money 4 (copy b)"


class TestL3Identifiers:
    def test_the_written_forms(self) -> None:
        assert {c.id for c in RESOURCES if c.suit == "M"} == {"1Ma", "1Mb", "2Ma", "2Mb", "3Ma", "3Mb", "4Ma", "4Mb", "5M"}
        assert str(Card.from_id("N3L")) == "N3L" and repr(Card.from_id("4Mb")) == "Card.from_id('4Mb')"

    @pytest.mark.parametrize(
        "text, card",
        [
            ("N3L", "N3L"),
            ("n3l", "N3L"),
            ("N3-love", "N3L"),
            ("n_3_Love", "N3L"),
            ("noble 5 death", "N5D"),
            ("3 Money b", "3Mb"),
            ("3-money-B", "3Mb"),
            ("3mb", "3Mb"),
            ("1_la", "1La"),
            ("5 Death", "5D"),
            ("5d", "5D"),
            ("a2", "A2"),
            ("Agent 6", "A6"),
            ("  4 power a ", "4Pa"),
            ("2 Diplomatic a", "2La"),
        ],
    )
    def test_a_reader_accepts_any_case_a_suits_name_and_separators(self, text: str, card: str) -> None:
        assert CARDS.parse(text).id == card
        assert Card.from_id(text).id == card

    @pytest.mark.parametrize(
        "text, words",
        [
            ("3M", "names two cards: write the copy, 3Ma or 3Mb (L3)"),
            ("5La", "a rank-5 resource has no copy letter"),
            ("N4L", "a noble is N, its rank 2, 3 or 5 and its suit"),
            ("A7", "the agents are A1-A6"),
            ("6Ma", "a resource's rank is 1-5"),
            ("3Xa", "name its suit"),
            ("3Mc", "the copy of a resource is a or b"),
            ("", "no card given"),
            ("4Mb!", "is no card"),
        ],
    )
    def test_what_names_no_card_is_refused_saying_why(self, text: str, words: str) -> None:
        with pytest.raises(UnknownCardError, match=words.replace("(", r"\(").replace(")", r"\)")):
            CARDS.parse(text)

    def test_lists_of_cards(self) -> None:
        assert [c.id for c in CARDS.parse_many("1Pb+5M, a4")] == ["1Pb", "5M", "A4"]
        assert [c.id for c in CARDS.parse_many(["n2l", "3 death a"])] == ["N2L", "3Da"]

    def test_the_catalogue_says_how_cards_are_written_and_labelled(self) -> None:
        assert CARDS.game == "love-money-power-death" and len(CARDS) == 54 and Card.from_id("A1") in CARDS
        assert CARDS.forms and all(f.examples for f in CARDS.forms)
        assert CARDS.sticker_label(Card.from_id("4Mb")) == "4Mb" and CARDS.sticker_name(Card.from_id("4Mb")) == "Money 4 (copy b)"
        assert CARDS.nfc_text(Card.from_id("N5P"), "club") == "Love, Money, Power, Death: Power noble, 5 crowns, N5P (club)"
        assert CARDS.nfc_record_type.startswith("urn:nfc:ext:")
        # The seals are the table's (blocks 16-23): the card at catalogue index i of owner slot s
        # is 1024 + 54 s + i, without owner 1456 + i.
        assert CARDS.markers.encode(Card.from_id("4Mb"), 3) == 1024 + 54 * 3 + Card.from_id("4Mb").index
        assert CARDS.markers.decode(1456 + Card.from_id("N5P").index) == SealMarker(Card.from_id("N5P"), None)
