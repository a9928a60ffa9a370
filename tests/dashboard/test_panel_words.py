"""The side panels' own words: cards in their short form, nobody named for what nobody holds."""

from __future__ import annotations

from companion.games.rule_of_power.dashboard.widgets.power_ring import _ring_words
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.scoring import PowerRing

P1, P2, P3, P4, P5 = (Card.from_id(f"W00{n}") for n in range(1, 6))


def test_the_power_ring_names_who_holds_each_ring_card_and_no_bare_id() -> None:
    assert _ring_words(PowerRing({P1: None, P2: None, P3: None}, None)) == "no Power Master: no Ring card (1P, 2P, 3P) captured yet"
    split = _ring_words(PowerRing({P1: "ann+cy", P2: None, P3: "bob+dee"}, None))
    assert split == "no Power Master: the Ring cards are split (1P ann+cy, 3P bob+dee)"
    assert _ring_words(PowerRing({P1: "ann", P2: "ann", P3: "ann"}, "ann", (P4, P5))) == "ann is Power Master (3) with the chain 4P 5P (+2)"
    assert "W0" not in split and "nobody" not in split
