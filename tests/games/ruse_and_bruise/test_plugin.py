"""The plug-in object: the registry finding it, the members of the contract, the options and
the set-up (the values table: the table's own, the example only by name, B4), the table's moves
drawn by chance, the scores in JSON and in words, moves in a few words, the simulated players,
and the docstrings' examples."""

from __future__ import annotations

import doctest
import random

import pytest

import companion.games.ruse_and_bruise as plugin
import companion.games.ruse_and_bruise.table as table_spec
from companion.contract import Game, registry
from companion.contract.errors import IllegalMoveError
from companion.games.ruse_and_bruise import GAME, cards, distribution, game, moves, policies, query, record, scoring, setup, values, whereabouts
from companion.games.ruse_and_bruise.policies import simulate
from companion.games.ruse_and_bruise.table_values import NoValuesTable, save_values
from companion.games.ruse_and_bruise.values import EXAMPLE, ValuesTable, ValuesTableError
from companion.records.format import load_game
from tests.games.ruse_and_bruise.helpers import place, play, rnd, table, turn


def test_the_registry_finds_the_game_by_name_and_record_format() -> None:
    assert registry.game("ruse-and-bruise") is GAME and registry.game_for_format("rab-record/1") is GAME
    assert Game in type(GAME).__mro__
    assert (GAME.name, GAME.title, GAME.rulings, GAME.min_players, GAME.max_players) == ("ruse-and-bruise", "Ruse and Bruise", "B1-B29", 2, 6)
    # Its coach, keyboard dashboard, club part, table and tracking are its own.
    from companion.games.ruse_and_bruise.club.part import PART
    from companion.games.ruse_and_bruise.coach.model import MODEL
    from companion.games.ruse_and_bruise.dashboard.kit import RabKit

    assert GAME.coach() is MODEL and isinstance(GAME.dashboard(), RabKit)
    assert GAME.club() is PART
    # Its table and its tracking: tests/games/ruse_and_bruise/tracking/.
    assert GAME.table.game == GAME.name and GAME.tracking().facts == ()
    assert {c.name for c in GAME.commands()} == {"cards", "legal", "simulate"}


def test_the_values_option_the_tables_own_or_the_example_by_name() -> None:
    assert [(o.name, o.kind, o.default, tuple(o.choices)) for o in GAME.options] == [("values", "choice", "table", ("table", "example"))]
    # Asked for the table's own when it has none: refused, saying how to enter it (B4).
    with pytest.raises(NoValuesTable, match=r"this table has no values table yet .* rop cards values --game ruse-and-bruise"):
        GAME.make_setup(["ann", "bob"], values="table")
    assert GAME.make_setup(["ann", "bob"], values="example").values == EXAMPLE
    # Left out: the table's own, or none yet, and such a game cannot begin (B4).
    assert GAME.make_setup(["ann", "bob"]).values is None
    own = ValuesTable.from_mapping({**EXAMPLE.to_json(), "BEGGAR": 0})
    save_values(own)
    assert GAME.make_setup(["ann", "bob"]).values == own == GAME.make_setup(["ann", "bob"], values="table").values
    assert GAME.make_setup(["ann", "bob"], values=EXAMPLE.text()).values == EXAMPLE
    with pytest.raises(ValuesTableError, match="EXPL is on the Wizard's list"):
        GAME.make_setup(["ann", "bob"], values={**EXAMPLE.to_json(), "EXPL": 3})
    with pytest.raises(ValueError, match="unknown option 'teams'"):
        GAME.make_setup(["ann", "bob"], teams=2)


def test_the_set_up_is_written_in_the_record_and_read_back() -> None:
    s = GAME.make_setup(["ann", "bob", "cy"], values="example", colours={"ann": "green", "bob": "black", "cy": "red"}, hands={"bob": ["KING", None, "WIZ"]})
    event = GAME.codec.setup_event(s)
    assert event == {
        "event": "game",
        "format": "rab-record/1",
        "players": ["ann", "bob", "cy"],
        "colours": {"ann": "green", "bob": "black", "cy": "red"},
        "values": EXAMPLE.to_json(),
        "goals": None,
        "hands": {"ann": None, "bob": ["KING", None, "WIZ"], "cy": None},
    }
    assert GAME.codec.read_setup(event) == s and s.game is GAME


