"""The coach's benchmark runs end to end on a tiny scale (the full report is `./run bench coach`),
for every game with a coach, through the registry alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench import bench_coach
from companion.coach.model import model_of
from companion.contract import Game
from companion.contract.registry import game as game_named
from tests.coach.test_every_coached_game import COACHED


@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_a_pairing_against_each_opponent(game: Game[Any, Any]) -> None:
    tables = bench_coach.tables_of(game)
    assert tables
    name, opening = next(iter(tables.items()))
    coach = bench_coach.CoachSeat("fast", samples=1)
    opponents = model_of(game).opponents()
    assert opponents
    for other in [bench_coach.PolicySeat(n, p) for n, p in opponents.items()] + [bench_coach.RandomSeat()]:
        result = bench_coach.pairing(game, name, opening, coach, other, 1, seed=1)
        assert result.won + result.drawn + result.lost == 2 and result.pairs == 1
        assert f"coach vs {other.name}" in result.line() and "+/-" in result.line()
    assert coach.cpu_ms  # the coach's decisions are timed


@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_a_deal_is_the_same_for_every_pairing_and_both_seatings(game: Game[Any, Any]) -> None:
    model = model_of(game)
    opening = next(iter(bench_coach.tables_of(game).values()))
    first, _ = bench_coach.deal(opening, model, 3, 7)
    second, _ = bench_coach.deal(opening, model, 3, 7)
    player = first.state.players[0]
    assert first.state.view(player) == second.state.view(player)
    # Both seatings of a deal play the same world: a fork leaves it as it was.
    seats = {p: bench_coach.RandomSeat() for p in first.state.players}
    once = bench_coach.play_period(model, first, seats, random.Random(1))
    again = bench_coach.play_period(model, first, seats, random.Random(1))
    assert once == again and set(once) == set(first.state.players)


def test_the_report_names_every_pairing_and_the_headline(capsys) -> None:  # type: ignore[no-untyped-def]
    bench_coach.main(["--games", "circle-of-power", "--tables", "2 players", "--pairs", "1", "--samples", "1", "--strength-only", "--no-pin"])
    out = capsys.readouterr().out
    for name in [*model_of(game_named("circle-of-power")).opponents(), "random"]:
        assert f"coach vs {name}" in out
    assert "headline, the weakest pairing" in out and "coach CPU" in out


def test_speed_and_hint_latency(capsys) -> None:  # type: ignore[no-untyped-def]
    game = COACHED[0]
    spots = bench_coach.positions(game, 2, seed=1)
    assert len(spots) == 2 and all(player in state.deciding for state, player in spots)
    bench_coach.hint_latency(spots, repeats=1)
    out = capsys.readouterr().out
    assert "hint latency" in out and "95th percentile" in out


@pytest.mark.parametrize(
    "argv, error",
    [
        (["--games", "chess"], "unknown game 'chess'"),
        (["--pairs", "0"], "--pairs must be at least 1"),
    ],
)
def test_bad_options_are_named(argv, error, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        bench_coach.main(argv)
    assert error in capsys.readouterr().err


def test_an_unknown_table_or_opponent_is_named() -> None:
    with pytest.raises(SystemExit, match="has no table 'round'"):
        bench_coach.main(["--games", "rule-of-power", "--tables", "round", "--strength-only", "--no-pin"])
    with pytest.raises(SystemExit, match="has no opponent 'genius'"):
        bench_coach.main(["--games", "rule-of-power", "--opponents", "genius", "--strength-only", "--no-pin"])


def test_tables_are_chosen_by_names_that_hold_commas() -> None:
    game = game_named("rule-of-power")
    known = list(bench_coach.tables_of(game))
    chosen = bench_coach._chosen("2 players, Fate decks, Higher Powers,4 players in 2 teams, 2 players", known, "table", game)
    assert chosen == ["2 players, Fate decks, Higher Powers", "4 players in 2 teams", "2 players"]
    with pytest.raises(SystemExit, match="has no table 'Fate decks'"):
        bench_coach._chosen("Fate decks, 2 players", known, "table", game)
