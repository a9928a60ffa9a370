"""A round played in front of the virtual camera: rendered frames, marker detection, the
stabiliser, the tracker. It ends with the same moves and scores as the game played."""

from __future__ import annotations

from companion.observations import DrawAnnounced

from dataclasses import replace

from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import DrawFate, NewRound
from companion.games.rule_of_power.simulation.staging import stage
from vision.owners import OwnerRegistry
from vision.reader import TableReader
from vision.scenes import render_scene_frames
from vision.stabiliser import Stabiliser

from tests.tracker.harness import TableRun
from tests.vision.conftest import compact_layout

FPS = 10


def play_round_on_camera(
    run: TableRun, *, hand_every: int = 0, frames_per_scene: int = 6, scenes: int | None = None, patience_s: float = 0.3
) -> int:
    """Play the first round (or its first ``scenes`` scenes) in front of the camera.
    ``patience_s`` is how long the stabiliser waits before it calls an unread card gone."""
    players = list(run.setup.players)
    end = next(i for i, m in enumerate(run.moves) if isinstance(m, NewRound) and i > 0)
    run.tracker.config = replace(run.tracker.config, unexplained_after=3.0)  # the camera's own timing
    mat = compact_layout()
    seated = mat.seated(players)
    reader = TableReader(layout=mat, owners=OwnerRegistry(players + [None] * (8 - len(players))), players=players)
    stabiliser = Stabiliser(layout=seated, gone_after_s=patience_s, calm_s=patience_s)
    t = 0.0
    last = None
    staged = list(stage(run.setup, run.moves[:end]))[:scenes]
    for scene, i, image in render_scene_frames(
        staged, seated, players, frames_per_scene=frames_per_scene, hand_every=hand_every, fresh_noise=False
    ):
        if i == 0 and scene is not last and isinstance(scene.move, DrawFate):
            run.handle(run.tracker.observe(DrawAnnounced("dashboard", 0.0, scene.move.player)))
        last = scene
        t += 1 / FPS
        run.handle(run.tracker.tick(t))
        for obs in stabiliser.update(reader.read(image), image, t):
            run.handle(run.tracker.observe(obs))
    return end


def test_a_round_through_rendered_frames():
    run = TableRun(2, fate=True, seed=3)
    end = play_round_on_camera(run, frames_per_scene=15)
    assert not run.problems(), run.problems()[:3]
    game = run.tracker.game
    assert len(game.results) == 1
    assert game.results[0].score.to_json() == run.truth.results[0].score.to_json()
    assert len(run.applied) >= end  # every move of the round (and the next round begun)


def test_hands_over_the_table_change_nothing():
    """A hand sweeps over the table every other step, covering cards for half a second; with
    the stabiliser's usual patience nothing is lost and nothing invented."""
    run = TableRun(2, seed=8)
    play_round_on_camera(run, hand_every=2, frames_per_scene=24, scenes=16, patience_s=1.0)
    assert not run.problems(), run.problems()[:3]
    assert len(run.applied) >= 10
    tracked = run.tracker.game
    assert [c.id for c in sorted(tracked.centre)] == [c.id for c in sorted(_truth_after(run, len(run.applied)).centre)]


def _truth_after(run: TableRun, n: int) -> GameState:
    game = GameState(run.setup)
    for m in run.moves[:n]:
        game.push(m)
    return game
