"""Each Fate card's rules in one place (companion.games.rule_of_power.engine.fate): what a move did (its Effects),
details that do not belong to a card, and the fast path for World cards agreeing with the
general path."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.rule_of_power.engine.cards import DARK_DECAY, EXORCIST, MIRROR_SWAP, MYSTIC_CRYSTAL, RENEWAL, THIEF, WARLOCK, Card
from companion.games.rule_of_power.engine.effects import CENTRE, FRONT, HAND, PLAYED, Spent
from companion.games.rule_of_power.engine.fate import FATE_RULES, fate_rule
from companion.games.rule_of_power.engine.game import GameState, IllegalMoveError, Phase
from companion.games.rule_of_power.engine.moves import DETAILS, UNSEEN, DrawFate, InvalidMoveError, Play
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup
from tests.engine.helpers import card, fate_deck, start
from tests.engine.test_properties import SEATINGS, snapshot

HANDS = {"ann": ["W012", "W013", "W005"], "bob": ["W016", "W021", "W040"]}


def fate_game(ann_top=(), bob_top=(), hands=None, centre=("W035", "W038", "W039", "W024"), **kw) -> GameState:
    return start(("ann", "bob"), hands or HANDS, centre, fate={"ann": fate_deck(*ann_top), "bob": fate_deck(*bob_top)}, **kw)


def test_every_fate_card_has_one_rule_with_its_ruling_and_details() -> None:
    assert set(FATE_RULES) == {Card.from_id(f"F00{i}") for i in range(1, 9)}
    for card_, rule in FATE_RULES.items():
        assert rule.card is card_ and rule.ruling in {"R19", "R20", "R21", "R22", "R23", "R24", "R25"}
        assert set(rule.details) <= set(DETAILS), rule
        assert rule.example and rule.summary and Card.parse(rule.example.split()[0]) is card_
    assert fate_rule(THIEF).details == ("target", "stolen")


def test_a_detail_that_does_not_belong_to_the_card_is_an_invalid_move() -> None:
    game = start(hands={"ann": ["W013", "W012", "W005"], "bob": ["W016", "W021", "W040"]}, centre=("W033", "W024", "W038", "W009"))
    stray = Play("ann", card("W013"), (card("W033"),), target="bob", stolen=card("W040"), drawn=card("W001"))
    with pytest.raises(InvalidMoveError, match="takes no 'target'"):
        game.push(stray)
    assert stray not in game.legal_moves
    assert Play("ann", card("W013"), (card("W033"),)) in game.legal_moves
    # A capture given to a card that does not go to the centre is malformed too.
    game = fate_game(("F006",))
    game.push(DrawFate("ann"))
    game.push(Play("bob", card("W016")))
    with pytest.raises(InvalidMoveError, match="captures nothing"):
        game.push(Play("ann", THIEF, (card("W031"),), target="bob"))


def test_one_captured_card_listed_twice_is_refused_by_every_path() -> None:
    """R4: a capture lists centre cards, each once (the fast path must not take it)."""
    game = start(hands={"ann": ["W016", "W012", "W005"], "bob": ["W011", "W021", "W040"]}, centre=("W033", "W024", "W038", "W009"))
    twice = Play("ann", card("W016"), (card("W033"), card("W033")))
    with pytest.raises(IllegalMoveError) as err:
        game.push(twice)
    assert err.value.rule == "R4"
    assert game.centre == tuple(card(c) for c in ("W033", "W024", "W038", "W009")) and len(game.move_stack) == 2


def test_a_capture_naming_a_card_without_a_value_is_refused_by_every_path() -> None:
    """R4: a capture takes centre cards; one naming a Mystic Crystal is refused with the rule
    by push as by the legality check (the fast path must not crash on its missing value)."""
    game = start(hands={"ann": ["W016", "W012", "W005"], "bob": ["W011", "W021", "W040"]}, centre=("W033", "W024", "W038", "W009"))
    stray = Play("ann", card("W005"), (MYSTIC_CRYSTAL, card("W024")))
    assert not game.is_legal(stray)
    with pytest.raises(IllegalMoveError) as err:
        game.push(stray)
    assert err.value.rule == "R4"
    assert len(game.move_stack) == 2


def test_dark_decay_naming_one_opponent_twice_is_refused() -> None:
    """R21: each opponent discards one card, once."""
    game = fate_game(("F004",))
    game.push(DrawFate("ann"))
    game.push(Play("bob", card("W016")))
    twice = Play("ann", DARK_DECAY, discards=(("bob", card("W021")), ("bob", card("W040"))))
    with pytest.raises(IllegalMoveError, match="bob is named twice"):
        game.push(twice)
    effects = game.apply(Play("ann", DARK_DECAY, discards=(("bob", card("W021")),)))
    assert effects.spent == (Spent(DARK_DECAY, PLAYED, "ann"), Spent(card("W021"), HAND, "bob"))
    assert game.hand("bob") == (card("W040"),)


def test_discarded_world_cards_are_not_unseen_in_a_players_view() -> None:
    """A card discarded face up is out of play for the round (R21): nobody counts it unseen."""
    game = fate_game(("F004",))
    game.push(DrawFate("ann"))
    game.push(Play("bob", card("W016")))
    before = game.view("ann").unseen
    assert card("W021") in before
    game.push(Play("ann", DARK_DECAY, discards=(("bob", card("W021")),)))
    for player in ("ann", "bob"):
        assert card("W021") not in game.view(player).unseen
    assert len(game.view("ann").unseen) == len(before) - 1


def test_apply_tells_what_each_fate_card_did() -> None:
    game = fate_game(("F001", "F007"), ("F001",))
    fx = game.apply(DrawFate("ann"))
    assert fx.drew_fate and fx.player == "ann"
    game.push(DrawFate("bob"))
    fx = game.apply(Play("ann", MYSTIC_CRYSTAL))
    assert fx.in_front == (("ann", MYSTIC_CRYSTAL),) and not fx.spent
    fx = game.apply(Play("bob", MYSTIC_CRYSTAL))
    assert fx.spent == (Spent(MYSTIC_CRYSTAL, PLAYED, "bob"), Spent(MYSTIC_CRYSTAL, FRONT, "ann"))
    assert not game.in_play and fate_rule(MYSTIC_CRYSTAL).describe(Play("bob", MYSTIC_CRYSTAL), fx).endswith("(R19)")


def test_the_exorcist_sends_away_the_creature_of_whoever_laid_it_and_a_minion_sends_it_away() -> None:
    hands = {"ann": ["W012", "W013", "W014"], "bob": ["W016", "W021", "W040"]}
    game = fate_game(("F007",), ("F002",), hands=hands, centre=("W035", "W036", "W038", "W039"))
    game.push(DrawFate("ann"))
    game.push(DrawFate("bob"))
    game.push(Play("ann", card("W012")))
    fx = game.apply(Play("bob", WARLOCK))
    assert fx.laid and game.centre_fate == (("bob", WARLOCK),)
    fx = game.apply(Play("ann", EXORCIST))
    assert fx.in_front == (("ann", EXORCIST),) and fx.spent == (Spent(WARLOCK, CENTRE, "bob"),)
    assert fx.spent[0].owner == "bob" and game.centre_fate == ()
    game.push(_first_play(game, "W016"))
    fx = game.apply(_first_play(game, "W014"))
    assert fx.spent == (Spent(EXORCIST, FRONT, "ann"),) and not game.exorcist_in_play


def test_swap_thief_and_renewal_effects() -> None:
    game = fate_game(("F005", "F006", "F008"))
    game.push(DrawFate("ann"))
    game.push(Play("bob", card("W016"), ()))
    swaps = [m for m in game.legal_moves if isinstance(m, Play) and m.card is MIRROR_SWAP]
    assert swaps and all(len(m.given) == len(m.received) == 2 for m in swaps)
    fx = game.apply(swaps[0])
    assert {(g, r) for g, r, _ in fx.exchanged} == {("ann", "bob"), ("bob", "ann")}
    assert len(fx.exchanged) == 4


def test_a_mirror_swap_with_face_down_hands_is_listed_with_unseen_cards() -> None:
    """R22 as a camera sees it: the cards change hands face down."""
    game = start(hands={"ann": [None] * 3, "bob": [None] * 3}, centre=("W035", "W038", "W039", "W024"), fate={"ann": fate_deck("F005"), "bob": fate_deck()})
    game.push(DrawFate("ann"))
    game.push(Play("bob", card("W016")))
    swap = [m for m in game.legal_moves if isinstance(m, Play) and m.card is MIRROR_SWAP]
    assert swap == [Play("ann", MIRROR_SWAP, target="bob", given=(UNSEEN, UNSEEN), received=(UNSEEN, UNSEEN))]
    game.push(swap[0])
    assert game.unseen_in_hand("ann") == 3 and game.unseen_in_hand("bob") == 2


def test_renewal_effect_draws_into_the_hand() -> None:
    game = fate_game(("F008",))
    game.push(DrawFate("ann"))
    game.push(Play("bob", card("W016")))
    fx = game.apply(Play("ann", RENEWAL, drawn=card("W001")))
    assert fx.drawn is card("W001") and card("W001") in game.hand("ann")


def _first_play(game: GameState, card_id: str) -> Play:
    return next(m for m in game.legal_moves if isinstance(m, Play) and m.card.id == card_id)


def _general_push(game: GameState, move: Play) -> None:
    """The general path, bypassing the fast one: check, work out the effects, carry them out."""
    game._check(move)
    effects = game._effects(move)
    game._save(move)
    game._carry_out(move, effects)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEATINGS), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1), st.data())
def test_the_fast_path_for_world_cards_agrees_with_the_general_path(seating, fate, expansion, seed, data) -> None:
    """Every legal World-card play (and illegal variants of it) leaves the same state, and is
    accepted or refused alike, whichever path takes it."""
    setup = make_setup(*seating, expansion=expansion)
    table = VirtualTable(setup, seed=seed, fate=fate)
    game = GameState(setup)
    compared = 0
    for _ in range(300):
        if game.is_game_over():
            break
        if game.phase in (Phase.ROUND, Phase.DEAL):
            game.push(table.next_move(game))
            continue
        moves = list(game.legal_moves)
        move = data.draw(st.sampled_from(moves), label="move")
        world = [m for m in moves if isinstance(m, Play) and m.card.is_world]
        if world:
            probe = data.draw(st.sampled_from(world), label="probe")
            variants = [probe, probe._replace(capture=()), probe._replace(capture=probe.capture + probe.capture[:1])]
            if game.centre:
                variants.append(probe._replace(capture=game.centre[:2]))
            for candidate in variants:
                fast, general = game.copy(), game.copy()
                outcomes = []
                for state, push in ((fast, lambda s, m: s.push(m)), (general, _general_push)):
                    try:
                        push(state, candidate)
                        outcomes.append(None)
                    except (IllegalMoveError, InvalidMoveError) as exc:
                        outcomes.append(type(exc))
                assert outcomes[0] == outcomes[1], candidate
                assert snapshot(fast) == snapshot(general), candidate
                compared += 1
        game.push(move)
        if isinstance(move, Play) and move.card is RENEWAL and move.drawn is not None:
            table.deck.remove(move.drawn)
    assert compared or game.is_game_over()
