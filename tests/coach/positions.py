"""Positions for the coach's tests, built through the engine's checked moves."""

from __future__ import annotations

from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Deal, Move, NewRound, Play

FULL_DECK = ["F001", "F002", "F003", "F004", "F005", "F006", "F007"]


def first_turn(ann, bob, centre, *, fate=None) -> GameState:
    game = GameState(GameSetup(("ann", "bob")))
    game.push(NewRound.make("bob", fate or {}))
    game.push(Deal.make({"ann": ann, "bob": bob}, centre))
    return game


def ring_blunder() -> tuple[GameSetup, list[Move]]:
    """ann could take all three Power Ring cards with her 6 (Power Master, R12) and takes the
    Temple and the Fire Dragon with a 10 instead."""
    setup = GameSetup(("ann", "bob"))
    moves: list[Move] = [
        NewRound.make("bob"),
        Deal.make({"ann": ["W006", "W040", "W030"], "bob": ["W016", "W021", "W039"]}, ["W001", "W002", "W003", "W007"]),
        Play.from_ids("ann", "W040", ["W003", "W007"]),
    ]
    return setup, moves
