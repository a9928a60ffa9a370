"""Teaching mode's risks: the search's own risk reasons, read off the moment after each move,
from the player's view only."""

from __future__ import annotations

import pytest

from companion.coach import Coach, CoachError
from companion.games.rule_of_power.coach.policies import decision_key
from companion.games.rule_of_power.coach.risks import RiskScan
from companion.games.rule_of_power.engine.moves import Play

from tests.coach.positions import FULL_DECK, first_turn


def test_hidden_cards_do_not_change_the_risks():
    centre = ["W030", "W040", "W029", "W039"]
    a = first_turn(["W007", "W012", "W016"], ["W011", "W021", "W033"], centre, fate={"ann": FULL_DECK, "bob": FULL_DECK})
    b = first_turn(["W007", "W012", "W016"], ["W017", "W027", "W037"], centre,
                   fate={"ann": FULL_DECK, "bob": ["F002", "F003", "F004", "F005", "F006", "F007", "F008"]})
    ra = RiskScan(a, "ann", seed=2).run(16).risks()
    rb = RiskScan(b, "ann", seed=2).run(16).risks()
    assert ra == rb and any(ra.values())


def test_a_card_laid_alone_against_unseen_sevens():
    # The Fire Dragon laid where it cannot capture: bob takes it with any 7 he holds. Three 7s
    # are unseen to ann; bob holds three of her 33 unseen cards, so about a quarter of the time.
    game = first_turn(["W007", "W012", "W016"], ["W011", "W021", "W033"], ["W030", "W040", "W029", "W039"])
    risks = RiskScan(game, "ann").run(200).risks_of(Play.from_ids("ann", "W007"))
    assert len(risks) == 1
    risk = risks[0]
    assert risk.kind == "card" and risk.card is not None and risk.card.id == "W007" and risk.by == "bob"
    assert risk.unseen_takers == 3
    exact = 1 - (30 * 29 * 28) / (33 * 32 * 31)  # bob's three cards hold at least one 7
    assert abs(risk.chance - exact) < 0.08
    assert risk.short == f"risk {risk.chance:.0%}: bob takes {risk.card.short} with any of 3 unseen (7s)"


def test_the_same_counts_as_the_search():
    # One mechanism: with the same seed and samples, the scan and the search tell the same
    # risks (the search merely goes on to play each round out).
    game = first_turn(["W018", "W028", "W012"], ["W016", "W021", "W039"], ["W037", "W017", "W001", "W040"])
    scan = RiskScan(game, "ann", seed=5).run(12).risks()
    advice = Coach("fast").search(game, "ann", seed=5)
    advice.race = False
    moves = advice.run(samples=12).advice().moves
    assert {m.key: m.risks for m in moves} == scan
    assert scan[decision_key(moves[0].move)] == moves[0].risks


def test_not_the_players_turn():
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    with pytest.raises(CoachError, match="it is ann's turn, not bob's"):
        RiskScan(game, "bob")
