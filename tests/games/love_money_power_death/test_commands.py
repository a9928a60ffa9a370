"""The commands, through ``rop`` itself: ``rop replay`` (the record format's scores object with
``--json``, the scores in words, the shipped samples), ``rop legal --game
love-money-power-death`` (the record format's example exactly; a query that describes no
possible moment refused with a non-zero status) and ``rop simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.query import legal, parse_query
from companion.games.love_money_power_death.samples import SAMPLES, sample_path
from companion.records.format import load_game

from .test_record import EXAMPLE, SCORES, write

LMPD = ["--game", "love-money-power-death"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


class TestReplay:
    def test_the_json_is_the_record_formats_object_exactly(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = write(tmp_path, EXAMPLE)
        code, out, err = run(capsys, "replay", str(path), "--json")
        assert code == 0 and err == ""
        printed = json.loads(out)
        assert printed.pop("record") == str(path)
        assert printed == SCORES and list(printed) == list(SCORES)

    def test_a_finished_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = sample_path("lmpd-3")
        code, out, _ = run(capsys, "replay", str(path), "--json")
        data = json.loads(out)
        state = load_game(path)
        outcome = state.outcome()
        assert code == 0 and outcome is not None
        assert data["finished"] is True and data["winners"] == list(outcome.winners) and data["tiebreak"] == outcome.tiebreak.value
        assert data["winner"] == outcome.winner and data["draw"] is outcome.draw and len(data["rounds"]) == 10
        assert sum(data["counts"].values()) + len(data["discarded"]) == 10
        assert data["totals"] == {p: sum(int(n[1]) for n in court) for p, court in data["courts"].items()}

    def test_the_scores_in_words(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = write(tmp_path, EXAMPLE)
        code, out, _ = run(capsys, "replay", str(path))
        assert code == 0
        assert out.splitlines() == [
            f"{path}: ann, bob, cy; 10 nobles: N2L N2M N2P N2D N3L N3M N3P N3D N5L N5P",
            "Round 1, N3P: ann 4Mb, bob A2, cy 2Pa; to bob: bob revealed the only agent (A2) (L9)",
            "Round 2, N2L: ann 1Da, bob 3Ma, cy 3Pb; to nobody: nobody revealed Love: bob's 3Ma and cy's 3Pb tie as the highest ranks: N2L is discarded (L8)",
            "Courts: ann -, bob N3P, cy -",
            "Discarded: N2L",
            "Totals: ann 0 (0 nobles), bob 3 (1 noble), cy 0 (0 nobles)",
            "Not finished: round 3 of 10",
            "",
        ]

    def test_a_broken_record_names_its_line_and_ruling(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        events = json.loads(json.dumps(EXAMPLE))
        events[6]["cards"]["ann"] = "1Da"
        path = write(tmp_path, events)
        code, out, err = run(capsys, "replay", str(path), "--json")
        assert code == 1 and f"{path}:7: L7: ann revealed 1Da but committed 4Mb [L7]" in err
        assert json.loads(out) == {"record": str(path), "error": "L7: ann revealed 1Da but committed 4Mb", "line": 7, "rule": "L7"}

    def test_the_samples_are_listed_and_replay(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "replay", "--samples")
        assert code == 0
        for name, sample in SAMPLES.items():
            assert name in out and str(sample_path(name)) in out and sample.description in out
        code, out, err = run(capsys, "replay", "--json", *(str(sample_path(n)) for n in SAMPLES))
        assert code == 0 and err == ""
        assert all(json.loads(line)["finished"] for line in out.splitlines())

    def test_the_samples_show_two_to_six_players_and_one_view(self) -> None:
        players = {len(load_game(sample_path(n)).players) for n in SAMPLES}
        assert players == {2, 3, 4, 5, 6}
        kept = sample_path("lmpd-seen-by-ann").read_text(encoding="utf-8").splitlines()
        deal = json.loads(kept[1])
        assert deal["piles"] is None and deal["order"] is None and list(deal["hands"]) == ["ann"]
        commits = [json.loads(x) for x in kept if '"commit"' in x]
        assert {c["player"] for c in commits if c["card"] is None} == {"bob", "cy"} and all(c["card"] for c in commits if c["player"] == "ann")
        whys = {r.why.value for n in SAMPLES for r in load_game(sample_path(n)).rounds}
        assert whys >= {"agent", "suit", "rank", "tie"}


class TestLegal:
    def test_the_record_formats_example(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(
            capsys, "legal", *LMPD, "--noble", "N3L", "--plays", "ann=3La,bob=A2,cy=?,dee=4Db", "--hands", "cy=1Pb+5M+A4", "--out", "2Pa+A1", "--json"
        )
        assert code == 0 and err == ""
        assert json.loads(out) == {"suit": "L", "winner": None, "why": None, "commits": {"cy": ["1Pb", "5M", "A4"]}}

    @pytest.mark.parametrize(
        "args, answer",
        [
            (["--noble", "N3L", "--plays", "ann=3La,bob=A2,cy=1Pb,dee=4Db"], {"suit": "L", "winner": "bob", "why": "agent", "commits": {}}),
            (["--noble", "N3L", "--plays", "ann=3La,bob=A2,cy=A5,dee=4Db"], {"suit": "L", "winner": "ann", "why": "suit", "commits": {}}),
            (["--noble", "N2P", "--plays", "ann=3La,bob=A2,cy=A5,dee=4Db"], {"suit": "P", "winner": "dee", "why": "rank", "commits": {}}),
            (["--noble", "N2P", "--plays", "ann=3La,bob=3Db"], {"suit": "P", "winner": None, "why": "tie", "commits": {}}),
            (["--noble", "N2P", "--plays", "ann=A3,bob=A1"], {"suit": "P", "winner": None, "why": "all-agents", "commits": {}}),
            (["--plays", "ann=3La,bob=3Db"], {"suit": None, "winner": None, "why": None, "commits": {}}),
            (["--noble", "n5-death", "--plays", "ann=,bob=A2", "--hands", "ann=1Da"], {"suit": "D", "winner": None, "why": None, "commits": {"ann": ["1Da"]}}),
        ],
    )
    def test_who_wins_the_round(self, capsys: pytest.CaptureFixture[str], args: list[str], answer: dict) -> None:
        code, out, _ = run(capsys, "legal", *LMPD, *args, "--json")
        assert code == 0 and json.loads(out) == answer

    def test_a_player_not_seen_may_commit_every_card_named_nowhere(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "legal", *LMPD, "--plays", "ann=3La,bob=?,cy=?", "--hands", "cy=1Pb", "--out", "2Pa+A1", "--json")
        commits = json.loads(out)["commits"]
        assert code == 0 and commits["cy"] == ["1Pb"] and len(commits["bob"]) == 42 - 4
        assert not {"3La", "1Pb", "2Pa", "A1"} & set(commits["bob"]) and "A6" in commits["bob"]

    def test_the_answer_in_words(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "legal", *LMPD, "--noble", "N3L", "--plays", "ann=3La,bob=A2,cy=?,dee=4Db", "--hands", "cy=1Pb+5M+A4")
        assert code == 0 and out.splitlines() == [
            "N3L is the noble: Love, 3 crowns",
            "ann 3La, bob A2, cy ?, dee 4Db",
            "Not decided: cy has not revealed yet",
            "cy may commit 1Pb or 5M or A4 (L6)",
        ]
        code, out, _ = run(capsys, "legal", *LMPD, "--noble", "N3L", "--plays", "ann=3La,bob=2Lb")
        assert out.splitlines()[-1] == "ann wins N3L: ann's 3La is the highest Love card (L8)"

    @pytest.mark.parametrize(
        "args, words",
        [
            (["--noble", "N3L", "--plays", "ann=3La,bob=3La"], "L14: 3La is named twice (ann's card and bob's card): a card comes out once"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--hands", "bob=3La"], "L14: 3La is named twice (ann's card and bob's hand)"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--out", "3La"], "L14: 3La is named twice (ann's card and --out)"),
            (["--noble", "N3L", "--plays", "ann=N3L,bob=?"], "L6: ann revealed N3L: nobles are never in a hand"),
            (["--noble", "N3L", "--plays", "ann=N2M,bob=?"], "L6: ann revealed N2M: nobles are never in a hand"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--hands", "bob=N2L"], "L6: bob's hand holds N2L"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--hands", "bob=1La+1Lb+2La+2Lb"], "L5: bob's hand: a hand holds at most 3 cards, not 4"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--hands", "ann=1La+1Lb+2La"], "L5: ann's hand: what is left of a hand after its card is revealed holds at most 2 cards, not 3"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--hands", "bob="], "L11: bob has no card to commit"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--out", "N2M"], "--out lists resources and agents known to be in no hand, not the noble N2M"),
            (["--noble", "3Ma", "--plays", "ann=3La,bob=?"], "L7: the round's noble is a noble, not 3Ma"),
            (["--noble", "N3L", "--plays", "ann=3La"], "L4: a round has two or more players, not 1"),
            (["--noble", "N3L", "--plays", "ann=3La,ann=?"], "L4: each player sits once: ann is named twice"),
            (["--noble", "N3L", "--plays", "ann=3La,bob=?", "--hands", "cy=1La"], "--hands: 'cy' is not in --plays"),
            (["--noble", "N3L", "--plays", "ann 3La,bob=?"], "--plays: write name=card"),
            (["--noble", "N3L", "--plays", "ann=3Lx,bob=?"], "'3Lx' is no card"),
            (["--noble", "N3L", "--plays", "ann=3L,bob=?"], "names two cards"),
        ],
    )
    def test_a_query_that_describes_no_possible_moment_is_refused(self, capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
        code, out, err = run(capsys, "legal", *LMPD, *args, "--json")
        assert code == 2 and out == "" and err.startswith("rop legal: ") and words in err

    def test_no_card_left_for_a_player_not_seen(self) -> None:
        from companion.games.love_money_power_death.cards import DEALT

        named = "+".join(c.id for c in DEALT[2:])
        with pytest.raises(ValueError, match="L14: no card is left for cy to commit: every resource and agent is named"):
            legal(*parse_query("N3L", f"ann={DEALT[0].id},bob=?,cy=?", f"bob={DEALT[1].id}", named))
        answer = legal(*parse_query("N3L", f"ann={DEALT[0].id},bob=?", "", named))
        assert answer.commits == {"bob": (DEALT[1],)}  # the one card named nowhere

    def test_the_help_is_the_games_own(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit):
            main(["legal", *LMPD, "--help"])
        out = capsys.readouterr().out
        assert "--noble" in out and "--hands" in out and "--out" in out and "L8" in out


class TestSimulate:
    def test_a_whole_legal_game_is_written(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "lmpd.jsonl"
        code, _, err = run(capsys, "simulate", *LMPD, "--players", "4", "--seed", "5", "-o", str(path))
        assert code == 0 and f"wrote {path}: 10 rounds; " in err
        state = load_game(path)
        assert state.is_game_over() and state.players == ("ann", "bob", "cy", "dee") and len(state.setup.nobles) == 10
        first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert first["format"] == "lmpd-record/1"

    def test_the_same_seed_the_same_game_to_standard_output(self, capsys: pytest.CaptureFixture[str]) -> None:
        outs = [run(capsys, "simulate", *LMPD, "--players", "3", "--seed", "9", "--level", "rule-of-thumb")[1] for _ in range(2)]
        assert outs[0] == outs[1] and len(outs[0].splitlines()) == 1 + 1 + 10 * 6 - 1

    def test_the_nobles_by_count_or_by_name_and_as_many_as_allowed(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        for args, nobles in (
            (["--players", "6"], 7),
            (["--players", "5", "--nobles", "4"], 4),
            (["--players", "2", "--nobles", "N5D,N2L", "--fives", "love-death"], 2),
            (["--players", "10", "--nobles", "4"], 4),
        ):
            path = tmp_path / "g.jsonl"
            code, _, err = run(capsys, "simulate", *LMPD, *args, "--seed", "1", "-o", str(path))
            assert code == 0, err
            state = load_game(path)
            assert len(state.setup.nobles) == nobles and state.is_game_over() and len(state.rounds) == nobles

    def test_a_table_the_rules_do_not_allow_is_refused(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "no.jsonl"
        code, _, err = run(capsys, "simulate", *LMPD, "--players", "5", "--nobles", "10", "-o", str(path))
        assert code == 2 and "rop simulate: L4: 5 players play with at most 8 nobles" in err and "nothing was written" in err
        assert not path.exists()
        code, _, err = run(capsys, "simulate", *LMPD, "--players", "3", "--nobles", "N2L,N7Q")
        assert code == 2 and "rop simulate: " in err

    def test_every_table_of_two_to_six_at_both_levels(self) -> None:
        from companion.games.love_money_power_death.policies import simulate

        for players in range(2, 7):
            for level in (0, 1):
                setup, moves = simulate(GAME.default_players(players), seed=players, level=level)
                state = load_game_from(setup, moves)
                assert state.is_game_over() and len(state.rounds) == len(setup.nobles)


def load_game_from(setup, moves):  # type: ignore[no-untyped-def]
    from companion.records.format import iter_record_lines

    return load_game(list(iter_record_lines(setup, moves)))


def test_the_samples_are_what_their_seeds_make(tmp_path: Path) -> None:
    from companion.games.love_money_power_death.samples.generate import generate

    generate(tmp_path)
    for name in SAMPLES:
        assert (tmp_path / f"{name}.jsonl").read_text(encoding="utf-8") == sample_path(name).read_text(encoding="utf-8")
