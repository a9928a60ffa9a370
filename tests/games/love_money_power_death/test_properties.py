"""Invariants of the rules, over random games (hypothesis): the cards are conserved (each card in
one place, every count adding up to the deck), push and pop are exact, a player's view is
unchanged by resampling what they cannot see, and no view shows another player's commitment
before the reveal, which a resample draws afresh (L6, L7, L14). Each holds for games seen whole
and for games kept from one player's view."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import DEALT, Card
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Move
from companion.games.love_money_power_death.policies import simulate
from companion.games.love_money_power_death.samples.generate import as_seen_by
from companion.games.love_money_power_death.state import LmpdState, Phase

from .helpers import snapshot

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=6)
NOBLES = st.sampled_from([0, 0, 1, 3, 4])
VIEWS = st.sampled_from([None, 0, 1])
"""Whose view the game is kept from: nobody's (every card seen), the first or the second player's."""


def a_game(seed: int, players: int, nobles: int, view: int | None) -> tuple[LmpdState, list[Move]]:
    """A random game (random or rule-of-thumb players), kept whole or from one player's view."""
    setup, moves = simulate(GAME.default_players(players), nobles, seed, level=seed % 2)
    if view is not None:
        moves = as_seen_by(setup.players[view], moves)
    return GAME.new_state(setup), moves


def conserved(state: LmpdState) -> None:
    """Every card in one place: the dealt cards in piles, hands, the aside and the revealed ones;
    the nobles in use in the noble pile, on the table, in courts or discarded."""
    setup = state.setup
    if state.phase is Phase.DEAL:
        return
    known: list[Card] = []
    count = 0
    for p in setup.players:
        pile = state.pile(p)
        known += [x for x in pile if x is not UNSEEN]  # type: ignore[misc]
        held = list(state.hand(p))
        commit = state.commit_of(p)
        if type(commit) is Card:
            held.append(commit)
        known += held
        count += len(pile) + len(held) + state.hand_unseen(p)
    known += [x for x in state.aside if x is not UNSEEN]  # type: ignore[misc]
    known += list(state.revealed)
    count += len(state.aside) + len(state.revealed)
    assert count == len(DEALT), f"{count} dealt cards counted, not 42"
    assert not [x for x, n in Counter(known).items() if n > 1], "a card in two places"
    assert all(not x.is_noble for x in known)
    nobles = [x for x in state.noble_pile if x is not UNSEEN] + [x for court in state.courts.values() for x in court]
    nobles += list(state.discarded) + ([state.noble] if state.noble else [])
    assert len(state.noble_pile) + sum(len(v) for v in state.courts.values()) + len(state.discarded) + (state.noble is not None) == setup.rounds
    assert len(set(nobles)) == len(nobles) and set(nobles) <= set(setup.nobles)
    assert sum(state.counts.values()) + len(state.discarded) == len(state.rounds)


def commits_hidden(state: LmpdState, rng: random.Random) -> None:
    """No view holds another player's commitment before the reveal, and two different
    commitments of one player look the same to everyone else."""
    for p in state.players:
        text = repr(state.view(p))
        for q in state.committed:
            card = state.commit_of(q)
            if q != p and type(card) is Card:
                assert repr(card) not in text, f"{p}'s view shows {q}'s commitment {card.id}"
    if state.deciding:
        mover = rng.choice(state.deciding)
        options = state.moves_of(mover)
        if len(options) >= 2:
            views = []
            for move in rng.sample(options, 2):
                state.push(move)
                views.append({p: state.view(p) for p in state.players if p != mover})
                state.pop()
            assert views[0] == views[1], f"{mover}'s commitment shows in another view"


def resampled_views(state: LmpdState, rng: random.Random) -> None:
    """A world resampled for a player looks the same to them, and is a whole legal game: its
    cards conserved, and it plays on to the end."""
    for p in state.players:
        world = state.resample(p, rng)
        assert world.view(p) == state.view(p) and world.move_stack == []
        conserved(world)
        for q in state.players:
            if q != p:
                assert world.hand_unseen(q) == 0  # everything the player cannot see is dealt
    world = state.resample(rng.choice(state.players), rng)
    while not world.is_game_over():
        deciding = world.deciding
        move = rng.choice(world.moves_of(rng.choice(deciding))) if deciding else world.random_table_move(rng)
        world.push(move)
    conserved(world)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS, nobles=NOBLES, view=VIEWS)
def test_the_cards_are_conserved(seed: int, players: int, nobles: int, view: int | None) -> None:
    state, moves = a_game(seed, players, nobles, view)
    conserved(state)
    for move in moves:
        state.push(move)
        conserved(state)
    assert state.is_game_over()


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, nobles=NOBLES, view=VIEWS)
def test_push_and_pop_are_exact(seed: int, players: int, nobles: int, view: int | None) -> None:
    state, moves = a_game(seed, players, nobles, view)
    start = snapshot(state)
    trail = []
    for move in moves:
        before = snapshot(state)
        state.push(move)
        after = snapshot(state)
        assert state.pop() == move and snapshot(state) == before
        state.push(move)
        assert snapshot(state) == after
        trail.append(before)
    for move, before in zip(reversed(moves), reversed(trail)):
        assert state.pop() == move and snapshot(state) == before
    assert snapshot(state) == start and state.move_stack == []


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, players=PLAYERS, nobles=NOBLES, view=VIEWS)
def test_a_view_is_unchanged_by_resampling(seed: int, players: int, nobles: int, view: int | None) -> None:
    state, moves = a_game(seed, players, nobles, view)
    rng = random.Random(seed)
    for k, move in enumerate(moves):
        state.push(move)
        if k % 7 == 3 or state.phase is Phase.NOBLE:
            resampled_views(state, rng)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, nobles=NOBLES, view=VIEWS)
def test_commitments_are_hidden_until_the_reveal(seed: int, players: int, nobles: int, view: int | None) -> None:
    state, moves = a_game(seed, players, nobles, view)
    rng = random.Random(seed)
    for move in moves:
        if state.phase in (Phase.COMMIT, Phase.NOBLE, Phase.REVEAL):
            commits_hidden(state, rng)
        state.push(move)


def test_a_resample_draws_the_other_commitments_afresh() -> None:
    state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
    rng = random.Random(3)
    state.push(state.random_table_move(rng))
    bob = state.hand("bob")
    state.push(Commit("bob", bob[0]))
    state.push(Commit("ann", state.hand("ann")[0]))
    drawn = {state.resample("ann", rng).commit_of("bob") for _ in range(30)}
    assert len(drawn) > 3 and all(type(x) is Card for x in drawn)  # from hands dealt afresh
    assert {state.resample("ann", rng).commit_of("ann") for _ in range(5)} == {state.commit_of("ann")}
    assert state.resample("ann", rng).commit_of("cy") is None  # cy has not committed


def test_an_unseen_commitment_stays_unseen_for_its_own_player() -> None:
    state = GAME.new_state(GAME.make_setup(["ann", "bob"]))
    rng = random.Random(5)
    state.push(state.random_table_move(rng))
    state.push(Commit("ann", UNSEEN))
    world = state.resample("ann", rng)
    assert world.commit_of("ann") is UNSEEN and world.view("ann") == state.view("ann")
    assert world.view("ann").commit is UNSEEN and world.hand("ann") == state.hand("ann")
