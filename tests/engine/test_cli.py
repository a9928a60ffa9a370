"""The rop command: legal, score, replay, simulate (through its real entry point)."""

import json
import subprocess
import sys

import pytest

from companion.cli import main
from companion.games.rule_of_power.samples import SAMPLES, sample_path


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_json(capsys):
    code, out, _ = run(capsys, "legal", "--center", "W002,W014,W035", "--card", "W006", "--json")
    assert code == 0 and json.loads(out)["options"] == [["W002", "W014"]]


def test_legal_json_none_and_empty_centre(capsys):
    assert json.loads(run(capsys, "legal", "--center", "W009", "--card", "W003", "--json")[1])["options"] == []
    assert json.loads(run(capsys, "legal", "--center", "", "--card", "W011", "--crystal", "--json")[1])["options"] == []


def test_legal_crystal_and_expansion(capsys):
    out = run(capsys, "legal", "--center", "W002,W014,W035", "--card", "F002", "--crystal", "--json")[1]
    assert json.loads(out)["options"] == [["W002", "W014", "W035"]]
    out = run(capsys, "legal", "--center", "W041,W002,W009", "--card", "W044", "--json")[1]
    assert json.loads(out)["options"] == [["W041"]]


def test_legal_human_output_and_errors(capsys):
    code, out, _ = run(capsys, "legal", "--center", "W006,W036,W012,W024", "--card", "W016")
    assert code == 0 and "same value must be taken alone (R4)" in out and "W036" in out
    code, _, err = run(capsys, "legal", "--center", "W002,W777", "--card", "W006")
    assert code == 2 and "W777" in err
    code, _, err = run(capsys, "legal", "--center", "W002", "--card", "F004")
    assert code == 2 and "captures nothing" in err


def test_score_json(capsys, tmp_path):
    f = tmp_path / "round.json"
    f.write_text(json.dumps({"sides": {"ann": {"captured": ["W001", "W002", "W003", "W004", "W007", "W017"], "sweeps": 1}, "bob": {"captured": ["W027", "W016"], "sweeps": 0}}, "expansion": False}))
    code, out, _ = run(capsys, "score", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["rule_of_power"] is None
    assert data["sides"]["ann"] == {"world_cards": 1, "power_cards": 1, "fire_dragon": 1, "pride_of_dragons": 1, "power_master": 3, "power_points": 1, "sweeps": 1, "total": 9}
    assert data["sides"]["bob"]["total"] == 0
    assert data["reasons"]["pride_of_dragons"]["sequences"]["ann"] == [2, 0, 0, 1, 1, 1, 1]


def test_score_human_output_gives_reasons(capsys, tmp_path):
    f = tmp_path / "round.json"
    f.write_text(json.dumps({"sides": {"ann": {"captured": ["W007", "W017", "W006", "W016", "W005", "W015"]}, "bob": {"captured": ["W027", "W037", "W026", "W036", "W025"]}}}))
    code, out, _ = run(capsys, "score", str(f))
    assert code == 0 and "ahead on the 5s" in out and "Fire Dragon: ann holds 7P W007 Fire Dragon (+1, R10)" in out
    f.write_text(json.dumps({"sides": {"ann": {"captured": ["W017"]}, "bob": {"captured": ["W027"]}}}))
    code, out, _ = run(capsys, "score", str(f))
    assert code == 0 and "Fire Dragon: no side has captured 7P W007 Fire Dragon, so no point (R10)" in out.splitlines()


@pytest.mark.parametrize(
    "content,message",
    [
        ('{"sides": {"ann": {"captured": ["W001", "W001x"]}}}', "W001x"),
        ('{"sides": {"ann": {"captured": ["W001"]}, "bob": {"captured": ["W001"]}}}', "both"),
        ('{"sides": {"ann": {"captured": ["W041"]}}}', "expansion"),
        ('{"sides": {"ann": {"captured": [], "sweeps": -1}}}', "sweeps"),
        ('{"sides": ', "not valid JSON"),
    ],
)
def test_score_rejects_bad_input(capsys, tmp_path, content, message):
    f = tmp_path / "round.json"
    f.write_text(content)
    code, _, err = run(capsys, "score", str(f), "--json")
    assert code == 2 and message in err and str(f) in err


def test_replay_json_one_line_per_record(capsys):
    paths = [str(sample_path(n)) for n in sorted(SAMPLES)]
    code, out, _ = run(capsys, "replay", *paths, "--json")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(paths)
    for line in lines:
        data = json.loads(line)
        assert set(data) == {"record", "players", "sides", "rounds", "totals", "winner"}
        assert data["record"] in paths and data["players"]
        assert all(r["reasons"]["explanation"] for r in data["rounds"])
        assert data["winner"] in data["totals"]
        sums = {s: sum(r["scores"][s]["total"] for r in data["rounds"]) for s in data["totals"]}
        assert sums == data["totals"]


def test_replay_illegal_record_exits_non_zero_with_line_and_rule(capsys, tmp_path):
    good = sample_path("duel").read_text().splitlines()
    # Make the first play after the first deal illegal: a card its player does not hold.
    k = next(i for i, line in enumerate(good) if '"event": "play"' in line)
    event = json.loads(good[k])
    event["card"] = "W007" if event["card"] != "W007" else "W017"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(good[:k] + [json.dumps(event)] + good[k + 1 :]) + "\n")
    code, out, err = run(capsys, "replay", str(sample_path("duel")), str(bad), "--json")
    assert code == 1
    first, second = out.splitlines()
    assert json.loads(first)["winner"]
    assert json.loads(second)["line"] == k + 1 and json.loads(second)["rule"]
    assert f"{bad}:{k + 1}:" in err


def test_simulate_writes_a_legal_finished_game(tmp_path, capsys):
    out = tmp_path / "game.jsonl"
    code, _, _ = run(capsys, "simulate", "--players", "4", "--teams", "2", "--seed", "7", "--fate", "--expansion", "-o", str(out))
    assert code == 0
    code, text, _ = run(capsys, "replay", str(out), "--json")
    data = json.loads(text)
    assert code == 0 and set(data["totals"]) == {"ann+cy", "bob+dee"} and data["winner"]
    again = tmp_path / "again.jsonl"
    run(capsys, "simulate", "--players", "4", "--teams", "2", "--seed", "7", "--fate", "--expansion", "-o", str(again))
    assert again.read_text() == out.read_text()  # a seed gives the same game


def test_simulate_rejects_bad_seating(capsys):
    code, _, err = run(capsys, "simulate", "--players", "5", "--teams", "2")
    assert code == 2 and "teams" in err


def test_console_script_runs():
    """The installed `rop` entry point (as the README uses it)."""
    result = subprocess.run([sys.executable, "-m", "companion.cli", "legal", "--center", "W002,W014", "--card", "W006", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout)["options"] == [["W002", "W014"]]
