"""Ruse and Bruise's coach: the quick reckoning of a column is the distribution's own
(B18-B26), decisions name only what the player may know, the rule-of-thumb players never
peek, the advice and the review read records, and the coach beats random play on a fixed
set of paired games (the comparison with the rule-of-thumb player is ``./run bench coach``)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.coach_ruse_and_bruise import RabCoachPlayer, RabSimple, pairing, play_game, rab_deal
from companion.cli import main
from companion.coach import Coach, stats
from companion.games.ruse_and_bruise import GAME
from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE, Influence
from companion.games.ruse_and_bruise.coach.opponents import OPPONENTS
from companion.games.ruse_and_bruise.coach.policies import RolloutPolicy, realize
from companion.games.ruse_and_bruise.coach.reasons import Risk, TurnWatch, risk_reasons
from companion.games.ruse_and_bruise.coach.reckon import lead_of, reckon
from companion.games.ruse_and_bruise.distribution import distribute
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Place
from companion.games.ruse_and_bruise.policies import RandomPlayer, RuleOfThumbPlayer, simulate
from companion.games.ruse_and_bruise.samples import sample_path
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.records.format import write_record

_ID = Influence._by_id


@st.composite
def columns(draw: st.DrawFn) -> tuple[object, list[tuple[str, Influence]]]:
    goal = draw(st.sampled_from(GOALS))
    cards = draw(st.lists(st.sampled_from(INFLUENCE), min_size=1, max_size=goal.value, unique=True))
    owners = draw(st.lists(st.sampled_from(("ann", "bob", "cy")), min_size=len(cards), max_size=len(cards)))
    return goal, list(zip(owners, cards))


@settings(max_examples=400, deadline=None)
@given(columns())
def test_a_column_of_known_cards_is_reckoned_as_the_distribution_makes_it(column) -> None:  # type: ignore[no-untyped-def]
    goal, cards = column
    ids = {c.id for _, c in cards}
    done = distribute(goal, cards, EXAMPLE)
    r = reckon(goal, cards, EXAMPLE)
    if r.pair is not None:
        assert r.pair == done.winner and done.why.startswith("pair")  # B21
        return
    if "DOPPEL" in ids and ids & {"WIZ", "WITCH"}:
        return  # the one shortcut: what a Doppelgänger copies beside a Wizard or a Witch (B20, B22)
    # The owners taking part (B26) and their sums, number for number.
    assert r.sums == {o: float(v) for o, v in done.sums.items() if o in done.taking_part}
    if done.winner is not None:
        lead = lead_of(done.winner, r)
        assert lead is not None and lead >= 0  # the winner leads, or ties and is closest (B26)


def _turns(seeds: range, players: int = 3) -> list[RabState]:
    """Every position of simulated games where a player decides."""
    found = []
    for seed in seeds:
        setup, moves = simulate(["ann", "bob", "cy", "dee"][:players], EXAMPLE, seed=seed, level="rule-of-thumb")
        state = GAME.new_state(setup, keep_history=False)
        for move in moves:
            if state.to_move is not None:
                found.append(state.copy(keep_history=False))
            state.push(move, check=False)
    return found


def test_a_views_decisions_are_the_players_own_and_each_is_legal_once_drawn() -> None:
    rng = random.Random(1)
    kinds = set()
    for state in _turns(range(3)):
        me = state.to_move
        assert me is not None
        view = state.view(me)
        hand = set(view.hand)
        legal = {state.decision(m) for m in state.legal_moves}
        assert {state.decision(d) for d in view.decisions} == legal  # every decision, once
        for d in view.decisions:
            kinds.add(type(d).__name__)
            card = getattr(d, "card", None)
            assert card is None or card in hand  # the player's own cards alone (B8, B14)
            assert state.is_legal(realize(state, d, None, rng))  # the draw settled by chance (B9)
        assert all(state.view(p).decisions == () for p in state.players if p != me)
    assert {"Place", "Cloak", "Swap"} <= kinds


def test_the_rule_of_thumb_players_decide_from_the_view_alone() -> None:
    # In another world of the view (every other player's hidden cards dealt again) each
    # player chooses the same: it cannot peek.
    rng = random.Random(4)
    spots = _turns(range(2), players=4)[::7]
    players = {**OPPONENTS, "quick": RolloutPolicy(noise=0.0)}
    for state in spots:
        me = state.to_move
        assert me is not None
        world = state.resample(me, rng)
        assert world.view(me) == state.view(me)
        for name, policy in players.items():
            here = policy(state.view(me), random.Random(0))
            assert here in state.view(me).decisions, name
            assert policy(world.view(me), random.Random(0)) == here, name


def test_a_risk_names_whose_card_it_is() -> None:
    watch = TurnWatch()
    watch.samples, watch.player, watch.card = 4, "ann", _ID["KING"]
    watch.assassinated["bob"] = 2
    watch.storms["cy"] = 1
    risks = risk_reasons(watch, Place("ann", 2, _ID["KING"], None))
    assert [r.kind for r in risks] == ["assassin", "storm"]
    assert risks[0] == Risk(
        "assassin",
        "bob",
        0.5,
        "risk: the face-down card above it may be bob's Assassin: your KING would go to your discard pile unturned (B12), in about 50% of the samples",
        "risk 50%: an Assassin discards your KING (B12)",
    )
    assert risks[1].text.startswith("risk: cy's Storm closes column 2 before your next turn (B13)")
    watch.storms["ann"] = 3
    watch.storms.pop("cy")
    assert risk_reasons(watch, Place("ann", 2, _ID["KING"], None))[0].text.startswith("risk: your Storm")


def run(capsys, *args):  # type: ignore[no-untyped-def]
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rop_hint_ranks_the_placements_of_a_record_with_reasons(capsys) -> None:  # type: ignore[no-untyped-def]
    path = sample_path("ruse-3")
    code, out, err = run(capsys, "hint", str(path), "--player", "cy", "--line", "5", "--samples", "6", "--seed", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["player"] == "cy" and data["line"] == 5
    moves = data["moves"]
    # cy holds CLOAK, ROMEO and SQUIRE; three columns are open (B8).
    assert sorted((m["card"], m["column"]) for m in moves) == sorted((c, k) for c in ("CLOAK", "ROMEO", "SQUIRE") for k in (1, 2, 3))
    assert all(m["decision"] == "place" and m["move"] == f"place {m['card']} in column {m['column']}" for m in moves)
    assert [m["win"] for m in moves] == sorted((m["win"] for m in moves), reverse=True)
    assert set(moves[0]["categories"]) == {"goal_points", "areas", "hand"}
    assert all(0.0 <= m["column_won"] <= 1.0 for m in moves)
    assert any(m["reasons"] for m in moves[1:])
    # The same question in words.
    code, out, err = run(capsys, "hint", str(path), "--player", "cy", "--line", "5", "--samples", "6", "--seed", "2")
    assert code == 0, err
    assert "1. place " in out and "wins the game" in out


def test_rop_hint_says_who_decides_when_the_player_does_not(capsys) -> None:  # type: ignore[no-untyped-def]
    path = sample_path("ruse-3")
    code, _, err = run(capsys, "hint", str(path), "--player", "ann", "--line", "5")
    assert code != 0 and "it is cy's turn, not ann's" in err


def test_rop_review_marks_a_players_placements(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup, moves = simulate(["ann", "bob"], EXAMPLE, seed=4, level="random")
    path = tmp_path / "game.jsonl"
    write_record(path, setup, moves[:60])
    code, out, err = run(capsys, "review", str(path), "--player", "ann", "--samples", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    marks = data["marks"]
    assert marks and all(m["player"] == "ann" for m in marks)
    assert all(m["line"] >= 2 for m in marks)


def test_the_coach_beats_random_play_on_a_fixed_set_of_games() -> None:
    coach = RabCoachPlayer("fast", samples=4)
    rand = RabSimple(RandomPlayer())
    margins = []
    for k in range(4):
        rng = stats.deal_rng(3, k)
        game = rab_deal(rng, 2)
        both = []
        for swap in (False, True):
            seats = {p: (coach if (i % 2 == 0) != swap else rand) for i, p in enumerate(("ann", "bob"))}
            totals = play_game(game, seats, random.Random(k))
            both.append(sum(totals[p] for p in seats if seats[p] is coach) - sum(totals[p] for p in seats if seats[p] is rand))
        margins.append(sum(both) / 2)
    low, _ = stats.interval(margins)
    assert stats.mean(margins) > 3.0 and low > 0.0, margins
    assert coach.ms and coach.playouts > 0


def test_a_pairing_prints_its_games(capsys) -> None:  # type: ignore[no-untyped-def]
    pairing("thumb vs random", RabSimple(RuleOfThumbPlayer()), RabSimple(RandomPlayer()), 4, 2, seed=1)
    out = capsys.readouterr().out
    assert "4 players" in out and "2 pairs: " in out and out.count("won /") == 1 and "points per game" in out


def test_the_coach_is_the_same_at_a_fixed_seed() -> None:
    state = _turns(range(1))[4]
    me = state.to_move
    assert me is not None
    first = Coach("fast").advise(state, me, samples=3, seed=9).to_json()
    again = Coach("fast").advise(state, me, samples=3, seed=9).to_json()
    first.pop("elapsed_ms"), again.pop("elapsed_ms")
    assert first == again
