"""Whole games of Love, Money, Power, Death played at a natural pace in front of the camera, and
nothing else: no key is pressed, no reader tapped. A hand comes in for every step (the noble
turned, each card turned face up, the noble laid in its court, the cards gathered), about a
second a step; the frames, rendered on the standard mat of the table's players at 1080p (2.8
pixels per module), go through marker detection and the stabiliser on the video's clock, the
observations through the tracker. The game must end with the rounds, courts and outcome
played, each commit, the noble and the reveal known within a second of the hand that made it
leaving the table. The commits lie face down (L6), their backs seen in the commit places: each
is known as a commit before the noble is turned, its card named by nobody until the reveal
(L7)."""

from __future__ import annotations

import dataclasses
import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.simulation.camera import film
from companion.games.love_money_power_death.state import Phase
from companion.observations import BackGone, BackSeen, CardSeen, Observation
from companion.observations.log import ObservationLog, observation_json, read_observation_log
from companion.tracker import MoveApplied
from vision.scenes import Action

from tests.games.love_money_power_death.tracking.harness import LmpdRun


@dataclass
class Filmed:
    """When the tracker knew each move, after the hand that made it left the table."""

    delays: list[float] = field(default_factory=list)
    frames: int = 0
    known: dict[int, float] = field(default_factory=dict)
    """Move index -> when the tracker applied it."""
    actions: dict[int, Action] = field(default_factory=dict)
    """Move index -> the last hand's action that showed it."""
    backs: int = 0
    """Backs the camera reported."""
    named_early: list[str] = field(default_factory=list)
    """Committed cards the camera named before their round's noble was turned."""
    observations: list[Observation] = field(default_factory=list)


def play_on_camera(run: LmpdRun, *, seed: int = 0) -> Filmed:
    last: dict[int, Action] = {}  # move index -> the last hand's action that showed it
    known: dict[int, float] = {}  # move index -> when the tracker applied it
    result = Filmed()
    run.handle(run.tracker.begin())
    hidden: set[object] = set()  # the true cards committed in the round under way
    for frame in film(run.setup, run.moves, seed=seed):
        result.frames += 1
        action = frame.action
        if action is not None and action.scene.move is not None:
            last[next(i for i, m in enumerate(run.moves) if m is action.scene.move)] = action
        before = len(run.applied)
        run.handle(run.tracker.tick(frame.at))
        result.observations += frame.observations
        for obs in frame.observations:
            result.backs += isinstance(obs, BackSeen)
            if isinstance(obs, CardSeen) and obs.card in hidden and run.tracker.game.phase is not Phase.REVEAL:
                result.named_early.append(f"{obs.card.id} at {frame.at:.1f} s")
            run.handle(run.tracker.observe(obs))
            for k in range(before, len(run.applied)):
                move = run.moves[k]
                if type(move) is Commit:
                    hidden.add(move.card)
                elif type(move) is Reveal:
                    hidden.clear()
        for k in range(before, len(run.applied)):
            known[k] = frame.at
        run.now = frame.at
    run.wait(5.0)  # the last moves are taken in
    # (An action's hand_gone is only set once its hand has left, so delays are read at the end.)
    result.delays = [known.get(k, run.now) - action.hand_gone for k, action in sorted(last.items())]
    result.known, result.actions = known, last
    return result


