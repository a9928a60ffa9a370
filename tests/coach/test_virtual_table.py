"""Virtual players at a level: every move they make is legal, and random stays the default."""

from __future__ import annotations

import itertools

import pytest

from companion.games.rule_of_power.engine.game import GameState
from companion.records.format import load_game, move_event, dumps_event, game_event
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup, simulate_game


def _checked_replay(setup, moves):
    lines = [dumps_event(game_event(setup))] + [dumps_event(move_event(m, setup)) for m in moves]
    return load_game(lines)


@pytest.mark.parametrize("players,teams", [(2, 0), (4, 2)])
def test_greedy_tables_play_legal_games(players, teams):
    setup = make_setup(players, teams)
    table = VirtualTable(setup, seed=4, fate=True, policy="greedy")
    game = GameState(setup, keep_history=False)
    moves = list(table.moves(game))
    assert game.outcome() is not None
    assert _checked_replay(setup, moves).outcome() == game.outcome()


def test_a_coach_table_plays_a_legal_round():
    setup = make_setup(2)
    table = VirtualTable(setup, seed=9, fate=True, policy="coach:fast")
    game = GameState(setup, keep_history=False)
    moves = list(itertools.takewhile(lambda _: not game.results, table.moves(game)))
    assert len(game.results) == 1
    _checked_replay(setup, moves)


def test_random_is_the_default_and_unchanged():
    setup = make_setup(2)
    a = simulate_game(setup, seed=12, fate=True)[1]
    table = VirtualTable(setup, seed=12, fate=True, policy="random")
    b = list(table.moves(GameState(setup, keep_history=False)))
    assert a == b


def test_unknown_policy():
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        VirtualTable(make_setup(2), policy="smart")


def test_a_seeded_coach_table_repeats():
    setup = make_setup(2)

    def first_deal(seed):
        table = VirtualTable(setup, seed=seed, policy="coach:fast")
        game = GameState(setup, keep_history=False)
        return list(itertools.takewhile(lambda _: game.deal_number < 2, table.moves(game)))

    assert first_deal(21) == first_deal(21)


def test_simulate_at_a_level(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "game.jsonl"
    assert main(["simulate", "--seed", "5", "--level", "greedy", "-o", str(out)]) == 0
    game = load_game(out)
    assert game.outcome() is not None
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--level", "clever"])
    assert exc.value.code == 2 and "invalid choice: 'clever'" in capsys.readouterr().err
