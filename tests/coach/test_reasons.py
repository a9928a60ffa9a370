"""Reasons come from the search's statistics: a real risk is told, an empty one is not."""

from __future__ import annotations

from companion.coach import Coach
from companion.games.rule_of_power.engine.moves import Play

from tests.coach.positions import first_turn


def test_an_obvious_risk_is_told():
    # Laying the 4 next to a 1 and a 2: any 4, 5, 6 or 7 takes it (R4), 15 unseen cards.
    game = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    advice = Coach("fast").advise(game, "ann", samples=24, seed=4)
    lay = next(m for m in advice.moves if m.text.startswith("4M W014"))
    risk = next(r for r in lay.risks if r.card is not None and r.card.id == "W014")
    assert risk.by == "bob" and risk.unseen_takers == 15
    assert 0.5 < risk.chance <= 1.0
    assert any(text.startswith("risk: leaves 4M W014") and "15 unseen" in text for text in lay.reasons)


def test_no_risk_when_nobody_can_take_it():
    # ann holds the other 7s and has taken the Fire Dragon: a 7 laid now can be taken by
    # no unseen card, so no risk may be told for it.
    game = first_turn(["W017", "W027", "W037"], ["W039", "W038", "W036"], ["W007", "W040", "W030", "W020"])
    game.push(Play.from_ids("ann", "W017", ["W007"]))
    game.push(Play.from_ids("bob", "W039"))
    advice = Coach("fast").advise(game, "ann", samples=24, seed=4)
    lay = next(m for m in advice.moves if m.text.startswith("7E W027"))
    assert not [r for r in lay.risks if r.card is not None and r.card.id == "W027"]
    assert not any("7E W027 Dragon of Elves in the centre" in text for text in lay.reasons)


def test_points_that_change_hands_are_named_with_their_ruling():
    game = first_turn(["W006", "W040", "W030"], ["W016", "W021", "W039"], ["W001", "W002", "W003", "W007"])
    advice = Coach("fast").advise(game, "ann", samples=16, seed=1)
    assert advice.best.text.startswith("6P W006")
    assert any("Power Ring" in r and "(R12)" in r and r.startswith("about") and " more " in r for r in advice.best.reasons)
    worse = advice.moves[-1]
    assert any(" less from " in r and "(R12)" in r for r in worse.reasons)
