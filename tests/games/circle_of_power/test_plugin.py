"""The plug-in object: every member of the companion's game protocol, the registry finding it,
the options, the set-up, the table's chance moves, the scores in JSON and in words, the
descriptions of moves, and the docstrings' examples."""

from __future__ import annotations

import doctest
import inspect
import random

import pytest

import companion.games.circle_of_power as plugin
import companion.contract as protocol
from companion.games.circle_of_power import GAME, cards, game, moves, policies, query, record, rules, scoring, setup
from companion.games.circle_of_power.moves import Conquer, Play, Regroup, Reshuffle, Retake, Reveal
from companion.games.circle_of_power.policies import simulate
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract.registry import game as registered

from .helpers import c, replay


def members(proto):
    names = {n for n in vars(proto) if not n.startswith("_")}
    return names | set(getattr(proto, "__annotations__", {}))


@pytest.mark.parametrize(
    "proto, obj",
    [
        (protocol.Game, GAME),
        (protocol.RecordCodec, GAME.codec),
        (protocol.Catalogue, GAME.cards),
        (protocol.State, GAME.new_state(GAME.make_setup(["ann", "bob"]))),
        (protocol.Setup, GAME.make_setup(["ann", "bob"])),
        (protocol.Card, c("10H")),
        (protocol.Effects, GAME.new_state(GAME.make_setup(["ann", "bob"])).copy()._effects(
            GAME.chance_move(GAME.new_state(GAME.make_setup(["ann", "bob"])), random.Random(1)))),
    ],
    ids=["Game", "RecordCodec", "Catalogue", "State", "Setup", "Card", "Effects"],
)
def test_every_member_of_the_protocol_is_there(proto, obj):
    missing = sorted(n for n in members(proto) if not hasattr(obj, n))
    assert not missing
    for name in members(proto):
        spec = getattr(proto, name, None)
        if inspect.isfunction(spec):
            want = [p for p in inspect.signature(spec).parameters if p != "self"]
            have = inspect.signature(getattr(obj, name)).parameters
            assert all(p in have for p in want), (name, want, list(have))


def test_the_registry_finds_the_game_by_name_and_record_format():
    assert registered("circle-of-power") is GAME and GAME.codec.format == "cop-record/1"
    assert (GAME.name, GAME.title, GAME.rulings, GAME.min_players, GAME.max_players) == ("circle-of-power", "Circle of Power", "C1-C20", 2, 4)
    assert GAME.make_setup(["ann", "bob"]).game is GAME and GAME.new_state(GAME.make_setup(["ann", "bob"])).game is GAME


def test_the_options_and_the_set_up():
    variant, target = GAME.options
    assert (variant.name, variant.kind, variant.default, tuple(variant.choices)) == ("variant", "choice", "basic", ("basic", "lonely-tyrant", "coloured-cities"))
    assert (target.name, target.kind, target.default, target.low) == ("target", "int", 6, 1)
    assert variant.read("Lonely-Tyrant") == "lonely-tyrant" and target.read("9") == 9
    made = GAME.make_setup(("ann", "bob", "cy"), variant="coloured-cities", target=8)
    assert (made.players, made.variant, made.target) == (("ann", "bob", "cy"), "coloured-cities", 8)
    with pytest.raises(ValueError, match="unknown option .teams.: this game.s options are variant, target"):
        GAME.make_setup(["ann", "bob"], teams=2)
    with pytest.raises(IllegalMoveError, match="C4"):
        GAME.make_setup(["ann"])
    with pytest.raises(InvalidMoveError, match="may not hold"):
        GAME.make_setup(["ann=1", "bob"])


def test_the_table_moves_drawn_by_chance_are_legal_and_the_others_have_none():
    rng = random.Random(5)
    state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
    kinds = set()
    while not state.is_game_over() and state.season_number < 2:
        if state.to_move is None:
            move = GAME.chance_move(state, rng)
            assert state.is_legal(move) and move in state.legal_moves
            kinds.add(type(move).__name__)
        else:
            move = rng.choice(list(state.legal_moves))
            with pytest.raises(ValueError, match="the table has no move now"):
                GAME.chance_move(state, rng)
        state.push(move)
    assert kinds == {"Season", "Reveal", "Reshuffle"}


def test_the_scores_in_words():
    setup, moves_ = simulate(["ann", "bob", "cy"], "basic", 4)
    state = replay(setup, moves_)
    lines = GAME.score_lines(state)
    first = state.results[0]
    assert lines[0] == "ann, bob, cy; basic, target 6"
    assert lines[1].startswith(f"Season 1 (dealt by {first.dealer}): ")
    assert any(line.startswith("Totals: ann ") for line in lines)
    assert lines[-1].startswith("Result: ") and ("One True Emperor" in lines[-1] or "a draw" in lines[-1])
    unfinished = replay(setup, moves_[:100])
    assert GAME.score_lines(unfinished)[-1].startswith("Not finished: season 2")


def test_moves_in_a_few_words():
    assert GAME.describe(Play("ann", c("9H"), c("3H"))) == "ann plays 9H and draws 3H"
    assert GAME.describe(Play("@1", c("7D"))) == "@1 plays 7D"
    assert GAME.describe(Conquer("ann", "bob", True)) == "ann conquers bob, keeping their city"
    assert GAME.describe(Retake("cy", "ann", c("QS"))) == "cy retakes ann's city, discarding QS"
    assert GAME.describe(Regroup("bob", c("JD"))) == "bob regroups, losing JD to rebellion"
    assert GAME.describe(Reveal(c("JD"))) == "JD is turned up"
    assert GAME.describe(Reshuffle()) == "the battle deck is reshuffled"


def test_the_random_and_rule_of_thumb_players_play_whole_games():
    for level in (0, 1):
        for variant in ("basic", "lonely-tyrant", "coloured-cities"):
            setup_, moves_ = simulate(["ann", "bob", "cy", "dee"], variant, 11, level=level)
            assert replay(setup_, moves_).is_game_over()


def test_the_rule_of_thumb_player_wins_more_than_the_random_one():
    wins = 0
    games = 40
    for seed in range(games):
        setup_, moves_ = simulate(["ann", "bob"], "basic", seed, level=[1, 0])
        wins += replay(setup_, moves_).outcome().winner == "ann"
    assert wins > games * 0.6


def test_the_rule_of_thumb_player_plays_the_lowest_card_that_wins_when_it_can_attack():
    from .helpers import table

    hands = {"ann": ["5H", "7C", "10S"], "bob": ["2D", "9S", "4S"], "cy": ["3C", "8H", "6S"], "dee": ["2S", "9H", "10D"]}
    state = table({"ann": "QH", "bob": "JS", "cy": "KD", "dee": "AC"}, hands=hands)
    state.push(Play("ann", c("7C"), c("2H")))  # plain 7
    # bob's JS may take dee's AC: bob plays the lowest card beating 7C: 2D is plain, 4S is trump
    assert policies.RuleOfThumbPlayer().choose(state, random.Random(0)) == Play("bob", c("4S"))
    state.push(Play("bob", c("4S"), c("3H")))
    # cy's KD may take ann's QH, and cy holds no card beating the trump 4S: the lowest, 3C
    assert policies.RuleOfThumbPlayer().choose(state, random.Random(0)) == Play("cy", c("3C"))


@pytest.mark.parametrize("module", [cards, moves, rules, game, scoring, setup, record, query, policies, plugin], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
