"""Rule of Power's view, as the playouts' players read it: the player's decisions name no card
the player cannot see, and the simple players read it alone yet play as they did from the
whole state."""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.games.rule_of_power.coach.policies import decision_key, decisions, greedy_move, points_after, realize, side_margin
from companion.games.rule_of_power.engine.cards import DARK_DECAY, MIRROR_SWAP, RENEWAL, Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import DrawFate, Move, Play
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

from tests.coach.positions import FULL_DECK, first_turn


def turns(seeds: range, players: int = 4, teams: int = 2) -> Iterator[GameState]:
    """Every turn of random games with Fate decks (every Fate card comes up in them)."""
    for seed in seeds:
        setup = make_setup(players, teams)
        table = VirtualTable(setup, seed=seed, fate=True, fate_rate=0.5)
        game = GameState(setup)
        while game.round_number < 2 and not game.is_game_over():
            if game.phase is Phase.TURN:
                yield game
            game.push(table.next_move(game))


def _cards(move: Move) -> set[Card]:
    if type(move) is not Play:
        return set()
    named = {move.card, *move.capture, *move.given, *move.received, move.stolen, move.drawn, *(c for _, c in move.discards)}
    return {c for c in named if isinstance(c, Card)}


def test_a_views_decisions_are_the_players_and_name_no_card_they_cannot_see() -> None:
    kinds: set[Card] = set()
    for game in turns(range(6)):
        me = game.turn
        assert me is not None
        view = game.view(me)
        listed = view.decisions
        # One move per decision, every decision of the legal moves listed.
        assert sorted(map(repr, map(decision_key, listed))) == sorted(map(repr, decisions(game)))
        for move in listed:
            assert not _cards(move) & view.unseen, move
            if type(move) is Play and move.card in (RENEWAL, DARK_DECAY, MIRROR_SWAP):
                kinds.add(move.card)
                assert move == Play(me, move.card, target=move.target)  # nothing chance or others choose
                real = realize(game, move, [], random.Random(0)) if move.card is not RENEWAL else None
                assert real is None or (real in game.legal_moves and decision_key(real) == decision_key(move))
        assert all(game.view(p).decisions == () for p in game.players if p != me)
    assert kinds == {RENEWAL, DARK_DECAY, MIRROR_SWAP}


def test_the_points_after_a_decision_are_the_engines() -> None:
    # What the greedy player reads off the public table is what the engine scores after the move.
    checked = 0
    for game in turns(range(4)):
        view = game.view(game.turn or "")
        for move in view.decisions:
            if type(move) is Play and move.card is RENEWAL:
                continue  # its card comes from the deck: the greedy player counts it as nothing
            trial = game.copy()
            trial.push(realize(trial, move, [], random.Random(1)))
            assert points_after(view, move) == trial.provisional_score().totals(), move
            checked += 1
    assert checked > 500


def _best_on_the_table(game: GameState) -> set[object]:
    """The decisions (their keys) with the best immediate points, each tried on the table itself."""
    me = game.turn or ""

    def value(move: Move) -> tuple[int, int]:
        trial = game.copy()
        trial.push(move)
        return side_margin(trial, me, trial.provisional_score().totals()), len(move.capture) if type(move) is Play else 0

    values = {key: value(options[0]) for key, options in decisions(game).items()}
    best = max(values.values())
    return {key for key, v in values.items() if v == best}


def test_the_greedy_player_plays_from_its_view_as_from_the_table() -> None:
    a = first_turn(["W014", "W019", "W008"], ["W016", "W021", "W039"], ["W031", "W032", "W040", "W030"])
    b = first_turn(["W014", "W019", "W008"], ["W007", "W017", "W027"], ["W031", "W032", "W040", "W030"])
    assert a.view("ann") == b.view("ann")  # two games ann cannot tell apart: the same choice
    assert greedy_move(a.view("ann"), random.Random(3)) == greedy_move(b.view("ann"), random.Random(3))
    chosen = 0
    for game in turns(range(3)):
        if not any(type(m) is Play and m.card in (RENEWAL, DARK_DECAY) for m in game.view(game.turn or "").decisions):
            assert decision_key(greedy_move(game.view(game.turn or ""), random.Random(chosen))) in _best_on_the_table(game)
            chosen += 1
    assert chosen > 100


def test_a_hand_the_companion_never_saw_leaves_a_dark_decay_the_players_to_play() -> None:
    # R21: which cards go is the victims' choice; the companion cannot list them while bob's
    # hand is face down, but ann's decision is hers all the same, in any world of her view.
    fate = ["F004"] + [c for c in FULL_DECK if c != "F004"]
    game = first_turn(["W014", "W019", "W008"], [None, None, None], ["W031", "W032", "W040", "W030"], fate={"ann": fate, "bob": []})
    game.push(DrawFate("ann"))  # the top of her Fate deck: Dark Decay
    game.push(next(Play("bob", c) for c in sorted(game.unlocated) if game.is_legal(Play("bob", c))))
    assert game.turn == "ann" and game.fate_hand("ann") == (DARK_DECAY,) and game.unseen_in_hand("bob") == 2
    assert not any(type(m) is Play and m.card is DARK_DECAY for m in game.legal_moves)
    decay = Play("ann", DARK_DECAY)
    assert decay in game.view("ann").decisions
    world = game.resample("ann", random.Random(1))
    assert world.view("ann") == game.view("ann")
    assert realize(world, decay, [], random.Random(0)) in world.legal_moves
