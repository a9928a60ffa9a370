"""The coach's benchmark runs end to end on a tiny scale (the full report is `./run bench coach`)."""

from __future__ import annotations

import pytest

from bench import bench_coach
from companion.games.rule_of_power.coach.policies import greedy_move, random_move


def test_a_pairing_and_the_hint_latency_report(capsys) -> None:  # type: ignore[no-untyped-def]
    greedy, rand = bench_coach.ViewSeat(greedy_move), bench_coach.ViewSeat(random_move)
    bench_coach.pairing("greedy vs random", greedy, rand, 2, 0, 2, seed=1)
    bench_coach.pairing("greedy vs random", greedy, rand, 4, 2, 1, seed=1)
    spots = bench_coach.positions(4, seed=1)
    assert spots and all(g.turn is not None for g in spots)
    bench_coach.hint_latency(spots[:2], repeats=1)
    out = capsys.readouterr().out
    assert "2 players" in out and "4 players in 2 teams" in out
    assert out.count("won /") == 2 and "points per round" in out
    assert "hint latency" in out and "95th percentile" in out


@pytest.mark.parametrize(
    "argv, error",
    [
        (["--pairings", "coach-genius"], "unknown pairing 'coach-genius'"),
        (["--seatings", "3"], "unknown seating '3'"),
        (["--pairs", "0"], "--pairs must be at least 1"),
    ],
)
def test_bad_options_are_named(argv, error, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        bench_coach.main(argv)
    assert error in capsys.readouterr().err
