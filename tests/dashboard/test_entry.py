"""Typed entries of manual play (companion.games.rule_of_power.dashboard.entry)."""

from __future__ import annotations

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.dashboard.entry import (
    EntryChoice,
    EntryCommand,
    EntryError,
    EntryMove,
    parse_entry,
    resolve_card,
)
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, NewRound, Pass, Play


def _game() -> GameState:
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("bob", {"ann": ["F001", "F002", "F003", "F004", "F005", "F006", "F007"]}))
    game.push(Deal.make({"ann": ["W016", "W012", "W001"], "bob": ["W027", "W018", "W040"]}, ["W002", "W014", "W026", "W035"]))
    return game


@pytest.mark.parametrize(
    "text, card_id",
    [("W007", "W007"), ("w7", "W007"), ("7p", "W007"), ("10M", "W020"), ("6e", "W026"), ("thief", "F006"), (" f3 ", "F003")],
)
def test_resolve_card_forms(text: str, card_id: str) -> None:
    assert resolve_card(text) is Card.from_id(card_id)


@pytest.mark.parametrize("text", ["W099", "14P", "7x", "dragon", ""])
def test_resolve_card_rejects_with_a_message(text: str) -> None:
    with pytest.raises(EntryError) as info:
        resolve_card(text)
    assert str(info.value)


def test_a_card_with_one_capture_is_complete() -> None:
    game = _game()
    # ann's 6 of Men: the 6 of Elves lies in the centre, the single card must be taken (R4).
    entry = parse_entry("6m", game)
    assert entry == EntryMove(Play.from_ids("ann", "W016", ["W026"]))


def test_a_card_with_several_captures_asks() -> None:
    game = _game()
    game.push(Play.from_ids("ann", "W001"))  # to the centre: now 1, 2, 4, 6, 5
    entry = parse_entry("w027", game)  # bob's 7 of Elves: 2+5, 1+6, 1+2+4
    assert isinstance(entry, EntryChoice)
    captures = sorted(sorted(c.id for c in m.capture) for m in entry.moves)
    assert captures == [["W001", "W002", "W014"], ["W001", "W026"], ["W002", "W035"]]


def test_explicit_capture_is_passed_to_the_rules_unchanged() -> None:
    game = _game()
    entry = parse_entry("W016 x 2p 4m", game)
    assert entry == EntryMove(Play.from_ids("ann", "W016", ["W002", "W014"]))
    with pytest.raises(Exception) as info:
        game.check(entry.move)
    assert "R4" in str(info.value)


def test_commands_and_fate_words() -> None:
    game = _game()
    assert parse_entry("undo", game) == EntryCommand("undo")
    assert parse_entry("deal", game) == EntryCommand("next")
    assert parse_entry("?", game) == EntryCommand("help")
    assert parse_entry("fate", game) == EntryMove(DrawFate("ann"))
    assert parse_entry("pass", game) == EntryMove(Pass("ann"))


def test_entries_out_of_phase_say_what_is_due() -> None:
    game = GameState(GameSetup(("ann", "bob")))
    with pytest.raises(EntryError, match="new round"):
        parse_entry("W001", game)


def test_thief_takes_the_top_of_the_named_stack() -> None:
    game = _game()
    game.push(Play.from_ids("ann", "W016", ["W026"]))  # ann's stack: 6E, then 6M on top (R23)
    entry = parse_entry("thief ann", game)
    assert isinstance(entry, EntryMove)
    assert entry.move == Play("bob", Card.from_id("F006"), target="ann", stolen=Card.from_id("W016"))
    with pytest.raises(EntryError, match="no player named"):
        parse_entry("thief zed", game)


def _dragon_at_bob() -> GameState:
    """bob holds the Fire Dragon (7P); the centre offers it two captures, 1E+6M and 3D+4E."""
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("bob", {}))
    game.push(Deal.make({"ann": ["W012", "W015", "W009"], "bob": ["W007", "W018", "W040"]}, ["W021", "W016", "W033", "W024"]))
    return game


def test_a_card_in_another_hand_is_refused_before_any_choice() -> None:
    """Every check that does not depend on the choice comes first: the Fire Dragon typed on
    ann's turn has two captures, and neither can make it ann's card (R17)."""
    game = _dragon_at_bob()
    assert game.turn == "ann" and len(game.capture_options(Card.parse("7p"))) == 2
    entry = parse_entry("7p", game)
    assert isinstance(entry, EntryMove)
    with pytest.raises(Exception, match="R17") as info:
        game.check(entry.move)
    assert "not in ann's hand" in str(info.value) and "bob's hand" in str(info.value)


def test_the_choice_offers_only_what_the_game_accepts() -> None:
    game = _dragon_at_bob()
    game.push(Play.from_ids("ann", "W012"))  # the 2 of Men to the centre: bob to move
    entry = parse_entry("7p", game)
    assert isinstance(entry, EntryChoice)
    assert len(entry.moves) == len(game.capture_options(Card.parse("7p"))) > 1
    assert all(game.is_legal(m) for m in entry.moves)
