"""The coach's benchmark for Circle of Power runs end to end on a tiny scale (the full report
is ``./run bench coach``)."""

from __future__ import annotations

import random

import pytest

from bench import bench_coach
from companion.games.circle_of_power.coach.model import MODEL
from companion.games.circle_of_power.policies import RandomPlayer, RuleOfThumbPlayer


def test_a_pairing_is_paired_and_reported(capsys) -> None:  # type: ignore[no-untyped-def]
    thumb = bench_coach.CircleSimple(RuleOfThumbPlayer())
    rand = bench_coach.CircleSimple(RandomPlayer())
    bench_coach.circle_pairing("thumb vs random", thumb, rand, 2, 3, seed=1)
    bench_coach.circle_pairing("thumb vs random", thumb, rand, 4, 1, seed=1)
    out = capsys.readouterr().out
    assert "2 players + 2 dummies" in out and "4 players " in out
    assert out.count("won /") == 2 and out.count("lost seasons") == 2 and "points per season" in out
    # A policy against itself on paired seasons: the swap cancels the luck of the cards exactly.
    mean, half = bench_coach.circle_pairing("thumb vs thumb", thumb, thumb, 2, 3, seed=2)
    assert mean == 0.0 and half == 0.0


def test_a_season_is_played_to_its_end_from_the_deals_chance() -> None:
    deal = bench_coach.circle_deal(random.Random(4), ("ann", "bob", "cy"))
    thumb = bench_coach.CircleSimple(RuleOfThumbPlayer())
    points = bench_coach.play_season(deal, {p: thumb for p in deal.setup.players}, random.Random(1))
    again = bench_coach.play_season(deal, {p: thumb for p in deal.setup.players}, random.Random(1))
    assert points == again and set(points) == {"ann", "bob", "cy", "@1"}


def test_positions_and_the_hint_latency_report(capsys) -> None:  # type: ignore[no-untyped-def]
    spots = bench_coach.circle_positions(4, seed=1)
    assert len(spots) == 4 and all(s.to_move in s.players and len(MODEL.decisions(s, s.to_move)) > 1 for s in spots)
    bench_coach.hint_latency(spots[:2], repeats=1)
    assert "hint latency" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, error",
    [
        (["--games", "chess"], "unknown game 'chess'"),
        (["--pairings", "coach-genius"], "unknown pairing 'coach-genius'"),
        (["--seatings", "3"], "unknown seating '3'"),
    ],
)
def test_bad_options_are_named(argv, error, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        bench_coach.main(argv)
    assert error in capsys.readouterr().err
