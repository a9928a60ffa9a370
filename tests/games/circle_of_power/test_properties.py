"""Properties of the engine over random games (hypothesis chooses the tables and seeds): undo,
the legal moves, the dummies, the trump suits, what moves did, and the scores, the last
against a second bookkeeping of the record written from the rulings' text."""

from __future__ import annotations

import random
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import BATTLE_DECK, may_attack
from companion.games.circle_of_power.effects import CITY, CITY_DECK, DESTROYED, DISCARD, TROPHIES
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Conquer, Play, Regroup, Retake, Reveal, Season
from companion.games.circle_of_power.policies import simulate
from companion.contract.errors import IllegalMoveError

from .helpers import censor, new, replay, snapshot, walk

TABLES = [(p, v) for p in (("ann", "bob"), ("ann", "bob", "cy"), ("ann", "bob", "cy", "dee"))
          for v in ("basic", "lonely-tyrant", "coloured-cities")]
FAST = settings(max_examples=18, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_pop_restores_the_state_exactly(table, seed):
    players, variant = table
    rng = random.Random(seed)
    state = new(players, variant)
    snapshots = [snapshot(state)]
    for move in walk(state, rng, steps=260):
        if rng.random() < 0.15:
            after = snapshot(state)
            assert state.pop() == move
            assert snapshot(state) == snapshots[-1]
            state.push(move)
            assert snapshot(state) == after
        snapshots.append(snapshot(state))
    while state.move_stack:
        snapshots.pop()
        state.pop()
        if len(snapshots) % 37 == 0:
            assert snapshot(state) == snapshots[-1]
    assert snapshot(state) == snapshots[0]


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_every_listed_move_is_legal_and_the_fast_path_agrees_with_the_checked_one(table, seed):
    players, variant = table
    rng = random.Random(seed)
    state = new(players, variant)
    for _ in walk(state, rng, steps=200):
        if state.to_move is None:
            assert not list(state.legal_moves)
            continue
        moves = list(state.legal_moves)
        assert moves and len(set(moves)) == len(moves)
        for move in rng.sample(moves, min(4, len(moves))):
            assert move in state.legal_moves
            fast = state.copy()
            fast.push(move, check=False)
            checked = state.copy()
            checked.check(move)
            checked._carry_out(move)  # the general path, which the fast one skips for a Play
            assert snapshot(fast)[:-1] == snapshot(checked)[:-1]


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_push_refuses_exactly_the_plays_that_check_refuses(table, seed):
    """The fast path of push takes no card the checked path would refuse, whatever is played
    or drawn, by whoever."""
    from companion.games.circle_of_power.cards import ALL_CARDS

    players, variant = table
    rng = random.Random(seed)
    state = new(players, variant)
    tried = 0
    for _ in walk(state, rng, steps=150):
        if state.phase is not Phase.PLAY:
            continue
        me = state.to_move
        hand = list(state.hand(me)) or list(ALL_CARDS)
        for _ in range(6):
            who = me if rng.random() < 0.8 else rng.choice(state.seats)
            card = rng.choice(hand) if rng.random() < 0.7 else rng.choice(ALL_CARDS)
            drew = rng.choice([None, rng.choice(ALL_CARDS), rng.choice(BATTLE_DECK)])
            move = Play(who, card, drew)
            legal = state.is_legal(move)
            before = snapshot(state)
            try:
                state.push(move)
            except (IllegalMoveError, ValueError):
                assert not legal and snapshot(state) == before
            else:
                assert legal, move
                state.pop()
            tried += 1
    assert tried


def c11(state):
    """C11 read from its text: conquer the first city counter-clockwise the dummy may take,
    keeping a black city in Coloured Cities; else regroup, losing the last trophy if the city
    is under no threat."""
    seats = state.seats
    w = seats.index(state.to_move)
    mine = state.city(state.to_move)
    for step in (1, 2, 3):
        v = seats[(w - step) % 4]
        theirs = state.city(v)
        if theirs is not None and may_attack(mine, theirs):
            black = (mine.colour or theirs.colour) == "black"
            return Conquer(state.to_move, v, state.variant == "coloured-cities" and black)
    threatened = any(may_attack(state.city(o), mine) for o in seats if o != state.to_move and state.city(o))
    line = state.trophies(state.to_move)
    return Regroup(state.to_move, line[-1] if line and not threatened else None)


@FAST
@given(st.sampled_from([t for t in TABLES if len(t[0]) < 4]), st.integers(0, 2**32 - 1))
def test_c11_a_dummys_act_is_the_only_legal_act(table, seed):
    players, variant = table
    rng = random.Random(seed)
    state = new(players, variant)
    seen = 0
    for _ in walk(state, rng, steps=400):
        if state.phase is Phase.ACT and state.is_dummy(state.to_move):
            seen += 1
            expected = c11(state)
            assert list(state.legal_moves) == [expected]
            others = [Conquer(state.to_move, v) for v in state.seats] + [Regroup(state.to_move)]
            others += [Retake(state.to_move, v) for v in state.seats]
            for other in others:
                if other != expected:
                    assert not state.is_legal(other)
    assert seen


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_c9_the_trump_suits_follow_the_cities_and_the_next_available_city(table, seed):
    players, variant = table
    rng = random.Random(seed)
    state = new(players, variant)
    for _ in walk(state, rng, steps=300):
        if state.phase is Phase.PLAY and not state.played:
            nxt = state.next_city
            for name, city in state.cities.items():
                expected = city.suit if not city.is_joker else (nxt.suit if nxt is not None else None)
                assert state.trump_suits[name] == expected
            # C7: the top card lies face up whenever the deck has one; without retakes (C19)
            # the deck loses one card per action, so that action 15 has none.
            assert (nxt is None) == (state.city_deck_count == 0)
            if variant != "coloured-cities":
                assert state.city_deck_count == 15 - state.action_number


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_what_a_move_did_is_what_happened_to_the_table(table, seed):
    players, variant = table
    rng = random.Random(seed)
    state = new(players, variant)
    while not state.is_game_over() and state.season_number < 3:
        move = GAME.chance_move(state, rng) if state.to_move is None else rng.choice(list(state.legal_moves))
        before = {n: state.city(n) for n in state.seats} if state.seats else {}
        lines = {n: state.trophies(n) for n in state.seats} if state.seats else {}
        discards = state.city_discards
        nxt = state.next_city
        draw_due = state.phase is Phase.PLAY and not state.is_dummy(state.to_move) and state.battle_deck_count > 0
        effects = state.apply(move)
        assert effects.player == (None if type(move) in (Season, Reveal) or effects.kind == "reshuffle" else move.player)
        if type(move) in (Conquer, Retake, Regroup):
            cities = dict(before)
            gained = defaultdict(list)
            lost = defaultdict(list)
            thrown = []
            for t in effects.transfers:
                if t.destination == CITY:
                    cities[t.destination_owner] = t.card
                    assert t.source != CITY_DECK or t.card is nxt
                elif t.source == CITY and t.destination in (DISCARD, TROPHIES, DESTROYED):
                    if cities.get(t.source_owner) is t.card:
                        cities[t.source_owner] = None
                if t.destination == TROPHIES:
                    gained[t.destination_owner].append(t.card)
                if t.source == TROPHIES:
                    lost[t.source_owner].append(t.card)
                if t.destination == DISCARD:
                    thrown.append(t.card)
            if effects.result is None:
                assert {n: state.city(n) for n in state.seats} == cities
                for n in state.seats:
                    assert list(state.trophies(n)) == [x for x in lines[n] if x not in lost[n]] + gained[n]
                assert state.city_discards == discards + tuple(thrown)
            assert effects.rebellion == (type(move) is Regroup and move.discard is not None)
        if type(move) is Play:
            assert effects.card is move.card and effects.drawn == draw_due and effects.drew is move.drew
            assert effects.transfers[0].card is move.card and len(effects.transfers) == 1 + draw_due


def bookkeeping(setup, moves):
    """The scores of a record kept by hand, from the rulings' text alone (C12-C14, C16-C20)."""
    variant = setup.variant
    totals, destroyed = defaultdict(int), defaultdict(int)
    knocked, seasons, outcome = [], [], None
    for move in moves:
        kind = type(move)
        if kind is Season:
            seats, cities = move.seats, dict(move.cities)
            lines = {n: [] for n in seats}
            lost = defaultdict(int)
            nxt, plays = None, 0
            continue
        if kind is Reveal:
            nxt = move.card
            continue
        if kind is Play:
            plays += 1
            continue
        if kind not in (Conquer, Retake, Regroup):
            continue
        last = plays == 60
        take = None if last else nxt
        w = move.player
        mine = cities[w]
        ended_by_tyrant = None
        if kind is Regroup:
            if move.discard:
                lines[w].remove(move.discard)
            cities[w], nxt = take, None
        elif kind is Retake:
            v = move.victim
            if move.discard:
                lines[v].remove(move.discard)
            if variant == "coloured-cities":
                cities[w], cities[v] = cities[v], mine
            else:
                cities[w], cities[v], nxt = cities[v], take, None
        else:
            v = move.victim
            theirs = cities[v]
            if variant == "basic" or (variant == "coloured-cities" and (theirs.colour or mine.colour) == "red"):
                lines[w].append(theirs)
            else:
                if not v.startswith("@") and v not in knocked:
                    lost[v] += 1
                    if destroyed[v] + lost[v] == 5:
                        knocked.append(v)
                        left = [p for p in setup.players if p not in knocked]
                        if len(left) == 1:
                            ended_by_tyrant = left[0]
            if variant == "coloured-cities" and not move.keep:
                cities[v], cities[w] = mine, take
            else:
                cities[v] = take
            nxt = None
        if last or ended_by_tyrant:
            points = {n: (0 if variant == "lonely-tyrant" else len(lines[n])) for n in seats}
            seasons.append({"points": points, "destroyed": {n: lost[n] for n in seats}})
            for n in seats:
                totals[n] += points[n]
                destroyed[n] += lost[n]
            if ended_by_tyrant:
                outcome = (ended_by_tyrant, False, "lonely-tyrant")
            elif variant != "lonely-tyrant":
                still = [p for p in setup.players if p not in knocked]
                best = max(totals[p] for p in still)
                if best >= setup.target:
                    top = [p for p in still if totals[p] == best]
                    outcome = (top[0], False, "one-true-emperor") if len(top) == 1 else (None, True, "one-true-emperor")
    return seasons, dict(totals), dict(destroyed), knocked, outcome


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.integers(1, 8), st.sampled_from([0, 1]))
def test_a_random_game_always_ends_with_the_records_c16_to_c20_totals(table, seed, target, level):
    players, variant = table
    setup, moves = simulate(list(players), variant, seed, target, level)
    state = replay(setup, moves)
    summary = GAME.summary(state)
    seasons, totals, destroyed, knocked, outcome = bookkeeping(setup, moves)
    assert summary["seasons"] == seasons
    assert {n: t for n, t in summary["totals"].items() if t} == {n: t for n, t in totals.items() if t}
    assert {n: t for n, t in summary["destroyed"].items() if t} == {n: t for n, t in destroyed.items() if t}
    assert summary["knocked_out"] == knocked
    assert (summary["winner"], summary["draw"], summary["how"]) == outcome and summary["finished"]
    assert type(moves[-1]) in (Conquer, Retake, Regroup)  # the act that ends the game is the last event


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_c6_every_battle_card_once_in_actions_7_to_15_and_24_distinct_in_1_to_6(table, seed):
    players, variant = table
    setup, moves = simulate(list(players), variant, seed)
    state = new(players, variant)
    season = []
    for move in moves:
        state.push(move)
        if type(move) is Play:
            season.append(move.card)
        if type(move) is Season:
            season = []
        if state.phase is Phase.SEASON or (state.is_game_over() and len(season) == 60):
            assert len(set(season[:24])) == 24 and sorted(season[24:]) == sorted(BATTLE_DECK)


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.sampled_from([None, 0, 1]))
def test_a_record_kept_from_one_seat_replays_and_completion_fills_only_true_cards(table, seed, seat):
    players, variant = table
    setup, moves = simulate(list(players), variant, seed)
    viewer = None if seat is None else players[seat]
    seen = censor(moves, viewer)
    assert replay(setup, seen).outcome() == replay(setup, moves).outcome()
    completed = GAME.codec.complete(seen)
    replay(setup, completed)
    for full, partial, filled in zip(moves, seen, completed):
        assert type(full) is type(filled)
        if type(full) is Play and filled.drew is not None:
            assert filled.drew is full.drew
        if type(full) is Season:
            for name, cards in filled.hands:
                truth = dict(full.hands)[name]
                assert all(x in truth for x in cards if x.__class__.__name__ == "Card")
            for name, cards in filled.piles:
                truth = dict(full.piles)[name]
                assert all(x is y for x, y in zip(cards, truth) if x.__class__.__name__ == "Card")
    # a season played out shows every dummy's pile and each player's first card of the hand
    done = [k for k, m in enumerate(completed) if type(m) is Season][:-1]
    for k in done:
        assert all(len(cards) == 9 and all(x.__class__.__name__ == "Card" for x in cards) for _, cards in completed[k].piles)
        assert len(completed[k].piles) == sum(1 for n in completed[k].seats if n.startswith("@"))