GAMES = [
    pytest.param(2, 3, 1, id="2-players-3-nobles"),
    pytest.param(4, 3, 2, id="4-players-3-nobles", marks=pytest.mark.slow),
    pytest.param(6, 2, 3, id="6-players-2-nobles", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("players", "nobles", "seed"), GAMES)
def test_a_whole_game_seen_by_a_1080p_camera_needs_no_key(players: int, nobles: int, seed: int, tmp_path: Path) -> None:
    run = LmpdRun(players, seed=seed, nobles=nobles, unexplained_after=3.0)  # as `rop play` waits
    filmed = play_on_camera(run)
    run.assert_kept()
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    assert {e.how for e in applied if type(e.move) in (Commit, TurnUp, Reveal)} == {"camera"}
    assert {e.how for e in applied if type(e.move) in (Deal, Draw)} == {"forced"}
    # The record names each commit once the round is revealed (L7).
    assert [m for m in run.tracker.game.move_stack if type(m) is Reveal] == [m for m in run.moves if type(m) is Reveal]
    assert len(filmed.delays) == sum(type(m) in (Commit, TurnUp, Reveal) for m in run.moves)
    assert statistics.median(filmed.delays) <= 0.6 and max(filmed.delays) <= 1.0, sorted(filmed.delays)[-3:]
    # Each commit is known from its back (L6), before the hand turning the noble comes (L7).
    assert filmed.backs >= sum(type(m) is Commit for m in run.moves)
    turned = [k for k, m in enumerate(run.moves) if type(m) is TurnUp]
    for k, move in enumerate(run.moves):
        if type(move) is Commit:
            noble = next(t for t in turned if t > k)
            assert filmed.known[k] < filmed.actions[noble].start, (move.player, filmed.known[k], filmed.actions[noble].start)
    # Nobody names a committed card before the reveal: not the camera, not the tracker.
    assert not filmed.named_early, filmed.named_early
    assert all(e.move.card is UNSEEN for e in applied if type(e.move) is Commit)
    # Each commit is the player's whose back was laid (a back turned face up commits nobody).
    assert [e.move.player for e in applied if type(e.move) is Commit] == [m.player for m in run.moves if type(m) is Commit]
    # The observation log keeps the backs as the camera reported them (never a card), and the
    # game played back from it is kept the same way.
    log = tmp_path / "camera.jsonl"
    lines = [ObservationLog(run.setup).header()] + [observation_json(obs, obs.at) for obs in filmed.observations]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    backs = [o for o in read_observation_log(log).observations if isinstance(o, (BackSeen, BackGone))]
    assert backs == [_rounded(o) for o in filmed.observations if isinstance(o, (BackSeen, BackGone))] != []
    assert all("card" not in line for line in lines[1:] if line["kind"].startswith("back"))
    again = LmpdRun(players, seed=seed, nobles=nobles, unexplained_after=3.0)
    again.handle(again.tracker.begin())
    again.feed(read_observation_log(log).observations)
    again.wait(5.0)
    again.assert_kept()
    assert [e.move.player for e in again.events if isinstance(e, MoveApplied) and type(e.move) is Commit] == [m.player for m in run.moves if type(m) is Commit]


def _rounded(obs: BackSeen | BackGone) -> BackSeen | BackGone:
    """``obs`` as a log keeps it: its time to 0.1 ms, its place on the table to 0.1 mm."""
    obs = dataclasses.replace(obs, at=round(obs.at, 4))
    if isinstance(obs, BackSeen) and obs.table_mm is not None:
        x, y = obs.table_mm
        obs = dataclasses.replace(obs, table_mm=(round(x, 1), round(y, 1)))
    return obs


def test_backs_of_one_deck_are_told_apart_by_where_they_lie_and_turned_face_up() -> None:
    """Every back of the deck shows the same seal: two cards committed face down are two backs,
    each in its own commit place with its own mark; a hand passing over one keeps it; one
    turned face up where it lies is that back gone and the card seen."""
    from companion.games.love_money_power_death import GAME
    from companion.games.love_money_power_death.cards import Card
    from companion.games.love_money_power_death.simulation.camera import FRAME, seated_mat
    from vision.reader import TableReader
    from vision.render import CardPlacement, Effects, Hand, VirtualCamera, render_frame
    from vision.stabiliser import Stabiliser

    layout = seated_mat(("ann", "bob"))
    camera = VirtualCamera.overhead(layout.mat_mm, size=FRAME)
    reader = TableReader(layout=layout, cards=GAME.cards)
    stabiliser = Stabiliser(layout=layout)

    def centre(zone: str) -> tuple[float, float]:
        xs, ys = zip(*layout.zone(zone).polygon_mm)
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    ann, bob = Card.from_id("3La"), Card.from_id("A2")
    down = [CardPlacement(ann, None, centre("commit:ann"), 2, face_up=False), CardPlacement(bob, None, centre("commit:bob"), -3, face_up=False)]
    up = [down[0], CardPlacement(bob, None, centre("commit:bob"), -3)]
    frames = [(down, ()) for _ in range(8)]
    frames += [(down, (Hand((centre("commit:ann")[0] + 60 * f - 150, centre("commit:ann")[1]), 0),)) for f in range(6)]
    frames += [(down, ()) for _ in range(6)] + [(up, ()) for _ in range(15)]
    seen: list[tuple[int, Observation]] = []
    for i, (cards, hands) in enumerate(frames):
        image = render_frame(cards, layout, camera=camera, effects=Effects(noise=2, blur=0.5, hands=hands, seed=i)).image
        seen += [(i, o) for o in stabiliser.update(reader.read(image), image, i / 10)]
    backs = {o.zone: o.mark for _, o in seen if isinstance(o, BackSeen)}
    assert set(backs) == {"commit:ann", "commit:bob"} and len(set(backs.values())) == 2
    assert not any(isinstance(o, CardSeen) and o.card is ann for _, o in seen)  # never named face down
    after = [(type(o).__name__, o.zone) for i, o in seen if i >= 8]
    assert sorted(after) == [("BackGone", "commit:bob"), ("CardSeen", "commit:bob")], after
    (gone,) = [o for _, o in seen if isinstance(o, BackGone)]
    assert gone.mark == backs["commit:bob"]
