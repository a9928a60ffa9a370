"""Love, Money, Power, Death's coach: a hint for any player still to commit, whatever order the
others commit in (L6); never a peek at a card face down (two worlds that differ only in what
the player cannot see get the same advice, number for number); its words for a newcomer;
``rop hint`` and ``rop review`` on an ``lmpd-record/1``; its rule-of-thumb players and the
benchmark that measures the coach against them."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bench import bench_coach_lmpd
from companion.cli import main
from companion.coach import Coach, CoachError
from companion.coach.model import World
from companion.coach.search import Search
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.coach.model import MODEL, OPPONENTS
from companion.games.love_money_power_death.coach.worlds import LmpdWorlds
from companion.games.love_money_power_death.moves import Commit
from companion.games.love_money_power_death.policies import VIEW_PLAYERS
from companion.games.love_money_power_death.samples import sample_path
from companion.games.love_money_power_death.state import LmpdState

from tests.games.love_money_power_death.helpers import dealt, play_round, random_game

HANDS = {"ann": ["5L", "2Ma", "3Pa"], "bob": ["4La", "1Mb", "A2"], "cy": ["3Da", "2Pb", "4Ma"]}


def _advice(state: LmpdState, player: str, seed: int = 4, samples: int = 12) -> dict[str, Any]:
    data = Coach("fast").advise(state, player, samples=samples, seed=seed).to_json()
    data.pop("elapsed_ms")
    return data


class Peeking(LmpdWorlds):
    """A coach that cheats: every world is the real table, the others' commits included."""

    def sample(self, rng: random.Random) -> World:
        return World(self.state.copy(), None)


def _peeking(state: LmpdState, player: str) -> dict[str, Any]:
    search = Search(state, player, seed=4, level=Coach("fast").level)
    search.worlds = Peeking(search.game, player)
    data = search.run(samples=12).advice().to_json()
    data.pop("elapsed_ms")
    return data


@pytest.mark.parametrize("order", list(itertools.permutations(HANDS)), ids="-".join)
def test_every_player_still_to_commit_gets_a_hint_whatever_the_order(order: tuple[str, ...]) -> None:
    state = dealt(hands=HANDS)
    for k, committing in enumerate(order):
        for player in order[k:]:
            advice = Coach("fast").advise(state, player, samples=3, seed=1)
            assert advice.player == player
            assert {m.move for m in advice.moves} == set(state.moves_of(player))
        for done in order[:k]:
            with pytest.raises(CoachError, match=f"^{done} has no decision now"):
                Coach("fast").advise(state, done, samples=1)
        state.push(Commit.of(committing, HANDS[committing][0]))
    with pytest.raises(CoachError, match="the noble to be turned up"):
        Coach("fast").advise(state, "ann", samples=1)


def test_two_worlds_differing_only_in_a_commit_face_down_get_the_same_advice() -> None:
    # ann has committed her 5L in one world, her 1Db in the other (her hand keeping the same
    # other two cards): bob sees "ann committed" in both (L6, L7) and is told the same.
    high = dealt(hands=HANDS)
    high.push(Commit.of("ann", "5L"))
    low = dealt(hands={**HANDS, "ann": ["1Db", "2Ma", "3Pa"]})
    low.push(Commit.of("ann", "1Db"))
    assert high.view("bob") == low.view("bob") and high.view("ann") != low.view("ann")
    assert _advice(high, "bob") == _advice(low, "bob")
    # The test can tell: a coach that saw ann's card would advise bob otherwise (against a
    # Love 5 every Love card of his is lost).
    assert _peeking(high, "bob") != _peeking(low, "bob")


def test_two_worlds_differing_in_every_card_the_player_cannot_see_get_the_same_advice() -> None:
    # Later in the game: the same rounds revealed, the same hand for cy; the other hands, the
    # piles, the cards set aside and the order of the nobles all differ.
    first = dealt(hands=HANDS, draws={"ann": ["1La"], "bob": ["1Lb"], "cy": ["5P"]}, order=["N3P", "N2L"])
    second = dealt(
        hands={"ann": ["5L", "5M", "A1"], "bob": ["4La", "A3", "5D"], "cy": HANDS["cy"]},
        draws={"ann": ["2Lb"], "bob": ["3Lb"], "cy": ["5P"]},
        order=["N3P", "N5L"],
    )
    for state in (first, second):
        play_round(state, "N3P", {"ann": "5L", "bob": "4La", "cy": "2Pb"})
        state.push(Commit.of("ann", state.hand("ann")[0].id))
    assert first.view("cy") == second.view("cy")
    assert first.view("ann") != second.view("ann") and first.view("bob") != second.view("bob")
    assert _advice(first, "cy") == _advice(second, "cy")


