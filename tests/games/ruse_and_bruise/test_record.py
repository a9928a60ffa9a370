"""The record format ``rab-record/1`` (record-format.md): a record written by hand in the
format's words, read event by event, written back the same, its errors naming the line and the
ruling, and an unfinished record resumed."""

from __future__ import annotations

import json

import pytest

from companion.contract.cards import UNSEEN
from companion.contract.errors import InvalidMoveError, UnknownCardError
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.moves import Cloak, Round
from companion.games.ruse_and_bruise.policies import simulate
from companion.games.ruse_and_bruise.record import CODEC, EVENTS
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.records.format import RecordError, dumps_event, iter_record_lines, load_game
from tests.games.ruse_and_bruise.helpers import card

HEADER = {
    "event": "game",
    "format": "rab-record/1",
    "players": ["ann", "bob"],
    "colours": {"ann": "blue", "bob": "white"},
    "values": EXAMPLE.to_json(),
    "hands": {"ann": ["EXPL", "KING", "STORM"], "bob": None},
}

RECORD = [
    HEADER,
    {"event": "round", "goals": ["music-3a", "trade-2"]},  # 2
    {"event": "place", "player": "ann", "column": 1, "card": "EXPL", "drew": "QUEEN"},
    {"event": "place", "player": "bob", "column": 1, "card": None, "drew": None},
    {"event": "turn", "column": 1, "card": "EXPL"},  # 5
    {"event": "explorer", "to": 2},
    {"event": "place", "player": "ann", "column": 2, "card": "KING", "drew": "JULIET"},
    {"event": "turn", "column": 2, "card": "EXPL"},
    {"event": "explorer", "to": 1},
    {"event": "turn", "column": 1, "card": "ASSN"},  # 10
    {"event": "assassin", "discard": "EXPL"},
    {"event": "place", "player": "bob", "column": 2, "card": None},
    {"event": "turn", "column": 2, "card": "KING"},
    {"event": "place", "player": "ann", "column": 1, "card": "STORM", "drew": None},
    {"event": "place", "player": "bob", "column": 1, "card": None, "drew": None},  # 15
    {"event": "turn", "column": 1, "card": "STORM"},
    {"event": "storm", "column": 1},
    {"event": "reveal", "columns": [["WIZ"], ["QUEEN"]]},
    {"event": "distribution", "winners": ["bob", "ann"]},
    {"event": "round", "goals": ["fencing-1", "religion-3a"]},  # 20
    {"event": "place", "player": "ann", "column": 1, "card": None},
    {"event": "place", "player": "bob", "column": 1, "card": None, "drew": None},
    {"event": "turn", "column": 1, "card": "CLOAK"},
    {"event": "cloak", "player": "ann", "placed": True, "card": "QUEEN", "drew": None},
    {"event": "place", "player": "ann", "column": 2, "card": "TRAITOR", "drew": None},  # 25
    {"event": "place", "player": "bob", "column": 2, "card": None},
    {"event": "turn", "column": 2, "card": "TRAITOR"},
    {"event": "traitor", "player": "ann", "swap": 1},
    {"event": "reveal", "columns": [["QUEEN", "KING"], ["MUSK"]]},
    {"event": "distribution", "winners": ["bob", "ann"]},  # 30
]


def lines(record: list[dict[str, object]] = RECORD) -> list[str]:
    return [json.dumps(e) for e in record]


def with_line(number: int, event: dict[str, object] | None) -> list[str]:
    """The record with line ``number`` replaced (``None``: left out)."""
    out = list(RECORD)
    if event is None:
        del out[number - 1]
    else:
        out[number - 1] = event
    return lines(out)


def test_a_record_written_in_the_formats_words_is_replayed_with_every_rule_checked() -> None:
    state = load_game(lines(), keep_history=True)
    setup = state.setup
    assert setup.players == ("ann", "bob") and setup.colours == ("blue", "white") and setup.values == EXAMPLE
    assert setup.hand_of("ann") == (card("EXPL"), card("KING"), card("STORM")) and setup.hand_of("bob") is None and setup.goals is None
    assert [r.winners for r in state.results] == [("bob", "ann"), ("bob", "ann")]
    # Round 2: the Traitor brought religion-3a into column 1 (3 cards), fencing-1 to column 2.
    assert [c.goal.id for c in state.results[1].columns] == ["religion-3a", "fencing-1"]
    assert [g.id for g in state.won("bob")] == ["music-3a", "religion-3a"] and [g.id for g in state.won("ann")] == ["trade-2", "fencing-1"]
    # The Assassin's victim is ann's Explorer, on her discard pile until the round's end.
    assert state.results[0].columns[0].to_json(1)["cards"] == [
        {"owner": "bob", "card": "ASSN", "value": 6, "removed": None},
        {"owner": "ann", "card": "STORM", "value": 3, "removed": None},
        {"owner": "bob", "card": "WIZ", "value": 2, "removed": None},
    ]
    # Under the Musketeers the Traitor is 10 and bob's 9: ann.
    assert state.results[1].columns[1].sums == {"ann": 10, "bob": 9}
    assert not state.is_game_over() and state.waiting.what == "round"


