"""A third game added as one package, with no file of the companion touched: Goofspiel (its
source beside this test, ``goofspiel/``, with its ``pyproject.toml``) is installed from a copy
in a temporary folder through pip and found through the entry-point group ``companion.games``.
It is then taken through everything a game meets: the contract's random games, its record
written and ``rop replay`` (with ``--json``) in a process of its own, manual play in the
dashboard, the club's archive and standings, and its stickers printed by ``rop markers`` and
read back by the camera (a bid face down seen as a back of its player's deck). docs/architecture.md, "How to add a game", walks
through exactly these steps."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.contract import registry
from companion.records.format import load_game, write_record

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Goofspiel installed by pip (its own ``pyproject.toml``, its entry point) into a folder
    of its own, put on the path the way a virtual environment's site-packages is."""
    root = tmp_path_factory.mktemp("goofspiel")
    source = root / "source"
    shutil.copytree(HERE, source, ignore=shutil.ignore_patterns("test_*", "__pycache__", "*.pyc"))
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "--target", str(target), str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    sys.path.insert(0, str(target))
    registry.forget()
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m == "goofspiel" or m.startswith("goofspiel.")]:
            del sys.modules[name]
        registry.forget()


def _played(seed: int, players: tuple[str, ...] = ("ann", "bob", "cy")) -> tuple[object, list[object]]:
    """A whole game played at random through the contract."""
    import random

    from tests.games.test_every_game import _next_move

    game = registry.game("goofspiel")
    rng = random.Random(seed)
    setup = game.make_setup(players)
    state = game.new_state(setup)
    moves = []
    while not state.is_game_over():
        move, _ = _next_move(game, state, rng)
        state.push(move)
        moves.append(move)
    return setup, moves


def test_the_registry_finds_the_game_by_name_and_by_its_record_format(site: Path) -> None:
    game = registry.game("goofspiel")
    assert "goofspiel" in registry.names()
    assert registry.game_for_format("goofspiel-record/1") is game
    # The shipped games are found as before, without reading the installed packages.
    assert registry.game("rule-of-power").name == "rule-of-power"


def test_the_contract_s_random_games_pass(site: Path) -> None:
    from tests.games.test_every_game import play_one

    game = registry.game("goofspiel")
    for seed in range(200):
        play_one(game, seed)


def test_a_bid_is_hidden_from_the_other_players_until_the_reveal(site: Path) -> None:
    game = registry.game("goofspiel")
    from goofspiel.rules import Bid, Card, Turn  # type: ignore[import-not-found]

    state = game.new_state(game.make_setup(["ann", "bob"]))
    state.push(Turn(Card.from_id("P4")))
    assert state.deciding == ("ann", "bob") and state.simultaneous and state.to_move is None
    seen = []
    for card in ("B5", "B1"):
        state.push(Bid("ann", Card.from_id(card)))
        seen.append(state.view("bob"))
        assert state.view("ann").bid is Card.from_id(card) and state.deciding == ("bob",)
        state.pop()
    # What ann bid makes no difference to what bob sees: only that she has bid.
    assert seen[0] == seen[1] and seen[0].bid is None and seen[0].waiting == ("bob",)


def test_a_record_is_written_and_replayed_by_rop_replay_in_a_process_of_its_own(site: Path, tmp_path: Path) -> None:
    setup, moves = _played(3)
    path = tmp_path / "game.jsonl"
    write_record(path, setup, moves)
    state = load_game(path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(HERE.parents[1])]))
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path), "--json"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == "goofspiel" and out["totals"] == state.totals and out["finished"] is True
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0 and "Totals: " + ", ".join(f"{p} {t}" for p, t in state.totals.items()) in done.stdout
    # A bid that breaks G4 is refused with its line and the ruling.
    lines = path.read_text().splitlines()
    reveal = next(i for i, line in enumerate(lines) if '"reveal"' in line)
    event = json.loads(lines[reveal])
    bidder, card = next(iter(event["cards"].items()))
    other = next(c for c in ("B1", "B2", "B3", "B4", "B5") if c != card)
    lines[reveal] = json.dumps({**event, "cards": {**event["cards"], bidder: other}})
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode != 0 and f"game.jsonl:{reveal + 1}: G4: {bidder} revealed {other} but bid {card}" in done.stderr


