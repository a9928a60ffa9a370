"""R8-R13: the points of a round and their reasons."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.rule_of_power.engine.cards import FATE_CARDS, WORLD_DECK, parse_cards, world_deck
from companion.games.rule_of_power.engine.scoring import score_round


def test_most_world_and_power_cards_ties_give_nothing():
    """R9: strictly more than every other side; a shared most gives nobody the point."""
    s = score_round({"ann": parse_cards("W001,W011"), "bob": parse_cards("W012,W013")})
    assert s.world_cards.winner is None and s.sides["ann"].world_cards == 0 == s.sides["bob"].world_cards
    assert s.power_cards.winner == "ann"
    three = score_round({"a": parse_cards("W011,W012"), "b": parse_cards("W013,W014"), "c": parse_cards("W015")})
    assert three.world_cards.winner is None


def test_fire_dragon():
    """R10: W007 alone is worth a point."""
    s = score_round({"ann": parse_cards("W007"), "bob": parse_cards("W017,W027")})
    assert s.sides["ann"].fire_dragon == 1 and s.fire_dragon == "ann"
    assert s.reasons()[2] == "Fire Dragon: ann holds 7P W007 Fire Dragon (+1, R10)"


def test_nobody_holds_the_fire_dragon_and_the_reason_says_why():
    """R10 with R21 and R6: at a round's end only a discard, or a round without a capture to
    take the centre, leaves W007 to nobody; otherwise it is just not captured (yet)."""
    bob = {"ann": parse_cards("W017"), "bob": parse_cards("W027")}
    for kw, why in [
        ({}, "Fire Dragon: no side has captured 7P W007 Fire Dragon, so no point (R10)"),
        ({"discarded": parse_cards("W007,F004")}, "Fire Dragon: nobody holds 7P W007 Fire Dragon, it was discarded (R21), so no point (R10)"),
        (
            {"left": parse_cards("W001,W007")},
            "Fire Dragon: nobody holds 7P W007 Fire Dragon, it was left in the centre with no capture this round (R6), so no point (R10)",
        ),
        ({"discarded": parse_cards("W017"), "left": parse_cards("W001")}, "Fire Dragon: no side has captured 7P W007 Fire Dragon, so no point (R10)"),
    ]:
        s = score_round(bob, **kw)
        assert s.fire_dragon is None and s.dragon.explain() == why == s.reasons()[2] == s.reasons_json()["explanation"][2]  # type: ignore[index]
        assert s.sides["ann"].fire_dragon == 0 == s.sides["bob"].fire_dragon


def test_pride_rulebook_example_breaks_on_the_fives():
    """Rulebook: two 7s and two 6s each: the pride goes to whoever has most 5s."""
    ann = parse_cards("W007,W017,W006,W016,W005,W015")
    bob = parse_cards("W027,W037,W026,W036,W025")
    s = score_round({"ann": ann, "bob": bob})
    assert s.pride.winner == "ann" and s.pride.decided_at == 5
    assert s.sides["ann"].pride_of_dragons == 1
    assert "ahead on the 5s (2 against 1)" in s.pride.explain()


def test_pride_ignores_values_above_seven_and_full_tie_gives_nobody():
    """R11: 8s-13s play no part; equal on every value from 7 to 1: nobody scores."""
    s = score_round({"ann": parse_cards("W007,W009,W010"), "bob": parse_cards("W017")})
    assert s.pride.winner is None and s.sides["ann"].pride_of_dragons == 0
    assert "tie on every value" in s.pride.explain()


def test_pride_with_three_sides_needs_a_unique_best():
    s = score_round({"a": parse_cards("W007"), "b": parse_cards("W017"), "c": parse_cards("W016")})
    assert s.pride.winner is None
    s = score_round({"a": parse_cards("W007,W001"), "b": parse_cards("W017"), "c": parse_cards("W016")})
    assert s.pride.winner == "a" and s.pride.decided_at == 1


def test_power_ring_needs_all_three_ring_cards():
    """R12: no Power Ring points unless one side holds all three."""
    s = score_round({"ann": parse_cards("W001,W002,W004,W005"), "bob": parse_cards("W003")})
    assert s.power_ring.master is None
    assert s.sides["ann"].power_master == 0 and s.sides["ann"].power_points == 0


def test_power_master_and_chain():
    """R12: 3 points, plus W004, W005, ... in order, stopping at the first gap."""
    s = score_round({"ann": parse_cards("W001,W002,W003,W004,W005,W007"), "bob": parse_cards("W006")})
    assert s.sides["ann"].power_master == 3 and s.sides["ann"].power_points == 2
    assert [c.id for c in s.power_ring.chain] == ["W004", "W005"]
    s = score_round({"ann": parse_cards("W001,W002,W003,W005"), "bob": ()})
    assert s.sides["ann"].power_points == 0 and s.sides["ann"].power_master == 3


def test_power_ring_reasons_are_in_a_player_s_words():
    """R12's reason names no side that holds nothing, and names cards as the README does."""
    s = score_round({"ann": parse_cards("W004,W017"), "bob": parse_cards("W016")})
    assert s.power_ring.explain() == "Power Ring: no side holds a Ring card, so no Power Master (R12)"
    assert s.power_ring.explain() in s.reasons() and "W001 nobody" not in " ".join(s.reasons())
    s = score_round({"ann": parse_cards("W001,W003"), "bob": parse_cards("W002"), "cy": ()})
    assert s.power_ring.explain() == (
        "Power Ring: no Power Master, the Ring cards are split (R12): "
        "ann holds 1P W001 Cosmic Power and 3P W003 Temple of Power, bob holds 2P W002 Sword of Power"
    )
    s = score_round({"ann": parse_cards("W001,W002,W003,W004,W005,W006"), "bob": ()})
    assert s.power_ring.explain() == "Power Ring: ann is Power Master (3, R12) with the chain 4P W004 to 6P W006 (+3)"
    s = score_round({"ann": parse_cards("W001,W002,W003"), "bob": ()})
    assert s.power_ring.explain() == "Power Ring: ann is Power Master (3, R12); without 4P W004 no chain"


