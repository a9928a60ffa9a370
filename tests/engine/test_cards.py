"""R1-R3: the catalogue of cards."""

import pytest

from companion.games.rule_of_power.engine.cards import (
    ALL_CARDS,
    EXPANSION_CARDS,
    FATE_CARDS,
    WORLD_DECK,
    Card,
    FateCategory,
    Suit,
    UnknownCardError,
    parse_cards,
    power_cards,
    world_deck,
)


def test_world_deck_has_four_suits_of_ten():
    """R1: W001-W010 Powers, W011-W020 Men, W021-W030 Elves, W031-W040 Darkness."""
    assert len(WORLD_DECK) == 40
    for s, suit in enumerate((Suit.POWERS, Suit.MEN, Suit.ELVES, Suit.DARKNESS)):
        cards = WORLD_DECK[s * 10 : s * 10 + 10]
        assert [c.suit for c in cards] == [suit] * 10
        assert [c.value for c in cards] == list(range(1, 11))


def test_value_is_last_digit_zero_meaning_ten():
    assert Card.from_id("W017").value == 7
    assert Card.from_id("W020").value == 10
    assert Card.from_id("W031").value == 1


@pytest.mark.parametrize(
    "value,name",
    [(1, "Wizard"), (2, "Blade"), (3, "Tower"), (4, "Minion"), (5, "Covenanter"), (6, "Servant"), (7, "Dragon"), (8, "Champion"), (9, "Lady"), (10, "Ruler")],
)
def test_rank_names(value, name):
    assert {c.rank_name for c in WORLD_DECK if c.value == value} == {name}


def test_named_cards_and_memberships():
    assert [c.name for c in WORLD_DECK[:3]] == ["Cosmic Power", "Sword of Power", "Temple of Power"]
    assert Card.from_id("W007").name == "Fire Dragon"
    assert [c.id for c in WORLD_DECK if c.is_ring] == ["W001", "W002", "W003"]
    assert [c.id for c in WORLD_DECK if c.is_power] == [f"W{i:03d}" for i in range(1, 11)]
    assert [c.id for c in WORLD_DECK if c.is_dragon] == ["W007", "W017", "W027", "W037"]
    assert [c.id for c in WORLD_DECK if c.is_wizard] == ["W001", "W011", "W021", "W031"]
    assert Card.from_id("W017").title == "Dragon of Men (7)"
    assert Card.from_id("W007").title == "Fire Dragon (7)"


def test_expansion_cards():
    """R2: W041-W043 Powers 11-13, then Men, Elves, Darkness."""
    assert len(EXPANSION_CARDS) == 12
    assert [(c.id, c.suit, c.value) for c in EXPANSION_CARDS[:3]] == [
        ("W041", Suit.POWERS, 11),
        ("W042", Suit.POWERS, 12),
        ("W043", Suit.POWERS, 13),
    ]
    assert [c.suit for c in EXPANSION_CARDS[3:6]] == [Suit.MEN] * 3
    assert [c.suit for c in EXPANSION_CARDS[9:]] == [Suit.DARKNESS] * 3
    assert all(c.is_expansion for c in EXPANSION_CARDS)
    assert len(world_deck(True)) == 52
    assert [c.id for c in power_cards(True)] == [f"W{i:03d}" for i in range(1, 11)] + ["W041", "W042", "W043"]


def test_fate_cards():
    """R3: the eight starter Fate cards and their categories."""
    expected = [
        ("F001", "Mystic Crystal", FateCategory.MAGIC),
        ("F002", "Warlock", FateCategory.CREATURE),
        ("F003", "Vampire", FateCategory.CREATURE),
        ("F004", "Dark Decay", FateCategory.EVENT),
        ("F005", "Mirror Swap", FateCategory.MAGIC),
        ("F006", "Thief", FateCategory.CHARACTER),
        ("F007", "Exorcist", FateCategory.CHARACTER),
        ("F008", "Renewal", FateCategory.EVENT),
    ]
    assert [(c.id, c.name, c.category) for c in FATE_CARDS] == expected
    warlock, vampire = FATE_CARDS[1], FATE_CARDS[2]
    assert (warlock.value, warlock.is_wizard, warlock.to_centre) == (1, True, True)
    assert (vampire.value, vampire.rank_name, vampire.to_centre) == (10, "Ruler", True)
    assert not any(c.is_world for c in FATE_CARDS)
    assert len(ALL_CARDS) == 60


@pytest.mark.parametrize("bad", ["W000", "W053", "F009", "X001", "W1", "", "W0070"])
def test_unknown_card_id_is_a_clear_error(bad):
    with pytest.raises(UnknownCardError) as err:
        Card.from_id(bad)
    assert repr(bad) in str(err.value)


def test_parsing_is_lenient_about_case_and_blanks_and_cards_are_singletons():
    assert Card.from_id(" w007 ") is Card.from_id("W007")
    assert parse_cards("W002, W014,,W035") == (Card.from_id("W002"), Card.from_id("W014"), Card.from_id("W035"))
    assert parse_cards("") == ()
    assert eval(repr(Card.from_id("F003"))) is Card.from_id("F003")


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        Card.from_id("W007").value = 8