def test_the_table_moves_drawn_by_chance_are_legal() -> None:
    rng = random.Random(4)
    for seed in range(3):
        state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"], values="example"))
        while not state.is_game_over():
            if state.to_move is None:
                move = GAME.chance_move(state, rng)
                assert state.is_legal(move)
            else:
                move = rng.choice(list(state.legal_moves))
            state.push(move)
        del seed


def test_scores_in_words_moves_in_a_few_words_and_what_they_did() -> None:
    state = play(table(2, {"ann": ["EXPL", "KING", "WIZ"]}), rnd("music-3a", "trade-1"))
    effects = state.apply(place("ann", 1, "EXPL", "QUEEN"))
    assert GAME.narrate(state, place("ann", 1, "EXPL", "QUEEN"), effects) == "ann places EXPL in column 1 and draws QUEEN"
    effects = state.apply(place("bob", 2, None))
    assert GAME.narrate(state, place("bob", 2, None), effects) == "bob places a card face down in column 2; column 2 is complete (1 of 1 cards, B16)"
    play(state, place("ann", 1, "KING"))
    effects = state.apply(turn(1, "EXPL"))
    assert GAME.narrate(state, turn(1, "EXPL"), effects) == "EXPL is turned over in column 1; ann's Explorer was turned over in column 1: he moves to column 2 (B11)"
    assert GAME.describe(rnd("music-1", "trade-1", drew={"ann": ["KING", None]})) == "a round begins: music-1, trade-1; ann draws KING, a card"
    assert state.view("ann").colour_of("bob") == "white"
    lines = GAME.score_lines(state)
    assert lines[0] == "ann (blue), bob (white); values " + EXAMPLE.text()
    assert lines[-1] == "Not finished: round 1, ann's Explorer was turned over in column 1: he moves to column 2 (B11)"
    finished = load_game(GAME.samples()[0].path)
    words = GAME.score_lines(finished)
    assert words[1].startswith("Round 1: ") and words[-1].startswith("Result: ")
    period = GAME.period_json(finished, finished.results[-1])
    assert period["kind"] == "round" and period["round"] == 6 and len(period["columns"]) == 2 and period["totals"] == finished.totals


def test_the_random_and_rule_of_thumb_players_play_whole_games() -> None:
    for level in ("random", "rule-of-thumb"):
        for n in (2, 4, 6):
            s, ms = simulate(["ann", "bob", "cy", "dee", "eve", "fay"][:n], EXAMPLE, 5, level)
            state = GAME.new_state(s)
            for m in ms:
                state.push(m)
            assert state.is_game_over()


def test_the_rule_of_thumb_player_wins_more_than_the_random_one() -> None:
    from companion.games.ruse_and_bruise.game import RabState
    from companion.games.ruse_and_bruise.policies import RandomPlayer, RuleOfThumbPlayer, deal, play_out

    wins = 0
    games = 30
    for seed in range(games):
        rng = random.Random(seed)
        s = deal(["ann", "bob"], EXAMPLE, rng)
        state = RabState(s, keep_history=False)
        play_out(state, [RuleOfThumbPlayer(), RandomPlayer()], rng)
        outcome = state.outcome()
        assert outcome is not None
        wins += outcome.winner == "ann"
    assert wins > games * 0.6


def test_a_game_without_a_values_table_says_so_and_draws_no_move() -> None:
    state = GAME.new_state(GAME.make_setup(["ann", "bob"]))
    with pytest.raises(ValueError, match=r"the table has no move: this game has no values table \(B4\)"):
        GAME.chance_move(state, random.Random(1))
    with pytest.raises(IllegalMoveError, match="B4"):
        state.push(rnd("music-1", "trade-1"))


@pytest.mark.parametrize("module", [cards, values, setup, moves, whereabouts, distribution, scoring, game, record, query, policies, table_spec, plugin], ids=lambda m: m.__name__)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
