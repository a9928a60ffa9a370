"""C15 (the reshuffle after action 6) and C16-C17 (season points, totals, the end of the
game)."""

from __future__ import annotations

import random

import pytest

from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import BATTLE_DECK
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Play, Reshuffle
from companion.games.circle_of_power.scoring import Termination, decide_after_season
from companion.contract.errors import IllegalMoveError

from .helpers import c, new, walk


def until(state, rng, stop):
    for _ in walk(state, rng):
        if stop(state):
            return state
    raise AssertionError("the game ended first")


def at_reshuffle(players=("ann", "bob", "cy"), seed=4):
    rng = random.Random(seed)
    state = new(players)
    return until(state, rng, lambda s: s.phase is Phase.RESHUFFLE), rng


# ---------------------------------------------------------------------- C15


def test_c15_the_battle_deck_runs_out_with_the_draws_of_action_6_and_is_made_anew():
    state, _ = at_reshuffle()
    assert state.battle_deck_count == 0 and state.action_number == 7 and state.to_move is None
    for name in state.seats:
        assert state.hand_size(name) == 3
    with pytest.raises(IllegalMoveError, match="C15: .*the battle deck ran out in action 6 and must be reshuffled first"):
        state.check(Play(state.leader, state.hand(state.leader)[0] if state.hand(state.leader) else c("2H")))
    played = {x for a, _, x in state.season_plays if a <= 6}
    assert len(played) == 24


def test_c15_only_dummies_take_six_cards_from_the_cards_of_actions_1_to_6():
    state, _ = at_reshuffle()
    played = sorted({x for a, _, x in state.season_plays if a <= 6})
    held = sorted(set(BATTLE_DECK) - set(played))
    with pytest.raises(IllegalMoveError, match="C15: each dummy puts 6 cards on its pile, not 5"):
        state.check(Reshuffle.make({"@1": [x.id for x in played[:5]]}))
    with pytest.raises(IllegalMoveError, match=f"C15: the new battle deck holds the 24 cards played in actions 1-6, and {held[0].id} was not one of them"):
        state.check(Reshuffle.make({"@1": [x.id for x in [held[0]] + played[:5]]}))
    with pytest.raises(IllegalMoveError, match="C15: ann is a player and draws from the new battle deck"):
        state.check(Reshuffle.make({"ann": [x.id for x in played[:6]]}))
    with pytest.raises(IllegalMoveError, match="C15: .* is put on a pile twice"):
        state.check(Reshuffle.make({"@1": [x.id for x in played[:5]] + [played[0].id]}))
    state.push(Reshuffle.make({"@1": [x.id for x in played[:6]]}))
    assert state.battle_deck_count == 18 and state.pile("@1")[:6] == tuple(played[:6]) and state.hand_size("@1") == 9


def test_c15_after_the_reshuffle_players_draw_only_cards_of_actions_1_to_6_and_never_reuse_later_ones():
    state, rng = at_reshuffle()
    state.push(GAME.chance_move(state, rng))
    until(state, rng, lambda s: s.phase is Phase.PLAY and not s.is_dummy(s.to_move))
    me = state.to_move
    played_early = {x for a, _, x in state.season_plays if a <= 6}
    other = next(n for n in state.seats if n != me and not state.is_dummy(n))
    held = next(x for x in state.hand(other) if x not in played_early)  # kept since before the reshuffle
    card = state.hand(me)[0]
    with pytest.raises(IllegalMoveError, match=rf"C15: {me} cannot draw {held.id}: it is not in the battle deck \(it is in {other}'s hand\)"):
        state.check(Play(me, card, held))
    # a card played after the reshuffle is out of play (C15: never reused)
    until(state, rng, lambda s: s.action_number >= 9 and s.phase is Phase.PLAY and not s.is_dummy(s.to_move))
    me = state.to_move
    late = next(x for a, _, x in state.season_plays if a == 7)
    with pytest.raises(IllegalMoveError, match=r"C15: .* cannot draw .*cards of actions 7-15 are not reused"):
        state.check(Play(me, state.hand(me)[0], late))


