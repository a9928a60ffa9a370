"""Every registered game, played at random through the protocol alone (OpenSpiel's random
simulation test): the table's moves by chance, the players' from their legal moves, each one
applied with every rule checked; every player's view checked against a world resampled from
it (a view that leaked a hidden card would change with the resample); the whole game taken
back move by move to its start; and its record written and replayed to the same state.

A game that plugs in passes this test or is not done."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import pytest

from companion.contract.options import Option
from companion.contract import Game
from companion.contract.registry import game_for_format, games, names
from companion.records.format import iter_record_lines, load_game

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")

GAMES_EACH = 1000
"""Random games per registered game: thousands in all, in well under a minute on one core."""

VIEW_RATE = 0.03
"""The share of positions where every player's view is checked against a resampled world."""

MAX_MOVES = 20_000


def _option_value(option: Option, rng: random.Random) -> Any:
    if option.kind == "flag":
        return rng.random() < 0.5
    if option.kind == "choice":
        return rng.choice(list(option.choices))
    # Mostly the default: a far target makes a long game and tests nothing more.
    if rng.random() < 0.7:
        return option.default
    assert option.low is not None and option.high is not None
    return rng.randint(option.low, min(option.high, option.low + 10))


def random_setup(game: Game, rng: random.Random) -> Any:
    """A table of the game at random: its number of players and its options (a table the
    rules refuse is drawn again)."""
    while True:
        players = NAMES[: rng.randint(game.min_players, game.max_players)]
        options = {o.name: _option_value(o, rng) for o in game.options}
        try:
            return game.make_setup(players, **options)
        except ValueError:
            continue


def _views(state: Any) -> dict[str, Any]:
    return {p: state.view(p) for p in state.players}


def _check_views(state: Any, rng: random.Random) -> None:
    """Each player's view of a world resampled from it is the same view: the view holds
    nothing the player could not know."""
    for player in state.players:
        view = state.view(player)
        world = state.resample(player, rng)
        assert world.view(player) == view, f"{player}'s view changes when the cards hidden from them are dealt again"
        assert world.move_stack == []


def _decisions(state: Any, player: str) -> dict[Hashable, list[Any]]:
    moves = list(state.moves_of(player))
    assert moves, f"{player} is deciding and has no legal move"
    decisions: dict[Hashable, list[Any]] = {}
    for move in moves:
        decisions.setdefault(state.decision(move), []).append(move)
    return decisions


def _next_move(game: Game, state: Any, rng: random.Random) -> tuple[Any, str | None]:
    """The table's move by chance, or a player's: one of the players deciding (any of them,
    where they decide at once), a decision of theirs drawn at random, then what chance settles
    in it."""
    deciding = state.deciding
    if not deciding:
        assert state.to_move is None
        return game.chance_move(state, rng), None
    assert state.to_move == (None if state.simultaneous else deciding[0]) and (state.simultaneous or len(deciding) == 1)
    mover = rng.choice(deciding)
    decisions = _decisions(state, mover)
    moves = [m for options in decisions.values() for m in options]
    assert all(state.is_legal(m) and state.player_of(m) == mover for m in rng.sample(moves, min(3, len(moves))))
    assert set(state.legal_moves) >= set(moves)
    options = decisions[rng.choice(list(decisions))]
    return rng.choice(options), mover


def _check_commitment_hidden(state: Any, mover: str, rng: random.Random) -> None:
    """Where players decide at once, what one of them commits is hidden from every other
    player: two worlds that differ only in that commitment look the same to them."""
    decisions = list(_decisions(state, mover).values())
    if len(decisions) < 2:
        return
    first, second = (rng.choice(options) for options in rng.sample(decisions, 2))
    views = []
    for move in (first, second):
        state.push(move)
        views.append({p: state.view(p) for p in state.players if p != mover})
        state.pop()
    assert views[0] == views[1], f"what {mover} commits shows in another player's view"


def play_one(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    setup = random_setup(game, rng)
    assert setup.game is game and game_for_format(game.codec.format) is game
    state = game.new_state(setup)
    start = _views(state)
    moves = []
    while not state.is_game_over():
        assert len(moves) < MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"
        if rng.random() < VIEW_RATE:
            _check_views(state, rng)
        move, mover = _next_move(game, state, rng)
        if mover is not None and state.simultaneous and rng.random() < VIEW_RATE * 4:
            _check_commitment_hidden(state, mover, rng)
        effects = state.apply(move)
        assert effects.player == mover
        moves.append(move)
    assert state.deciding == () and state.to_move is None and state.outcome() is not None and not list(state.legal_moves)
    assert game.summary(state).get("finished", True) is True

    # The record, written and read back, is the same game.
    replayed = load_game(list(iter_record_lines(setup, moves)), keep_history=True)
    assert replayed.setup == setup and replayed.move_stack == moves
    assert _views(replayed) == _views(state) and replayed.totals == state.totals and replayed.outcome() == state.outcome()

    # Taken back move by move, the game is at its start again.
    for move in reversed(moves):
        assert state.pop() == move
    assert state.move_stack == [] and _views(state) == start and state.to_move == game.new_state(setup).to_move


@pytest.mark.slow
@pytest.mark.parametrize("name", names())
def test_random_games_through_the_protocol_alone(name: str) -> None:
    game = next(g for g in games() if g.name == name)
    for seed in range(GAMES_EACH):
        play_one(game, seed)


def test_the_shipped_games_formats_are_their_codecs() -> None:
    # The registry finds a shipped game by its record format without importing the others.
    from companion.contract.registry import _BUILT_IN_FORMATS, game

    assert {fmt: game(name).codec.format for fmt, name in _BUILT_IN_FORMATS.items()} == {fmt: fmt for fmt in _BUILT_IN_FORMATS}
