"""rop replay for club archives: each JSON line names its record, its players and each
point's reasons; the shipped samples are listed; an unfinished record says where it stops."""

from __future__ import annotations

import json

from companion.cli import main
from companion.games.rule_of_power.samples import SAMPLES, sample_path


def test_each_json_line_names_its_record_players_and_reasons(capsys):
    paths = [str(sample_path("duel")), str(sample_path("teams-4"))]
    assert main(["replay", *paths, "--json"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["record"] == paths[0] and first["players"] == ["ann", "bob"] and first["sides"] == ["ann", "bob"]
    assert second["record"] == paths[1] and len(second["players"]) == 4 and len(second["sides"]) == 2
    for data in (first, second):
        for number, rnd in enumerate(data["rounds"], start=1):
            assert rnd["number"] == number and rnd["dealer"] in data["players"]
            reasons = rnd["reasons"]
            assert set(reasons) >= {"world_cards", "power_cards", "pride_of_dragons", "power_ring", "explanation"}
            assert any(line.startswith("Pride of Dragons") for line in reasons["explanation"])


def test_samples_are_listed_with_their_paths(capsys):
    assert main(["replay", "--samples"]) == 0
    out = capsys.readouterr().out
    for name in SAMPLES:
        assert name in out and str(sample_path(name)) in out
    assert "rop demo --sample" in out


def test_no_record_asks_for_one(capsys):
    assert main(["replay"]) == 2
    assert "--samples" in capsys.readouterr().err


def test_an_unfinished_record_says_where_it_stops(capsys, tmp_path):
    lines = sample_path("duel").read_text().splitlines()
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:6]) + "\n")
    assert main(["replay", str(part)]) == 0
    out = capsys.readouterr().out
    assert "Unfinished game: no round finished yet; round 1 stops with" in out
    assert "round(s)" not in out
    header = tmp_path / "header.jsonl"
    header.write_text(lines[0] + "\n")
    assert main(["replay", str(header)]) == 0
    assert "no round finished yet; the first round is next" in capsys.readouterr().out