def test_c15_the_battle_deck_is_never_reshuffled_a_second_time():
    state, rng = at_reshuffle()
    state.push(GAME.chance_move(state, rng))
    until(state, rng, lambda s: s.action_number == 13 and s.phase is Phase.PLAY)
    assert state.battle_deck_count == 0
    with pytest.raises(IllegalMoveError, match=r"C15: the battle deck cannot be reshuffled now"):
        state.check(Reshuffle())
    me = state.to_move
    if not state.is_dummy(me):
        with pytest.raises(IllegalMoveError, match="C15: the battle deck ran out with the draws of action 12"):
            state.check(Play(me, state.hand(me)[0], c("2H")))


def test_c6_c15_every_battle_card_once_in_actions_1_to_6_and_once_more_in_7_to_15():
    for seed in range(6):
        rng = random.Random(seed)
        state = new(("ann", "bob", "cy", "dee")[: 2 + seed % 3], ("basic", "coloured-cities")[seed % 2])
        until(state, rng, lambda s: s.phase is Phase.SEASON or s.is_game_over())
        if state.results and not state.results[0].cut_short:
            plays = [x for a, _, x in state.season_plays]
            assert len(plays) == 60 and len(set(plays[:24])) == 24 and sorted(plays[24:]) == sorted(BATTLE_DECK)


# ---------------------------------------------------------------------- C16, C17


def test_c16_a_season_scores_one_point_per_trophy_and_dummies_score_too():
    rng = random.Random(8)
    state = new(("ann", "bob", "cy"))
    until(state, rng, lambda s: s.phase in (Phase.SEASON, Phase.OVER))
    result = state.results[0]
    assert set(result.points) == set(result.seats) and "@1" in result.points
    assert all(result.points[n] == len(result.trophies[n]) for n in result.seats)
    assert dict(state.totals) == {n: result.points.get(n, 0) for n in state.emperors}
    summary = GAME.summary(state)
    assert summary["seasons"] == [{"points": dict(result.points), "destroyed": {n: 0 for n in result.seats}}]


def test_c16_totals_add_up_over_seasons_and_an_unfinished_season_is_not_counted():
    rng = random.Random(9)
    state = new(("ann", "bob", "cy", "dee"), target=40)
    until(state, rng, lambda s: s.season_number == 3 and s.action_number == 5)
    assert len(state.results) == 2
    assert state.totals == {n: sum(r.points[n] for r in state.results) for n in state.emperors}
    assert GAME.summary(state)["finished"] is False and GAME.summary(state)["how"] is None


def test_c17_the_game_ends_after_the_season_a_player_reaches_the_target_highest_total_wins():
    assert decide_after_season({"ann": 6, "bob": 4, "@1": 8}, ("ann", "bob"), (), 6).winner == "ann"
    outcome = decide_after_season({"ann": 7, "bob": 7, "@1": 8}, ("ann", "bob"), (), 6)
    assert outcome.winner is None and outcome.draw and outcome.how is Termination.ONE_TRUE_EMPEROR
    assert decide_after_season({"ann": 5, "bob": 5, "@1": 9}, ("ann", "bob"), (), 6) is None  # dummies never end it


def test_c17_a_random_basic_game_ends_as_c17_says():
    for seed in range(4):
        rng = random.Random(seed)
        state = new(("ann", "bob", "cy"), target=3)
        for _ in walk(state, rng):
            if state.phase is Phase.SEASON:
                assert max(state.totals[p] for p in state.players) < 3  # not over: nobody reached it
        outcome = state.outcome()
        totals = state.totals
        best = max(totals[p] for p in state.players)
        assert best >= 3 and outcome.how is Termination.ONE_TRUE_EMPEROR
        leaders = [p for p in state.players if totals[p] == best]
        assert (outcome.winner, outcome.draw) == ((leaders[0], False) if len(leaders) == 1 else (None, True))
