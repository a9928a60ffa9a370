"""Whole games of Ruse and Bruise kept by NFC alone, with no key pressed: a reader at each
column, each goal card tapped on its column's reader as it is turned over (B7), each card placed
tapped on its column's reader before it is laid face down (B8), a card put under a Cloak on the
Cloak's column's reader (B14), the goal card a Traitor brings on his column's reader (B15).
Everything else follows from the taps and the rules. The tracker must end with every move played,
every face-down card named (never a card drawn: B9, B29), and the scores played.

The same games go once through the real reader firmware (the emulated board, its serial line,
the tag registry) into the saved record."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE
from companion.games.ruse_and_bruise.moves import UNSEEN, Cloak, Place
from companion.games.ruse_and_bruise.simulation.compare import named_alike
from companion.games.ruse_and_bruise.simulation.taps import TABLE_OWNER, board_layout, taps_for
from companion.observations import CardTapped
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import GameSession
from companion.tracker import MoveApplied, Tracker, TrackerConfig
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.tapping import TappedBoard

from tests.games.ruse_and_bruise.tracking.harness import RabRun

WAIT = 10.0
"""Seconds a test already failing waits for an observation (a loaded machine is slow)."""


def _named(run: RabRun) -> None:
    """Every card placed is named in the game tracked: none unseen (B8, B14)."""
    for move in run.tracker.game.move_stack:
        if type(move) is Place or (type(move) is Cloak and move.placed):
            assert move.card is not UNSEEN, move


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_whole_game_tapped_needs_no_key(players: int, seed: int) -> None:
    run = RabRun(players, seed, readers=True)
    run.play_nfc()
    run.assert_kept()
    _named(run)
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    assert {e.how for e in applied} <= {"nfc", "forced"}
    # What is tapped is applied from its tap; the rest is what the rules leave no choice about.
    assert {type(e.move).__name__ for e in applied if e.how == "nfc"} <= {"Round", "Place", "Cloak", "Swap"}


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (4, 1), (6, 2)])
def test_a_table_that_taps_every_decline_is_kept_as_well(players: int, seed: int) -> None:
    """A Cloak or a Traitor declined by tapping it (B14, B15), even where the next tap shows it."""
    run = RabRun(players, seed, readers=True)
    run.play_nfc(aloud=True)
    run.assert_kept()


def test_the_games_tapped_have_every_choice_tapped() -> None:
    """The games above are worth their salt: among them Cloaks taken and declined, Traitors
    swapping and declining, so that each tap the docs describe is made."""
    kinds: set[str] = set()
    for players in (2, 3, 4, 5, 6):
        for seed in (0, 1, 2):
            run = RabRun(players, seed, readers=True)
            for move, taps in taps_for(run.dealt, run.moves):
                name = type(move).__name__
                if name == "Cloak":
                    kinds.add(f"cloak {'taken' if move.placed else 'declined'}{' tapped' if taps else ''}")
                elif name == "Swap":
                    kinds.add(f"traitor {'swapping' if move.swap else 'declining'}{' tapped' if taps else ''}")
    assert {"cloak taken tapped", "cloak declined", "traitor swapping tapped", "traitor declining"} <= kinds, kinds


def play_on_board(run: RabRun, firmware: FirmwareBuild, tmp_path: Path) -> Path:
    """``run``'s game tapped on the emulated board, each column's reader a reader of it; the
    tracker follows it into a record."""
    players = len(run.setup.players)
    places, readers = board_layout(players)
    session = GameSession(run.setup, record=GameFile.create(tmp_path / "games", run.setup))
    run.session = session
    run.tracker = Tracker(session, TrackerConfig(readers=readers))
    run.same_move = named_alike  # type: ignore[method-assign]
    colours = {colour: list(INFLUENCE) for colour in run.setup.colours}
    chips = "".join(str(k) for k in range(players))
    with BoardEmulator(firmware, chips=chips, link=tmp_path / "board") as emu, TappedBoard(
        emu, colours, tmp_path / "tags", deck=list(GOALS), club=TABLE_OWNER, timeout=WAIT
    ) as board:
        for _, taps in taps_for(run.dealt, run.moves):
            for tap in taps:
                assert tap.owner is not None and tap.reader is not None
                obs = board.tap(places[tap.reader], tap.card, tap.owner)
                assert isinstance(obs, CardTapped) and (obs.card, obs.owner, obs.reader) == (tap.card, tap.owner, places[tap.reader]), obs
                run.handle(run.tracker.observe(obs))
    record = session.record
    assert isinstance(record, GameFile)
    session.close()
    return record.path


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(2, 0), (5, 1)])
def test_a_whole_game_tapped_on_the_board_is_saved_exactly(players: int, seed: int, firmware: FirmwareBuild, tmp_path: Path) -> None:
    run = RabRun(players, seed)
    path = play_on_board(run, firmware, tmp_path)
    run.assert_kept()
    saved = load_game(path, keep_history=True)
    assert [r.to_json() for r in saved.results] == [r.to_json() for r in run.truth.results]
    assert saved.outcome() == run.truth.outcome()
    assert len(saved.move_stack) == len(run.moves)
    for n, (tracked, played) in enumerate(zip(saved.move_stack, run.moves)):
        assert named_alike(tracked, played), f"event {n}: recorded {tracked} but the table played {played}"
