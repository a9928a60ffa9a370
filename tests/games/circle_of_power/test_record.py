"""The ``cop-record/1`` codec: every event read and written back, the defaults and nulls of
record-format.md, every malformed field refused with a clear message, and the completion of
cards that later moves reveal."""

from __future__ import annotations

import json

import pytest

from companion.games.circle_of_power.moves import UNSEEN, Conquer, Play, Regroup, Reshuffle, Retake, Reveal, Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.record import CODEC, EVENTS, FORMAT
from companion.games.circle_of_power.setup import CircleSetup
from companion.contract.errors import IllegalMoveError, InvalidMoveError, MalformedEventError, UnknownCardError

from .helpers import c, censor, replay

SETUP = CircleSetup(("ann", "bob", "cy"))
COLOURED = CircleSetup(("ann", "bob", "cy"), "coloured-cities")

SEASON = {
    "event": "season", "dealer": "ann", "seats": ["ann", "bob", "cy", "@1"],
    "cities": {"ann": "KH", "bob": "QS", "cy": "X1", "@1": "AC"}, "bottom": "X2",
    "hands": {"ann": ["5H", "7C", "10S"], "bob": ["2D", "9D", "4S"], "cy": ["3C", "8H", "6S"]},
    "piles": {"@1": ["7D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]},
}


def test_the_header_and_its_defaults():
    assert CODEC.format == FORMAT == "cop-record/1" and set(EVENTS) == {"season", "reveal", "play", "conquer", "retake", "regroup", "reshuffle"}
    setup = CODEC.read_setup({"event": "game", "format": "cop-record/1", "players": ["ann", "bob", "cy"]})
    assert setup == CircleSetup(("ann", "bob", "cy"), "basic", 6)
    assert CODEC.setup_event(COLOURED) == {"event": "game", "format": "cop-record/1", "players": ["ann", "bob", "cy"], "variant": "coloured-cities", "target": 6}
    assert CODEC.read_setup(CODEC.setup_event(COLOURED)) == COLOURED


@pytest.mark.parametrize(
    "header, error, words",
    [
        ({"players": ["ann", "@bob"]}, IllegalMoveError, "C4: a player's name may not begin with '@'"),
        ({"players": ["ann"]}, IllegalMoveError, "C4: a game has 2 to 4 players"),
        ({"players": ["a", "b", "c", "d", "e"]}, IllegalMoveError, "C4: a game has 2 to 4 players"),
        ({"players": ["ann", "ann"]}, IllegalMoveError, "C4: each player sits once"),
        ({"players": "ann,bob"}, InvalidMoveError, '"players" must be a list of names'),
        ({"players": ["ann", 3]}, InvalidMoveError, '"players" must be a list of names'),
        ({"players": ["ann", "bob"], "variant": "full"}, InvalidMoveError, '"variant" must be one of basic, lonely-tyrant, coloured-cities'),
        ({"players": ["ann", "bob"], "target": "6"}, InvalidMoveError, '"target" must be a whole number'),
        ({"players": ["ann", "bob"], "target": True}, InvalidMoveError, '"target" must be a whole number'),
        ({"players": ["ann", "bob"], "target": 0}, InvalidMoveError, "the target is a whole number from 1 to 99"),
        ({"players": ["ann", "bob"], "format": "rop-record/1"}, InvalidMoveError, "unknown record format 'rop-record/1'"),
    ],
)
def test_a_malformed_header_is_refused(header, error, words):
    with pytest.raises(error) as err:
        CODEC.read_setup({"event": "game", **header})
    assert str(err.value).startswith(words) and isinstance(err.value, ValueError)


def round_trip(event, setup=SETUP):
    move = CODEC.read_move(json.loads(json.dumps(event)), setup)
    assert CODEC.read_move(CODEC.move_event(move, setup), setup) == move
    return move


def test_every_event_reads_as_its_move_and_writes_back():
    season = round_trip(SEASON)
    assert season == Season.make("ann", ["ann", "bob", "cy", "@1"], SEASON["cities"], "X2", SEASON["hands"], SEASON["piles"])
    assert CODEC.move_event(season, SETUP) == SEASON
    cases = [
        ({"event": "reveal", "card": "JD"}, Reveal(c("JD"))),
        ({"event": "play", "player": "bob", "card": "7H", "drew": "4C"}, Play("bob", c("7H"), c("4C"))),
        ({"event": "play", "player": "@1", "card": "7D"}, Play("@1", c("7D"))),
        ({"event": "conquer", "player": "ann", "victim": "bob"}, Conquer("ann", "bob")),
        ({"event": "retake", "player": "cy", "victim": "ann", "discard": "QS"}, Retake("cy", "ann", c("QS"))),
        ({"event": "retake", "player": "cy", "victim": "ann", "discard": None}, Retake("cy", "ann")),
        ({"event": "regroup", "player": "bob", "discard": None}, Regroup("bob")),
        ({"event": "regroup", "player": "bob", "discard": "JD"}, Regroup("bob", c("JD"))),
        ({"event": "reshuffle", "piles": {"@1": ["2S", "3S", "4S", "5S", "6S", "7S"]}}, Reshuffle.make({"@1": ["2S", "3S", "4S", "5S", "6S", "7S"]})),
        ({"event": "reshuffle", "piles": None}, Reshuffle()),
    ]
    for event, move in cases:
        assert round_trip(event) == move
        assert CODEC.move_event(move, SETUP) == event
    keep = {"event": "conquer", "player": "ann", "victim": "bob", "keep": True}
    assert round_trip(keep, COLOURED) == Conquer("ann", "bob", True) and CODEC.move_event(Conquer("ann", "bob", True), COLOURED) == keep


def test_nulls_and_absent_fields_say_unseen():
    assert CODEC.read_move({"event": "play", "player": "bob", "card": "7H", "drew": None}, SETUP) == Play("bob", c("7H"))
    assert CODEC.read_move({"event": "play", "player": "bob", "card": "7h"}, SETUP) == Play("bob", c("7H"))
    assert CODEC.read_move({"event": "conquer", "player": "ann", "victim": "bob", "keep": False}, COLOURED) == Conquer("ann", "bob")
    partial = dict(SEASON, hands={"ann": ["5H", None, "10S"], "bob": None, "cy": [None, None, None]}, piles=None)
    move = CODEC.read_move(partial, SETUP)
    assert move.hands == (("ann", (c("5H"), UNSEEN, c("10S"))),) and move.piles == ()
    written = CODEC.move_event(move, SETUP)
    # A hand partly seen is read, but written as the format describes hands: whole or null.
    assert written["hands"] is None and written["piles"] is None
    bare = {k: v for k, v in SEASON.items() if k not in ("hands", "piles")}
    assert CODEC.read_move(bare, SETUP).hands == () and CODEC.move_event(CODEC.read_move(bare, SETUP), SETUP)["hands"] is None


def test_hands_and_piles_are_written_whole_or_null_as_the_format_says():
    """record-format.md: a season's ``hands`` and ``piles``, and a reshuffle's ``piles``, are
    each emperor's cards or ``null``; a card seen in a hand otherwise unseen is not written (a
    reader completing the record works it out again from the plays)."""
    season = Season.make("ann", ["ann", "bob", "cy", "@1"], SEASON["cities"], "X2",
                         {"ann": ["5H", "7C", "10S"], "bob": ["2D", None, None]}, {"@1": ["7D"] + [None] * 8})
    written = CODEC.move_event(season, SETUP)
    assert written["hands"] == {"ann": ["5H", "7C", "10S"], "bob": None, "cy": None} and written["piles"] is None
    half = Reshuffle.make({"@1": ["2S", "3S", None, None, None, None]})
    assert CODEC.move_event(half, SETUP) == {"event": "reshuffle", "piles": None}
    two = Reshuffle.make({"@1": ["2S", "3S", "4S", "5S", "6S", "7S"], "@2": [None] * 6})
    assert CODEC.move_event(two, SETUP)["piles"] == {"@1": ["2S", "3S", "4S", "5S", "6S", "7S"]}


def test_a_record_rewritten_after_a_correction_writes_every_hand_as_the_format_says(tmp_path):
    """A game kept by keyboard (no hand seen), its second season under way, an event
    corrected: the record is written anew with the hands its plays tell completed, and each
    ``season`` line still gives each hand whole or ``null``."""
    from companion.games.circle_of_power.samples.generate import as_kept_by_hand
    from companion.records.store import GameFile
    from companion.session import GameSession

    setup, simulated = simulate(["ann", "bob", "cy"], "basic", 4)
    moves = as_kept_by_hand(simulated)
    second = next(k for k, m in enumerate(moves) if type(m) is Season and k)
    record = GameFile.create(tmp_path, setup)
    session = GameSession(setup, record=record)
    for move in moves[: second + 12]:
        assert type(session.propose(move)).__name__ == "Applied"
    play = next(k for k in range(second + 1, second + 12) if type(moves[k]) is Play and not moves[k].player.startswith("@"))
    session.correct(play, moves[play])  # the same event typed again: the record is written anew
    session.close()
    seasons = [json.loads(line) for line in record.path.read_text().splitlines() if '"season"' in line]
    assert len(seasons) == 2
    for event in seasons:
        for name, cards in (event.get("hands") or {}).items():
            assert cards is None or (len(cards) == 3 and None not in cards), f"{name}'s hand written as {cards}"
        for name, cards in (event.get("piles") or {}).items():
            assert cards is None or (len(cards) == 9 and None not in cards), f"{name}'s pile written as {cards}"


@pytest.mark.parametrize(
    "event, error, words",
    [
        ({"event": "play", "player": "@1", "card": "7D", "drew": "4C"}, IllegalMoveError, "C8: @1 is a dummy and draws no card"),
        ({"event": "conquer", "player": "ann", "victim": "bob", "keep": True}, IllegalMoveError, 'C19: "keep": true is only for Coloured Cities'),
        ({"event": "conquer", "player": "ann", "victim": "bob", "keep": "yes"}, InvalidMoveError, '"keep" must be true or false'),
        ({"event": "play", "player": "bob", "card": "ZZ"}, UnknownCardError, '"card": unknown card id'),
        ({"event": "play", "player": "bob", "card": 7}, MalformedEventError, '"card" must be a card id'),
        ({"event": "play", "player": "bob", "card": ["7H"]}, MalformedEventError, '"card" must be a card id'),
        ({"event": "play", "player": ["bob"], "card": "7H"}, InvalidMoveError, '"player" must name an emperor'),
        ({"event": "retake", "player": "ann", "victim": {"bob": 1}}, InvalidMoveError, '"victim" must name an emperor'),
        (dict(SEASON, cities={"ann": ["KH"]}), MalformedEventError, '"cities.ann" must be a card id'),
        (dict(SEASON, piles={"@1": [["7D"]] * 9}), MalformedEventError, '"piles.@1" must be a card id'),
        ({"event": "play", "player": "bob", "card": "7H", "drew": ["4C"]}, MalformedEventError, '"drew" must be a card id'),
        ({"event": "play", "card": "7H"}, InvalidMoveError, '"player" must name an emperor'),
        ({"event": "play", "player": "@x", "card": "7H"}, InvalidMoveError, '"player": a dummy is named @1, @2'),
        ({"event": "conquer", "player": "ann"}, InvalidMoveError, '"victim" must name an emperor'),
        ({"event": "retake", "player": "ann", "victim": "bob", "discard": 3}, MalformedEventError, '"discard" must be a card id'),
        ({"event": "reveal"}, MalformedEventError, '"card" must be a card id'),
        ({"event": "reshuffle", "piles": {"ann": ["2S"] * 6}}, IllegalMoveError, "C15: \"piles\": ann is a player"),
        ({"event": "reshuffle", "piles": ["2S"]}, InvalidMoveError, '"piles" must map each emperor to their cards'),
        ({"event": "reshuffle", "piles": {"@1": "2S"}}, InvalidMoveError, '"piles.@1" must be a list of card ids'),
        ({"event": "deal"}, InvalidMoveError, "unknown event 'deal' (expected season, reveal, play"),
        ({"player": "ann"}, InvalidMoveError, "unknown event None"),
        ({"event": "game", "format": "cop-record/1"}, InvalidMoveError, 'a second "game" event'),
        (dict(SEASON, seats=["ann", "bob", "cy"]), InvalidMoveError, '"seats" must list the four emperors'),
        (dict(SEASON, cities=["KH"]), InvalidMoveError, '"cities" must map each emperor to their city'),
        (dict(SEASON, bottom=None), MalformedEventError, '"bottom" must be a card id'),
        (dict(SEASON, hands={"ann": "5H 7C 10S"}), InvalidMoveError, '"hands.ann" must be a list of card ids'),
        (dict(SEASON, hands={"ann": ["5H", "7C", "1S"]}), UnknownCardError, '"hands.ann": unknown card id'),
        (dict(SEASON, dealer=None), InvalidMoveError, '"dealer" must name an emperor'),
        (dict(SEASON, seats=["ann", "bob", "cy", "@one"]), InvalidMoveError, '"seats": a dummy is named @1'),
    ],
)
def test_every_malformed_field_is_refused_with_a_clear_message(event, error, words):
    with pytest.raises(error) as err:
        CODEC.read_move(event, SETUP)
    message = str(err.value)
    assert words in message, message
    assert isinstance(err.value, ValueError)


def test_an_event_that_is_no_object_is_refused():
    with pytest.raises(InvalidMoveError, match="an event is a JSON object"):
        CODEC.read_move(["play"], SETUP)  # type: ignore[arg-type]


def test_moves_that_break_the_rules_are_for_the_state_not_the_codec():
    # A hand of two cards is well formed; the state refuses it (C6) with its line.
    move = CODEC.read_move(dict(SEASON, hands={"ann": ["5H", "7C"]}), SETUP)
    assert move.hand_of("ann") == (c("5H"), c("7C"))
    from .helpers import new

    with pytest.raises(IllegalMoveError, match="C6: a player's hand holds 3 cards, and ann is given 2"):
        new(("ann", "bob", "cy")).check(move)


def test_a_period_starts_with_each_season():
    assert CODEC.is_period_start(CODEC.read_move(SEASON, SETUP))
    assert not CODEC.is_period_start(Reveal(c("JD"))) and not CODEC.is_period_start(Play("ann", c("2H")))


def test_a_whole_simulated_game_round_trips_through_json_lines():
    for variant in ("basic", "lonely-tyrant", "coloured-cities"):
        setup, moves = simulate(["ann", "bob"], variant, 7)
        lines = [json.dumps(CODEC.setup_event(setup))] + [json.dumps(CODEC.move_event(m, setup)) for m in moves]
        again = CODEC.read_setup(json.loads(lines[0]))
        read = [CODEC.read_move(json.loads(x), again) for x in lines[1:]]
        assert again == setup and read == moves
        assert replay(again, read).outcome() == replay(setup, moves).outcome()


# ---------------------------------------------------------------------- completion


def test_complete_fills_a_dummys_pile_and_its_new_cards_as_it_plays_them():
    setup, moves = simulate(["ann", "bob"], "basic", 3)
    seen = censor(moves, "ann")
    filled = CODEC.complete(seen)
    first = next(m for m in filled if type(m) is Season)
    truth = next(m for m in moves if type(m) is Season)
    assert first.piles == truth.piles  # both dummies played all 15 cards
    reshuffle = next(m for m in filled if type(m) is Reshuffle)
    assert reshuffle == next(m for m in moves if type(m) is Reshuffle)
    assert first.hand_of("ann") == truth.hand_of("ann")  # the viewer's own hand was seen


def test_complete_places_a_players_first_card_in_the_hand_and_leaves_the_rest_unseen():
    setup, moves = simulate(["ann", "bob", "cy", "dee"], "basic", 2)
    seen = censor(moves, None)
    filled = CODEC.complete(seen)
    season = filled[0]
    truth = moves[0]
    first_plays = {m.player: m.card for m in moves[2:6]}
    for name in ("ann", "bob", "cy", "dee"):
        hand = season.hand_of(name)
        assert hand is not None and first_plays[name] in hand  # action 1 is played from the hand
        assert all(x is UNSEEN or x in truth.hand_of(name) for x in hand)
    # a hand seen but for its draws is worked out exactly once the season is played
    partial = [Season(truth.dealer, truth.seats, truth.cities, truth.bottom, truth.hands, ())] + seen[1:]
    known = CODEC.complete(partial)
    draws = {k for k, m in enumerate(moves) if type(m) is Play and m.drew is not None}
    assert all(known[k].drew is moves[k].drew for k in draws if known[k].drew is not None)
    assert sum(1 for k in draws if known[k].drew is not None) >= 10  # those the plays tell
    # with nothing seen at all, C15 still tells some: a card of actions 1-6 played later
    # came from a draw after the reshuffle
    assert sum(1 for k in draws if filled[k].drew is not None) >= 5
    assert all(filled[k].drew is moves[k].drew for k in draws if filled[k].drew is not None)


def test_complete_changes_nothing_in_a_record_where_every_card_was_seen():
    setup, moves = simulate(["ann", "bob", "cy"], "coloured-cities", 1)
    assert CODEC.complete(moves) == moves
