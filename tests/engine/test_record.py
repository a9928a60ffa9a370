"""rop-record/1: reading, writing, and rejecting malformed or illegal records with the line."""

import io
import json

import pytest

from companion.games.rule_of_power.engine.game import GameSetup, Phase
from companion.games.rule_of_power.engine.moves import Play
from companion.games.rule_of_power.record import FORMAT, ReplaySummary
from companion.records.format import RecordError, RecordVisitor, RecordWriter, load_game, read_record
from companion.games.rule_of_power.samples import SAMPLES, sample_path
from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game

SPEC_HEADER = '{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"], "teams": null, "target": 11, "expansion": false}'


def record_of(setup, moves):
    buf = io.StringIO()
    writer = RecordWriter(buf, setup)
    for m in moves:
        writer.write(m)
    return buf.getvalue()


def lines_of(*events):
    return [SPEC_HEADER] + [json.dumps(e) for e in events]


ROUND = {"event": "round", "dealer": "bob"}
DEAL = {"event": "deal", "hands": {"ann": ["W012", "W033", "W005"], "bob": ["W016", "W021", "W040"]}, "center": ["W004", "W024", "W038", "W009"]}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_replay_and_round_trip(name):
    path = sample_path(name)
    text = path.read_text()
    game = load_game(path, keep_history=True)
    assert game.is_game_over()
    again = record_of(game.setup, game.move_stack)
    assert again == text  # writing what was read gives the same bytes


@pytest.mark.parametrize("players,teams,fate,expansion", [(2, 0, True, False), (4, 2, True, True), (5, 0, True, False), (6, 2, True, False)])
def test_simulated_records_round_trip(players, teams, fate, expansion):
    setup = make_setup(players, teams, expansion=expansion)
    game, moves = simulate_game(setup, seed=17, fate=fate)
    replayed = load_game(record_of(setup, moves).splitlines())
    assert replayed.totals == game.totals
    assert replayed.outcome() == game.outcome()
    assert [r.score.to_json() for r in replayed.results] == [r.score.to_json() for r in game.results]


def test_spec_example_shapes_are_read():
    """Each event shape of the format's examples parses into the matching move."""
    lines = lines_of(ROUND, DEAL, {"event": "play", "player": "ann", "card": "W005", "capture": []}, {"event": "play", "player": "bob", "card": "W016"})
    game = load_game(lines)
    assert [c.id for c in game.centre] == ["W004", "W024", "W038", "W009", "W005", "W016"] and game.turn == "ann"


@pytest.mark.parametrize(
    "bad_line,rule,reason",
    [
        ('{"event": "play", "player": "ann", "card": "W005", "capture": ["W004"]}', "R4", "does not match"),
        ('{"event": "play", "player": "bob", "card": "W016"}', "R17", "ann's turn"),
        ('{"event": "play", "player": "ann", "card": "W099"}', None, "W099"),
        ('{"event": "play", "player": "ann", "card": "W005", "capture": ["W004", "W099"]}', None, "W099"),
        ('{"event": "dance", "player": "ann"}', None, "unknown event"),
        ('{"event": "play", "player": "ann", "card": ', None, "not valid JSON"),
        ('["play"]', None, "JSON object"),
        ('{"event": "pass", "player": "ann"}', "R17", "must play"),
        ('{"event": "draw_fate", "player": "ann"}', "R17", "played without Fate decks"),
        ('{"event": "play", "player": "zed", "card": "W005"}', None, "unknown player"),
    ],
)
def test_bad_line_is_reported_with_line_and_rule(bad_line, rule, reason):
    lines = lines_of(ROUND, DEAL) + [bad_line]
    with pytest.raises(RecordError) as err:
        load_game(lines)
    assert err.value.line == 4
    assert err.value.rule == rule
    assert reason in str(err.value)
    assert str(err.value).startswith("line 4:")


def test_header_problems():
    with pytest.raises(RecordError, match="line 1: .*rop-record/2"):
        load_game(['{"event": "game", "format": "rop-record/2", "players": ["a", "b"]}'])
    with pytest.raises(RecordError, match='starts with a "game" event'):
        load_game([json.dumps(ROUND)])
    with pytest.raises(RecordError, match="R16"):
        load_game(['{"event": "game", "format": "rop-record/1", "players": ["a"]}'])
    with pytest.raises(RecordError, match="empty"):
        load_game([])


