"""``rop hint`` and ``rop review`` on Circle of Power records (``cop-record/1``), through the real
entry point: text and JSON, the reasons and risks, and clear errors."""

from __future__ import annotations

import json

from companion.cli import main
from companion.games.circle_of_power.game import Phase
from companion.games.circle_of_power.moves import Season
from companion.records.format import write_record

from tests.games.circle_of_power.helpers import censor

from .positions import find, is_act, is_play

MOVE_KEYS = {
    "move", "act", "card", "victim", "keep", "discard", "margin", "margin_interval", "win", "win_interval",
    "samples", "categories", "initiative", "trump_ready", "city_taken", "reasons", "risks",
}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _record(tmp_path, spot, *, seasons=1, viewer=None):
    """The spot's game as a record, cut after ``seasons`` seasons; seen from ``viewer``'s seat
    (every other hand and draw unseen) when given."""
    starts = [k for k, m in enumerate(spot.moves) if type(m) is Season]
    end = starts[seasons] if len(starts) > seasons else len(spot.moves)
    moves = spot.moves[:end]
    if viewer is not None:
        moves = censor(moves, viewer)
    path = tmp_path / "game.jsonl"
    write_record(path, spot.setup, moves)
    return path


def test_hint_on_a_card_json(capsys, tmp_path):
    spot = find(is_play)
    me = spot.state.to_move
    path = _record(tmp_path, spot, seasons=2)
    code, out, err = run(capsys, "hint", str(path), "--player", me, "--line", str(spot.line), "--samples", "6", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["player"] == me and data["line"] == spot.line and data["samples"] == 6
    assert {m["card"] for m in data["moves"]} == {c.id for c in spot.state.hand(me)}
    for move in data["moves"]:
        assert set(move) == MOVE_KEYS and move["act"] == "play"
        assert set(move["categories"]) == {"conquests", "retakes", "rebellions", "destroyed"}
        assert 0.0 <= move["initiative"] <= 1.0 and move["margin_interval"][0] <= move["margin"] <= move["margin_interval"][1]
    wins = [m["win"] for m in data["moves"]]
    assert wins == sorted(wins, reverse=True)


def test_hint_on_an_act_text(capsys, tmp_path):
    spot = find(is_act)
    me = spot.state.to_move
    path = _record(tmp_path, spot)
    code, out, err = run(capsys, "hint", str(path), "--player", me, "--line", str(spot.line), "--samples", "6")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"{me} to move after line {spot.line} (season 1, action {spot.state.action_number}); cities: ")
    assert "6 sampled deals" in lines[1]
    acts = [line for line in lines if line[:3].strip().rstrip(".").isdigit()]
    assert len(acts) == len(list(spot.state.legal_moves))
    assert all("against the best other side this season" in line and "wins the game" in line for line in acts)
    assert any(word in out for word in ("conquer ", "retake "))


def test_hint_from_a_record_kept_at_the_players_seat_repeats(capsys, tmp_path):
    spot = find(lambda s: is_play(s) and s.action_number > 2)
    me = spot.state.to_move
    path = _record(tmp_path, spot, viewer=me)
    args = ("hint", str(path), "--player", me, "--line", str(spot.line), "--samples", "5", "--seed", "3", "--json")
    first = json.loads(run(capsys, *args)[1])
    second = json.loads(run(capsys, *args)[1])
    first.pop("elapsed_ms"), second.pop("elapsed_ms")
    assert first == second and first["samples"] == 5


def test_hint_errors_are_one_line_with_status_2(capsys, tmp_path):
    spot = find(is_play)
    me = spot.state.to_move
    other = next(p for p in spot.setup.players if p != me)
    path = _record(tmp_path, spot)
    cases = [
        (("--player", "zed"), "unknown player 'zed'"),
        (("--player", "@1", "--line", str(spot.line)), "unknown player '@1'"),  # dummies are the rules' (C11)
        (("--player", other, "--line", str(spot.line)), f"it is {me}'s turn, not {other}'s"),
        (("--player", me, "--line", "2"), "after line 2 nobody is to move: the game waits for the next city card to be turned up"),
    ]
    for extra, message in cases:
        code, out, err = run(capsys, "hint", str(path), *extra)
        assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, (extra, err)
    unseen = _record(tmp_path, spot, viewer=other)
    code, _, err = run(capsys, "hint", str(unseen), "--player", me, "--line", str(spot.line))
    assert code == 2 and f"the companion has not seen 3 of the 3 cards in {me}'s hand" in err


def test_review_json_marks_each_players_decisions(capsys, tmp_path):
    spot = find(is_play)
    path = _record(tmp_path, spot)
    code, out, err = run(capsys, "review", str(path), "--samples", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["thresholds"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1} and data["unseen_cards"] == 0
    marks = data["marks"]
    assert {m["player"] for m in marks} == set(spot.setup.players)  # players only: dummies decide nothing (C11)
    assert all(m["round"] == 1 and m["verdict"] in ("good", "inaccuracy", "mistake", "blunder") for m in marks)
    # every player's card with more than one distinct card in hand, and every act with a choice
    assert len(marks) >= 20
    lines = [m["line"] for m in marks]
    assert lines == sorted(lines)
    for m in marks:
        if m["verdict"] != "good":
            assert m["best"] != m["played"] and m["drop"] >= 0.1


def test_review_text_of_one_player_from_their_seat(capsys, tmp_path):
    spot = find(is_play)
    me = spot.state.to_move
    path = _record(tmp_path, spot, viewer=me)
    code, out, err = run(capsys, "review", str(path), "--player", me, "--samples", "3", "--all")
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith(f"{path}: ") and f"decisions of {me}: " in first and "blunder" in first
    assert "dealt cards were never seen" in out  # the other hands, sampled like hidden ones
    assert "(season 1)" in out
    code, _, err = run(capsys, "review", str(path), "--player", "@1")
    assert code == 2 and "unknown player '@1'" in err


def test_review_leaves_a_season_nobody_saw_unmarked(capsys, tmp_path):
    spot = find(is_play)
    path = _record(tmp_path, spot, viewer="nobody")
    code, out, err = run(capsys, "review", str(path), "--samples", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["unseen_cards"] > 0
    # completion fills in each hand from the cards played, so most decisions are judged
    assert data["marks"] and spot.state.phase in (Phase.PLAY, Phase.ACT)
