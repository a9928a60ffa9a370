"""Invariants of the engine, checked on games hypothesis plays (random walks through the
legal moves, with random deals and Fate decks)."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.rule_of_power.engine.cards import world_deck
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

SEATINGS = [(2, 0), (3, 0), (4, 0), (4, 2), (5, 0), (6, 0), (6, 2), (6, 3)]


def snapshot(game: GameState):
    """Everything observable about a state, to compare before and after push/pop."""
    p = game.players
    return (
        game.phase, game.turn, game.dealer, game.round_number, game.deal_number, game.is_last_deal,
        game.centre, game.deck_count, game.discards, game.in_play, game.last_capturer, game.unlocated,
        tuple(game.hand(x) for x in p), tuple(game.fate_hand(x) for x in p), tuple(game.fate_deck(x) for x in p),
        tuple(game.stack(x) for x in p), tuple(game.sweeps(x) for x in p), tuple(game.has_drawn_fate(x) for x in p),
        tuple(game.unseen_in_hand(x) for x in p), game.results, tuple(game.totals.items()), game.outcome(),
    )


def check_places(game: GameState, fate_sets):
    """Every World card is in exactly one place; every Fate card is accounted for once."""
    p = game.players
    places = Counter()
    for x in p:
        places.update(game.hand(x))
        places.update(game.stack(x))
    places.update(game.centre)
    places.update(game.discards)
    places.update(c for _, c in game.in_play)
    world = [c for c in places.elements() if c.is_world]
    assert len(world) == len(set(world)), "a World card is in two places"
    deck = set(world_deck(game.setup.expansion))
    assert not set(world) & game.unlocated
    if game.round_number:
        assert set(world) | game.unlocated == deck, "a World card is nowhere"
    assert game.deck_count == len(game.unlocated) - sum(game.unseen_in_hand(x) for x in p)
    fate = Counter(c for c in places.elements() if c.is_fate)
    for x in p:
        fate.update(game.fate_hand(x))
        fate.update(game.fate_deck(x))
    expected = Counter(c for s in fate_sets for c in s)
    if game.round_number:
        assert fate == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEATINGS), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1), st.data())
def test_random_walks_keep_every_invariant(seating, fate, expansion, seed, data):
    setup = make_setup(*seating, expansion=expansion)
    table = VirtualTable(setup, seed=seed, fate=fate)
    game = GameState(setup)
    fate_sets = [table.fate_sets[x] for x in setup.players]
    for _ in range(400):
        if game.is_game_over():
            break
        if game.phase in (Phase.ROUND, Phase.DEAL):
            game.push(table.next_move(game))
            continue
        moves = list(game.legal_moves)
        assert moves, "the player to move always has a legal move (R17)"
        move = data.draw(st.sampled_from(moves), label="move")
        before = snapshot(game)
        game.push(move)  # checked: a legal move never raises
        check_places(game, fate_sets)
        if data.draw(st.booleans(), label="undo"):
            assert game.pop() == move
            assert snapshot(game) == before
            game.push(move)
        if isinstance(move, Play) and move.card.id == "F008" and move.drawn is not None:
            table.deck.remove(move.drawn)  # the virtual deck follows the chosen draw


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SEATINGS), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1), st.sampled_from([11, 16, 21]))
def test_simulated_games_end_with_a_winner_or_go_on_only_on_a_tie(seating, fate, expansion, seed, target):
    """R13, R14: after each round the game ends iff a side holds every Power card, or has
    reached the target with strictly the greatest total."""
    setup = make_setup(*seating, expansion=expansion, target=target)
    game = GameState(setup, keep_history=False)
    table = VirtualTable(setup, seed=seed, fate=fate)
    for _ in table.moves(game):
        if game.phase in (Phase.ROUND, Phase.OVER) and game.results:
            r = game.results[-1]
            best = max(r.totals.values())
            alone = list(r.totals.values()).count(best) == 1
            should_end = r.score.rule_of_power is not None or (best >= target and alone)
            assert game.is_game_over() == should_end
    outcome = game.outcome()
    assert outcome is not None and outcome.winner in setup.sides
    assert sum(len(r.score.captured[s]) for r in game.results[-1:] for s in setup.sides) <= len(world_deck(expansion))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SEATINGS), st.booleans(), st.integers(0, 2**32 - 1))
def test_pop_all_the_way_back(seating, fate, seed):
    """Undoing every move of a round returns to the empty table, and redoing reaches the
    same state."""
    setup = make_setup(*seating)
    game = GameState(setup)
    table = VirtualTable(setup, seed=seed, fate=fate)
    start = snapshot(game)
    moves = []
    while game.round_number < 1 or game.phase in (Phase.DEAL, Phase.TURN):
        move = table.next_move(game)
        game.push(move)
        moves.append(move)
    end = snapshot(game)
    while game.move_stack:
        game.pop()
    assert snapshot(game) == start
    for m in moves:
        game.push(m)
    assert snapshot(game) == end


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(SEATINGS))
def test_a_face_down_game_is_followed_like_the_open_one(seed, seating):
    """The same game with every hand dealt face down (as a camera sees it) is accepted move
    for move and ends with the same scores: no rule needs a hidden card to accept a legal move."""
    setup = make_setup(*seating)
    table = VirtualTable(setup, seed=seed, fate=False)
    open_game = GameState(setup, keep_history=False)
    hidden = GameState(setup, keep_history=False)
    for move in table.moves(open_game):
        if isinstance(move, Deal):
            move = Deal.make({p: [None] * len(cards) for p, cards in move.hands}, move.centre)
        hidden.push(move)
    assert hidden.totals == open_game.totals and hidden.outcome() == open_game.outcome()


def test_new_round_resets_the_table():
    setup = make_setup(2)
    game = GameState(setup)
    table = VirtualTable(setup, seed=5)
    while game.round_number < 2:
        game.push(table.next_move(game))
    assert isinstance(game.move_stack[-1], NewRound)
    assert game.centre == () and all(game.stack(p) == () for p in setup.players)
    assert len(game.unlocated) == 40
