"""Circle of Power's coach model against the protocol the coach's core asks of a game
(docs/coach.md, "What a game provides to be coached")."""

from __future__ import annotations

import inspect
import random

import pytest

from companion.coach import Coach, CoachError, model_of
from companion.coach.model import CoachModel, World
from companion.coach.risks import RiskScan
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import BATTLE_DECK, Card
from companion.games.circle_of_power.coach.model import MODEL, CircleOfPowerCoach
from companion.games.circle_of_power.coach.outcome import CATEGORIES, FEATS, season_value
from companion.games.circle_of_power.coach.policies import RolloutPolicy, act_options, advance, decide, dummy_move
from companion.games.circle_of_power.coach.reasons import ActionWatch
from companion.games.circle_of_power.coach.worlds import Chance, CircleWorlds, PlayoutState
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import UNSEEN, Conquer, Play, Regroup, Retake, Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.setup import is_dummy

from tests.games.circle_of_power.helpers import censor

from .positions import find, is_act, is_play, spots


def test_the_game_hands_out_its_model_and_it_has_every_member_of_the_protocol():
    assert GAME.coach() is MODEL and model_of(GAME) is MODEL
    members = [name for name, _ in inspect.getmembers(CoachModel) if not name.startswith("_")]
    assert members and all(hasattr(MODEL, name) for name in members)
    for name in members:
        value = getattr(CoachModel, name)
        if callable(value):
            wanted = [p for p in inspect.signature(value).parameters if p != "self"]
            got = list(inspect.signature(getattr(CircleOfPowerCoach, name)).parameters)[1:]
            assert got == wanted, name
    assert MODEL.period == "season" and [c.name for c in MODEL.categories] == [c.name for c in CATEGORIES]
    assert MODEL.feats == FEATS


def test_decisions_are_the_cards_of_the_hand_then_the_acts_keyed_as_the_state_keys_them():
    spot = find(is_play)
    state = spot.state
    me = state.to_move
    decisions = MODEL.decisions(state, me)
    assert list(decisions) == [Play(me, c) for c in sorted(state.hand(me))]
    for move in state.legal_moves:
        assert state.decision(move) in decisions
    assert list(decisions) == list(state.view(me).decisions)  # the view lists them alike
    others = [p for p in state.players if p != me]
    assert all(MODEL.decisions(state, p) == {} and state.view(p).decisions == () for p in others)
    act = find(is_act).state
    decisions = MODEL.decisions(act, act.to_move)
    assert list(decisions) == list(act.legal_moves) == list(act.view(act.to_move).decisions)
    assert all(options == [key] for key, options in decisions.items())


def test_a_dummy_decides_nothing_and_the_coach_advises_players_only():
    spot = find(lambda s: True)
    state = spot.state
    for index in range(spot.index, len(spot.moves)):
        if state.to_move is not None and is_dummy(state.to_move):
            break
        state.push(spot.moves[index])
    dummy = state.to_move
    assert dummy is not None and is_dummy(dummy)
    assert len(MODEL.decisions(state, dummy)) == 1  # C11: the rules decide
    assert state.view(dummy).decisions == ()  # nothing a policy could choose
    with pytest.raises(CoachError, match="unknown player"):
        Coach("fast").advise(state, dummy, samples=1)


def test_a_hand_the_companion_never_saw_is_not_judged():
    setup, moves = simulate(["ann", "bob"], "basic", 2)
    censored = censor(moves, "bob")  # ann's hand unseen
    state = CircleState(setup, keep_history=False)
    for move in censored:
        if state.to_move == "ann":
            break
        state.push(move)
    assert state.to_move == "ann" and state.unseen_in_hand("ann") == 3
    assert MODEL.decisions(state, "ann") == {}
    with pytest.raises(CoachError, match="has not seen 3 of the 3 cards in ann's hand"):
        Coach("fast").advise(state, "ann", samples=1)


def test_alike_decisions_differ_only_by_the_trophy_discarded():
    assert MODEL.alike(Retake("ann", "bob", Card.from_id("QD"))) == MODEL.alike(Retake("ann", "bob", Card.from_id("JH")))
    assert MODEL.alike(Retake("ann", "bob")) != MODEL.alike(Retake("ann", "cy"))
    assert MODEL.alike(Regroup("ann", Card.from_id("QD"))) == MODEL.alike(Regroup("ann", Card.from_id("KS")))
    assert MODEL.alike(Conquer("ann", "bob")) != MODEL.alike(Conquer("ann", "bob", True))
    assert MODEL.alike(Play("ann", Card.from_id("9H"))) != MODEL.alike(Play("ann", Card.from_id("9S")))


