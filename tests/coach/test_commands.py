"""rop hint and rop review through the real entry point: output shapes and clear errors."""

from __future__ import annotations

import json
import re

from companion.cli import main
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, Play
from companion.records.format import write_record
from companion.games.rule_of_power.samples import sample_path

from tests.coach.positions import ring_blunder


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _blunder_record(tmp_path, *, tracked=False):
    setup, moves = ring_blunder()
    if tracked:
        # As a camera sees it: bob's hand face down, filled in after play by completion.
        deal = moves[1]
        moves[1] = Deal.make({"ann": ["W006", "W040", "W030"], "bob": [UNSEEN, UNSEEN, UNSEEN]}, deal.centre)
        moves += [
            Play.from_ids("bob", "W021", ["W001"]),
            Play.from_ids("ann", "W030"),
            Play.from_ids("bob", "W016"),
            Play.from_ids("ann", "W006", ["W016"]),
            Play.from_ids("bob", "W039"),
        ]
    path = tmp_path / "game.jsonl"
    write_record(path, setup, moves)
    return path


def test_hint_json_shape(capsys, tmp_path):
    path = _blunder_record(tmp_path)
    code, out, err = run(capsys, "hint", str(path), "--player", "ann", "--line", "3", "--json", "--budget-ms", "0")
    assert code == 0, err
    data = json.loads(out)
    assert data["record"] == str(path) and data["line"] == 3 and data["player"] == "ann"
    assert {"level", "samples", "playouts", "elapsed_ms", "moves"} <= set(data)
    move = data["moves"][0]
    assert set(move) == {
        "move", "card", "capture", "target", "kind", "margin", "margin_interval", "win", "win_interval",
        "samples", "categories", "rule_of_power", "reasons", "risks",
    }
    assert set(move["categories"]) == {"world_cards", "power_cards", "fire_dragon", "pride_of_dragons", "power_ring", "sweeps"}
    assert len(data["moves"]) == 5  # W006 (one option), W040 and W030 (two options each)


def test_hint_with_fixed_samples_repeats(capsys, tmp_path):
    path = _blunder_record(tmp_path)
    args = ("hint", str(path), "--player", "ann", "--line", "3", "--samples", "5", "--seed", "3", "--json")
    first = json.loads(run(capsys, *args)[1])
    second = json.loads(run(capsys, *args)[1])
    assert first["samples"] == 5
    first.pop("elapsed_ms"), second.pop("elapsed_ms")
    assert first == second


def test_hint_text(capsys, tmp_path):
    path = _blunder_record(tmp_path)
    code, out, _ = run(capsys, "hint", str(path), "--player", "ann", "--line", "3", "--budget-ms", "0")
    assert code == 0
    assert out.startswith("ann to move after line 3") and " 1. 6P W006 Servant of Powers" in out and "95 %" in out
    # Cards in the one notation of every message: short form and id, never a bare id.
    assert "centre: " in out and not re.search(r"(?<![0-9][PMED] )\bW0\d\d\b(?! [A-Z])", out.splitlines()[0])


def test_hint_errors_are_one_line_with_status_2(capsys, tmp_path):
    path = _blunder_record(tmp_path)
    cases = [
        (("--player", "zed"), "unknown player 'zed'"),
        (("--player", "ann", "--line", "99"), "line 99 is out of range"),
        (("--player", "ann", "--line", "0"), "line 0 is out of range"),
        (("--player", "bob", "--line", "3"), "after line 3 it is ann's turn, not bob's; bob is next to move after line 4 (--line 4)"),
        (("--player", "ann", "--line", "2"), "after line 2 nobody is to move: the game waits for the next deal; ann is next to move after line 3"),
    ]
    for extra, message in cases:
        code, out, err = run(capsys, "hint", str(path), *extra)
        assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, (extra, err)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().replace('"W040"', '"W999"', 1))
    code, _, err = run(capsys, "hint", str(bad), "--player", "ann")
    assert code == 2 and f"{bad}:3:" in err and "Traceback" not in err
    code, _, err = run(capsys, "hint", str(tmp_path / "missing.jsonl"), "--player", "ann")
    assert code == 2 and "cannot read the record" in err


