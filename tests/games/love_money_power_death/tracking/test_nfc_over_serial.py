"""Whole games of Love, Money, Power, Death kept by NFC taps on the real reader firmware (the
emulated board, its serial line, the tag registry), followed by the tracker into the saved
record, with no key pressed: every commit the card played (L6), every noble the one turned
(L7), the same rounds, courts and outcome as the game played.

The board's reader 0 is the centre reader, where the noble is tapped as it is turned (L7);
readers 1-6 are the players' commit readers, in seating order, where each taps the card they
commit, face down (L6; docs/tracker.md, "Love, Money, Power, Death with NFC readers"). Every
tap is a tag held to a reader and lifted again; the observation the host makes of it goes to
the tracker."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.love_money_power_death.cards import ALL_CARDS
from companion.games.love_money_power_death.moves import Commit, Deal, Draw
from companion.games.love_money_power_death.simulation.taps import board_layout, taps_for
from companion.observations import CardTapped
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.tapping import CLUB, TappedBoard, board_chips

from tests.games.love_money_power_death.tracking.harness import LmpdRun

WAIT = 10.0
"""Seconds a test already failing waits for an observation (a loaded machine is slow)."""


def play_on_board(run: LmpdRun, firmware: FirmwareBuild, tmp_path: Path) -> Path:
    """``run``'s game tapped on the emulated board with the club's deck; the tracker follows
    it into a record."""
    slots, readers = board_layout(run.setup.players)
    (chips,) = board_chips(slots.values())
    session = GameSession(run.setup, record=GameFile.create(tmp_path / "games", run.setup))
    run.tracker = Tracker(session, TrackerConfig(readers=readers))
    with BoardEmulator(firmware, chips=chips, link=tmp_path / "board") as emu, TappedBoard(
        emu, {}, tmp_path / "tags", deck=ALL_CARDS, club=CLUB, timeout=WAIT
    ) as board:
        run.handle(run.tracker.begin())
        for _, taps in taps_for(run.setup, run.moves, CLUB):
            for tap in taps:
                obs = board.tap(slots[tap.reader], tap.card, CLUB)
                assert isinstance(obs, CardTapped) and (obs.card, obs.reader) == (tap.card, slots[tap.reader]), obs
                run.handle(run.tracker.observe(obs))
    record = session.record
    assert isinstance(record, GameFile)
    session.close()
    return record.path


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(2, 0), (4, 1), (6, 2)])
def test_a_whole_game_tapped_on_the_board(players: int, seed: int, firmware: FirmwareBuild, tmp_path: Path) -> None:
    run = LmpdRun(players, seed=seed)
    path = play_on_board(run, firmware, tmp_path)
    run.assert_kept()
    saved = load_game(path, keep_history=True)
    assert [r.to_json() for r in saved.rounds] == [r.to_json() for r in run.truth.rounds]
    assert saved.outcome() == run.truth.outcome()
    # The record is the game played: every commit and noble as tapped; the deal and the
    # draws, which nobody sees (L5, L11), as the rules make them.
    assert len(saved.move_stack) == len(run.moves)
    for n, (kept, played) in enumerate(zip(saved.move_stack, run.moves)):
        assert kept == played or type(kept) in (Deal, Draw) and type(kept) is type(played), (n, kept, played)
    assert sum(type(m) is Commit for m in saved.move_stack) == players * len(run.truth.rounds)