@pytest.mark.parametrize("variant", ["basic", "lonely-tyrant", "coloured-cities"])
def test_worlds_keep_the_view_and_deal_the_rest_again(variant):
    rng = random.Random(5)
    checked = 0
    for spot in spots(("ann", "bob", "cy"), variant, range(3)):
        if rng.random() > 0.2:
            continue
        state = spot.state
        me = state.to_move
        view = state.view(me)
        worlds = MODEL.worlds(state, me)
        world = worlds.sample(random.Random(checked))
        assert world.state.view(me) == view  # the same view...
        chance = world.chance
        assert len(chance.battle) == state.battle_deck_count
        assert len(chance.cities) == state.city_deck_count - (state.next_city is not None)
        if state.bottom in chance.cities:
            assert chance.cities[0] is state.bottom  # C6, C7: the bottom joker comes out last
        held = {x for name in state.seats if name != me for x in world.state.hand(name)}
        held |= {x for name in state.dummies for x in world.state.pile(name)}
        assert held | set(chance.battle) == set(view.unseen)  # ...and every unseen card dealt once
        checked += 1
    assert checked > 5


def test_hidden_cards_are_dealt_again_not_copied():
    spot = find(is_play)
    state = spot.state
    me = state.to_move
    other = next(p for p in state.players if p != me)
    worlds = MODEL.worlds(state, me)
    seen = set()
    for k in range(40):
        seen.update(worlds.sample(random.Random(k)).state.hand(other))
    assert len(seen) > 10 and not seen & set(state.hand(me))


@pytest.mark.parametrize("variant", ["basic", "lonely-tyrant", "coloured-cities"])
def test_playouts_are_legal_to_the_end_of_the_season_and_keep_the_sample(variant):
    policy = RolloutPolicy()
    rng = random.Random(1)
    done = 0
    for spot in spots(("ann", "bob", "cy"), variant, range(4)):
        if rng.random() > 0.15:
            continue
        world = MODEL.worlds(spot.state, spot.state.to_move).sample(rng)
        before = world.state.view(spot.state.to_move), world.chance.battle[:], world.chance.cities[:]
        fork = MODEL.fork(world)
        state, chance = fork.state, fork.chance
        assert isinstance(state, PlayoutState)
        while state.phase not in (Phase.SEASON, Phase.OVER):
            me = state.to_move
            if me is not None and is_dummy(me):
                assert dummy_move(state) == next(iter(state.legal_moves))  # C8, C11
            elif me is not None:
                view = state.view(me)
                assert policy(view, random.Random(0)) in view.decisions  # a decision of the view
                if state.phase is Phase.ACT:
                    assert set(act_options(view)) <= set(state.legal_moves)
            if me is None:
                advance(state, chance, rng, policy)
            else:
                state.push(decide(state, chance, rng, policy))  # checked against every ruling
        value = MODEL.value(state, spot.state.to_move)
        assert len(value.categories) == len(CATEGORIES) and len(value.feats) == len(FEATS)
        assert (world.state.view(spot.state.to_move), world.chance.battle, world.chance.cities) == before
        done += 1
    assert done > 5


def test_realize_draws_the_top_of_the_worlds_battle_deck():
    spot = find(lambda s: is_play(s) and s.battle_deck_count > 0)
    state = spot.state
    me = state.to_move
    world = MODEL.worlds(state, me).sample(random.Random(2))
    options = next(iter(MODEL.decisions(world.state, me).values()))
    top = world.chance.battle[-1]
    move = MODEL.realize(world.state, options[0], world.chance, random.Random(0))
    assert move == Play(me, options[0].card, top) and top not in world.chance.battle


def test_the_value_is_the_seasons_margin_and_what_changed_hands():
    spot = find(is_act)
    state = spot.state
    me = state.to_move
    world = MODEL.worlds(state, me).sample(random.Random(4))
    conquer = next(m for m in MODEL.decisions(world.state, me) if type(m) is Conquer)
    fork = MODEL.fork(world)
    fork.state.push(conquer, check=False)
    MODEL.play_out(fork.state, fork.chance, random.Random(1), MODEL.policy())
    end = fork.state
    value = season_value(end, me)
    points = end.results[-1].points
    others = [p for p in end.players if p != me]
    assert value.margin == points[me] - max(points[p] for p in others)
    tally = end.tally
    assert tally.decision_act and tally.acts[0] == (me, "conquer", conquer.victim)
    assert value.categories[0] == tally.gained.get(me, 0) - sum(tally.gained.get(p, 0) for p in others) / len(others)
    assert tally.gained.get(me, 0) >= 1  # the conquest itself (C12)
    # the trophies at the end are those held before, won, and not lost (C12-C14)
    before = len(state.trophies(me))
    assert points[me] == before + tally.gained.get(me, 0) - tally.retaken.get(me, 0) - tally.rebelled.get(me, 0)
    assert 0.0 <= value.win <= 1.0


