"""What the dashboard says: the points a move changes (teaching mode), illegal moves in
plain words, the settlement's verdict (R14)."""

from __future__ import annotations

from companion.games.rule_of_power.dashboard.commentary import explain_illegal, move_effect
from companion.games.rule_of_power.dashboard.screens.settlement import settlement_steps, verdict
from companion.games.rule_of_power.dashboard.widgets.scores import rule_of_power_alerts
from companion.games.rule_of_power.engine.game import GameSetup, GameState, IllegalMoveError, Phase
from companion.games.rule_of_power.engine.moves import Play
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, simulate_game


def _sweeping_position() -> tuple[GameState, Play]:
    """A position of a random game where a legal play clears the centre (a sweep, R7)."""
    setup = GameSetup(("ann", "bob"))
    for seed in range(200):
        table = VirtualTable(setup, seed=seed)
        game = GameState(setup)
        while game.phase is not Phase.OVER and game.round_number < 2:
            if game.phase is Phase.TURN and 1 < game.deal_number and not game.is_last_deal:
                for move in game.legal_moves:
                    if isinstance(move, Play) and move.capture and len(move.capture) == len(game.centre):
                        return game, move
            game.push(table.next_move(game))
    raise AssertionError("no sweep found")


def test_a_sweep_is_worth_a_point_in_teaching_mode() -> None:
    game, move = _sweeping_position()
    before = list(game.move_stack)
    effect = move_effect(game, move)
    assert "+1 sweep" in effect.gains
    assert effect.delta >= 1
    assert list(game.move_stack) == before  # the game is left as it was


def test_illegal_moves_come_with_the_rule_in_plain_words() -> None:
    rule, text = explain_illegal(IllegalMoveError("R4", "the 6 must take the 6 of Elves"))
    assert rule == "R4"
    assert text.startswith("R4: the 6 must take") and "must capture" in text


def test_the_verdict_follows_r14() -> None:
    setup = GameSetup(("ann", "bob"))
    game, _ = simulate_game(setup, seed=4)
    outcome = game.outcome()
    assert outcome is not None
    last = game.results[-1]
    said = verdict(setup, last, outcome, None)
    assert outcome.winner in said and ("R14" in said or "R13" in said)
    first = game.results[0]
    if len(game.results) > 1:
        early = verdict(setup, first, None, "ann")
        assert "another round" in early and "ann deals" in early
    steps = settlement_steps(setup, last, outcome, None)
    titles = [t for t, _ in steps]
    assert titles[1].startswith("Most World cards") and titles[-1] == "Verdict"
    assert any(t.startswith("Pride of Dragons") for t in titles)


def test_rule_of_power_watch() -> None:
    from companion.games.rule_of_power.engine.cards import parse_cards
    from companion.games.rule_of_power.engine.scoring import score_round

    setup = GameSetup(("ann", "bob"))
    game = GameState(setup)
    score = score_round({"ann": parse_cards("W001,W002,W003,W004,W005,W006"), "bob": parse_cards("W011")})
    alerts = rule_of_power_alerts(game, score)
    assert alerts and "ann holds 6 of 10" in alerts[0]
    score = score_round({"ann": parse_cards("W001,W002,W003,W004,W005,W006"), "bob": parse_cards("W010")})
    assert rule_of_power_alerts(game, score) == []


def test_a_swap_of_face_down_cards_is_labelled() -> None:
    from companion.games.rule_of_power.engine.cards import Card
    from companion.games.rule_of_power.dashboard.widgets.moves import move_label
    from companion.games.rule_of_power.engine.moves import UNSEEN

    swap = Play("ann", Card.from_id("F005"), target="bob", given=(UNSEEN, UNSEEN), received=(UNSEEN, UNSEEN))
    assert move_label(swap).plain == "on bob gives 2 face down and gets 2 face down"
    swap = Play("ann", Card.from_id("F005"), target="bob", given=(UNSEEN, UNSEEN), received=(Card.from_id("W007"), UNSEEN))
    assert move_label(swap).plain == "on bob gives 2 face down and gets  7P!  +1 face down"


def test_each_mirror_swap_names_the_cards_given() -> None:
    """R22: with three World cards against two, the player chooses which two to give; each
    choice is a move of its own, and teaching mode's list reads each differently."""
    from companion.games.rule_of_power.engine.moves import Deal, DrawFate, NewRound
    from companion.games.rule_of_power.dashboard.widgets.moves import move_label

    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("ann", {"bob": ["F005", "F001", "F002", "F003", "F004", "F006", "F007"]}))
    game.push(Deal.make({"ann": ["W016", "W012", "W001"], "bob": ["W027", "W018", "W040"]}, ["W002", "W014", "W026", "W035"]))
    game.push(next(m for m in game.legal_moves if isinstance(m, DrawFate)))  # bob draws Mirror Swap
    game.push(next(m for m in game.legal_moves if isinstance(m, Play) and not m.capture))  # ann: 2 left
    swaps = [m for m in game.legal_moves if isinstance(m, Play) and m.card.id == "F005"]
    labels = [" ".join(move_label(m).plain.split()) for m in swaps]
    assert len(swaps) == 3 and len(set(labels)) == 3, labels
    for move, label in zip(swaps, labels):
        gives, _, gets = label.removeprefix("on ann gives ").partition(" and gets ")
        assert [c.rstrip("*!^") for c in gives.split()] == [c.short for c in move.given], label  # type: ignore[union-attr]
        assert [c.rstrip("*!^") for c in gets.split()] == [c.short for c in move.received], label  # type: ignore[union-attr]