def test_each_event_is_written_back_as_the_format_writes_it() -> None:
    state = load_game(lines(), keep_history=True)
    written = [json.loads(line) for line in iter_record_lines(state.setup, state.move_stack)]
    expected = [dict(e) for e in RECORD]
    expected[0] = {**HEADER, "goals": None, "hands": {"ann": ["EXPL", "KING", "STORM"], "bob": None}}
    # A place event always writes its draw (null when unseen or nothing was drawn).
    for e in expected:
        if e["event"] == "place":
            e.setdefault("drew", None)
    assert written == expected


def test_readers_accept_any_letter_case_and_ignore_unknown_keys() -> None:
    record = [dict(e) for e in RECORD]
    record[2] = {"event": "place", "player": "ann", "column": 1, "card": "expl", "drew": "Queen", "note": "a comment"}
    record[1] = {"event": "round", "goals": ["MUSIC-3A", "Trade-2"], "time": 12}
    state = load_game(lines(record))
    assert [r.winners for r in state.results] == [("bob", "ann"), ("bob", "ann")]


@pytest.mark.parametrize(
    ("number", "event", "message"),
    [
        (6, {"event": "explorer", "to": 1}, "line 6: B11: ann's Explorer moves to the next column, 2, not 1"),
        (5, None, "line 5: B10: no explorer now: a card arrived below ann's face-down card in column 1: it is turned over, a turn event comes next"),
        (11, {"event": "assassin", "discard": "KING"}, "line 11: B12: the Assassin sends the card that arrived below him to its owner's discard pile: not ann's KING"),
        (4, {"event": "place", "player": "ann", "column": 1, "card": "KING"}, "line 4: B8: it is bob's turn, not ann's"),
        (3, {"event": "place", "player": "ann", "column": 1, "card": "QUEEN"}, "line 3: B29: ann places QUEEN, but ann's QUEEN is in ann's stack"),
        (3, {"event": "place", "player": "ann", "column": 3, "card": "EXPL"}, "line 3: B7: the columns are 1 to 2, not 3"),
        (17, {"event": "storm", "column": 2}, "line 17: B13: the Storm closes its own column, 1, not 2"),
        (18, {"event": "reveal", "columns": [["WIZ"], ["ASSN"]]}, "line 18: B29: column 2, card 2 is bob's: not ASSN, since bob's ASSN is face up in column 1"),
        (19, {"event": "distribution", "winners": ["ann", "ann"]}, "line 19: B26: column 1's goal card music-3a goes to bob, not ann: bob has the highest sum, 8"),
        (24, {"event": "cloak", "player": "bob", "placed": False}, "line 24: B14: the Invisibility Cloak in column 1 is ann's: the choice is ann's, not bob's"),
        (28, {"event": "traitor", "player": "ann", "swap": 2}, "line 28: B15: the Traitor's goal card in column 2 is exchanged with another column's (1 to 2), not 2"),
        (21, {"event": "pass", "player": "ann"}, "line 21: B8: ann holds 3 cards: a player holding a card must place one"),
        (20, {"event": "round", "goals": ["music-3a", "trade-1"]}, "line 20: B5: music-3a was turned over already"),
        (13, {"event": "turn", "column": 2, "card": None}, 'line 13: "card": a card turned over is face up for everyone and always named (B10)'),
        (13, {"event": "flip", "column": 2}, "line 13: unknown event 'flip' (expected round, place, pass, turn, explorer, assassin, storm, cloak, traitor, reveal, distribution)"),
        (13, {"event": "turn", "column": "2", "card": "KING"}, 'line 13: "column" must be a column number, not \'2\''),
        (7, {"event": "place", "player": "ann", "column": 2, "card": "JACK"}, "line 7: \"card\": unknown influence card 'JACK'"),
        (24, {"event": "cloak", "player": "ann", "placed": "yes"}, "line 24: \"placed\" must be true or false, not 'yes'"),
    ],
)
def test_an_event_that_breaks_a_rule_names_its_line_and_the_ruling(number: int, event: dict[str, object] | None, message: str) -> None:
    with pytest.raises(RecordError) as refused:
        load_game(with_line(number, event))
    assert str(refused.value).startswith(message), str(refused.value)
    assert refused.value.line == number


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"values": {**EXAMPLE.to_json(), "EXPL": 7}}, "line 1: B4: \"values\": EXPL is on the Wizard's list: 10 or more, not 7"),
        ({"values": {k: v for k, v in EXAMPLE.to_json().items() if k != "BEGGAR"}}, 'line 1: B4: "values": the values table lacks BEGGAR'),
        ({"colours": {"ann": "blue", "bob": "blue"}}, "line 1: B6: each player has a colour of their own: ann and bob are both blue"),
        ({"colours": {"ann": "blue"}}, 'line 1: B6: "colours": bob has no colour'),
        ({"players": ["ann"], "colours": {"ann": "blue"}, "hands": None}, "line 1: B6: a game has 2 to 6 players, not 1"),
        ({"hands": {"ann": ["KING", "KING", None]}}, "line 1: B1: ann's starting hand names a card twice"),
        ({"goals": [["music-1"] * 6, [None] * 6]}, "line 1: B5: music-1 is dealt twice"),
        ({"format": "rab-record/2"}, "line 1: unknown record format 'rab-record/2'"),
    ],
)
def test_a_game_line_the_rulings_refuse_names_line_1(header: dict[str, object], message: str) -> None:
    bad = [{**HEADER, **header}] + RECORD[1:]
    with pytest.raises(RecordError) as refused:
        load_game(lines(bad))
    assert str(refused.value).startswith(message), str(refused.value)