def test_the_chance_to_win_is_exact_when_the_season_ends_the_game():
    for spot in spots(("ann", "bob"), "basic", range(10)):
        state = spot.state
        if state.action_number == 15 and state.phase is Phase.ACT and len(state.results) >= 1:
            break
    end = state.copy(keep_history=False)
    for move in spot.moves[spot.index:]:
        end.push(move)
        if end.phase in (Phase.SEASON, Phase.OVER):
            break
    value = MODEL.value(end, "ann")
    outcome = end.outcome()
    if outcome is not None:
        assert value.win == (1.0 if outcome.winner == "ann" else 0.5 if outcome.draw else 0.0)
    else:
        lead = end.totals["ann"] - end.totals["bob"]
        assert (value.win > 0.5) == (lead > 0) and (value.win < 0.5) == (lead < 0)


def test_the_watch_counts_who_wins_the_next_act_and_merges():
    spot = find(is_play)
    state = spot.state
    me = state.to_move
    world = MODEL.worlds(state, me).sample(random.Random(3))
    total = None
    for seed in range(6):
        fork = MODEL.fork(world)
        rng = random.Random(seed)
        move = MODEL.realize(fork.state, next(iter(MODEL.decisions(fork.state, me).values()))[0], fork.chance, rng)
        fork.state.push(move, check=False)
        watch = MODEL.watch(fork.state, me, fork.chance, rng, MODEL.policy())
        assert isinstance(watch, ActionWatch) and sum(watch.wins.values()) == 1
        assert fork.state.phase is not Phase.ACT  # played on to just after the act
        total = watch if total is None else (total.merge(watch) or total)
    assert total is not None and total.samples == 6 and sum(total.wins.values()) == 6


def test_teaching_modes_risk_scan_runs_on_the_model():
    spot = find(is_play)
    state = spot.state
    scan = RiskScan(state, state.to_move).run(8)
    risks = scan.risks()
    assert set(risks) == set(MODEL.decisions(state, state.to_move))
    for told in risks.values():
        for risk in told:
            assert risk.chance >= 0.15 and risk.text.startswith("risk: ") and risk.short.startswith("risk ")


def test_position_and_words():
    spot = find(is_play)
    state = spot.state
    line = MODEL.position(state)
    assert line.startswith(f"(season {state.season_number}, action {state.action_number}); cities: ")
    assert all(f"{n} {c.id}" in line for n, c in state.cities.items())
    assert MODEL.describe(Play("ann", Card.from_id("9H"))) == "play 9H"
    assert MODEL.describe(Conquer("ann", "bob")) == "conquer bob"
    assert MODEL.describe(Retake("ann", "bob", Card.from_id("QD"))) == "retake bob's city, discarding QD"
    assert MODEL.describe(Regroup("ann", Card.from_id("QD"))) == "regroup, losing QD to rebellion"
    assert MODEL.move_json(Retake("ann", "bob")) == {"act": "retake", "card": None, "victim": "bob", "keep": None, "discard": None}
    assert MODEL.waits_for(CircleState(spot.setup)) == "the next season to be dealt"
    assert MODEL.period_of(state) == state.season_number


def test_unseen_cards_count_what_a_record_never_named():
    setup, moves = simulate(["ann", "bob"], "basic", 2)
    assert MODEL.unseen_cards(moves) == 0
    season_moves = moves[: next(k for k in range(1, len(moves)) if type(moves[k]) is Season)]
    censored = censor(season_moves, "ann")
    # bob's hand (3) and his 12 draws, the dummies' piles (2 x 9) and new cards (2 x 6)
    assert MODEL.unseen_cards(censored) == 3 + 12 + 18 + 12
    assert UNSEEN not in [x for _, h in censored[0].hands for x in h]


def test_every_sampled_world_is_complete():
    spot = find(is_play)
    world = MODEL.worlds(spot.state, spot.state.to_move).sample(random.Random(0))
    assert isinstance(world, World) and isinstance(world.chance, Chance)
    state = world.state
    for name in state.seats:
        assert state.unseen_in_hand(name) == 0 if not is_dummy(name) else all(isinstance(x, Card) for x in state.pile(name))
    assert set(world.chance.battle) <= set(BATTLE_DECK)
    assert isinstance(MODEL.worlds(spot.state, spot.state.to_move), CircleWorlds)