def test_chain_continues_into_the_expansion():
    ladder = parse_cards("W001,W002,W003,W004,W005,W006,W007,W008,W009,W010,W041,W042")
    s = score_round({"ann": ladder, "bob": ()}, expansion=True)
    assert s.sides["ann"].power_points == 9
    assert s.rule_of_power is None  # W043 is missing
    s = score_round({"ann": ladder + parse_cards("W043"), "bob": ()}, expansion=True)
    assert s.rule_of_power == "ann"
    assert s.sides["ann"].power_points == 10


def test_rule_of_power():
    """R13: all ten Power cards; round points are still recorded."""
    s = score_round({"ann": WORLD_DECK[:10], "bob": WORLD_DECK[10:]})
    assert s.rule_of_power == "ann"
    assert s.sides["ann"].to_json() == {
        "world_cards": 0, "power_cards": 1, "fire_dragon": 1, "pride_of_dragons": 0,
        "power_master": 3, "power_points": 7, "sweeps": 0, "total": 12,
    }
    assert any("RULE OF POWER" in r for r in s.reasons())


def test_only_world_cards_score():
    """R8: a captured Warlock or Vampire counts for nothing."""
    s = score_round({"ann": (FATE_CARDS[1], FATE_CARDS[2], WORLD_DECK[10]), "bob": (WORLD_DECK[11],)})
    assert s.world_cards.counts == {"ann": 1, "bob": 1}
    assert s.pride.sequences["ann"] == (0, 0, 0, 0, 0, 0, 1)


def test_sweeps_count_one_point_each():
    s = score_round({"ann": (), "bob": ()}, {"ann": 2})
    assert s.sides["ann"].sweeps == 2 and s.sides["ann"].total == 2


@settings(max_examples=200, deadline=None)
@given(st.permutations(world_deck(True)), st.integers(2, 6), st.booleans(), st.lists(st.integers(0, 3), min_size=6, max_size=6))
def test_points_never_exceed_what_the_cards_allow(deck, sides, expansion, sweeps):
    """Per round at most: 4 cardinal points, 3 + chain (7 or 10) Power Ring points, plus
    sweeps; each cardinal point goes to at most one side."""
    cards = [c for c in deck if expansion or not c.is_expansion]
    names = [f"s{i}" for i in range(sides)]
    captured = {n: tuple(cards[i::sides]) for i, n in enumerate(names)}
    s = score_round(captured, dict(zip(names, sweeps)), expansion=expansion)
    chain_max = 10 if expansion else 7
    for key in ("world_cards", "power_cards", "fire_dragon", "pride_of_dragons", "power_master"):
        assert sum(getattr(p, key) > 0 for p in s.sides.values()) <= 1
    for p in s.sides.values():
        assert p.total <= 4 + 3 + chain_max + p.sweeps
        assert p.power_points <= chain_max and p.power_master in (0, 3)
        assert p.power_points == 0 or p.power_master == 3
