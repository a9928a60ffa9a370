"""``rop demo --game circle-of-power``: a whole game played on the screen by simulated players at
the levels the game's plug-in parts offer, slips flagged with their ruling, the settlement of
each season walked on the clock; and the shipped sample records of every variant, listed by
``rop replay --samples`` and replayed with every rule checked."""

from __future__ import annotations

import random
import re

import pytest

from companion.cli import build_parser, main
from companion.dashboard.app import DashboardApp
from companion.dashboard.kit import kit_of
from companion.dashboard.sources import DemoSource
from companion.dashboard.widgets.event_log import EventLog
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.dashboard.demo import TableOnClock, base_levels, coach_levels, make_slip
from companion.games.circle_of_power.policies import POLICIES, simulate
from companion.games.circle_of_power.samples import SAMPLES, sample_path
from companion.games.circle_of_power.setup import VARIANTS
from companion.records.format import load_game
from tests.dashboard.driving import until


def test_the_levels_are_the_games_own_players_then_the_coachs() -> None:
    levels = kit_of(GAME).demo.levels
    assert levels[: len(POLICIES)] == tuple(POLICIES[k].name for k in sorted(POLICIES)) == base_levels()
    assert levels[len(POLICIES) :] == coach_levels()
    assert {"random", "rule-of-thumb"} <= set(levels)
    with pytest.raises(ValueError, match="unknown level 'genius'"):
        TableOnClock(GAME.make_setup(["ann", "bob"]), seed=1, level="genius", slips=0.0)


@pytest.mark.parametrize("level", base_levels())
def test_the_demo_table_plays_a_legal_game_at_each_level(level: str) -> None:
    setup = kit_of(GAME).demo.setup(3, variant="coloured-cities", target=3)
    table = TableOnClock(setup, seed=4, level=level, slips=0.1)
    state = GAME.new_state(setup)
    slips = 0
    for _ in range(20000):  # bounded: a game ends long before
        move = table.next_move(state)
        if move is None:
            break
        if not state.is_legal(move):
            slips += 1
            continue
        state.push(move)
    assert state.is_game_over() and slips > 0


def test_every_slip_is_illegal() -> None:
    rng = random.Random(2)
    for seed in range(6):
        setup, moves = simulate(["ann", "bob", "cy"], VARIANTS[seed % 3], seed=seed)
        state = GAME.new_state(setup)
        for move in moves:
            slip = make_slip(state, rng)
            assert slip is None or not state.is_legal(slip)
            state.push(move)


@pytest.mark.asyncio
async def test_the_demo_plays_a_whole_game_on_the_screen() -> None:
    setup = GAME.make_setup(["ann", "bob"], variant="basic", target=2)
    source = DemoSource(setup, seed=6, delay=0.0, level="rule-of-thumb")
    app = DashboardApp(source, teaching=True, games_dir=False)
    async with app.run_test(size=(80, 24)):
        await until(lambda: app.game is not None and app.game.is_game_over(), "the end of the demo game", limit=600)
        game = app.game
        assert game is not None
        expected = GAME.new_state(setup)
        table = TableOnClock(setup, seed=6, level="rule-of-thumb", slips=source.slips)
        while (move := table.next_move(expected)) is not None:
            if expected.is_legal(move):
                expected.push(move)
        assert list(game.move_stack) == list(expected.move_stack)
        log = app.screen_stack[0].query_one(EventLog)
        assert log.entries[0].text.startswith("Demo table: ann, bob and 2 dummies; basic, target 2, players at level rule-of-thumb")
        assert any(e.kind == "illegal" and re.search(r"\bC\d+\b", e.text) for e in log.entries)
        outcome = game.outcome()
        assert outcome is not None
        words = outcome.explain()
        assert any(e.text == words[0].upper() + words[1:] for e in log.entries)


def test_rop_demo_takes_the_game_its_variant_and_a_level() -> None:
    argv = ["demo", "--game", "circle-of-power", "--variant", "lonely-tyrant", "--players", "3", "--level", "rule-of-thumb"]
    args = build_parser(argv).parse_args(argv)
    assert (args.game, args.variant, args.players, args.level) == ("circle-of-power", "lonely-tyrant", 3, "rule-of-thumb")


def test_rop_demo_refuses_what_circle_of_power_has_not(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--game", "circle-of-power", "--players", "5"])
    assert exited.value.code == 2
    assert "--players: 5 is out of range: a whole number from 2 to 4" in capsys.readouterr().err
    assert main(["demo", "--game", "circle-of-power", "--expansion"]) == 2
    assert "Circle of Power has no --expansion (an option of Rule of Power)" in capsys.readouterr().err
    assert main(["demo", "--game", "circle-of-power", "--no-fate"]) == 2
    assert "Circle of Power has no --no-fate" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no camera demo"):
        kit_of(GAME).demo.camera(seed=1, step_s=1.0)


def test_the_samples_of_every_variant_are_listed_and_replay_by_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--samples"]) == 0
    listed = capsys.readouterr().out
    variants = set()
    for name, sample in SAMPLES.items():
        assert name in listed and sample.description in listed
        state = load_game(sample_path(name))
        assert state.is_game_over() and state.setup.variant == sample.variant
        variants.add(sample.variant)
    assert variants == set(VARIANTS)
    # A game as rop play keeps it: the cards played, no hand, pile or draw.
    kept = load_game(sample_path("kept-by-hand-3"), keep_history=True)
    assert all(not m.hands and not m.piles for m in kept.move_stack if type(m).__name__ == "Season")


def test_plain_demo_of_a_sample_prints_its_commentary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--plain", "--sample", "lonely-tyrant-4", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "Season 1: " in out and "(C18)" in out and "Lonely Tyrant" in out


def test_the_shipped_samples_are_what_their_seeds_make(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from companion.games.circle_of_power.samples.generate import generate

    generate(tmp_path)
    for name in SAMPLES:
        made = load_game(tmp_path / f"{name}.jsonl", keep_history=True)
        shipped = load_game(sample_path(name), keep_history=True)
        assert list(made.move_stack) == list(shipped.move_stack), f"{name} is stale: python -m companion.games.circle_of_power.samples.generate"
