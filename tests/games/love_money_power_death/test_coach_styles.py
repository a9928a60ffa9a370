"""The other players' styles in Love, Money, Power, Death's playouts: weighed by what each player
revealed (every reveal is public, L7), each world seating every other player with a style drawn
by those weights, and the playouts' players committing in their world's style."""

from __future__ import annotations

import random

import pytest

from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.coach.policies import play_round
from companion.games.love_money_power_death.coach.styles import (
    KINDS,
    STYLES,
    StyledWorlds,
    draw_seats,
    reveal_counts,
    style_weights,
    tabulate,
)
from companion.games.love_money_power_death.policies import POLICIES, eager, simulate
from companion.games.love_money_power_death.state import LmpdState

from tests.games.love_money_power_death.helpers import dealt

HANDS = {"ann": ["5L", "2Ma", "3Pa"], "bob": ["4La", "1Mb", "A2"], "cy": ["3Da", "2Pb", "4Ma"]}


def test_before_any_reveal_every_style_is_as_likely() -> None:
    weights = style_weights(dealt(hands=HANDS).view("ann"))
    assert set(weights) == {"bob", "cy"}
    for w in weights.values():
        assert w == pytest.approx([1 / len(STYLES)] * len(STYLES))


@pytest.mark.parametrize("level", sorted(POLICIES), ids=[POLICIES[k].name for k in sorted(POLICIES)])
def test_a_players_reveals_weigh_their_own_style_highest(level: int) -> None:
    # bob plays one style a whole game, twenty deals: on average, what he revealed weighs his
    # own style above every other (ann's view, after the last round).
    names = list(STYLES)
    mean = [0.0] * len(STYLES)
    for seed in range(20):
        setup, moves = simulate(["ann", "bob"], seed=seed, level=level)
        state = LmpdState(setup)
        for move in moves:
            state.push(move)
        for i, w in enumerate(style_weights(state.view("ann"))["bob"]):
            mean[i] += w / 20
    assert names[max(range(len(mean)), key=mean.__getitem__)] == POLICIES[level].name, dict(zip(names, mean))


def test_a_world_seats_the_other_players_by_their_weights_and_its_playouts_follow_them() -> None:
    state = dealt(hands=HANDS)
    worlds = StyledWorlds(state, "ann")
    assert set(worlds.weights) == {"bob", "cy"}
    world = worlds.sample(random.Random(3))
    assert set(world.chance) == {"bob", "cy"} and all(s in STYLES.values() for s in world.chance.values())
    # A style weighed certain is always drawn; the playout then commits bob's card by it.
    seats = draw_seats({"bob": [1.0 if n == "eager" else 0.0 for n in STYLES]}, random.Random(0))
    assert seats == {"bob": STYLES["eager"]}
    table = world.state.copy()
    expected = eager(table.view("bob"), random.Random(0))
    play_round(table, seats, random.Random(5), STYLES["quick"])
    assert dict(table.rounds[-1].plays)["bob"] == expected.card


def test_the_shipped_counts_cover_every_table_size_and_tabulate_repeats() -> None:
    counts = reveal_counts()
    assert sorted(counts) == list(range(GAME.min_players, GAME.max_players + 1))
    for n, table in counts.items():
        assert set(table) == set(STYLES)
        for rows in table.values():
            assert all(len(row) == KINDS for row in rows)
            assert sum(rows[0]) == n * -(-3000 // n)  # every player reveals a card in round 1
    small = tabulate(3, 2, seed=1)
    assert small == tabulate(3, 2, seed=1)
    assert all(sum(rows[0]) == 6 for rows in small.values())
