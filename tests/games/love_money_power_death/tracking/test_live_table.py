"""A Love, Money, Power, Death table as ``rop play`` and ``rop track`` start it: its
configuration file (the game, the nobles in use, the commit readers and the centre reader),
and a whole game's taps recorded as an observation log and followed by ``rop track`` into the
saved record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.love_money_power_death.moves import Commit
from companion.games.love_money_power_death.simulation.taps import readers, taps_for
from companion.observations.log import ObservationLog, observation_json
from companion.records.format import load_game
from companion.records.store import list_games
from companion.sensors.table import TableConfig, TableConfigError

from tests.games.love_money_power_death.tracking.harness import LmpdRun

READERS = {"board:0": "centre", "board:1": "commit:ann", "board:2": "commit:bob", "board:3": "commit:cy"}


def config_file(tmp_path: Path, **changes: object) -> Path:
    data = {"game": "love-money-power-death", "players": ["ann", "bob", "cy"], "nobles": ["N2L", "N3M", "N5D"], "serial": ["loop://"], "readers": READERS, **changes}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    return path


def test_a_table_is_configured_with_its_nobles_and_readers(tmp_path: Path) -> None:
    config = TableConfig.load(config_file(tmp_path))
    assert config.setup.game.name == "love-money-power-death" and config.players == ("ann", "bob", "cy")
    assert [n.id for n in config.setup.nobles] == ["N2L", "N3M", "N5D"] and config.readers == READERS
    with pytest.raises(TableConfigError, match=r"readers: board:3 is mapped to 'commit:dan': dan does not play \(the players are ann, bob, cy\)"):
        TableConfig.load(config_file(tmp_path, readers={**READERS, "board:3": "commit:dan"}))
    with pytest.raises(TableConfigError, match=r"'play' is not a Love, Money, Power, Death reader: centre \(the noble\), or commit:<player>"):
        TableConfig.load(config_file(tmp_path, readers={"board:0": "play"}))
    with pytest.raises(TableConfigError, match=r"nobles: expected the list of the nobles in use \(L4"):
        TableConfig.load(config_file(tmp_path, nobles=3))


@pytest.mark.slow
def test_rop_track_follows_a_tapped_game_into_the_record(tmp_path: Path) -> None:
    run = LmpdRun(3, seed=4)
    log = tmp_path / "taps.jsonl"
    header = ObservationLog(run.setup, readers=readers(run.setup.players)).header()
    lines = [header] + [observation_json(tap, tap.at) for _, taps in taps_for(run.setup, run.moves) for tap in taps]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    games = tmp_path / "games"
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "track", "--observations", str(log), "--speed", "0", "--games-dir", str(games)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    said = [json.loads(line) for line in done.stdout.splitlines()]
    assert said[0]["kind"] == "game" and said[0]["players"] == ["ann", "bob", "cy"]
    assert not [s for s in said if s["kind"] in ("hint", "desync", "question", "failure")]
    # What the table is told of a commit names no card (L6); the record keeps it.
    printed = [s for s in said if s["kind"] == "move" and s["record"]["event"] == "commit"]
    assert len(printed) == 3 * len(run.truth.rounds) and all("face down" in s["text"] for s in printed)
    commits = [m for m in run.moves if type(m) is Commit]
    assert not any(m.card.id in s["text"] for s, m in zip(printed, commits))  # type: ignore[union-attr]
    (path,) = list_games(games)
    saved = load_game(path, keep_history=True)
    assert [r.to_json() for r in saved.rounds] == [r.to_json() for r in run.truth.rounds] and saved.outcome() == run.truth.outcome()
    assert [m for m in saved.move_stack if type(m) is Commit] == commits