def test_path_is_named_in_errors(tmp_path):
    p = tmp_path / "club.jsonl"
    p.write_text("\n".join(lines_of(ROUND, DEAL, {"event": "pass", "player": "ann"})) + "\n")
    with pytest.raises(RecordError) as err:
        load_game(p)
    assert str(err.value).startswith(f"{p}:4: R17")
    with pytest.raises(RecordError, match="cannot read"):
        load_game(tmp_path / "missing.jsonl")


def test_unknown_keys_are_ignored_and_blank_lines_skipped():
    lines = lines_of(dict(ROUND, comment="friday club"), dict(DEAL, table=3)) + ["", "   "]
    assert load_game(lines).phase is Phase.TURN


def test_unfinished_record_summary():
    setup = make_setup(2)
    _, moves = simulate_game(setup, seed=2)
    text = record_of(setup, moves[: len(moves) // 2]).splitlines()
    game = load_game(text)
    summary = ReplaySummary.of(game).to_json()
    assert summary["finished"] is False and summary["winner"] is None
    assert len(summary["rounds"]) == len(game.results)
    finished = ReplaySummary.of(load_game(record_of(setup, moves).splitlines())).to_json()
    assert "finished" not in finished and finished["winner"] is not None


def test_visitor_sees_moves_with_line_numbers_until_the_error():
    seen = []

    class Collect(RecordVisitor):
        def visit_move(self, move, line):
            seen.append((line, type(move).__name__))

    lines = lines_of(ROUND, DEAL) + ["", '{"event": "pass", "player": "ann"}']
    read_record(lines, Collect())  # the visitor itself checks no rule
    assert seen == [(2, "NewRound"), (3, "Deal"), (5, "Pass")]


def test_writer_flushes_every_line(tmp_path):
    path = tmp_path / "live.jsonl"
    setup = GameSetup(("ann", "bob"))
    with open(path, "w") as fp:
        writer = RecordWriter(fp, setup, durable=True)
        writer.write(Play.from_ids("ann", "W001"))
        # Read back through another handle before closing: the line is already on disk.
        assert path.read_text().count("\n") == 2
    header = json.loads(path.read_text().splitlines()[0])
    assert header == {"event": "game", "format": FORMAT, "players": ["ann", "bob"], "teams": None, "target": 11, "expansion": False}


def test_unseen_cards_are_written_as_null_and_read_back():
    lines = lines_of(ROUND, {"event": "deal", "hands": {"ann": [None, None, None], "bob": [None, None, None]}, "center": ["W004", "W024", "W038", "W009"]})
    game = load_game(lines, keep_history=True)
    assert game.unseen_in_hand("ann") == 3
    text = record_of(game.setup, game.move_stack)
    assert '"ann": [null, null, null]' in text


def test_a_fate_detail_of_the_wrong_type_is_a_record_error_with_its_line() -> None:
    """The details of a Fate card's play (R21-R25) are read by the card's rule: a wrong type
    in any of them is refused at its line, never a traceback."""
    head = [
        '{"event": "game", "format": "rop-record/1", "players": ["ann", "bob"]}',
        '{"event": "round", "dealer": "bob", "fate_decks": {"ann": ["F008", "F006", "F004", "F005", "F001", "F002", "F003"]}}',
        '{"event": "deal", "hands": {"ann": ["W012", "W013", "W005"], "bob": ["W016", "W021", "W040"]}, "center": ["W035", "W038", "W039", "W024"]}',
        '{"event": "draw_fate", "player": "ann"}',
        '{"event": "play", "player": "bob", "card": "W016", "capture": []}',
    ]
    for bad in (
        '{"event": "play", "player": "ann", "card": "F008", "drawn": 7}',
        '{"event": "play", "player": "ann", "card": "F008", "drawn": ["W001"]}',
        '{"event": "play", "player": "ann", "card": "F008", "drawn": {"x": 1}}',
    ):
        with pytest.raises(RecordError) as err:
            load_game(head + [bad])
        assert err.value.line == 6, str(err.value)