def test_review_json_shape_on_a_tracked_record(capsys, tmp_path):
    path = _blunder_record(tmp_path, tracked=True)
    code, out, err = run(capsys, "review", str(path), "--player", "ann", "--samples", "16", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["thresholds"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1}
    assert data["unseen_cards"] == 0  # completion filled bob's hand from his play
    mark = data["marks"][0]
    assert [m["line"] for m in data["marks"]] == [4, 6]  # line 8 is forced, so unmarked
    assert mark["line"] == 4 and mark["verdict"] == "blunder" and mark["player"] == "ann"
    assert set(mark) == {"line", "index", "player", "round", "played", "verdict", "drop", "margin_drop", "win_played", "win_best", "best", "why"}


def test_review_text_and_errors(capsys, tmp_path):
    path = _blunder_record(tmp_path)
    code, out, _ = run(capsys, "review", str(path), "--samples", "16")
    assert code == 0 and "BLUNDER" in out and "better: 6P W006 Servant of Powers" in out
    code, _, err = run(capsys, "review", str(path), "--player", "zed")
    assert code == 2 and "unknown player 'zed'" in err
    illegal = tmp_path / "illegal.jsonl"
    illegal.write_text(path.read_text().replace('["W003", "W007"]', '["W003"]'))
    code, _, err = run(capsys, "review", str(illegal))
    assert code == 2 and f"{illegal}:4:" in err and "R4" in err


def test_hint_on_a_sample_game(capsys):
    code, out, err = run(capsys, "hint", str(sample_path("duel")), "--player", "bob", "--line", "4", "--json", "--budget-ms", "0")
    assert code == 0, err
    assert json.loads(out)["moves"]


def test_hint_names_whose_turn_it_is_and_where_the_player_is_next_to_move(capsys):
    duel = str(sample_path("duel"))
    code, out, err = run(capsys, "hint", duel, "--player", "bob", "--line", "5")
    assert code == 2 and out == ""
    assert err.strip() == f"rop hint: {duel}: after line 5 it is ann's turn, not bob's; bob is next to move after line 6 (--line 6)"
    code, _, err = run(capsys, "hint", duel, "--player", "ann")
    assert code == 2 and err.strip() == f"rop hint: {duel}: at the end of the record the game is over"


def _one_estimate(capsys, path, *extra):
    """The review's mark of bob's 3E at line 12 and the hint of the position it was played in."""
    code, out, err = run(capsys, "review", str(path), "--player", "bob", "--json", *extra)
    assert code == 0, err
    mark = next(m for m in json.loads(out)["marks"] if m["line"] == 12)
    code, out, err = run(capsys, "hint", str(path), "--player", "bob", "--line", "11", "--json", *extra)
    assert code == 0, err
    return mark, json.loads(out)["moves"]


def test_a_hint_and_a_review_of_one_position_give_one_estimate(capsys, tmp_path):
    # duel.jsonl: bob plays 3E at line 12, in the position after line 11. The review judges that
    # decision from the same worlds, seed and samples as the hint of that position, so its
    # figures are the hint's, number for number, and its better move is the hint's first.
    path = tmp_path / "duel.jsonl"
    path.write_text("\n".join(sample_path("duel").read_text().splitlines()[:12]) + "\n")
    for extra in ((), ("--samples", "40", "--seed", "5")):
        mark, moves = _one_estimate(capsys, path, *extra)
        assert mark["played"].startswith("3E W023")
        played = next(m for m in moves if m["move"].startswith("3E W023"))
        assert mark["win_played"] == played["win"]
        assert mark["best"] == moves[0]["move"] and mark["win_best"] == moves[0]["win"]
        # The hint's ranking is the one the docs describe: by the chance to win, then the margin.
        assert [(-m["win"], -m["margin"]) for m in moves] == sorted((-m["win"], -m["margin"]) for m in moves)
