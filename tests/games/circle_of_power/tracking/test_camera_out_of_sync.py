"""A Circle of Power table filmed by a 1080p camera that never reads one battle card: the
leader's card of the second action (C8) is not seen, the others lay theirs, the act is made
and the next action begins. The tracker must not credit a later card to the emperor it waits
for: once the table is out of sync nothing more is applied (docs/tracker.md), every
difference is listed, and each time the table changes the list is said again. When the table
is put back as the game has it, the tracker is in sync again and keeps the rest of the game.

Every frame is rendered on Circle of Power's mat at 2.6 pixels per module and read by the
marker detector and the stabiliser with the camera's defaults, as `rop play --camera` does."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.games.circle_of_power.moves import Play
from companion.games.circle_of_power.simulation.camera import circle_layout
from companion.contract.registry import game as registered
from companion.observations.scene import Scene
from companion.tracker import InSync, MoveApplied, OutOfSync, TrackerState
from vision.owners import OwnerRegistry
from vision.reader import TableReader
from vision.scenes import camera_over, natural_play
from vision.stabiliser import Stabiliser

from tests.games.circle_of_power.tracking.harness import OWNER, CopRun

pytestmark = pytest.mark.slow


def film(run: CopRun, scenes: Sequence[Scene]) -> None:
    """``scenes`` played at a natural pace in front of a 1080p camera, every frame read and
    its observations handed to ``run``'s tracker on the video's clock."""
    layout = circle_layout()
    reader = TableReader(layout=layout, owners=OwnerRegistry([OWNER] + [None] * 7), cards=registered(run.setup.game.name).cards)
    stabiliser = Stabiliser(layout=layout)
    for frame in natural_play(scenes, layout, [OWNER], camera=camera_over(layout, 2.6), seed=1):
        run.handle(run.tracker.tick(frame.at))
        for obs in stabiliser.update(reader.read(frame.image), frame.image, frame.at):
            run.handle(run.tracker.observe(obs))
        run.now = frame.at
    run.wait(5.0)


def test_a_battle_card_never_read_stops_the_tracker_until_the_table_is_put_right() -> None:
    run = CopRun(3, "coloured-cities", seed=7, target=1, unexplained_after=3.0)  # as `rop play` waits
    scenes = run.scenes()
    plays = [i for i, s in enumerate(scenes) if type(s.move) is Play]
    # The second action: ann leads with 2C (C8), then bob, cy and the dummy lay theirs.
    second = plays[4:8]
    unread = scenes[second[0]].move
    assert isinstance(unread, Play) and (unread.player, unread.card.id) == ("ann", "2C")
    gathered = next(i for i in range(second[-1], len(scenes)) if scenes[i].caption == "the battle cards are gathered face down")
    third = plays[8:12]
    before = second[0] - 1  # the table as the game has it when ann is to lead

    def without(scene: Scene) -> Scene:
        return Scene(tuple(c for c in scene.cards if c.card is not unread.card), scene.move, scene.caption)

    # ann's card lies unread through the second action; the third begins, ann's 9H among its cards.
    shown = scenes[: second[0]] + [without(s) for s in scenes[second[0] : third[-1] + 1]]
    shown += [shown[-1]] * 12  # the table rests a few seconds (a scene that changes nothing rests 0.3 s)
    put_right = Scene(scenes[before].cards, None, "the cards are put back as the game has them")
    film(run, shown + [put_right] + scenes[second[0] : gathered + 1])

    moves = [e for e in run.events if isinstance(e, MoveApplied)]
    desync = [i for i, e in enumerate(run.events) if isinstance(e, OutOfSync)]
    assert desync, "the tracker never said the table was out of sync"
    back = next(i for i, e in enumerate(run.events) if isinstance(e, InSync))
    # Nothing was applied between the first word of it and the table matching the game again.
    assert not [e for e in run.events[desync[0] : back] if isinstance(e, MoveApplied)]
    said = [e for e in run.events[desync[0] : back] if isinstance(e, OutOfSync)]
    first = said[0]
    # Said as soon as the second action's cards were gathered: an action went by unread.
    assert first.differences[0].startswith("ann's battle card is not seen, though it comes before"), first.differences
    taken = " ".join(d for e in said for d in e.differences if "was taken up" in d)
    assert all(f"{card} " in taken for card in ("7H", "8H", "10D")), taken  # bob's, cy's, @1's
    # Said again as the table changed, each time every difference: the third action's cards too.
    last = said[-1]
    assert len(said) >= 2
    assert any(d.startswith("9H ") and "lies as ann's battle card" in d for d in last.differences), last.differences
    assert any(d.startswith("5H ") and "lies as @1's battle card" in d for d in last.differences), last.differences
    assert any("was taken up" in d for d in last.differences), last.differences
    # Once in sync, the second action is kept from the cards laid again: every move the true one (TrackedTable.handle checks each).
    act = next(i for i, m in enumerate(run.moves) if m is scenes[gathered].move)
    assert len(run.applied) == act + 1, (len(run.applied), act + 1)
    assert any(isinstance(m, Play) and m.card is unread.card and m.player == "ann" for m in run.applied)
    assert run.tracker.state is TrackerState.SYNCED
    assert moves[-1].how == "camera"
