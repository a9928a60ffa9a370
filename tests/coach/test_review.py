"""Review marks: a known blunder is marked, with the better move and why."""

from __future__ import annotations

from companion.coach import review
from companion.coach.review import verdict

from tests.coach.positions import ring_blunder


def test_thresholds():
    assert [verdict(x) for x in (0.0, 0.09, 0.1, 0.2, 0.29, 0.3, 1.5)] == [
        "good", "good", "inaccuracy", "mistake", "mistake", "blunder", "blunder"
    ]


def test_a_known_blunder_is_marked():
    setup, moves = ring_blunder()
    marks = review(setup, moves, "ann", samples=16)
    assert len(marks) == 1
    mark = marks[0]
    assert mark.verdict == "blunder" and mark.drop >= 0.3 and mark.index == 2
    assert mark.best.startswith("W006 Servant of Powers (6) takes")
    assert any("Power Ring" in w and "(R12)" in w for w in mark.why)


def test_the_best_move_is_good():
    setup, moves = ring_blunder()
    from companion.engine.moves import Play

    moves[-1] = Play.from_ids("ann", "W006", ["W001", "W002", "W003"])
    marks = review(setup, moves, "ann", samples=16)
    assert [m.verdict for m in marks] == ["good"] and marks[0].drop == 0.0
