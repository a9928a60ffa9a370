"""The games directory, crash-safe writing, resuming and ``rop replay`` for every registered
game: a game kept through a session is saved event by event, a kill while a line is being
written loses nothing before it, ``--resume`` finds the game (of whichever game it is), and one
``rop replay`` call checks records of every game together."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.contract.registry import game, names
from companion.records.store import GameFile, last_unfinished, load_for_resume
from companion.session import Applied, GameSession
from tests.games.test_every_game import _next_move, random_setup


def _kept_game(name: str, games_dir: Path, seed: int, *, moves: int | None = None) -> tuple[GameSession, GameFile]:
    """A game of ``name`` played at random through a session that saves it as it goes;
    ``moves``: stop after that many (else play to the end)."""
    played = game(name)
    rng = random.Random(seed)
    setup = random_setup(played, rng)
    record = GameFile.create(games_dir, setup)
    session = GameSession(setup, record=record)
    while not session.game.is_game_over() and (moves is None or len(session.moves) < moves):
        move, _ = _next_move(played, session.game, rng)
        assert isinstance(session.propose(move), Applied)
    return session, record


@pytest.mark.parametrize("name", names())
def test_a_game_is_saved_as_it_is_played_and_resumed_after_a_crash(name: str, tmp_path: Path) -> None:
    session, record = _kept_game(name, tmp_path, seed=11, moves=40)
    kept = session.moves
    # The program is killed while writing the next line: half of it reaches the disk.
    with open(record.path, "a", encoding="utf-8") as fp:
        fp.write('{"event": "pla')
    found = last_unfinished(tmp_path)
    assert found is not None
    state, report = found
    assert state.setup == session.setup and state.setup.game is game(name)
    assert tuple(state.move_stack) == kept
    assert report.damaged_line == len(kept) + 2 and report.side_file is not None
    # The record is whole again and goes on where it stopped.
    again, report = load_for_resume(record.path)
    assert tuple(again.move_stack) == kept and report.nothing_lost


@pytest.mark.parametrize("name", names())
def test_a_finished_game_is_passed_over_when_resuming(name: str, tmp_path: Path) -> None:
    session, record = _kept_game(name, tmp_path, seed=5)
    assert session.game.is_game_over()
    assert last_unfinished(tmp_path) is None
    state, report = load_for_resume(record.path)
    assert state.is_game_over() and report.nothing_lost


def test_one_replay_checks_records_of_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for name in names():
        _, record = _kept_game(name, tmp_path / name, seed=3)
        paths.append(str(record.path))
    assert main(["replay", "--json", *paths]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["record"] for line in lines] == paths
    by_game = {name: line for name, line in zip(names(), lines)}
    assert by_game["circle-of-power"]["game"] == "circle-of-power" and by_game["circle-of-power"]["finished"] is True
    assert "rounds" in by_game["rule-of-power"] and by_game["rule-of-power"]["winner"] is not None
