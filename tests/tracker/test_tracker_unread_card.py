"""A card laid in the centre whose seal the camera cannot read at once: the tracker knows a
card was laid before it knows which, and never credits a later card in its place.

The game is the one a tester filmed: two players, World cards, the docs' own camera (a 1920 x
1080 webcam over the 2-player mat, stickers 28 px wide, 2.7 pixels per module), a whole game
of 43 events whose last hand of the last deal is ann W013, bob W007, ann W032, and bob W020
taking W013 and W007. Bob's W007 lies with its seal unreadable (blurred, as a card still
settling or a lens out of focus leaves it) for a while after it is laid; meanwhile ann lays
W032. Every frame goes through the marker detector and the stabiliser with the camera's
defaults, as ``rop play --camera`` reads them, on the video's clock (frame n at n / fps)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import Deal, Move, NewRound, Play
from companion.games.rule_of_power.simulation.staging import stage
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup
from companion.observations import CardGone, CardLaid, CardSeen, LaidGone, Observation
from companion.observations.scene import Scene, changes
from companion.session import GameSession
from companion.tracker import MoveApplied, Question, Tracker, TrackerConfig, TrackerState
from tests.table_run import TrackedTable
from tests.tracker.harness import same_move
from tests.tracker.test_tracker_camera_games import webcam_1080p
from vision.layout import load_layout
from vision.markers import MARKER_MM, SEAL_CENTRE_ON_CARD_MM
from vision.owners import OwnerRegistry
from vision.reader import TableReader
from vision.render import VirtualCamera, card_pose_mm
from vision.scenes import SceneLayout, natural_play
from vision.stabiliser import Stabiliser

FPS = 10
LAST_HAND = (("ann", "W013"), ("bob", "W007"), ("ann", "W032"), ("bob", "W020"))
SEED = 3004  # a whole game of 43 events, one round, its last deal dealt ann first


def last_hand_game(seed: int = SEED) -> tuple[GameState, list[Move]]:
    """A whole random 2-player game whose last deal ends with the reported hand: the four
    cards are put where the last deal takes them from the shuffled deck (R15: ann, to the
    dealer's left, is dealt the 2nd and 4th of her three), the first two plays of that deal
    are random, then ann W013, bob W007 and ann W032 take nothing and bob W020 takes W013
    and W007."""
    setup = make_setup(2)
    game = GameState(setup, keep_history=False)
    table = VirtualTable(setup, seed=seed)
    moves: list[Move] = []

    def push(move: Move) -> None:
        game.push(move)
        moves.append(move)

    while (move := table.next_move(game)) is not None:
        if isinstance(move, NewRound) and game.round_number == 0:
            deck = table.deck
            for card, place in (("W013", 3), ("W032", 1), ("W007", 2), ("W020", 0)):
                j = deck.index(Card.from_id(card))
                deck[place], deck[j] = deck[j], deck[place]
        push(move)
        if isinstance(move, Deal) and not table.deck:
            for _ in range(2):
                push(table.rng.choice([m for m in game.legal_moves if isinstance(m, Play) and m.card.id not in {c for _, c in LAST_HAND}]))
            for player, card in LAST_HAND[:3]:
                push(Play(player, Card.from_id(card)))
            push(Play("bob", Card.from_id("W020"), (Card.from_id("W013"), Card.from_id("W007"))))
    return game, moves


class LastHandRun(TrackedTable):
    """The reported game on a table watched by a tracker set up as ``rop play`` sets it up
    (a camera alone, the first dealer known, ``unexplained_after`` 3 seconds)."""

    same_move = staticmethod(same_move)

    def __init__(self) -> None:
        self.truth, moves = last_hand_game()
        self.setup = self.truth.setup
        first = next(m for m in moves if isinstance(m, NewRound))
        config = TrackerConfig(first_dealer=first.dealer, facts={"fate_decks": {p: () for p in self.setup.players}})
        super().__init__(Tracker(GameSession(self.setup), config), moves)
        self.observed: list[Observation] = []
        self.asked_at: list[float] = []
        """When each question was asked, on the video's clock."""

    def handle(self, events: Sequence[object]) -> None:
        self.asked_at += [self.now for e in events if isinstance(e, Question)]
        super().handle(events)


def assert_kept(run: LastHandRun, *, keys: int) -> None:
    """The whole game was kept: nothing said wrong, ``keys`` questions answered, every move
    the one played (the run checks each as it is applied), and the same scores."""
    assert not run.problems(), run.problems()[:3]
    assert run.questions == keys, [e for e in run.events if isinstance(e, Question)][:2]
    assert len(run.applied) == len(run.moves), (len(run.applied), len(run.moves))
    assert run.tracker.game.is_game_over()
    assert [r.score.to_json() for r in run.tracker.game.results] == [r.score.to_json() for r in run.truth.results]


def seal_box(camera: VirtualCamera, spread: SceneLayout, scene: Scene, card_id: str) -> tuple[int, int, int, int]:
    """Where ``card_id``'s seal lies in the picture (pixels, with a margin), as ``spread``
    places it in ``scene``."""
    placement = next(p for p in spread.placements(scene) if getattr(p.card, "id", p.card) == card_id)
    sx, sy = SEAL_CENTRE_ON_CARD_MM
    half = MARKER_MM / 2 + 1.5
    corners = card_pose_mm(placement.position_mm, placement.angle_deg) @ np.array([[sx - half, sy - half, 1], [sx + half, sy - half, 1], [sx + half, sy + half, 1], [sx - half, sy + half, 1]]).T
    px = camera.project(corners.T[:, :2])
    (x0, y0), (x1, y1) = np.floor(px.min(axis=0)).astype(int), np.ceil(px.max(axis=0)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def blurred(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """``image`` with the seal in ``box`` out of focus: its square still shows, its bits do not
    read (1.8 px of blur at 2.7 pixels per module)."""
    x0, y0, x1, y1 = box
    out = image.copy()
    pad = 8
    window = image[y0 - pad : y1 + pad, x0 - pad : x1 + pad]
    out[y0:y1, x0:x1] = cv2.GaussianBlur(window, (0, 0), 1.8)[pad:-pad, pad:-pad]
    return out


def film(run: LastHandRun, scenes: Sequence[Scene], unreadable: Callable[[int], bool]) -> None:
    """``scenes`` played at a natural pace in front of the 1080p webcam; while
    ``unreadable(scene_index)`` W007's seal is out of focus. Every frame is read and its
    observations handed to the tracker on the video's clock."""
    layout = load_layout(2)
    players = list(run.setup.players)
    seated = layout.seated(players)
    camera = webcam_1080p(layout)
    reader = TableReader(layout=layout, owners=OwnerRegistry(players + [None] * (8 - len(players))), players=players)
    stabiliser = Stabiliser(layout=seated)
    spread = SceneLayout(seated, seed=0)  # where natural_play lays each card (the same seed)
    boxes: dict[int, tuple[int, int, int, int]] = {}
    for k, scene in enumerate(scenes):
        spread.placements(scene)
        if unreadable(k) and any(c.card.id == "W007" for c in scene.cards):
            boxes[k] = seal_box(camera, spread, scene, "W007")
    for frame in natural_play(scenes, seated, players, camera=camera, fps=FPS, seed=0):
        image = frame.image
        if frame.scene_index in boxes:
            image = blurred(image, boxes[frame.scene_index])
        run.now = frame.at
        run.handle(run.tracker.tick(frame.at))
        for obs in stabiliser.update(reader.read(image), image, frame.at):
            run.observed.append(obs)
            run.handle(run.tracker.observe(obs))
    run.wait(5.0)


def last_hand_scenes(run: LastHandRun) -> tuple[list[Scene], dict[str, int]]:
    """The game's scenes, and the index of the scene that lays each card of the last hand."""
    scenes = list(stage(run.setup, run.moves))
    last = {card: max(i for i, s in enumerate(scenes) if isinstance(s.move, Play) and s.move.card.id == card) for _, card in LAST_HAND}
    return scenes, last


def test_the_reported_game_is_what_the_test_plays() -> None:
    truth, moves = last_hand_game()
    assert len(moves) == 43 and truth.is_game_over()
    plays = [m for m in moves if isinstance(m, Play)]
    assert [(m.player, m.card.id, sorted(c.id for c in m.capture)) for m in plays[-4:]] == [
        ("ann", "W013", []),
        ("bob", "W007", []),
        ("ann", "W032", []),
        ("bob", "W020", ["W007", "W013"]),
    ]


@pytest.mark.slow
def test_a_card_read_late_is_credited_to_the_player_who_laid_it() -> None:
    """W007's seal reads only after ann's W032 has been seen: the camera reports a card laid
    where W007 lies before W032, the tracker waits for it, and once W007 is read it is bob's
    play, W032 ann's, and W020 takes W013 and W007. Every move is the one played, and no
    question is asked."""
    run = LastHandRun()
    scenes, last = last_hand_scenes(run)
    w032 = last["W032"]
    # The table rests a little after ann's W032 (a scene that changes nothing rests 0.3 s),
    # so that W007 is read before bob's hand comes for it.
    scenes = scenes[: w032 + 1] + [scenes[w032]] * 4 + scenes[w032 + 1 :]
    film(run, scenes, lambda k: last["W007"] <= k <= w032 + 2)

    seen = {o.card.id: o for o in run.observed if isinstance(o, CardSeen) and o.zone == "centre"}
    laid = [o for o in run.observed if isinstance(o, CardLaid) and o.zone == "centre"]
    assert laid, "the camera never reported a card laid unread"
    assert laid[0].at < seen["W032"].at < seen["W007"].at, "W007 was not read late"
    assert seen["W007"].mark == laid[0].mark, "the card read is not the one seen laid"
    assert not [o for o in run.observed if isinstance(o, LaidGone)]
    assert_kept(run, keys=0)
    plays = [m for m in run.applied if isinstance(m, Play)]
    assert [(m.player, m.card.id) for m in plays[-4:]] == list(LAST_HAND)
    assert sorted(c.id for c in plays[-1].capture) == ["W007", "W013"]


@pytest.mark.slow
def test_a_card_never_read_is_asked_about_and_the_answer_continues_the_game() -> None:
    """W007's seal stays unreadable: the table rests with it lying there, and after
    ``unexplained_after`` seconds the table is asked which card bob played, with one key.
    The answer (W007) is applied; ann's W032 and bob's W020 taking W013 and W007 follow from
    the camera, and the game is kept to its end. (Blurred as it is, the seal may read for a
    moment once bob's hand shades it: the card read is the one answered.)"""
    run = LastHandRun()
    scenes, last = last_hand_scenes(run)
    w007 = last["W007"]
    scenes = scenes[: w007 + 1] + [scenes[w007]] * 14 + scenes[w007 + 1 :]  # 4 s of rest
    film(run, scenes, lambda k: k >= w007)

    asked = [e for e in run.events if isinstance(e, Question)]
    assert len(asked) == 1
    assert asked[0].prompt == "A card lies in the centre that the camera cannot read: which card did bob play?"
    assert any(c.moves == (Play("bob", Card.from_id("W007")),) for c in asked[0].choices)
    laid = next(o for o in run.observed if isinstance(o, CardLaid) and o.zone == "centre")
    assert 3.0 <= run.asked_at[0] - laid.at < 3.5, "not asked once the card had lain unnamed for 3 seconds"
    assert all(o.at > run.asked_at[0] + 1.0 for o in run.observed if isinstance(o, CardSeen) and o.card.id in ("W007", "W032"))
    answered = next(e for e in run.events if isinstance(e, MoveApplied) and e.how == "answer")
    assert answered.move == Play("bob", Card.from_id("W007"))
    assert_kept(run, keys=1)


# --- the same hand before an ideal camera: the observations themselves, on the test's clock ---

W007, W013, W020, W032 = (Card.from_id(c) for c in ("W007", "W013", "W020", "W032"))


def ideal_until(run: LastHandRun, scenes: Sequence[Scene], end: int, before: Scene | None = None) -> Scene | None:
    """``scenes`` up to ``end`` (excluded), as an ideal camera reports them, half a second
    apart; returns the last scene shown."""
    for scene in scenes[:end]:
        run.now += 0.5
        run.feed(changes(before, scene, run.now))
        before = scene
    return before


def applied_since(run: LastHandRun, n: int) -> list[tuple[str, str]]:
    return [(m.player, m.card.id) for m in run.applied[n:] if isinstance(m, Play)]


def test_the_card_laid_before_a_later_one_is_played_first_once_named() -> None:
    """A card laid unread holds the turn: ann's W032, seen before it is named, waits; once the
    camera names W007 where the card was laid, bob's W007 and ann's W032 are applied, in that
    order, and the rest of the game follows."""
    run = LastHandRun()
    scenes, last = last_hand_scenes(run)
    ideal_until(run, scenes, last["W007"])
    n = len(run.applied)
    run.now += 0.5
    run.feed([CardLaid("camera", run.now, "centre", (400.0, 300.0), 1)])
    assert run.tracker.state is TrackerState.WAITING
    run.now += 0.5
    run.feed([CardSeen("camera", run.now, W032, None, "centre")])
    run.wait(2.0)  # less than unexplained_after: nothing asked, nothing applied
    assert applied_since(run, n) == [] and run.questions == 0
    run.feed([CardSeen("camera", run.now, W007, None, "centre", (400.0, 300.0), 1)])
    assert applied_since(run, n) == [("bob", "W007"), ("ann", "W032")]
    ideal_until(run, scenes[last["W032"] + 1 :], len(scenes), before=scenes[last["W032"]])
    run.wait(5.0)
    assert_kept(run, keys=0)


def test_a_card_laid_and_taken_back_unread_binds_nothing() -> None:
    """A card laid unread and taken up again before it is named was never played: the
    tracker waits while it lies there and goes on as before once it is gone, asking nothing."""
    run = LastHandRun()
    scenes, last = last_hand_scenes(run)
    before = ideal_until(run, scenes, last["W007"])
    n = len(run.applied)
    run.now += 0.5
    run.feed([CardLaid("camera", run.now, "centre", None, 4)])
    run.now += 0.5
    run.feed([LaidGone("camera", run.now, "centre", 4)])
    assert run.tracker.state is TrackerState.SYNCED
    run.wait(5.0)
    assert run.questions == 0 and applied_since(run, n) == []
    ideal_until(run, scenes[last["W007"] :], len(scenes), before=before)
    run.wait(5.0)
    assert_kept(run, keys=0)


def test_a_card_left_unnamed_is_a_question_whose_answer_names_it() -> None:
    """Unnamed for ``unexplained_after`` seconds on the tracker's clock, the card laid is a
    question (which card bob played: the cards he may hold that could lie there); the answer
    applies bob's play, the view names the card, and when it is taken unread with W013 by
    bob's W020 the capture is the one played."""
    run = LastHandRun()
    scenes, last = last_hand_scenes(run)
    ideal_until(run, scenes, last["W007"])
    run.now += 0.5
    run.feed([CardLaid("camera", run.now, "centre", None, 2)])
    assert run.wait(2.9) == [] and run.questions == 0
    asked = [e for e in run.wait(0.2) if isinstance(e, Question)]
    assert [q.prompt for q in asked] == ["A card lies in the centre that the camera cannot read: which card did bob play?"]
    labels = [c.label for c in asked[0].choices]
    assert "bob plays 7P W007 Fire Dragon" in labels and not any("W013" in label for label in labels)
    assert run.applied[-1] == Play("bob", W007)  # the run answered with the truth, by its key
    assert run.tracker.view.zone_of((W007, None)) == "centre"
    # The rest of the hand: W007 stays unread until W020 takes it.
    for step in scenes[last["W032"] : last["W020"] + 2]:
        run.now += 0.5
        seen = [o for o in changes(scenes[scenes.index(step) - 1], step, run.now) if not (isinstance(o, (CardSeen, CardGone)) and o.card is W007)]
        if any(isinstance(o, CardGone) and o.card is W013 for o in seen):
            seen.append(LaidGone("camera", run.now, "centre", 2))
        run.feed(seen)
    ideal_until(run, scenes[last["W020"] + 2 :], len(scenes), before=scenes[last["W020"] + 1])
    run.wait(5.0)
    assert_kept(run, keys=1)
