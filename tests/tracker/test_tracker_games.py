"""Whole games followed by the tracker from what an ideal camera reports."""

import io

import pytest

from companion.engine.moves import UNSEEN, Deal
from companion.records.format import RecordWriter, load_game
from companion.tracker import TrackerState
from companion.records.completion import complete_deals

from tests.tracker.harness import TableRun


@pytest.mark.parametrize(
    "players,teams,fate,seed",
    [(2, 0, False, 0), (3, 0, False, 1), (4, 2, False, 2), (6, 3, False, 3), (2, 0, True, 4), (4, 2, True, 5), (5, 0, True, 6), (6, 2, True, 7)],
)
def test_camera_follows_a_whole_game(players, teams, fate, seed):
    run = TableRun(players, teams, fate=fate, seed=seed)
    run.play()
    assert not run.problems()
    assert len(run.applied) == len(run.moves)  # every move, forced and seen, in order
    game = run.tracker.game
    assert game.totals == run.truth.totals and game.outcome() == run.truth.outcome()
    assert [r.score.to_json() for r in game.results] == [r.score.to_json() for r in run.truth.results]
    assert run.tracker.state is TrackerState.SYNCED
    if not fate:
        assert run.questions == 0  # without Fate cards the table never needs to be asked


@pytest.mark.parametrize("players,teams,fate,seed", [(2, 0, False, 10), (4, 2, False, 11), (3, 0, True, 12)])
def test_the_completed_record_is_the_game_played(players, teams, fate, seed):
    """With a camera alone the hands stay face down; once played, the record's deals are
    completed, and the record replays to the same scores."""
    run = TableRun(players, teams, fate=fate, seed=seed)
    run.play()
    completed = complete_deals(run.tracker.game.move_stack)
    true_deals = [m for m in run.moves if isinstance(m, Deal)]
    tracked_deals = [m for m in completed if isinstance(m, Deal)]
    assert len(true_deals) == len(tracked_deals)
    for tracked, true in zip(tracked_deals, true_deals):
        for (p, cards), (q, real) in zip(tracked.hands, true.hands):
            assert p == q
            known = [c for c in cards if c is not UNSEEN]
            assert set(known) <= set(real)
            if not fate:
                assert sorted(known, key=lambda c: c.index) == sorted(real, key=lambda c: c.index)
    buf = io.StringIO()
    writer = RecordWriter(buf, run.setup)
    for m in completed:
        writer.write(m)
    replayed = load_game(buf.getvalue().splitlines())
    assert replayed.totals == run.truth.totals and replayed.outcome() == run.truth.outcome()
