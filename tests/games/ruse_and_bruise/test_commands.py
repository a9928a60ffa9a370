"""Ruse and Bruise's commands: ``rop cards values`` (the values table entered once, shown,
kept with the table's settings, B4), ``rop cards list``, ``rop legal`` (one column's
distribution, exactly as record-format.md prints it), ``rop simulate``, and ``rop replay`` of
its records (the scores' JSON exactly as the format says)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.commands import ask_values
from companion.games.ruse_and_bruise.samples import SAMPLES, sample_path
from companion.games.ruse_and_bruise.table_values import load_values, save_values, values_path
from companion.games.ruse_and_bruise.values import EXAMPLE, ValuesTable, ValuesTableError
from companion.records.format import load_game
from tests.games.ruse_and_bruise.test_record import lines as record_lines

LEGAL = [
    "legal",
    "--game",
    "ruse-and-bruise",
    "--goal",
    "music-3a",
    "--cards",
    "blue:KING,white:WIZ,blue:DOPPEL,red:MINNE",
    "--values",
    "ASSN=6,MUSK=9,WITCH=4,EXPL=13,TRAITOR=10,PRINCE=15,HERMIT=17,DRAGON=11,STORM=3,WIZ=2,SQUIRE=7,GIANT=1,BEGGAR=1",
]


def test_rop_legal_prints_the_record_formats_json_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*LEGAL, "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == {
        "goal": "music-3a",
        "cards": [
            {"owner": "blue", "card": "KING", "value": None, "removed": "WIZ"},
            {"owner": "white", "card": "WIZ", "value": 2, "removed": None},
            {"owner": "blue", "card": "DOPPEL", "value": None, "removed": "WIZ"},
            {"owner": "red", "card": "MINNE", "value": None, "removed": "WIZ"},
        ],
        "steps": [{"ability": "WIZ", "cards": [2], "neutralized": False, "removed": [1, 3, 4]}],
        "sums": {"blue": 0, "white": 2, "red": 0},
        "winner": "white",
        "why": "highest",
    }
    assert list(json.loads(out)) == ["goal", "cards", "steps", "sums", "winner", "why"]


def test_rop_legal_in_words_step_by_step(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(LEGAL) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Goal card music-3a (music 3 (a), 3 points)",
        "  WIZ: white's Wizard (2) removes every card of 10 or more (B20): blue's King (1), blue's Doppelgänger (3) as red's Minnesinger (4), red's Minnesinger (4)",
        "  1. blue's King: removed by the Wizard (B20): no value",
        "  2. white's Wizard: 2, from the values table (B4)",
        "  3. blue's Doppelgänger: removed by the Wizard (B20): no value",
        "  4. red's Minnesinger: removed by the Wizard (B20): no value",
        "  sums: blue 0, white 2, red 0",
        "  white has the highest sum, 2 (B26)",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cards", "blue:KING,blue:KING"], "rop legal: B1: blue has one King: each owner has one of each card"),
        (["--cards", "blue-KING"], "rop legal: --cards: write each card as owner:CARD (blue:KING), not 'blue-KING'"),
        (["--goal", "music-9"], "rop legal: unknown goal card"),
        (["--goal", "KING"], "rop legal: --goal: KING is an influence card"),
        (["--values", "ASSN=6"], "rop legal: the values table lacks MUSK"),
        (["--values", LEGAL[-1].replace("WIZ=2", "WIZ=12")], "rop legal: WIZ is on the Witch's list: 9 or less, not 12 (B4)"),
    ],
)
def test_rop_legal_refuses_a_column_the_rulings_do_not_allow(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = list(LEGAL)
    for k in range(0, len(args), 2):
        argv[argv.index(args[k]) + 1] = args[k + 1]
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(message)


def test_without_values_a_command_takes_the_tables_own_or_says_how_to_enter_it(capsys: pytest.CaptureFixture[str]) -> None:
    argv = LEGAL[:-2] + ["--json"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "this table has no values table yet" in err and "rop cards values --game ruse-and-bruise" in err and "(B4)" in err
    save_values(ValuesTable.from_mapping({**EXAMPLE.to_json(), "WIZ": 5}))
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["cards"][1]["value"] == 5
    # The example table only when asked for by name.
    assert main(LEGAL[:-1] + ["example", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"][1]["value"] == 2


def test_rop_cards_values_keeps_the_table_given_with_the_tables_settings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["cards", "values", "--game", "ruse-and-bruise", "--values", EXAMPLE.text().replace("HERMIT=17", "HERMIT=16")]) == 0
    out = capsys.readouterr().out
    assert f"kept the values table in {values_path()}" in out and "  HERMIT    16   on the Wizard's list: 10 or more" in out
    assert load_values() == ValuesTable.from_mapping({**EXAMPLE.to_json(), "HERMIT": 16})
    assert json.loads(values_path().read_text())["game"] == "ruse-and-bruise"
    # A table the bounds refuse keeps what was kept.
    assert main(["cards", "values", "--game", "ruse-and-bruise", "--values", EXAMPLE.text().replace("EXPL=13", "EXPL=7")]) == 2
    assert capsys.readouterr().err == "rop cards: EXPL is on the Wizard's list: 10 or more, not 7 (B4); nothing was kept\n"
    assert load_values() is not None and load_values()["HERMIT"] == 16  # type: ignore[index]
    assert main(["cards", "values", "--game", "ruse-and-bruise", "--values", "example"]) == 2
    assert "the example table is for trying the companion out" in capsys.readouterr().err
    # --show, and another directory with --calibration.
    assert main(["cards", "values", "--game", "ruse-and-bruise", "--show"]) == 0
    shown = capsys.readouterr().out
    assert "as --values: ASSN=6,MUSK=9,WITCH=4,EXPL=13,TRAITOR=10,PRINCE=15,HERMIT=16" in shown
    assert main(["cards", "values", "--game", "ruse-and-bruise", "--show", "--calibration", str(tmp_path)]) == 2
    assert "this table has no values table yet" in capsys.readouterr().err


def test_rop_cards_values_asks_card_by_card_and_asks_again_when_a_bound_is_broken() -> None:
    answers = io.StringIO("6\n9\n4\n7\n13\n10\n15\n17\n11\n3\nwizard\n2\n7\n1\n1\n")
    out = io.StringIO()
    table = ask_values(answers, out)
    assert table == EXAMPLE
    said = out.getvalue()
    assert "EXPL (Explorer, on the Wizard's list: 10 or more): " in said
    assert "  EXPL is on the Wizard's list: 10 or more, not 7 (B4)" in said
    assert "  WIZ must be a whole number, 0 or more, not 'wizard' (B4)" in said
    # Enter keeps the number the table has; an input that ends keeps nothing.
    assert ask_values(io.StringIO("\n" * 13), io.StringIO(), EXAMPLE) == EXAMPLE
    assert ask_values(io.StringIO("6\n9\n"), io.StringIO()) is None


def test_rop_cards_values_on_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("6\n9\n4\n13\n"))
    assert main(["cards", "values", "--game", "ruse-and-bruise"]) == 2
    assert capsys.readouterr().err == "rop cards: the values table is not complete: nothing was kept\n" and load_values() is None
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(str(n) for _, n in EXAMPLE.items()) + "\n"))
    assert main(["cards", "values", "--game", "ruse-and-bruise"]) == 0
    assert load_values() == EXAMPLE


def test_a_damaged_values_file_is_named_and_never_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    path = values_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"game": "ruse-and-bruise", "values": {"ASSN": 6}}')
    with pytest.raises(ValuesTableError, match=f"{path}: the values table lacks MUSK"):
        load_values()
    assert main(LEGAL[:-2]) == 2
    assert str(path) in capsys.readouterr().err


def test_rop_cards_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "list", "--game", "ruse-and-bruise"]) == 0
    out = capsys.readouterr().out
    assert "  KING      King                number       20 (B2)" in out
    assert "  ALCH      Alchemist           number       12 under alchemy, else 8 (B3)" in out
    assert "  EXPL      Explorer            immediate    from your values table (B4): not entered yet" in out
    assert "This table has no values table yet" in out
    assert main(["cards", "list", "--game", "ruse-and-bruise", "--values", "example"]) == 0
    assert "  EXPL      Explorer            immediate    13 (your values table, B4)" in capsys.readouterr().out
    assert main(["cards", "list"]) == 2
    assert capsys.readouterr().err == "rop cards: Rule of Power has no cards command (--game ruse-and-bruise has)\n"


def test_rop_simulate_writes_a_complete_legal_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["simulate", "--game", "ruse-and-bruise", "--players", "3", "--seed", "4", "-o", str(out)]) == 2
    assert "this table has no values table yet" in capsys.readouterr().err and not out.exists()
    assert main(["simulate", "--game", "ruse-and-bruise", "--players", "3", "--seed", "4", "--values", "example", "--level", "rule-of-thumb", "-o", str(out)]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {out}: 6 rounds, ")
    state = load_game(out)
    assert state.is_game_over() and state.setup.values == EXAMPLE and state.players == ("ann", "bob", "cy")
    again = tmp_path / "again.jsonl"
    assert main(["simulate", "--game", "ruse-and-bruise", "--players", "3", "--seed", "4", "--values", "example", "--level", "rule-of-thumb", "-o", str(again)]) == 0
    assert again.read_text() == out.read_text()  # a seed makes the game again
    # The table's own values table when it has one.
    save_values(ValuesTable.from_mapping({**EXAMPLE.to_json(), "GIANT": 2}))
    assert main(["simulate", "--game", "ruse-and-bruise", "--players", "2", "-o", str(out)]) == 0
    assert load_game(out).setup.values["GIANT"] == 2  # type: ignore[index]
    with pytest.raises(SystemExit):
        main(["simulate", "--game", "ruse-and-bruise", "--players", "7"])
    assert "--players: 7 is out of range: a whole number from 2 to 6" in capsys.readouterr().err


def test_rop_replay_prints_the_scores_json_exactly_as_the_format_says(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(record_lines()) + "\n")
    assert main(["replay", "--json", str(path)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert list(got) == ["record", "game", "rounds", "goal_cards", "scores", "finished", "winner", "draw"]
    assert got["record"] == str(path) and got["game"] == "ruse-and-bruise"
    assert got["rounds"][0] == {
        "columns": [
            {
                "column": 1,
                "goal": "music-3a",
                "cards": [
                    {"owner": "bob", "card": "ASSN", "value": 6, "removed": None},
                    {"owner": "ann", "card": "STORM", "value": 3, "removed": None},
                    {"owner": "bob", "card": "WIZ", "value": 2, "removed": None},
                ],
                "sums": {"bob": 8, "ann": 3},
                "winner": "bob",
                "why": "highest",
            },
            {
                "column": 2,
                "goal": "trade-2",
                "cards": [{"owner": "ann", "card": "KING", "value": 20, "removed": None}, {"owner": "bob", "card": "QUEEN", "value": 16, "removed": None}],
                "sums": {"ann": 20, "bob": 16},
                "winner": "ann",
                "why": "highest",
            },
        ]
    }
    assert got["goal_cards"] == {"ann": ["trade-2", "fencing-1"], "bob": ["music-3a", "religion-3a"]}
    assert got["scores"] == {"ann": {"plain": 3, "doubled": None, "score": 3}, "bob": {"plain": 6, "doubled": None, "score": 6}}
    # An unfinished record: the distributed rounds only, no winner.
    assert (got["finished"], got["winner"], got["draw"]) == (False, None, False)
    assert main(["replay", str(path)]) == 0
    words = capsys.readouterr().out
    assert "Round 1: music-3a to bob (highest), trade-2 to ann (highest)" in words
    assert "Not finished: round 2, round 3 begins: the top goal card of each stack is turned over (B7)" in words


def test_every_shipped_sample_replays_and_finishes(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(SAMPLES) == {"ruse-2", "ruse-3", "ruse-4", "ruse-5", "ruse-6", "ruse-by-ann-4"}
    for name in SAMPLES:
        state = load_game(sample_path(name))
        assert state.is_game_over() and state.setup.values == EXAMPLE
        summary = GAME.summary(state)
        assert summary["finished"] and len(summary["rounds"]) == 6
        assert (summary["winner"] is None) == summary["draw"]
    assert [len(load_game(sample_path(f"ruse-{n}")).players) for n in range(2, 7)] == [2, 3, 4, 5, 6]
    assert main(["replay", "--samples"]) == 0
    listed = capsys.readouterr().out
    assert "ruse-by-ann-4" in listed and "Ruse and Bruise: 4 players as ann's companion keeps it" in listed
