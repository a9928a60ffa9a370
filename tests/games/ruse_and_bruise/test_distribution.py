"""The distribution of a column's goal card (B18-B26), ability by ability and in
combinations, the rulebook's two examples, and invariants over random columns.

Numbers come from the rulings' example values table (B4): ASSN 6, MUSK 9, WITCH 4, EXPL 13,
TRAITOR 10, PRINCE 15, HERMIT 17, DRAGON 11, STORM 3, WIZ 2, SQUIRE 7, GIANT 1, BEGGAR 1."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE
from companion.games.ruse_and_bruise.distribution import STEP_ORDER, WHY, distribute
from companion.games.ruse_and_bruise.values import EXAMPLE
from tests.games.ruse_and_bruise.helpers import column, values_with


def values(c):  # type: ignore[no-untyped-def]
    return [x.value for x in c.cards]


def removed(c):  # type: ignore[no-untyped-def]
    return [x.removed for x in c.cards]


def steps(c):  # type: ignore[no-untyped-def]
    return [s.to_json() for s in c.steps]


# ---------------------------------------------------------------------- the rulebook's examples


def test_the_rulebooks_first_example_a_tie_goes_to_the_card_closest_to_the_goal_card() -> None:
    # "Blue and White tie with the highest sum (16). As Blue's card is closer to the goal card
    # than White's, he wins the card."
    c = column("trade-3a", "blue:MINNE,white:QUEEN,blue:LORD")
    assert c.sums == {"blue": 16, "white": 16}
    assert (c.winner, c.why) == ("blue", "closest")
    assert "blue's card 1 is the closest to the goal card (B26)" in c.reason


def test_the_rulebooks_second_example_the_wizard_removes_the_king_and_wins() -> None:
    # "The White wizard uses his special ability to remove the Blue King and, thus, wins the
    # goal card."
    c = column("fencing-2", "blue:KING,white:WIZ,white:ALCH")
    assert removed(c) == ["WIZ", None, None]
    assert c.sums == {"blue": 0, "white": 10}
    assert (c.winner, c.why) == ("white", "highest")
    assert c.taking_part == ("white",)


def test_the_record_formats_example_column() -> None:
    c = column("music-3a", "blue:KING,white:WIZ,blue:DOPPEL,red:MINNE")
    assert c.to_json() == {
        "goal": "music-3a",
        "cards": [
            {"owner": "blue", "card": "KING", "value": None, "removed": "WIZ"},
            {"owner": "white", "card": "WIZ", "value": 2, "removed": None},
            {"owner": "blue", "card": "DOPPEL", "value": None, "removed": "WIZ"},
            {"owner": "red", "card": "MINNE", "value": None, "removed": "WIZ"},
        ],
        "steps": [{"ability": "WIZ", "cards": [2], "neutralized": False, "removed": [1, 3, 4]}],
        "sums": {"blue": 0, "white": 2, "red": 0},
        "winner": "white",
        "why": "highest",
    }
    # The replay's example: the Doppelgänger at the bottom has no value and is removed by
    # neither (B20, B22).
    r = column("music-3a", "ann:KING,bob:WIZ,ann:MINNE,cy:DOPPEL")
    assert r.to_json(1) == {
        "column": 1,
        "goal": "music-3a",
        "cards": [
            {"owner": "ann", "card": "KING", "value": None, "removed": "WIZ"},
            {"owner": "bob", "card": "WIZ", "value": 2, "removed": None},
            {"owner": "ann", "card": "MINNE", "value": None, "removed": "WIZ"},
            {"owner": "cy", "card": "DOPPEL", "value": None, "removed": None},
        ],
        "sums": {"ann": 0, "bob": 2, "cy": 0},
        "winner": "bob",
        "why": "highest",
    }


# ---------------------------------------------------------------------- numbers (B2, B3)


def test_the_printed_numbers_and_the_professionals_by_their_area() -> None:
    c = column("alchemy-5", "a:KING,a:QUEEN,a:JULIET,c:ROMEO,a:CLOAK,b:ALCH,b:FENCER,b:LORD,b:TRADER,b:CARDINAL,b:MINNE")
    assert values(c) == [20, 16, 14, 5, 0, 12, 8, 8, 8, 8, 8]
    for area, prof in (("fencing", "FENCER"), ("agriculture", "LORD"), ("trade", "TRADER"), ("religion", "CARDINAL"), ("music", "MINNE")):
        assert values(column(f"{area}-1", f"a:{prof}")) == [12]
    assert "under a goal card of its own area" in c.cards[5].words and "not under its own area" in c.cards[6].words


def test_the_table_numbers_are_the_values_tables() -> None:
    cards = ",".join(f"a:{i}" for i in ("ASSN", "STORM", "EXPL", "TRAITOR", "SQUIRE", "BEGGAR"))
    assert values(column("music-1", cards)) == [6, 3, 13, 10, 7, 1]
    other = values_with(ASSN=0, STORM=9, EXPL=30)
    assert values(column("music-1", "a:ASSN,a:STORM,a:EXPL", other)) == [0, 9, 30]


# ---------------------------------------------------------------------- (1) Musketeers, B19


def test_the_musketeers_cancel_every_ability_and_remove_nothing() -> None:
    c = column("music-5", "a:MUSK,b:KING,a:WIZ,b:DOPPEL,a:HERMIT,a:ROMEO,a:JULIET,b:GIANT,b:DRAGON,a:ALCH,b:MINNE")
    assert removed(c) == [None] * 11
    # Numbers only: the Hermit and the Small Giant their printed numbers, Romeo 5 though his
    # Juliet is there, the professionals 12 or 8 (no ability), the Doppelgänger nothing.
    assert values(c) == [9, 20, 2, None, 17, 5, 14, 1, 11, 8, 12]
    assert steps(c) == [{"ability": "MUSK", "cards": [1]}]
    assert c.sums == {"a": 55, "b": 44} and (c.winner, c.why) == ("a", "highest")


def test_under_the_musketeers_a_beggar_and_a_pair_do_nothing_the_highest_sum_wins() -> None:
    c = column("trade-2", "a:PRINCE,a:SQUIRE,b:MUSK,b:KING,a:BEGGAR,c:MUSK")
    assert steps(c) == [{"ability": "MUSK", "cards": [3, 6]}]
    assert c.sums == {"a": 23, "b": 29, "c": 9} and (c.winner, c.why) == ("b", "highest")


def test_under_the_musketeers_a_doppelganger_alone_does_not_take_part() -> None:
    c = column("trade-2", "a:MUSK,b:DOPPEL,a:GIANT")
    assert c.taking_part == ("a",) and c.sums == {"a": 10, "b": 0}


# ---------------------------------------------------------------------- (2), (3) Wizard and Witch, B20


def test_a_single_wizard_removes_every_card_of_ten_or_more() -> None:
    cards = "a:KING,a:QUEEN,a:JULIET,a:ALCH,a:EXPL,a:TRAITOR,a:PRINCE,a:HERMIT,a:DRAGON,b:WIZ,b:ROMEO,b:FENCER,b:CLOAK,b:STORM,b:ASSN,b:SQUIRE"
    c = column("alchemy-3a", cards)
    assert removed(c) == ["WIZ"] * 9 + [None] * 7
    assert steps(c)[0] == {"ability": "WIZ", "cards": [10], "neutralized": False, "removed": list(range(1, 10))}


def test_a_wizard_removes_what_the_table_says_is_ten_or_more() -> None:
    c = column("trade-1", "a:ASSN,a:MUSK,b:WIZ", values_with(ASSN=12))
    # The Musketeers: no Wizard at all (B19).
    assert removed(c) == [None, None, None]
    c = column("trade-1", "a:ASSN,a:WITCH,b:WIZ", values_with(ASSN=12, WITCH=10))
    assert removed(c) == ["WIZ", "WIZ", None]
    # The Witch the Wizard removed has no step (record-format.md).
    assert [s["ability"] for s in steps(c)] == ["WIZ"]


def test_a_wizard_with_nothing_to_remove_still_has_its_step() -> None:
    c = column("trade-1", "a:STORM,b:WIZ")
    assert steps(c) == [{"ability": "WIZ", "cards": [2], "neutralized": False, "removed": []}]
    assert "there is none" in c.steps[0].words


def test_two_or_more_wizards_neutralize_each_other() -> None:
    for cards in ("a:WIZ,b:KING,b:WIZ", "a:WIZ,b:KING,b:WIZ,c:WIZ"):
        c = column("trade-1", cards)
        wizards = [x.position for x in c.cards if x.card.id == "WIZ"]
        assert steps(c) == [{"ability": "WIZ", "cards": wizards, "neutralized": True, "removed": []}]
        assert c.winner == "b" and c.cards[1].value == 20
        assert "neutralize each other" in c.steps[0].words


def test_a_single_witch_removes_every_other_card_of_nine_or_less() -> None:
    cards = "a:ROMEO,a:CLOAK,a:ALCH,a:STORM,a:SQUIRE,a:GIANT,a:BEGGAR,a:ASSN,b:WITCH,b:KING,b:MINNE,b:EXPL"
    c = column("music-5", cards)
    assert removed(c) == ["WITCH"] * 8 + [None] * 4
    assert steps(c) == [{"ability": "WITCH", "cards": [9], "neutralized": False, "removed": list(range(1, 9))}]
    assert c.sums == {"a": 0, "b": 4 + 20 + 12 + 13}


def test_the_wizard_acts_first_then_the_witch_on_what_is_left() -> None:
    c = column("music-5", "a:KING,b:WIZ,a:ROMEO,c:WITCH,c:QUEEN")
    assert removed(c) == ["WIZ", "WITCH", "WITCH", None, "WIZ"]
    assert steps(c) == [
        {"ability": "WIZ", "cards": [2], "neutralized": False, "removed": [1, 5]},
        {"ability": "WITCH", "cards": [4], "neutralized": False, "removed": [2, 3]},
    ]
    assert (c.winner, c.sums) == ("c", {"a": 0, "b": 0, "c": 4})


def test_two_witches_neutralize_each_other_and_the_wizard_still_acts() -> None:
    c = column("music-5", "a:WITCH,b:KING,b:WITCH,c:WIZ,c:ROMEO")
    assert steps(c) == [
        {"ability": "WIZ", "cards": [4], "neutralized": False, "removed": [2]},
        {"ability": "WITCH", "cards": [1, 3], "neutralized": True, "removed": []},
        {"ability": "ROMEO", "cards": [5]},
    ]


def test_a_doppelganger_goes_with_the_card_whose_role_it_takes() -> None:
    # Under the Wizard: it copies the King, and goes with him (B20, B22).
    c = column("trade-3a", "a:DOPPEL,b:KING,a:ROMEO,c:WIZ")
    assert removed(c) == ["WIZ", "WIZ", None, None]
    assert "a's Doppelgänger (1) as b's King (2)" in c.steps[0].words
    # Under the Witch: it copies Romeo (5) and goes with him.
    c = column("trade-3a", "a:DOPPEL,b:ROMEO,c:QUEEN,d:WITCH")
    assert removed(c) == ["WITCH", "WITCH", None, None]
    # Through another Doppelgänger: both go with the Queen.
    c = column("trade-3a", "a:DOPPEL,b:DOPPEL,c:QUEEN,d:WIZ")
    assert removed(c) == ["WIZ", "WIZ", "WIZ", None]
    # Copying the Witch herself, it stays with her; copying the Wizard, the Witch takes it.
    c = column("trade-3a", "a:DOPPEL,b:WITCH,c:ROMEO")
    assert removed(c) == [None, None, "WITCH"] and values(c) == [4, 4, None]
    c = column("trade-3a", "a:DOPPEL,b:WIZ,c:WITCH,d:KING")
    assert removed(c) == ["WITCH", "WITCH", None, "WIZ"]


def test_a_doppelganger_without_value_is_removed_by_neither() -> None:
    c = column("trade-3a", "a:KING,b:WIZ,a:DOPPEL")
    assert removed(c) == ["WIZ", None, None] and values(c) == [None, 2, None]
    c = column("trade-3a", "a:ROMEO,b:WITCH,a:DOPPEL")
    assert removed(c) == ["WITCH", None, None]


# ---------------------------------------------------------------------- (4) Prince & Squire, B21


def test_a_pair_of_one_colour_wins_whatever_the_sums() -> None:
    c = column("religion-4", "b:KING,a:SQUIRE,b:QUEEN,a:PRINCE")
    assert steps(c) == [{"ability": "PAIR", "cards": [2, 4], "owner": "a"}]
    assert c.sums == {"b": 36, "a": 22} and (c.winner, c.why) == ("a", "pair")


def test_a_pair_wins_over_a_beggar() -> None:
    c = column("religion-4", "a:PRINCE,a:SQUIRE,b:BEGGAR,b:CLOAK")
    assert (c.winner, c.why) == ("a", "pair")


def test_a_prince_and_a_squire_of_two_colours_are_no_pair() -> None:
    c = column("religion-4", "a:PRINCE,b:SQUIRE,b:KING")
    assert [s.ability for s in c.steps] == [] and (c.winner, c.why) == ("b", "highest")


def test_several_pairs_the_one_with_a_card_closest_to_the_goal_card_wins() -> None:
    # b's pair comes first in the steps (by its first card), but a's King is the closest card.
    c = column("religion-4", "a:KING,b:PRINCE,b:SQUIRE,a:SQUIRE,a:PRINCE")
    assert steps(c) == [{"ability": "PAIR", "cards": [2, 3], "owner": "b"}, {"ability": "PAIR", "cards": [4, 5], "owner": "a"}]
    assert (c.winner, c.why) == ("a", "pair-closest")


def test_the_wizard_and_the_witch_break_a_pair() -> None:
    c = column("religion-4", "a:PRINCE,a:SQUIRE,b:WIZ,b:ALCH")
    assert removed(c)[0] == "WIZ" and c.sums == {"a": 7, "b": 10} and (c.winner, c.why) == ("b", "highest")
    c = column("religion-4", "a:PRINCE,a:SQUIRE,b:WITCH,b:ROMEO")
    assert removed(c)[1] == "WITCH" and (c.winner, c.why) == ("a", "highest")


# ---------------------------------------------------------------------- values: B22-B25


def test_a_doppelganger_takes_the_number_of_the_nearest_card_below_never_an_ability() -> None:
    assert values(column("trade-3a", "a:DOPPEL,b:KING")) == [20, 20]
    assert values(column("trade-3a", "a:DOPPEL,b:TRADER")) == [12, 12]
    assert values(column("music-3a", "a:DOPPEL,b:TRADER")) == [8, 8]
    # The Hermit's and the Small Giant's printed numbers, Romeo's 5.
    assert values(column("trade-3a", "a:DOPPEL,b:HERMIT,c:KING")) == [17, 15, 20]
    assert values(column("trade-3a", "a:DOPPEL,b:GIANT,c:KING")) == [1, 7, 20]
    assert values(column("trade-3a", "a:DOPPEL,b:ROMEO,b:JULIET")) == [5, 15, 14]
    # The Cloak's 0 is a value: its owner takes part.
    c = column("trade-3a", "a:DOPPEL,b:CLOAK")
    assert values(c) == [0, 0] and c.taking_part == ("a", "b")
    # Below it another Doppelgänger gives what that one takes.
    c = column("trade-3a", "a:DOPPEL,b:DOPPEL,c:QUEEN")
    assert values(c) == [16, 16, 16]
    assert [s.to_json() for s in c.steps] == [{"ability": "DOPPEL", "cards": [1], "copies": 2}, {"ability": "DOPPEL", "cards": [2], "copies": 3}]
    # Nothing below: no value, and alone it lets its owner take no part (B26).
    c = column("trade-3a", "b:KING,a:DOPPEL")
    assert values(c) == [20, None] and c.steps[0].to_json() == {"ability": "DOPPEL", "cards": [2], "copies": None}
    assert c.taking_part == ("b",) and c.sums == {"b": 20, "a": 0}
    c = column("trade-3a", "a:DOPPEL,b:DOPPEL")
    assert values(c) == [None, None] and (c.winner, c.why) == (None, "none")


def test_the_hermit_loses_one_for_each_other_card_left() -> None:
    c = column("trade-5", "a:HERMIT,b:KING,c:QUEEN,b:DOPPEL")
    # Three other cards (the Doppelgänger without value counts, B23).
    assert values(c) == [14, 20, 16, None]
    assert steps(c)[0] == {"ability": "HERMIT", "cards": [1]}
    # Removed cards do not count (the Witch leaves the Hermit, 17, and takes the others), and
    # the value stops at 0 (B25).
    c = column("trade-5", "a:HERMIT,b:WITCH,c:ROMEO,c:CLOAK")
    assert removed(c) == [None, None, "WITCH", "WITCH"] and values(c) == [16, 4, None, None]
    many = ",".join(f"{o}:{x}" for o in "bcd" for x in ("ROMEO", "CLOAK", "STORM", "ASSN", "SQUIRE", "BEGGAR"))
    assert values(column("trade-5", f"a:HERMIT,{many}"))[0] == 0


def test_the_small_giant_gains_three_for_each_other_card_left() -> None:
    c = column("trade-5", "a:GIANT,b:KING,c:CLOAK,c:DOPPEL")
    assert values(c)[0] == 1 + 3 * 3
    c = column("trade-5", "a:GIANT,b:KING,c:WIZ")
    assert removed(c) == [None, "WIZ", None] and values(c)[0] == 1 + 3


def test_romeo_is_fifteen_with_the_juliet_of_his_colour() -> None:
    assert values(column("trade-5", "a:ROMEO,a:JULIET")) == [15, 14]
    assert values(column("trade-5", "a:ROMEO,b:JULIET")) == [5, 14]
    assert values(column("trade-5", "a:JULIET,b:WIZ,a:ROMEO")) == [None, 2, 5]
    assert [s.to_json() for s in column("trade-5", "a:ROMEO,a:JULIET").steps] == [{"ability": "ROMEO", "cards": [1]}]


def test_each_dragon_cuts_every_card_of_the_other_players_by_two() -> None:
    c = column("trade-5", "a:DRAGON,b:KING,a:QUEEN,b:ROMEO,b:CLOAK")
    assert values(c) == [11, 18, 16, 3, 0]
    # Dragons add up; a Dragon of another player is cut too; no value goes below 0.
    c = column("trade-5", "a:DRAGON,b:KING,c:DRAGON,b:DRAGON,b:STORM")
    assert values(c) == [11 - 4, 20 - 4, 11 - 4, 11 - 4, 0]
    assert [s.to_json() for s in c.steps] == [{"ability": "DRAGON", "cards": [1]}, {"ability": "DRAGON", "cards": [3]}, {"ability": "DRAGON", "cards": [4]}]
    # A Dragon cuts a Doppelgänger of another player like any card, and the Hermit after his loss.
    c = column("trade-5", "a:DRAGON,b:DOPPEL,c:QUEEN,b:HERMIT")
    assert values(c) == [11, 16 - 2, 16 - 2, 17 - 3 - 2]


def test_the_value_steps_come_in_the_rulings_order_each_kind_top_down() -> None:
    c = column("trade-5", "a:BEGGAR,b:ROMEO,a:DRAGON,b:DOPPEL,c:GIANT,d:HERMIT,c:KING,b:HERMIT")
    # Two Hermits? Each player has one: b's and d's.
    assert [(s["ability"], s["cards"]) for s in steps(c)] == [
        ("HERMIT", [6]),
        ("HERMIT", [8]),
        ("GIANT", [5]),
        ("DOPPEL", [4]),
        ("DRAGON", [3]),
        ("ROMEO", [2]),
        ("BEGGAR", [1]),
    ]
    assert [s["ability"] for s in steps(c)] == sorted((s["ability"] for s in steps(c)), key=STEP_ORDER.index)


# ---------------------------------------------------------------------- the winner, B26


def test_with_a_beggar_the_lowest_sum_wins() -> None:
    c = column("music-2", "a:BEGGAR,b:KING,c:ROMEO")
    assert c.sums == {"a": 1, "b": 20, "c": 5} and (c.winner, c.why) == ("a", "beggar")
    assert steps(c) == [{"ability": "ROMEO", "cards": [3]}, {"ability": "BEGGAR", "cards": [1]}]


def test_with_a_beggar_a_tie_goes_to_the_card_furthest_from_the_goal_card() -> None:
    c = column("music-2", "a:BEGGAR,b:GIANT,a:STORM,b:ASSN")
    # a 1 + 3 = 4 ... b: the Giant 1 + 3 * 3 = 10, the Assassin 6.
    assert c.sums == {"a": 4, "b": 16} and c.winner == "a"
    c = column("music-2", "b:STORM,a:BEGGAR,a:SQUIRE,b:ASSN,c:KING")
    assert c.sums == {"b": 9, "a": 8, "c": 20} and c.winner == "a"
    c = column("music-2", "b:STORM,a:BEGGAR,b:BEGGAR,a:ASSN,b:ROMEO")
    # a: 1 + 6 = 7, b: 3 + 1 + 5 = 9: a lowest.
    assert (c.winner, c.why) == ("a", "beggar")
    c = column("music-2", "a:STORM,b:STORM,a:BEGGAR,b:BEGGAR")
    assert c.sums == {"a": 4, "b": 4} and (c.winner, c.why) == ("b", "beggar-furthest")
    assert "b's card 4 is the furthest from the goal card (B26)" in c.reason


def test_a_player_with_only_the_cloak_has_the_lowest_sum_at_zero() -> None:
    # The Beggar's paragraph: "If a player has only the Invisibility Cloak in the column, he
    # would have the lowest sum at 0."
    c = column("music-2", "a:BEGGAR,b:CLOAK,c:KING")
    assert c.sums == {"a": 1, "b": 0, "c": 20} and (c.winner, c.why) == ("b", "beggar")


def test_a_player_with_no_card_left_or_only_a_doppelganger_without_value_takes_no_part() -> None:
    c = column("music-2", "a:BEGGAR,b:KING,c:DOPPEL")
    assert c.taking_part == ("a", "b") and c.winner == "a"
    c = column("music-2", "a:KING,b:WIZ,c:QUEEN,c:BEGGAR")
    # c's Beggar is left; a's King and c's Queen are gone; a takes no part with 0.
    assert c.taking_part == ("b", "c") and c.sums == {"a": 0, "b": 2, "c": 1} and c.winner == "c"


def test_nobody_takes_part_nobody_wins() -> None:
    for cards in ("", "a:DOPPEL", "a:DOPPEL,b:DOPPEL"):
        c = column("music-2", cards) if cards else distribute(GOALS[0], [], EXAMPLE)
        assert (c.winner, c.why) == (None, "none")
        assert "out of the game" in c.reason


def test_the_explanation_reads_step_by_step() -> None:
    c = column("music-3a", "blue:KING,white:WIZ,blue:DOPPEL,red:MINNE")
    lines = c.lines()
    assert lines[0] == "Goal card music-3a (music 3 (a), 3 points)"
    assert lines[1].startswith("  WIZ: white's Wizard (2) removes every card of 10 or more (B20)")
    assert lines[-1] == "  white has the highest sum, 2 (B26)"


# ---------------------------------------------------------------------- invariants


owners = st.sampled_from(["a", "b", "c", "d"])


@st.composite
def columns(draw):  # type: ignore[no-untyped-def]
    """A column of up to 14 cards, each owner holding one of each card at most (B1)."""
    size = draw(st.integers(0, 14))
    seen: set[tuple[str, str]] = set()
    out = []
    for _ in range(size):
        owner = draw(owners)
        card = draw(st.sampled_from(INFLUENCE))
        if (owner, card.id) in seen:
            continue
        seen.add((owner, card.id))
        out.append((owner, card))
    return out


@settings(max_examples=400, deadline=None)
@given(goal=st.sampled_from(GOALS), cards=columns())
def test_every_distribution_keeps_the_rulings_invariants(goal, cards) -> None:  # type: ignore[no-untyped-def]
    c = distribute(goal, cards, EXAMPLE)
    assert [(x.owner, x.card) for x in c.cards] == cards
    # A removed card has no value; no value is below 0; the sums are the values' (B18, B25).
    for x in c.cards:
        assert x.removed in (None, "WIZ", "WITCH")
        assert x.removed is None or x.value is None
        assert x.value is None or x.value >= 0
    assert c.sums == {o: sum(x.value or 0 for x in c.cards if x.owner == o) for o in dict.fromkeys(o for o, _ in cards)}
    # The winner takes part; nobody wins only when nobody does (B26).
    assert c.why in WHY
    assert (c.winner is None) == (c.why == "none") == (not c.taking_part and c.why not in ("pair", "pair-closest"))
    assert c.winner is None or c.winner in c.taking_part
    # The steps in the rulings' order, positions within the column, removed cards acting in none.
    order = [STEP_ORDER.index(s.ability) for s in c.steps]
    assert order == sorted(order)
    for s in c.steps:
        assert all(1 <= p <= len(cards) for p in s.cards)
        if s.ability != "WIZ":  # a Wizard acts, then the Witch may remove him (B20)
            assert all(c.cards[p - 1].removed is None for p in s.cards)
    if any(card.id == "MUSK" for _, card in cards):
        assert [s.ability for s in c.steps] == ["MUSK"] and all(x.removed is None for x in c.cards)
    # The owners' names do not matter: the same column under other names, the same result.
    renamed = distribute(goal, [("x" + o, card) for o, card in cards], EXAMPLE)
    assert [x.value for x in renamed.cards] == [x.value for x in c.cards]
    assert renamed.winner == (None if c.winner is None else "x" + c.winner) and renamed.why == c.why
