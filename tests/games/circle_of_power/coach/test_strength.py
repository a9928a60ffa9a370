"""The coach's choice beats random play on a fixed small set of paired seasons (each deal
played twice, the seats swapped), at a fixed number of samples so that the games repeat on any
machine. The full comparison with the rule-of-thumb player is ``./run bench coach``."""

from __future__ import annotations

import random

from bench.bench_coach import CircleCoachPlayer, CircleSimple, circle_deal, play_season
from companion.coach import stats
from companion.games.circle_of_power.policies import RandomPlayer, RuleOfThumbPlayer

PLAYERS = ("ann", "bob")


def paired_margins(a, b, pairs: int, seed: int) -> list[float]:
    """Per deal, the mean over both seatings of ``a``'s season points less ``b``'s."""
    margins = []
    for k in range(pairs):
        rng = random.Random(seed * 7919 + k)
        deal = circle_deal(rng, PLAYERS)
        both = []
        for swap in (False, True):
            seats = {p: (a if (i % 2 == 0) != swap else b) for i, p in enumerate(PLAYERS)}
            points = play_season(deal, seats, random.Random(rng.getrandbits(32)))
            both.append(sum(points[p] for p in PLAYERS if seats[p] is a) - sum(points[p] for p in PLAYERS if seats[p] is b))
        margins.append(sum(both) / 2)
    return margins


def test_the_coach_beats_random_play_on_a_fixed_set_of_seasons():
    coach = CircleCoachPlayer("fast", samples=4)
    margins = paired_margins(coach, CircleSimple(RandomPlayer()), pairs=8, seed=3)
    low, _ = stats.interval(margins)
    assert stats.mean(margins) > 1.0 and low > 0.0, margins
    assert coach.ms and coach.playouts > 0


def test_the_coach_repeats_its_games_at_a_fixed_number_of_samples():
    first = paired_margins(CircleCoachPlayer("fast", samples=2), CircleSimple(RuleOfThumbPlayer()), pairs=2, seed=5)
    again = paired_margins(CircleCoachPlayer("fast", samples=2), CircleSimple(RuleOfThumbPlayer()), pairs=2, seed=5)
    assert first == again