def test_an_illegal_move_leaves_the_state_unchanged():
    rng = random.Random(4)
    state = new(("ann", "bob", "cy"), "coloured-cities")
    for _ in walk(state, rng, steps=120):
        before = snapshot(state)
        for bad in (Play("ann", BATTLE_DECK[0], BATTLE_DECK[1]), Regroup("bob"), Conquer("cy", "ann", keep=True), Reveal(BATTLE_DECK[2])):
            try:
                state.push(bad)
            except (IllegalMoveError, ValueError):
                assert snapshot(state) == before
            else:
                state.pop()
                assert snapshot(state) == before


@FAST
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_a_random_game_through_the_protocol_alone_reaches_its_end(table, seed):
    """OpenSpiel's random simulation: the table's moves by chance, the others from the legal
    moves, until the game is over; the state says who is to move all the way."""
    players, variant = table
    rng = random.Random(seed)
    state = GAME.new_state(GAME.make_setup(list(players), variant=variant))
    steps = 0
    while not state.is_game_over():
        assert state.outcome() is None
        if state.to_move is None:
            assert state.phase in (Phase.SEASON, Phase.REVEAL, Phase.RESHUFFLE) and not list(state.legal_moves)
            state.push(GAME.chance_move(state, rng))
        else:
            moves = list(state.legal_moves)
            assert moves and state.legal_moves.count() == len(moves) and bool(state.legal_moves)
            assert {state.decision(m).player for m in moves} == {state.to_move}
            state.push(rng.choice(moves))
        steps += 1
        assert steps < 20000
    assert state.to_move is None and not state.legal_moves and state.outcome() is not None
    assert GAME.summary(state)["finished"] is True
