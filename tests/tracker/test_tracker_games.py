"""Whole games followed by the tracker from what an ideal camera reports."""

import io

import pytest

from companion.games.rule_of_power.engine.moves import UNSEEN, Deal
from companion.records.format import RecordWriter, load_game
from companion.tracker import TrackerState
from companion.games.rule_of_power.completion import complete_deals
from companion.records.store import GameFile

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


@pytest.mark.parametrize("players,teams,fate,seed", [(2, 0, False, 13), (4, 2, True, 14)])
def test_the_saved_record_completes_itself_at_each_round_end(tmp_path, players, teams, fate, seed):
    """The session fills in the face-down hands in the saved file when a round ends: after
    the game, no World card a player was dealt and played is left unknown (null) there, and
    the file replays to the scores of the game played."""
    run = TableRun(players, teams, fate=fate, seed=seed)
    session = run.tracker.session
    session.record = GameFile.create(tmp_path, run.setup)
    run.play()
    saved = load_game(session.record.path, keep_history=True)
    assert saved.totals == run.truth.totals and saved.outcome() == run.truth.outcome()
    deals = [m for m in saved.move_stack if isinstance(m, Deal)]
    hidden = sum(1 for d in deals for _, cards in d.hands for c in cards if c is UNSEEN)
    assert deals and hidden == 0 if not fate else hidden < sum(len(cards) for d in deals for _, cards in d.hands) // 4
    # The game the session holds still says what the camera saw: face-down hands.
    assert any(c is UNSEEN for m in session.moves if isinstance(m, Deal) for _, cards in m.hands for c in cards)
