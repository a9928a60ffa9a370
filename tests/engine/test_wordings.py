"""What a player reads: the Pride of Dragons between several sides (R11) and drawing a Fate
card in a game without Fate decks (R3, R17)."""

from __future__ import annotations

import pytest

from companion.games.rule_of_power.engine import Deal, GameSetup, GameState, NewRound
from companion.games.rule_of_power.engine.cards import parse_cards
from companion.games.rule_of_power.engine.game import IllegalMoveError
from companion.games.rule_of_power.engine.moves import DrawFate
from companion.games.rule_of_power.engine.scoring import score_round


def test_one_dragon_is_singular():
    score = score_round({"ann": parse_cards("7m"), "bob": parse_cards("6m")})
    assert "ann, 1 Dragon against 0 (bob)" in score.pride.explain()


def test_every_runner_up_of_a_three_side_tie_break_is_named():
    score = score_round({"ann": parse_cards("7m,6m"), "bob": parse_cards("7e,5m"), "cy": parse_cards("7d,5e")})
    text = score.pride.explain()
    assert "ann; level with bob and cy on the 7s, ahead on the 6s (1 against 0)" in text
    score = score_round({"ann": parse_cards("7m,7e"), "bob": parse_cards("7d"), "cy": parse_cards("7p")})
    assert "2 Dragons against 1 each (bob and cy)" in score.pride.explain()


def test_drawing_fate_without_fate_decks_says_the_game_has_none():
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound("bob"))
    game.push(Deal.make({"ann": ["W012", "W033", "W005"], "bob": ["W016", "W021", "W040"]}, ["W004", "W024", "W038", "W009"]))
    with pytest.raises(IllegalMoveError) as err:
        game.check(DrawFate("ann"))
    assert "played without Fate decks" in str(err.value) and "ann's Fate deck is empty" not in str(err.value)


def test_clearing_the_centre_in_the_first_deal_is_said_to_be_no_sweep():
    from companion.games.rule_of_power.dashboard.commentary import describe_move
    from companion.games.rule_of_power.engine.moves import Play

    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound("bob"))
    game.push(Deal.make({"ann": ["W020", "W033", "W005"], "bob": ["W017", "W021", "W040"]}, ["W002", "W014", "W013", "W001"]))
    move = Play.from_ids("ann", "W020", ["W002", "W014", "W013", "W001"])
    effects = game.apply(move)
    assert not game.centre and not game.sweeps("ann") and not effects.sweep
    assert "no sweep in the first deal (R7)" in describe_move(game, move, effects)
