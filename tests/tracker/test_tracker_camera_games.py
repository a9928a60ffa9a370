"""Whole games played at a natural pace in front of the camera, and nothing else: no key is
pressed, no NFC reader tapped. A hand comes in for every action, lays or takes the cards and
leaves, about a second per action, and the next player's hand follows at once; the frames go
through marker detection and the stabiliser on the video's clock (frame n at n / fps), the
observations through the tracker. The game must end with the moves and scores played.

The bar is a taken card being reported gone within about a second of the hand leaving, and
a newly laid card read within about a second: otherwise a capture stays open while the next
player's card is laid, and that play lands on the wrong player."""

from __future__ import annotations

from companion.observations import DrawAnnounced

from dataclasses import dataclass, field, replace

import pytest

from companion.games.rule_of_power.engine.moves import DrawFate, Play
from companion.tracker import Question
from companion.observations import CardGone, CardSeen
from companion.games.rule_of_power.simulation.staging import stage
from vision.layout import Layout, demo_layout, load_layout
from vision.markers import MODULE_MM
from vision.owners import OwnerRegistry
from vision.reader import TableReader
from vision.render import VirtualCamera
from vision.scenes import Action, natural_play
from vision.stabiliser import Stabiliser
from vision.watch import read_frame

from tests.tracker.harness import TableRun, crystals_met

FPS = 10


@dataclass
class CameraGame:
    """What the camera made of a game: the delays from each card being taken (the hand
    leaving) to its ``CardGone``, and from each card being laid to its ``CardSeen``."""

    gone_delays: list[float] = field(default_factory=list)
    seen_delays: list[float] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


