"""The plug-in object: every member of the contract, the registry finding it, the table's
chance moves, the moves in words and in the event log, a round for ``rop track``, what a
screen, a tracker and a coach read of a state, and the docstrings' examples."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import random
from collections.abc import Callable

import pytest

import companion.contract as contract
import companion.games.love_money_power_death as plugin
from companion.contract.registry import game as registered
from companion.contract.registry import names
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.state import Phase

from .helpers import c, dealt, play_round

THREE = {"ann": ["4Mb", "A3", "1Da"], "bob": ["A2", "3Ma", "2Lb"], "cy": ["2Pa", "5D", "A6"]}


def members(proto: type) -> set[str]:
    found = {n for n in vars(proto) if not n.startswith("_")}
    return found | set(getattr(proto, "__annotations__", {}))


def finished() -> object:
    state = dealt(["ann", "bob"], ["N2L"], hands={"ann": ["1La"], "bob": ["1Ma"]})
    play_round(state, "N2L", {"ann": "1La", "bob": "1Ma"})
    return state.outcome()


def effects() -> object:
    state = dealt()
    return state.apply(Commit("ann", state.hand("ann")[0]))


@pytest.mark.parametrize(
    "proto, make",
    [
        (contract.Game, lambda: GAME),
        (contract.RecordCodec, lambda: GAME.codec),
        (contract.Catalogue, lambda: GAME.cards),
        (contract.State, lambda: GAME.new_state(GAME.make_setup(["ann", "bob"]))),
        (contract.Setup, lambda: GAME.make_setup(["ann", "bob"])),
        (contract.Card, lambda: c("4Mb")),
        (contract.Effects, effects),
        (contract.View, lambda: dealt().view("ann")),
        (contract.Outcome, finished),
    ],
    ids=["Game", "RecordCodec", "Catalogue", "State", "Setup", "Card", "Effects", "View", "Outcome"],
)
def test_every_member_of_the_contract_is_there(proto: type, make: Callable[[], object]) -> None:
    obj = make()
    missing = sorted(n for n in members(proto) if not hasattr(obj, n))
    assert not missing
    for name in members(proto):
        spec = getattr(proto, name, None)
        if inspect.isfunction(spec):
            want = [p for p in inspect.signature(spec).parameters if p != "self"]
            have = inspect.signature(getattr(obj, name)).parameters
            assert all(p in have for p in want), (name, want, list(have))


def test_the_registry_finds_the_game_by_name_and_record_format() -> None:
    assert registered("love-money-power-death") is GAME and "love-money-power-death" in names()
    assert (GAME.name, GAME.title, GAME.rulings, GAME.min_players, GAME.max_players) == ("love-money-power-death", "Love, Money, Power, Death", "L1-L14", 2, 10)
    setup = GAME.make_setup(["ann", "bob"])
    assert setup.game is GAME and GAME.new_state(setup).game is GAME and contract.Game in type(GAME).__mro__
    assert {c.name for c in GAME.commands()} == {"legal", "simulate"}
    # Its parts for the dashboard, the coach, the club and its table's sensors.
    assert (type(GAME.dashboard()).__name__, type(GAME.coach()).__name__, type(GAME.club()).__name__) == ("LmpdDashboard", "LmpdCoach", "LmpdClub")
    assert type(GAME.tracking()).__name__ == "LmpdTracking"


def test_the_rules_modules_are_the_rules() -> None:
    package = plugin.__name__
    modules = {m.name for m in pkgutil.iter_modules(plugin.__path__, package + ".")}
    assert set(GAME.rules_modules) <= modules
    assert {f"{package}.{n}" for n in ("cards", "moves", "state", "scoring", "view")} <= set(GAME.rules_modules)


def test_the_table_moves_drawn_by_chance_are_legal() -> None:
    rng = random.Random(5)
    state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy"]))
    kinds = set()
    while not state.is_game_over():
        if state.deciding:
            player = rng.choice(state.deciding)
            state.push(rng.choice(state.moves_of(player)))
            continue
        move = GAME.chance_move(state, rng)
        assert state.is_legal(move) and move in state.legal_moves and state.player_of(move) is None
        kinds.add(type(move))
        state.push(move)
    assert kinds == {Deal, TurnUp, Reveal, Draw}


def test_a_state_tells_a_screen_a_tracker_and_a_coach_what_they_read() -> None:
    state = dealt(hands=THREE, order=["N3P", "N2L"])
    assert (state.phase, state.round_number, state.noble, state.noble_pile_count) == (Phase.COMMIT, 1, None, 10)
    assert state.pile_sizes == {"ann": 11, "bob": 11, "cy": 11} and state.hand("cy") == (c("2Pa"), c("5D"), c("A6"))
    assert state.courts == {"ann": (), "bob": (), "cy": ()} and state.committed == () and state.last_round is None
    assert state.nobles_left == state.setup.nobles and state.aside_count == 0 and state.revealed == ()
    state.push(Commit.of("bob", "A2"))
    assert state.committed == ("bob",) and state.deciding == ("ann", "cy") and state.hand_sizes["bob"] == 2
    state.push(Commit.of("ann", "4Mb"))
    state.push(Commit.of("cy", "2Pa"))
    state.push(TurnUp.of("N3P"))
    assert state.noble is c("N3P") and state.noble_pile_count == 9 and c("N3P") not in state.nobles_left
    state.push(Reveal.of(state.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}))
    last = state.last_round
    assert last is not None and (last.number, last.winner, last.why.value, last.reason) == (1, "bob", "agent", "bob revealed the only agent (A2) (L9)")
    assert state.courts["bob"] == (c("N3P"),) and state.round_number == 2 and state.phase is Phase.DRAW
    assert state.totals == {"ann": 0, "bob": 3, "cy": 0} and state.counts == {"ann": 0, "bob": 1, "cy": 0}


def test_the_moves_in_words() -> None:
    assert GAME.describe(Commit.of("ann", "4Mb")) == "ann commits a card face down"  # L6: never named
    assert GAME.describe(Commit.of("bob")) == "bob commits a card face down"
    assert GAME.describe(TurnUp.of("N3P")) == "N3P is turned up"
    assert GAME.describe(Reveal.of(["ann", "bob"], {"ann": "4Mb", "bob": "A2"})) == "the cards are revealed: ann 4Mb, bob A2"
    assert GAME.describe(Draw.of(["ann", "bob"], {"ann": "2La"})) == "every player draws a card"  # L14: a hand is private
    assert GAME.describe(Deal()) == "the cards are dealt, face down"
    assert GAME.describe(Deal.make(hands={"ann": ["1La", "2La", "3La"]})) == "the cards are dealt (seen: ann)"


def test_the_event_log_never_names_a_commitment() -> None:
    state = dealt(hands=THREE, order=["N3P", "N2L"])
    lines = []
    for move in (
        Commit.of("bob", "A2"),
        Commit.of("ann", "4Mb"),
        Commit.of("cy", "2Pa"),
        TurnUp.of("N3P"),
        Reveal.of(state.players, {"ann": "4Mb", "bob": "A2", "cy": "2Pa"}),
        Draw.of(state.players),
    ):
        lines.append(GAME.narrate(state, move, state.apply(move)))
    assert lines == [
        "bob commits a card, face down (L6); waiting for ann, cy",
        "ann commits a card, face down (L6); waiting for cy",
        "cy commits a card, face down (L6); everyone has committed: the noble is turned next (L7)",
        "N3P is round 1's noble: Power, 3 crowns (L7)",
        "ann 4Mb, bob A2, cy 2Pa: N3P to bob, since bob revealed the only agent (A2) (L9)",
        "every player draws a card (L11)",
    ]
    deal_state = GAME.new_state(GAME.make_setup(["ann", "bob", "cy", "dee"]))
    deal = GAME.chance_move(deal_state, random.Random(1))
    assert GAME.narrate(deal_state, deal, deal_state.apply(deal)) == (
        "the 10 nobles are laid face down and the cards dealt: 10 to each pile, 2 set aside, three to each hand (L5)"
    )


def test_the_last_reveal_tells_the_result() -> None:
    state = dealt(["ann", "bob"], ["N2L"], hands={"ann": ["1La"], "bob": ["1Ma"]})
    for move in (Commit.of("ann", "1La"), Commit.of("bob", "1Ma"), TurnUp.of("N2L")):
        state.push(move)
    reveal = Reveal.of(state.players, {"ann": "1La", "bob": "1Ma"})
    effects = state.apply(reveal)
    assert GAME.narrate(state, reveal, effects) == "ann 1La, bob 1Ma: N2L to ann, since ann's 1La is the highest Love card (L8); the game is over: ann wins with 2 (L13)"
    assert GAME.period_json(state, effects.result) == {
        "kind": "round",
        "round": 1,
        "noble": "N2L",
        "plays": {"ann": "1La", "bob": "1Ma"},
        "winner": "ann",
        "why": "suit",
        "reason": "ann's 1La is the highest Love card (L8)",
        "totals": {"ann": 2, "bob": 0},
        "counts": {"ann": 1, "bob": 0},
        "result": {"winners": ["ann"], "winner": "ann", "draw": False, "tiebreak": "score"},
    }
    assert GAME.score_lines(state)[-1] == "Result: ann wins with 2 (L13)"


def test_an_unseen_draw_is_said_without_its_cards() -> None:
    state = dealt(["ann", "bob", "cy", "dee", "eve", "fay"], nobles=7)
    for _ in range(5):
        plays = {p: state.hand(p)[0].id for p in state.players}
        play_round(state, state.noble_pile[0].id, plays, draw=False)  # type: ignore[union-attr]
        draw = Draw.of(state.players)
        words = GAME.narrate(state, draw, state.apply(draw))
    assert words == "every player draws a card (L11); nothing for ann, bob, cy, dee, eve, fay: an empty pile"


@pytest.mark.parametrize(
    "module",
    sorted(m.name for m in pkgutil.walk_packages(plugin.__path__, plugin.__name__ + ".") if not m.name.endswith(".generate")),
)
def test_the_docstrings_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_package_docstring_example_runs() -> None:
    assert doctest.testmod(plugin, optionflags=doctest.ELLIPSIS).failed == 0


def test_unseen_is_the_contracts() -> None:
    assert UNSEEN is contract.UNSEEN
