"""The research bench ``bench/bench_lmpd_peeking.py``: a player that sees every hidden card
(but the others' commits this round, L6), which exists only to bound what any player can
reach. It lives in the bench alone (nothing the companion ships imports it), commits only legal
cards, never reads a commit face down, and its exact search (:func:`best_margins`) agrees with
every order of the cards played through the engine."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import bench_coach_lmpd
from bench.bench_lmpd_peeking import PeekingSeat, best_margins, bound, clairvoyant, main, opponent_futures
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.coach.worlds import table_move
from companion.games.love_money_power_death.moves import Commit, Move
from companion.games.love_money_power_death.policies import VIEW_PLAYERS, random_choice
from companion.games.love_money_power_death.state import LmpdState

ROOT = Path(__file__).resolve().parents[3]


def _dealt(players: int, seed: int) -> LmpdState:
    names = GAME.default_players(players)
    return bench_coach_lmpd.dealt(names, bench_coach_lmpd.deal(names, random.Random(seed)))


def _advance(state: LmpdState, rounds: int, rng: random.Random) -> None:
    """``rounds`` rounds played at random, every card face up, up to the next commits."""
    while len(state.rounds) < rounds or not state.deciding:
        deciding = state.deciding
        if deciding:
            for who in deciding:
                state.push(random_choice(state.view(who), rng))
        else:
            state.push(table_move(state))


def _every_order(state: LmpdState, player: str, future: list[dict[str, Card]], start: int) -> float:
    """The best margin over every order of the player's cards, each played through the
    engine against ``future``."""
    if state.is_game_over():
        return bench_coach_lmpd.margin(state, player)
    if state.deciding:
        t = len(state.rounds) - start
        best = None
        for move in state.moves_of(player):
            child = state.copy(keep_history=False)
            child.push(move)
            for who in child.deciding:
                child.push(Commit(who, future[t][who]))
            value = _every_order(child, player, future, start)
            best = value if best is None else max(best, value)
        assert best is not None
        return best
    child = state.copy(keep_history=False)
    child.push(table_move(child))
    return _every_order(child, player, future, start)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]))
def test_the_exact_search_agrees_with_every_order_played_through_the_engine(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = _dealt(players, seed)
    _advance(state, GAME.make_setup(GAME.default_players(players)).rounds - 4, rng)
    player = state.players[seed % players]
    future = opponent_futures(state, player, random_choice, rng)
    assert len(future) == 4
    margins = best_margins(state, player, future)
    assert set(margins) == set(state.hand(player))
    base = bench_coach_lmpd.margin(state, player)
    for card, value in margins.items():
        child = state.copy(keep_history=False)
        for who in state.players:
            child.push(Commit(who, card if who == player else future[0][who]))
        assert value + base == pytest.approx(_every_order(child, player, future, len(state.rounds)))


def test_the_peeking_player_commits_only_cards_of_its_hand_in_whole_games() -> None:
    seat = PeekingSeat(futures=3)
    checked = []

    def watched(state: LmpdState, player: str, rng: random.Random) -> Move:
        move = seat(state, player, rng)
        assert move in state.moves_of(player), f"{move} is not among {player}'s commits"
        checked.append(move)
        return move

    for players in (2, 4):
        names = GAME.default_players(players)
        the_deal = bench_coach_lmpd.deal(names, random.Random(players))
        seats: dict[str, bench_coach_lmpd.Seat] = {p: (watched if p == names[-1] else bench_coach_lmpd.ViewSeat(random_choice)) for p in names}
        end = bench_coach_lmpd.play_game(names, the_deal, seats, random.Random(7))  # each push checks the move (L6)
        assert end.is_game_over()
    assert len(checked) == 20


@pytest.mark.parametrize("seed", range(6))
def test_the_peeking_player_never_reads_a_commit_face_down(seed: int) -> None:
    """Tables that differ only in the cards the others committed this round: the same
    commit, with the same generator."""
    state = _dealt(4, seed)
    _advance(state, 2 + seed, random.Random(seed))
    player = state.players[3]
    picks = set()
    for cards in itertools.product(*(state.hand(p) for p in state.players[:3])):
        table = state.copy(keep_history=False)
        for p, card in zip(state.players, cards):
            table.push(Commit(p, card))
        picks.add(PeekingSeat(futures=4)(table, player, random.Random(11)))
    assert len(picks) == 1


def test_the_search_without_peeking_reads_the_view_alone() -> None:
    """``sees="view"``: two tables that differ in every card the player cannot see (the engine's
    resampling of the view) get the same commit."""
    state = _dealt(4, 5)
    _advance(state, 3, random.Random(5))
    player = state.players[1]
    other = state.resample(player, random.Random(99))
    assert other.pile(player) != state.pile(player) or other.noble_pile != state.noble_pile
    seat = PeekingSeat(futures=6, sees="view")
    assert seat(state, player, random.Random(2)) == seat(other, player, random.Random(2))


def test_the_bound_is_above_what_the_peeking_player_made() -> None:
    """The clairvoyant bound for the others' commits that were really made is at least the
    margin the peeking player reached against them."""
    names = GAME.default_players(4)
    state = _dealt(4, 21)
    player = names[2]
    start = state.copy(keep_history=False)
    rng = random.Random(4)
    future: list[dict[str, Card]] = []
    seat = PeekingSeat(futures=4)
    while not state.is_game_over():
        if state.deciding:
            made: dict[str, Card] = {}
            for who in state.deciding:
                move = seat(state, who, rng) if who == player else random_choice(state.view(who), rng)
                state.push(move)
                if who != player:
                    assert isinstance(move.card, Card)
                    made[who] = move.card
            future.append(made)
        else:
            state.push(table_move(state))
    assert max(best_margins(start, player, future).values()) >= bench_coach_lmpd.margin(state, player)
    assert clairvoyant(start, player, VIEW_PLAYERS["eager"], random.Random(1), 1) == max(
        best_margins(start, player, opponent_futures(start, player, VIEW_PLAYERS["eager"], random.Random(2))).values()
    )


def test_the_bench_prints_both_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--pairs", "1", "--futures", "2", "--samples", "2", "--also", "cards,view"]) == 0
    out = capsys.readouterr().out
    assert "clairvoyant vs random      4 players, 1 deals: margin at most" in out
    assert "peeking vs random" in out and "seeing cards vs random" in out and "seeing view vs random" in out
    assert len(bound(random_choice, 2, 2, 1, 2)) == 2


def test_the_bench_refuses_a_table_size_out_of_range_and_an_unknown_sight(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--players", "11"])
    assert "--players 11" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--also", "hands"])
    assert "--also 'hands': of cards, view" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not 'hands'"):
        PeekingSeat(sees="hands")


def test_the_player_that_sees_the_cards_but_not_the_noble_order_plays_the_same_whatever_that_order() -> None:
    state = _dealt(4, 8)
    _advance(state, 1, random.Random(8))
    player = state.players[0]
    other = state.copy(keep_history=False)
    other._nobles = tuple(reversed(state.noble_pile))  # another order of the same nobles face down
    seat = PeekingSeat(futures=6, sees="cards")
    assert seat(state, player, random.Random(3)) == seat(other, player, random.Random(3))


def test_nothing_the_companion_ships_reaches_the_peeking_player() -> None:
    """The peeking player cheats: only the bench may import it, never a module of the
    companion, its sensors or the coach."""
    for package in ("companion", "vision", "hardware"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text, str(path))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                assert not any(n == "bench" or n.startswith("bench.") for n in names), f"{path} imports {names}"
            assert "lmpd_peeking" not in text, path


def test_the_research_bench_runs_only_when_named() -> None:
    """`./run bench` with no name runs the companion's benchmarks, not this one."""
    from bench.__main__ import available, by_default

    assert "lmpd_peeking" in available()
    assert "lmpd_peeking" not in by_default()
    assert "coach_lmpd" in by_default() and "engine" in by_default()
