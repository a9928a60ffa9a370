"""Every registered game that has a coach, through the protocol alone: the coach never peeks.

Positions are reached the way ``tests/games/test_every_game.py`` plays (the table's moves by
chance, the players' decisions at random). In each, a player who is deciding is advised twice:
in the real position and in another world of their view (:meth:`State.resample`: every card
they cannot see, and every commitment another player made face down, drawn again). The two
pieces of advice are the same, number for number; and the playouts' players are handed views,
never a world."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.coach import Coach, CoachError
from companion.coach.search import Search
from companion.contract import Game
from companion.contract.registry import games

from tests.games.test_every_game import random_setup

COACHED = [g for g in games() if g.coach() is not None]

SAMPLES = 3
"""Samples per piece of advice: the advice must agree to the last digit, not be good."""


def _advisable(game: Game, state: Any, player: str) -> bool:
    model = game.coach()
    assert model is not None
    try:
        model.worlds(state, player)  # a hand the companion never saw is not judged
    except CoachError:
        return False
    return len(model.decisions(state, player)) > 1


def positions(game: Game, seed: int, count: int) -> list[tuple[Any, str]]:
    """``count`` positions of random games of ``game``, each with a player deciding there who
    has a choice: (state, player)."""
    rng = random.Random(seed)
    found: list[tuple[Any, str]] = []
    while len(found) < count:
        state = game.new_state(random_setup(game, rng), keep_history=False)
        stop = rng.randrange(0, 80)
        for _ in range(2000):
            if state.is_game_over():
                break
            deciding = state.deciding
            if not deciding:
                state.push(game.chance_move(state, rng))
                continue
            choosers = [p for p in deciding if _advisable(game, state, p)]
            if stop <= 0 and choosers:
                found.append((state, rng.choice(choosers)))
                break
            stop -= 1
            player = rng.choice(deciding)
            moves = list(state.moves_of(player))
            state.push(rng.choice(moves))
    return found


def _advice(state: Any, player: str, seed: int) -> dict[str, Any]:
    data = Coach("fast").advise(state, player, samples=SAMPLES, seed=seed).to_json()
    data.pop("elapsed_ms")
    return data


def test_every_shipped_game_with_a_coach_is_here() -> None:
    assert {g.name for g in COACHED} >= {"rule-of-power", "circle-of-power"}


@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_two_worlds_differing_only_in_what_the_player_cannot_see_get_the_same_advice(game: Game) -> None:
    rng = random.Random(3)
    differed = 0
    spots = positions(game, seed=11, count=6)
    for k, (state, player) in enumerate(spots):
        world = state.resample(player, rng)
        assert world.view(player) == state.view(player)
        others = [p for p in state.players if p != player]
        differed += any(world.view(p) != state.view(p) for p in others)  # another's hidden cards redrawn
        assert _advice(world, player, seed=k) == _advice(state, player, seed=k)
    assert differed >= len(spots) // 2


@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_the_playouts_players_are_handed_views_only(game: Game) -> None:
    (state, player), *_ = positions(game, seed=5, count=1)
    view_type = type(state.view(player))
    model = game.coach()
    assert model is not None
    policy = model.policy()
    asked: list[Any] = []

    def spy(view: Any, rng: random.Random) -> Any:
        asked.append(view)
        return policy(view, rng)

    Search(state, player, seed=1, policy=spy).run(samples=2)
    assert asked and all(type(v) is view_type for v in asked)
    # The quick player decides only for the player of the view, from what the view lists.
    assert all(policy(v, random.Random(0)) in v.decisions for v in asked[:50])


@pytest.mark.parametrize("game", COACHED, ids=lambda g: g.name)
def test_only_a_deciding_player_is_advised(game: Game) -> None:
    # A player without a decision now (another's turn, or their commitment made already).
    state, idle = next((s, p) for s, _ in positions(game, seed=7, count=5) for p in s.players if p not in s.deciding)
    with pytest.raises(CoachError, match=f"not {idle}'s|{idle} has no decision now"):
        Coach("fast").advise(state, idle, samples=1)
