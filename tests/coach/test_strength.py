"""The coach's choice beats random play on a fixed small set of paired deals (each played
twice, the seats swapped), at a fixed number of samples so that the games repeat on any
machine, in every game with a coach. The full comparison with each rule-of-thumb player is
``./run bench coach``."""

from __future__ import annotations

from typing import Any

import pytest

from bench import bench_coach
from companion.contract import Game
from tests.coach.test_every_coached_game import COACHED


def _first_table(game: Game[Any, Any]) -> tuple[str, Any]:
    return next(iter(bench_coach.tables_of(game).items()))


@pytest.mark.slow
@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_the_coach_beats_random_play_on_a_fixed_set_of_deals(game: Game[Any, Any]) -> None:
    name, opening = _first_table(game)
    coach = bench_coach.CoachSeat("fast", samples=4)
    result = bench_coach.pairing(game, name, opening, coach, bench_coach.RandomSeat(), 6, seed=3)
    assert result.margin > 0.5 and result.low > 0.0, result.line()
    assert coach.cpu_ms and coach.playouts > 0


@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_the_coach_repeats_its_games_at_a_fixed_number_of_samples(game: Game[Any, Any]) -> None:
    name, opening = _first_table(game)
    results = [
        bench_coach.pairing(game, name, opening, bench_coach.CoachSeat("fast", samples=2), bench_coach.RandomSeat(), 2, seed=5)
        for _ in range(2)
    ]
    first, again = ((r.won, r.drawn, r.lost, r.margin) for r in results)
    assert first == again
