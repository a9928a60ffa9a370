"""Whole games of Circle of Power played at a natural pace in front of the camera, and nothing
else: no key is pressed, no reader tapped. A hand comes in for every step (a card laid, a city
moved, the battle cards gathered), about a second a step; the frames, rendered on Circle of
Power's mat at the density of a 1080p camera (2.6 pixels per module), go through marker
detection and the stabiliser on the video's clock, the observations through the tracker. The
game must end with the moves and scores played, each move known within about a second of the
hand that made it leaving the table."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

import pytest

from companion.games.circle_of_power.moves import Reshuffle
from companion.games.circle_of_power.simulation.camera import film
from companion.tracker import MoveApplied
from vision.scenes import Action

from tests.games.circle_of_power.tracking.harness import OWNER, CopRun

GATHERED = "the battle cards are gathered face down"


@dataclass
class Filmed:
    """When the tracker knew each move, after the hand that made it left the table."""

    delays: list[float] = field(default_factory=list)
    frames: int = 0


def play_on_camera(run: CopRun, *, module_px: float = 2.6, seed: int = 0) -> Filmed:
    last: dict[int, Action] = {}  # move index -> the last hand's action that showed it
    known: dict[int, float] = {}  # move index -> when the tracker applied it
    result = Filmed()
    for frame in film(run.setup, run.moves, OWNER, module_px=module_px, seed=seed):
        result.frames += 1
        action = frame.action
        if action is not None and action.scene.move is not None and action.scene.caption != GATHERED:
            last[_index(run.moves, action.scene.move)] = action
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


def _index(moves: list, move: object) -> int:
    """The index of ``move`` itself in ``moves`` (equal moves may recur)."""
    return next(i for i, m in enumerate(moves) if m is move)


GAMES = [
    # Two players and two dummies, Lonely Tyrant: bob is knocked out in the first season.
    pytest.param(2, "lonely-tyrant", 197, 6, id="2-players-lonely-tyrant"),
    # Three players and a dummy, Coloured Cities, a game to 1 trophy (C17): one season.
    pytest.param(3, "coloured-cities", 7, 1, id="3-players-coloured-cities", marks=pytest.mark.slow),
    # Four players, the basic game: a season reaches the target.
    pytest.param(4, "basic", 20, 6, id="4-players-basic", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("players", "variant", "seed", "target"), GAMES)
def test_a_whole_game_seen_by_a_1080p_camera_needs_no_key(players: int, variant: str, seed: int, target: int) -> None:
    """A whole game seen by a 1080p camera over the standard mat, every move known within a
    second of the hand that made it leaving the table."""
    run = CopRun(players, variant, seed=seed, target=target, unexplained_after=3.0)  # as `rop play` waits
    assert len(run.truth.results) == 1  # one season: the game stays short enough to render
    filmed = play_on_camera(run)
    run.assert_kept()
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    # Everything from what the camera saw; a reshuffle (C15), which nobody sees, when it is due.
    assert {e.how for e in applied if type(e.move) is not Reshuffle} == {"camera"}
    assert {e.how for e in applied if type(e.move) is Reshuffle} <= {"forced"}
    assert len(filmed.delays) == sum(type(m) is not Reshuffle for m in run.moves)
    assert statistics.median(filmed.delays) <= 0.6 and max(filmed.delays) <= 1.0, sorted(filmed.delays)[-3:]
