"""Whole games of Circle of Power kept by NFC taps on the real reader firmware (the emulated
board, its serial line, the tag registry), followed by the tracker into the saved record, with
no key pressed: the same record (hidden cards filled in as the seasons show them) and the same
scores as the game played.

The board's reader 0 takes the battle cards as they are played, reader 1 the cities (the
set-up, the next available city, a city retaken or given), reader 2 what goes into a line or
leaves one (docs/tracker.md, "Circle of Power with NFC readers"); the bottom joker is nobody's
to tap (C7). Every tap is a tag held to a
reader and lifted again; the observation the host makes of it goes to the tracker."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.circle_of_power.cards import ALL_CARDS
from companion.games.circle_of_power.simulation.taps import board_layout, taps_for
from companion.games.circle_of_power.moves import Reveal, Season
from companion.observations import CardTapped
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import GameSession
from companion.tracker import MoveApplied, Tracker
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.tapping import TappedBoard

from tests.games.circle_of_power.tracking.harness import OWNER, CopRun
from tests.games.circle_of_power.tracking.records import assert_same_record

WAIT = 10.0
"""Seconds a test already failing waits for an observation (a loaded machine is slow)."""


def play_on_board(run: CopRun, firmware: FirmwareBuild, tmp_path: Path) -> Path:
    """``run``'s game tapped on the emulated board; the tracker follows it into a record."""
    slots, readers = board_layout()
    session = GameSession(run.setup, record=GameFile.create(tmp_path / "games", run.setup))
    run.tracker = Tracker(session, run.tracker.config.__class__(**{**run.tracker.config.__dict__, "readers": readers}))
    with BoardEmulator(firmware, chips="012", link=tmp_path / "board") as emu, TappedBoard(
        emu, {}, tmp_path / "tags", deck=ALL_CARDS, club=OWNER, timeout=WAIT
    ) as board:
        for _, taps in taps_for(run.setup, run.moves, OWNER):
            for tap in taps:
                obs = board.tap(slots[tap.reader], tap.card, OWNER)
                assert isinstance(obs, CardTapped) and (obs.card, obs.reader) == (tap.card, slots[tap.reader]), obs
                run.handle(run.tracker.observe(obs))
    record = session.record
    assert isinstance(record, GameFile)
    session.close()
    return record.path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "variant", "seed"),
    [
        (2, "basic", 0),  # one season reaches the target; two dummies opposite
        (3, "lonely-tyrant", 0),  # two seasons, a dummy moving; bob knocked out
        (4, "coloured-cities", 1),  # three seasons: keeps and gives, retakes swapping cities
    ],
)
def test_a_whole_game_tapped_on_the_board(players: int, variant: str, seed: int, firmware: FirmwareBuild, tmp_path: Path) -> None:
    run = CopRun(players, variant, seed)
    path = play_on_board(run, firmware, tmp_path)
    run.assert_kept()
    saved = load_game(path, keep_history=True)
    assert [r.to_json() for r in saved.results] == [r.to_json() for r in run.truth.results]
    assert saved.outcome() == run.truth.outcome()
    filled = assert_same_record(saved.move_stack, run.moves)
    assert filled > 0  # the record completes what the seasons showed
    # C7: nobody taps the bottom joker; the companion turns it up as the city deck's last card.
    bottoms, bottom = [], None
    for move in run.moves:
        if type(move) is Season:
            bottom = move.bottom
        elif type(move) is Reveal and move.card is bottom:
            bottoms.append(move)
    forced = [e.move for e in run.events if isinstance(e, MoveApplied) and e.how == "forced" and type(e.move) is Reveal]
    assert bottoms and forced == bottoms
