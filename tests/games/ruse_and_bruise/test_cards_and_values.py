"""The cards and colours (B1), the printed numbers (B2, B3), the values table and its bounds
(B4), the goal cards (B5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.contract.errors import UnknownCardError
from companion.games.ruse_and_bruise.cards import AREAS, CARDS, COLOURS, GOALS, IMMEDIATE, INFLUENCE, PROFESSIONALS, Goal, Influence
from companion.games.ruse_and_bruise.values import EITHER, EXAMPLE, TABLE_CARDS, WITCH_LIST, WIZARD_LIST, ValuesTable, ValuesTableError
from tests.games.ruse_and_bruise.helpers import goal


def test_each_player_has_the_same_25_cards_with_the_rulings_identifiers() -> None:
    ids = [c.id for c in INFLUENCE]
    assert ids == [
        "KING", "QUEEN", "JULIET", "ALCH", "FENCER", "LORD", "TRADER", "CARDINAL", "MINNE",
        "EXPL", "ASSN", "STORM", "CLOAK", "TRAITOR",
        "MUSK", "WIZ", "WITCH", "PRINCE", "SQUIRE", "HERMIT", "GIANT", "DOPPEL", "DRAGON", "ROMEO", "BEGGAR",
    ]  # fmt: skip
    assert [c.id for c in IMMEDIATE] == ["EXPL", "ASSN", "STORM", "CLOAK", "TRAITOR"]
    assert COLOURS == ("blue", "white", "red", "yellow", "green", "black")
    # Readers accept any letter case (B1); one object per card.
    assert Influence.from_id("doppel") is Influence.from_id("DOPPEL") is CARDS.parse("Doppelgänger")
    with pytest.raises(UnknownCardError, match=r"unknown influence card 'JACK': the cards are KING, QUEEN"):
        Influence.from_id("JACK")


def test_players_type_cards_by_identifier_or_name() -> None:
    typed = {
        "king": "KING", "Fencing Master": "FENCER", "lord of the manor": "LORD", "3 Musketeers": "MUSK",
        "the 3 musketeers": "MUSK", "invisibility cloak": "CLOAK", "cloak": "CLOAK", "Small Giant": "GIANT",
        "doppelganger": "DOPPEL", "Minnesinger": "MINNE", "explorer": "EXPL",
    }  # fmt: skip
    assert {t: CARDS.parse(t).id for t in typed} == typed
    assert CARDS.parse("Music 3a") is Goal.from_id("music-3a")
    with pytest.raises(UnknownCardError, match="is no card: write identifier"):
        CARDS.parse("jester")
    with pytest.raises(UnknownCardError, match="music-3a is a goal card, not an influence card"):
        CARDS.parse_influence("music-3a")
    assert len(list(CARDS)) == 25 + 36 and CARDS.nfc_text(Influence.from_id("GIANT"), "ann") == "Ruse and Bruise: Small Giant, GIANT (ann)"


def test_the_printed_numbers() -> None:
    printed = {c.id: c.printed for c in INFLUENCE if c.printed is not None}
    # King 20, Queen 16, Juliet 14, Romeo 5 (B2); the Cloak 0 from the Beggar's paragraph.
    assert printed == {"KING": 20, "QUEEN": 16, "JULIET": 14, "CLOAK": 0, "ROMEO": 5}
    assert Influence.from_id("DOPPEL").number_under(goal("music-1")) is None


def test_each_professional_is_12_under_its_own_area_and_8_under_any_other() -> None:
    assert [(c.id, c.area) for c in PROFESSIONALS] == list(zip(["ALCH", "FENCER", "LORD", "TRADER", "CARDINAL", "MINNE"], AREAS))
    for prof in PROFESSIONALS:
        for g in GOALS:
            assert prof.number_under(g) == (12 if g.area == prof.area else 8)


def test_the_goal_cards() -> None:
    assert len(GOALS) == 36 and len({g.id for g in GOALS}) == 36
    assert [g.id for g in GOALS[:6]] == ["alchemy-1", "alchemy-2", "alchemy-3a", "alchemy-3b", "alchemy-4", "alchemy-5"]
    assert [g.value for g in GOALS[:6]] == [1, 2, 3, 3, 4, 5]
    assert {g.area for g in GOALS} == set(AREAS)
    # The two 3s of an area are alike: the letter only tells them apart (B5).
    a, b = goal("TRADE-3A"), goal("trade-3b")
    assert (a.area, a.value) == (b.area, b.value) and a is not b
    with pytest.raises(UnknownCardError, match="an area .* and a value 1, 2, 3a, 3b, 4 or 5"):
        Goal.from_id("trade-3")


# ---------------------------------------------------------------------- the values table, B4


def test_the_values_table_holds_exactly_the_13_numbers_the_rulebook_does_not_print() -> None:
    assert TABLE_CARDS == ("ASSN", "MUSK", "WITCH", "EXPL", "TRAITOR", "PRINCE", "HERMIT", "DRAGON", "STORM", "WIZ", "SQUIRE", "GIANT", "BEGGAR")
    assert set(WIZARD_LIST) | set(WITCH_LIST) | set(EITHER) == set(TABLE_CARDS)
    printed = {c.id for c in INFLUENCE if c.printed is not None or c.area is not None or c.id == "DOPPEL"}
    assert printed.isdisjoint(TABLE_CARDS) and len(printed) + len(TABLE_CARDS) == 25


def test_the_example_table() -> None:
    assert EXAMPLE.to_json() == {"ASSN": 6, "MUSK": 9, "WITCH": 4, "EXPL": 13, "TRAITOR": 10, "PRINCE": 15, "HERMIT": 17, "DRAGON": 11, "STORM": 3, "WIZ": 2, "SQUIRE": 7, "GIANT": 1, "BEGGAR": 1}
    assert ValuesTable.parse(EXAMPLE.text()) == EXAMPLE
    assert ValuesTable.parse(EXAMPLE.text().lower()) == EXAMPLE  # any case


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"EXPL": 7}, "EXPL is on the Wizard's list: 10 or more, not 7 (B4)"),
        ({"DRAGON": 9}, "DRAGON is on the Wizard's list: 10 or more, not 9 (B4)"),
        ({"STORM": 12}, "STORM is on the Witch's list: 9 or less, not 12 (B4)"),
        ({"WIZ": 10}, "WIZ is on the Witch's list: 9 or less, not 10 (B4)"),
        ({"ASSN": -1}, "ASSN must be a whole number, 0 or more, not -1 (B4)"),
        ({"MUSK": 8.5}, "MUSK must be a whole number, 0 or more, not 8.5 (B4)"),
        ({"WITCH": "four"}, "WITCH must be a whole number, 0 or more, not 'four' (B4)"),
        ({"KING": 20}, "KING is not in the values table: the rulebook prints its number, 20 (B2)"),
        ({"ALCH": 12}, "ALCH is not in the values table: its number is 12 or 8 by its area (B3) (B4)"),
        ({"DOPPEL": 0}, "DOPPEL is not in the values table: the Doppelgänger has no number of its own (B22) (B4)"),
        ({"JESTER": 3}, "'JESTER' is not a card of the values table: its cards are ASSN, MUSK"),
    ],
)
def test_a_table_that_breaks_a_bound_is_refused_in_the_rulebooks_words(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValuesTableError) as refused:
        ValuesTable.from_mapping({**EXAMPLE.to_json(), **change})
    assert str(refused.value).startswith(message)


def test_a_table_that_leaves_a_card_out_or_names_one_twice_is_refused() -> None:
    given_ = EXAMPLE.to_json()
    del given_["GIANT"], given_["BEGGAR"]
    with pytest.raises(ValuesTableError, match=r"the values table lacks GIANT, BEGGAR: it needs all 13 numbers \(B4\)"):
        ValuesTable.from_mapping(given_)
    with pytest.raises(ValuesTableError, match="ASSN is given twice"):
        ValuesTable.parse("ASSN=6," + EXAMPLE.text())
    with pytest.raises(ValuesTableError, match=r"write each card as CARD=NUMBER \(ASSN=6\), not 'ASSN 6'"):
        ValuesTable.parse("ASSN 6")


def test_the_cards_in_neither_list_may_be_either() -> None:
    for card_id in EITHER:
        for number in (0, 9, 10, 30):
            assert ValuesTable.from_mapping({**EXAMPLE.to_json(), card_id: number})[card_id] == number


numbers = st.fixed_dictionaries(
    {c: st.integers(10, 40) for c in WIZARD_LIST} | {c: st.integers(0, 9) for c in WITCH_LIST} | {c: st.integers(0, 40) for c in EITHER}
)


@given(numbers)
def test_every_table_within_the_bounds_is_read_and_written_back(given_numbers: dict[str, int]) -> None:
    table = ValuesTable.from_mapping(given_numbers)
    assert table.to_json() == {c: given_numbers[c] for c in TABLE_CARDS}
    assert ValuesTable.parse(table.text()) == table == ValuesTable.from_mapping(table.to_json())
    assert all(table.number(Influence.from_id(c)) == given_numbers[c] for c in TABLE_CARDS)