def test_a_game_line_without_a_values_table_is_read_and_the_first_round_refused() -> None:
    bare = {k: v for k, v in HEADER.items() if k != "values"}
    with pytest.raises(RecordError, match=r"line 2: B4: this game has no values table: enter the table's once"):
        load_game(lines([bare] + RECORD[1:]))
    state = load_game(lines([bare]))
    assert state.setup.values is None and not state.is_game_over()


def test_an_unfinished_record_is_a_game_to_resume() -> None:
    state = load_game(lines(RECORD[:13]), keep_history=True)
    assert state.waiting.what == "place" and state.to_move == "ann"
    summary = GAME.summary(state)
    assert summary == {"game": "ruse-and-bruise", "rounds": [], "goal_cards": {"ann": [], "bob": []}, "scores": {"ann": {"plain": 0, "doubled": None, "score": 0}, "bob": {"plain": 0, "doubled": None, "score": 0}}, "finished": False, "winner": None, "draw": False}
    for event in RECORD[13:]:
        state.push(CODEC.read_move(event, state.setup))
    assert len(state.results) == 2


def test_the_round_events_draws_and_the_cloaks_choices_are_read_and_written() -> None:
    setup = load_game(lines(RECORD[:1])).setup
    event = {"event": "round", "goals": ["music-1", "trade-1"], "drew": {"ann": ["KING", None], "bob": None}}
    move = CODEC.read_move(event, setup)
    assert move == Round.make(["music-1", "trade-1"], {"ann": ["KING", None]})
    assert CODEC.move_event(move, setup) == {"event": "round", "goals": ["music-1", "trade-1"], "drew": {"ann": ["KING", None]}}
    assert CODEC.move_event(Round.make(["music-1", "trade-1"]), setup) == {"event": "round", "goals": ["music-1", "trade-1"]}
    declined = CODEC.read_move({"event": "cloak", "player": "bob", "placed": False}, setup)
    assert declined == Cloak("bob", False) and CODEC.move_event(declined, setup) == {"event": "cloak", "player": "bob", "placed": False}
    with pytest.raises(InvalidMoveError, match='a Cloak declined \\("placed": false\\) names no "card" and no "drew" \\(B14\\)'):
        CODEC.read_move({"event": "cloak", "player": "bob", "placed": False, "card": "KING"}, setup)
    placed = CODEC.read_move({"event": "cloak", "player": "bob", "placed": True, "card": None}, setup)
    assert placed == Cloak("bob", True, UNSEEN, None)
    with pytest.raises(UnknownCardError, match='"goals": unknown goal card'):
        CODEC.read_move({"event": "round", "goals": ["music-7"]}, setup)
    assert set(EVENTS) == {"round", "place", "pass", "turn", "explorer", "assassin", "storm", "cloak", "traitor", "reveal", "distribution"}


def test_simulated_games_round_trip_through_their_records() -> None:
    for players in range(2, 7):
        setup, moves = simulate(["ann", "bob", "cy", "dee", "eve", "fay"][:players], EXAMPLE, 40 + players, "rule-of-thumb")
        text = list(iter_record_lines(setup, moves))
        state = load_game(text, keep_history=True)
        assert state.setup == setup and state.move_stack == moves and state.is_game_over()
        assert [dumps_event(CODEC.move_event(m, setup)) for m in moves] == text[1:]
        kinds = {json.loads(line)["event"] for line in text[1:]}
        assert kinds >= {"round", "place", "turn", "reveal", "distribution"}
