"""What the coach of Circle of Power does differently at a table of more than two players: the
chance to win counts every rival (C16, C17), and the playouts are played by the counting
player (docs/coach.md, "Making the search stronger: what was tried")."""

from __future__ import annotations

import random
from math import comb

import pytest

from companion.games.circle_of_power.coach.model import MODEL, PLAIN
from companion.games.circle_of_power.cards import CITY_DECK, may_attack
from companion.games.circle_of_power.coach.opponents import _city_prospects, _unseen_cities, city_after, counting_player, win_chance
from companion.games.circle_of_power.coach.outcome import SEASON_SPREAD, field_win, win_model
from companion.games.circle_of_power.coach.policies import RolloutPolicy
from companion.games.circle_of_power.rules import strength, trump_suit, victims
from companion.games.circle_of_power.setup import is_dummy
from companion.games.circle_of_power.view import CircleView

from .positions import is_play, spots


def test_with_one_rival_the_chance_to_win_is_the_lead_against_the_spread():
    for lead in (-3, -1, 0, 2, 5):
        assert field_win([lead, 0], 1.5, SEASON_SPREAD) == pytest.approx(win_model(lead, 1.5, SEASON_SPREAD))


def test_with_three_rivals_every_rival_counts():
    assert field_win([2, 2, 2, 2], 1.0, SEASON_SPREAD) == pytest.approx(0.25)
    # level with the leader while two others trail beats a four-way tie at the same lead
    assert field_win([3, 3, 0, 0], 1.0, SEASON_SPREAD) > field_win([3, 3, 3, 3], 1.0, SEASON_SPREAD)
    # a point scored raises the chance; a point taken from any rival does too (C13)
    assert field_win([3, 3, 1, 0], 1.0, SEASON_SPREAD) > field_win([2, 3, 1, 0], 1.0, SEASON_SPREAD)
    assert field_win([2, 3, 0, 0], 1.0, SEASON_SPREAD) > field_win([2, 3, 1, 0], 1.0, SEASON_SPREAD)
    # the chances of the four players add up to one
    scores = [4, 1, 3, 0]
    shares = [field_win(scores[i:] + scores[:i], 2.0, SEASON_SPREAD) for i in range(4)]
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > shares[2] > shares[1] > shares[3]


def _counted(view: CircleView, card, unseen) -> float:
    """win_chance as its docstring says it, counted the long way: each emperor still to play
    who fights for the initiative holds a hand drawn from the unseen cards and must hold
    none at least as strong for their trump suit (C9)."""
    seats = view.seats
    seat = seats.index(view.player)
    trumps = [trump_suit(c, view.next_city) for c in view.cities_by_seat]
    mine = strength(card, trumps[seat])
    if any(strength(c, trumps[seats.index(p)]) > mine for p, c in view.played):
        return 0.0
    pool = len(unseen)
    if not pool:
        return 1.0
    chance = 1.0
    for k in range(1, len(seats) - len(view.played)):
        j = (seat + k) % len(seats)
        if not is_dummy(seats[j]) and not victims(j, view.cities_by_seat):
            continue
        losers = sum(1 for x in unseen if strength(x, trumps[j]) < mine)
        hand = 1 if is_dummy(seats[j]) else min(view.hand_sizes[seats[j]], pool)
        chance *= comb(losers, hand) / comb(pool, hand)
    return chance


@pytest.mark.parametrize("players", [("ann", "bob"), ("ann", "bob", "cy", "dee")])
def test_the_counting_players_odds_are_the_counted_ones(players):
    checked = 0
    for spot in spots(players, "basic", range(3)):
        state = spot.state
        if not is_play(state):
            continue
        view = state.view(state.to_move)
        unseen = sorted(view.unseen, key=lambda c: c.index)
        for card in view.hand:
            assert win_chance(view, card, unseen) == pytest.approx(_counted(view, card, unseen))
            checked += 1
    assert checked > 50


def _looked_ahead(view: CircleView, held) -> float:
    """The counting player's look-ahead as the module says it, counted the long way: the cities
    ``held`` may attack less those that may attack it (C3), among the other cities in play and,
    half as much, the city cards not yet seen this season (C6, C7)."""
    seen = {c for c in view.cities_by_seat if c is not None} | set(view.city_discards)
    seen |= {c for line in (*view.trophies_by_seat, *view.destroyed_by_seat) for c in line}
    seen |= {view.next_city} - {None}
    value = 0.0
    for name, city in zip(view.seats, view.cities_by_seat):
        if name != view.player and city is not None:
            value += may_attack(held, city) - may_attack(city, held)
    for city in CITY_DECK:
        if city not in seen:
            value += 0.5 * (may_attack(held, city) - may_attack(city, held))
    return value


@pytest.mark.parametrize("variant", ["basic", "coloured-cities"])
def test_the_counting_players_look_ahead_is_the_counted_one(variant):
    checked = 0
    for spot in spots(("ann", "bob", "cy", "dee"), variant, range(3)):
        state = spot.state
        if is_play(state):
            continue
        view = state.view(state.to_move)
        for move in view.decisions:
            held = city_after(view, move)
            if held is not None:
                assert _city_prospects(view, held, _unseen_cities(view)) == _looked_ahead(view, held)
                checked += 1
    assert checked > 20


def test_at_four_players_the_playouts_and_the_plain_move_are_the_counting_players():
    rng = random.Random(3)
    seen = 0
    for spot in spots(("ann", "bob", "cy", "dee"), "coloured-cities", range(2)):
        state = spot.state
        view = state.view(state.to_move)
        assert PLAIN(view, rng) == counting_player(view, rng)
        assert MODEL.plain_move(view) == counting_player(view, rng)
        assert RolloutPolicy()(view, rng) in view.decisions
        seen += 1
    assert seen > 50


def test_at_two_players_the_playouts_keep_the_quick_player():
    differ = 0
    for spot in spots(("ann", "bob"), "basic", range(4)):
        state = spot.state
        view = state.view(state.to_move)
        quick = PLAIN.act(view, random.Random(0)) if view.phase == "act" else PLAIN.card(view, random.Random(0))
        plain = PLAIN(view, random.Random(0))
        assert plain == quick or getattr(plain, "card", None) == quick
        differ += plain != counting_player(view, random.Random(0))
    assert differ > 0  # the two players do differ at two players: the quick one is kept there