@pytest.mark.asyncio
async def test_a_game_is_kept_by_keyboard_in_the_dashboard(site: Path, tmp_path: Path) -> None:
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.screens.settlement import Settlement
    from companion.dashboard.sources import ManualSource, read_moves
    from companion.dashboard.widgets.base import GamePanel
    from tests.dashboard.driving import panel_text, type_line, until

    game = registry.game("goofspiel")
    setup = game.make_setup(["ann", "bob"])
    app = DashboardApp(ManualSource(seed=1), game=game, setup=setup, games_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.game is not None, "the game")
        state = app.game
        table = app.screen_stack[0]
        rounds = (("P3", ("B2", "B5")), ("P5", ("B4", "B4")), ("P1", ("B5", "B1")), ("P2", ("B1", "B3")), ("P4", ("B3", "B2")))
        for number, (prize, bids) in enumerate(rounds, 1):
            await type_line(pilot, prize)
            await type_line(pilot, "bob bids")
            await until(lambda: "bob" in state.bids, "bob's bid")
            words = " ".join(panel_text(p) for p in table.query(GamePanel))
            assert "ann to decide at once, face down (bob done)" in " ".join(words.split())
            await type_line(pilot, "ann bids")
            await type_line(pilot, "reveal " + " ".join(bids))
            await until(lambda n=number: len(state.results) == n, f"round {number}")
            if isinstance(app.screen, Settlement):
                await pilot.press("escape")
        assert state.is_game_over() and state.totals == {"ann": 1 + 4, "bob": 3 + 2}
        assert state.outcome().winner is None
    assert app.game_file is not None
    _, moves, error = read_moves(app.game_file.path)
    assert error is None and len(moves) == 5 * 4
    # The record names each bid, filled in from the reveal once its round was over.
    assert [m.card.id for m in moves if type(m).__name__ == "Bid"] == ["B5", "B2", "B4", "B4", "B1", "B5", "B3", "B1", "B2", "B3"]
    assert load_game(app.game_file.path).totals == {"ann": 5, "bob": 5}


def test_the_club_keeps_its_games_and_standings(site: Path, tmp_path: Path) -> None:
    from companion.club.archive import Archive
    from companion.club.database import open_archive
    from companion.club.standings import compute_standings

    engine = open_archive(f"sqlite:///{tmp_path / 'club.sqlite'}")
    archive = Archive(engine)
    paths = []
    for seed in range(4):
        setup, moves = _played(seed, ("ann", "bob"))
        path = tmp_path / f"g{seed}.jsonl"
        write_record(path, setup, moves)
        paths.append(path)
        assert archive.add_file(path).status == "added"
    stored = archive.games(game="goofspiel")
    assert len(stored) == 4
    expected = {"ann": 0, "bob": 0}
    for path in paths:
        for player, points in load_game(path).totals.items():
            expected[player] += points
    table = compute_standings(engine, game="goofspiel")
    assert {row.name: (row.games, row.points) for row in table.players} == {p: (4, n) for p, n in expected.items()}
    engine.dispose()


def test_its_stickers_are_printed_and_read_back_by_the_camera(site: Path, tmp_path: Path) -> None:
    import numpy as np
    from PIL import Image

    from vision.detect import MarkerDetector
    from vision.layout import demo_layout
    from vision.markers import SealBack, family_for
    from vision.reader import TableReader
    from vision.render import CardPlacement, Effects, render_frame

    game = registry.game("goofspiel")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(HERE.parents[1])]))
    out = tmp_path / "stickers"
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "markers", "--game", "goofspiel", "--owner", "ann", "--deck", "bids", "--out", str(out), "--calibration", str(tmp_path / "cal")],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    folder = out / "goofspiel" / "ann"
    assert sorted(p.stem for p in folder.glob("*.png") if not p.stem.startswith("sheet")) == ["B1", "B2", "B3", "B4", "B5", "back-bids"]
    # The printed sheet reads as ann's five bid cards and five backs that name only her deck.
    detector = MarkerDetector(family=family_for(game.cards))
    found = sorted(d.tag_id for d in detector.detect(np.array(Image.open(folder / "sheet-01.png"))))
    seals = game.table.seals
    fronts = sorted(seals.encode(card, 0) for card in game.cards if card.id.startswith("B"))
    assert [i for i in found if i in fronts] == fronts
    assert found.count(SealBack("goofspiel", "bids", 0).tag_id) == 5
    # On the mat: ann's bid lies face down (a back in her bid zone), the prize face up.
    layout = demo_layout(game="goofspiel").seated(["ann", "bob"])
    cards = [CardPlacement(game.cards.from_id("B4"), 0, (125, 295), 3, face_up=False), CardPlacement(game.cards.from_id("P5"), None, (320, 140), -4)]
    frame = render_frame(cards, layout, owners=["ann"], effects=Effects(noise=2, blur=0.5))
    view = TableReader(layout=layout, cards=game.cards).read(frame.image)
    assert [(c.card.id, c.zone) for c in view.cards] == [("P5", "prize")]
    assert [(b.back, b.zone) for b in view.backs] == [(SealBack("goofspiel", "bids", 0), "bid:ann")]