def test_the_coach_judges_only_a_hand_it_has_seen() -> None:
    state = GAME.new_state(GAME.make_setup(["ann", "bob"]))
    from companion.games.love_money_power_death.moves import Deal

    state.push(Deal())
    with pytest.raises(CoachError, match="has not seen 3 of the 3 cards in ann's hand"):
        Coach("fast").advise(state, "ann", samples=1)


def test_the_hint_tells_the_chance_to_win_the_noble_and_the_game_in_plain_words() -> None:
    state = dealt(hands=HANDS)
    advice = Coach("fast").advise(state, "bob", samples=40, seed=2)
    assert len(advice.moves) == 3
    for m in advice.moves:
        assert 0.0 <= m.win <= 1.0
        assert m.reasons and m.reasons[0].startswith("wins this round's noble (its suit unknown until everyone has committed, L7) in ")
        assert all(re.search(r"\bL\d+\b", r) for r in m.reasons)  # every reason names its ruling
    agent = next(m for m in advice.moves if MODEL.describe(m.move).startswith("commit A2"))
    # A lone agent wins whatever the noble (L9): the agent is the likeliest to win it.
    assert agent.feats["noble"] == max(m.feats["noble"] for m in advice.moves) > 0


def test_rop_hint_and_rop_review_read_an_lmpd_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(sample_path("lmpd-3"))
    code = main(["hint", path, "--player", "ann", "--line", "3", "--samples", "6"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("ann to move after line 3 (round 1 of 10); 10 nobles face down")
    assert "committed: cy" in out and "3Da" not in out  # cy's commit is face down to ann
    assert "wins the game" in out and "wins this round's noble" in out
    code = main(["hint", path, "--player", "ann", "--line", "3", "--samples", "6", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["player"] == "ann" and {m["card"] for m in data["moves"]} <= {"2Pb", "3Mb", "1Db"}
    assert main(["hint", path, "--player", "cy", "--line", "3", "--samples", "2"]) == 2
    assert "cy has no decision now" in capsys.readouterr().err
    record = tmp_path / "short.jsonl"
    record.write_text("".join(Path(path).read_text().splitlines(keepends=True)[:9]))
    code = main(["review", str(record), "--player", "bob", "--samples", "4", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    marks = json.loads(out)["marks"]
    assert [m["player"] for m in marks] == ["bob", "bob"]  # one commit a round


def _views(seed: int) -> list[Any]:
    state, _ = random_game(seed, stop=40)
    return [state.view(p) for p in state.deciding]


@pytest.mark.parametrize("name", sorted(VIEW_PLAYERS))
def test_each_rule_of_thumb_player_chooses_among_its_own_decisions_from_its_view(name: str) -> None:
    player = VIEW_PLAYERS[name]
    for seed in range(12):
        for view in _views(seed):
            move = player(view, random.Random(seed))
            assert move in view.decisions
            assert player(view, random.Random(seed)) == move  # the view and the seed decide


def test_the_coach_is_measured_against_the_documented_players() -> None:
    assert tuple(MODEL.opponents()) == OPPONENTS
    doc = (Path(__file__).parents[3] / "docs" / "coach.md").read_text()
    for name in OPPONENTS:
        assert f"`{name}`" in doc


def test_the_benchmark_plays_paired_deals(capsys: pytest.CaptureFixture[str]) -> None:
    seat = bench_coach_lmpd.CoachSeat(samples=2)
    figures = bench_coach_lmpd.pairing(seat, bench_coach_lmpd.ViewSeat(VIEW_PLAYERS["rule-of-thumb"]), 2, 1, seed=1)
    assert figures.games == 2 and len(figures.margins) == 1 and seat.cpu_ms
    print(figures.line("coach vs rule-of-thumb", 2, 0.0))
    assert "2 players, 1 deals: wins" in capsys.readouterr().out
