"""Whole games of Love, Money, Power, Death played at a natural pace in front of the camera, and
nothing else: no key is pressed, no reader tapped. A hand comes in for every step (the noble
turned, each card turned face up, the noble laid in its court, the cards gathered), about a
second a step; the frames, rendered on the standard mat of the table's players at 1080p (2.8
pixels per module), go through marker detection and the stabiliser on the video's clock, the
observations through the tracker. The game must end with the rounds, courts and outcome
played, the noble and the reveal each known within a second of the hand that made it leaving
the table. The commits lie face down (L6): the noble turned says every player has committed
(L7), and the reveal names each card."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

import pytest

from companion.games.love_money_power_death.moves import Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.simulation.camera import film
from companion.tracker import MoveApplied
from vision.scenes import Action

from tests.games.love_money_power_death.tracking.harness import LmpdRun


@dataclass
class Filmed:
    """When the tracker knew each move, after the hand that made it left the table."""

    delays: list[float] = field(default_factory=list)
    frames: int = 0


def play_on_camera(run: LmpdRun, *, seed: int = 0) -> Filmed:
    last: dict[int, Action] = {}  # move index -> the last hand's action that showed it
    known: dict[int, float] = {}  # move index -> when the tracker applied it
    result = Filmed()
    run.handle(run.tracker.begin())
    for frame in film(run.setup, run.moves, seed=seed):
        result.frames += 1
        action = frame.action
        if action is not None and action.scene.move is not None:
            last[next(i for i, m in enumerate(run.moves) if m is action.scene.move)] = action
        before = len(run.applied)
        run.handle(run.tracker.tick(frame.at))
        for obs in frame.observations:
            run.handle(run.tracker.observe(obs))
        for k in range(before, len(run.applied)):
            known[k] = frame.at
        run.now = frame.at
    run.wait(5.0)  # the last moves are taken in
    # (An action's hand_gone is only set once its hand has left, so delays are read at the end.)
    result.delays = [known.get(k, run.now) - action.hand_gone for k, action in sorted(last.items())]
    return result


GAMES = [
    pytest.param(2, 3, 1, id="2-players-3-nobles"),
    pytest.param(4, 3, 2, id="4-players-3-nobles", marks=pytest.mark.slow),
    pytest.param(6, 2, 3, id="6-players-2-nobles", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("players", "nobles", "seed"), GAMES)
def test_a_whole_game_seen_by_a_1080p_camera_needs_no_key(players: int, nobles: int, seed: int) -> None:
    run = LmpdRun(players, seed=seed, nobles=nobles, unexplained_after=3.0)  # as `rop play` waits
    filmed = play_on_camera(run)
    run.assert_kept()
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    assert {e.how for e in applied if type(e.move) in (Commit, TurnUp, Reveal)} == {"camera"}
    assert {e.how for e in applied if type(e.move) in (Deal, Draw)} == {"forced"}
    # The record names each commit once the round is revealed (L7).
    assert [m for m in run.tracker.game.move_stack if type(m) is Reveal] == [m for m in run.moves if type(m) is Reveal]
    assert len(filmed.delays) == sum(type(m) in (TurnUp, Reveal) for m in run.moves)
    assert statistics.median(filmed.delays) <= 0.6 and max(filmed.delays) <= 1.0, sorted(filmed.delays)[-3:]