def camera_for(layout: Layout, module_px: float) -> VirtualCamera:
    """An overhead camera seeing the whole mat, seals at ``module_px`` pixels per module."""
    ppm = module_px / MODULE_MM
    w, h = layout.mat_mm
    size = (int((w + 50) * ppm) // 2 * 2, int((h + 50) * ppm) // 2 * 2)
    return VirtualCamera.looking_at((w / 2, h / 2), ppm, size=size)


def webcam_1080p(layout: Layout) -> VirtualCamera:
    """A 1920 x 1080 webcam over ``layout``'s mat, its height filling the frame's with 25 mm
    to spare on each side (the 2-player mat: 2.7 pixels per module, stickers 28 px wide)."""
    w, h = layout.mat_mm
    return VirtualCamera.looking_at((w / 2, h / 2), 1080 / (h + 50), size=(1920, 1080))


def play_game_on_camera(run: TableRun, layout: Layout, module_px: float | VirtualCamera, *, seed: int = 0) -> CameraGame:
    players = list(run.setup.players)
    seated = layout.seated(players)
    # The camera's defaults, as `rop play` uses them.
    reader = TableReader(layout=layout, owners=OwnerRegistry(players + [None] * (8 - len(players))), players=players, changes_only=True)
    stabiliser = Stabiliser(layout=seated)
    seen: dict[tuple[str, str | None], list[float]] = {}
    gone: dict[tuple[str, str | None], list[float]] = {}
    actions: list[Action] = []
    last = None
    t = 0.0
    camera = module_px if isinstance(module_px, VirtualCamera) else camera_for(layout, module_px)
    for frame in natural_play(list(stage(run.setup, run.moves)), seated, players, camera=camera, fps=FPS, seed=seed):
        if frame.scene is not last and isinstance(frame.scene.move, DrawFate):
            run.handle(run.tracker.observe(DrawAnnounced("dashboard", 0.0, frame.scene.move.player)))
        last = frame.scene
        if frame.action is not None and (not actions or actions[-1] is not frame.action):
            actions.append(frame.action)
        t = frame.at
        run.handle(run.tracker.tick(t))
        for obs in read_frame(reader, stabiliser, frame.image, t)[1]:
            if isinstance(obs, (CardSeen, CardGone)):
                (seen if isinstance(obs, CardSeen) else gone).setdefault((obs.card.id, obs.owner), []).append(obs.at)
            run.handle(run.tracker.observe(obs))
    run.wait(t + 5.0 - run.now)  # the last moves are taken in
    result = CameraGame()
    for action in actions:
        for key in action.taken:
            later = [at for at in gone.get(key, []) if at >= action.start]
            if later:
                result.gone_delays.append(later[0] - action.hand_gone)
            else:
                result.missed.append(f"{key[0]} taken at {action.change:.1f} s never reported gone")
        for key in action.laid:
            later = [at for at in seen.get(key, []) if at >= action.start]
            if later:
                result.seen_delays.append(later[0] - action.change)
            else:
                result.missed.append(f"{key[0]} laid at {action.change:.1f} s never seen")
    return result


def assert_exact(run: TableRun, camera: CameraGame) -> None:
    assert not camera.missed, camera.missed[:3]
    assert not run.problems(), run.problems()[:3]
    # No key pressed but a target's: no camera sees whom a Thief or a Mirror Swap aims at.
    asked = [e.prompt for e in run.events if isinstance(e, Question)]
    assert all(prompt.startswith("Whom does the") for prompt in asked), asked
    assert len(run.applied) == len(run.moves)
    assert [r.score.to_json() for r in run.tracker.game.results] == [r.score.to_json() for r in run.truth.results]
    # Fast enough for natural play: within about a second of the hand leaving.
    assert max(camera.gone_delays) <= 1.0, sorted(camera.gone_delays)[-3:]
    assert max(camera.seen_delays) <= 1.0, sorted(camera.seen_delays)[-3:]


def test_two_players_a_whole_game_on_a_webcam():
    """Two players, World cards, a whole game (one round reaches 11 points with this deal),
    the demo mat filmed at 3.8 pixels per module (stickers about 40 pixels wide)."""
    run = TableRun(2, seed=2)
    assert len(run.truth.results) == 1 and run.truth.phase.name == "OVER"
    camera = play_game_on_camera(run, demo_layout(), 3.8)
    assert_exact(run, camera)


@pytest.mark.slow
def test_two_players_a_whole_game_on_a_1080p_webcam():
    """The docs' own camera: a 1920 x 1080 webcam over the standard 2-player mat (2.7 pixels
    per module, which rop calibrate rates "fair"), World cards, a whole game."""
    run = TableRun(2, seed=2)
    assert run.truth.phase.name == "OVER"
    camera = webcam_1080p(load_layout(2))
    assert camera.size == (1920, 1080)
    assert_exact(run, play_game_on_camera(run, load_layout(2), camera, seed=2))


@pytest.mark.slow
def test_four_players_in_teams_a_whole_game_at_1080p_density():
    """Four players in two teams, World cards, a whole game, on the standard 4-player mat
    filmed at 2.7 pixels per module, the density of a 1080p camera over a 2-player mat."""
    run = TableRun(4, 2, seed=15)
    assert len(run.truth.results) == 1 and run.truth.phase.name == "OVER"
    camera = play_game_on_camera(run, load_layout(4), 2.7, seed=1)
    assert_exact(run, camera)


def _played(run: TableRun, card_id: str) -> list[int]:
    """The indices of ``run``'s moves that play the card ``card_id``."""
    return [i for i, m in enumerate(run.moves) if isinstance(m, Play) and m.card.id == card_id]


@pytest.mark.slow
def test_three_players_with_fate_decks_and_the_expansion_a_whole_game_at_4k():
    """The table the camera lost: three players with Fate decks and the Higher Powers, filmed
    by a 4K camera over the 3-player mat (stickers 40 px wide, 3.8 pixels per module), every
    Fate draw announced (``fate``). The whole game has a Dark Decay (each opponent lays the
    card they discard face up in their own Fate zone, and all three are taken away), a Thief
    (its target, which no camera sees, is the one key pressed) and two Crystals meeting, both
    leaving the table (R19). Every move is the one played, and the scores too."""
    run = TableRun(3, fate=True, seed=23, expansion=True)
    run.tracker.config = replace(run.tracker.config, facts={**run.tracker.config.facts, "draws_visible": False})
    assert _played(run, "F004") and _played(run, "F006")
    assert any(crystals_met(run, i) for i in _played(run, "F001"))
    assert run.truth.phase.name == "OVER" and len(run.truth.results) == 2
    camera = play_game_on_camera(run, load_layout(3), 3.8, seed=23)
    assert_exact(run, camera)
    assert 1 <= run.questions <= len([m for m in run.moves if isinstance(m, Play) and m.target])
