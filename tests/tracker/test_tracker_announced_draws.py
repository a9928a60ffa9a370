"""A camera alone at a table with Fate decks, where every Fate draw is announced (``fate``
typed at the dashboard, ``draw ann`` on ``rop track``'s input: a ``DrawAnnounced``
observation). The announcement is all the tracker needs about a draw: the table is asked only
what no sensor can tell, the target of a Thief or a Mirror Swap, one key each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.rule_of_power.engine.moves import DrawFate, Play
from companion.observations import CardGone, DrawAnnounced
from companion.observations.scene import changes
from companion.tracker import Question, TrackerState

from tests.tracker.harness import TableRun, crystals_met


def play_announcing(run: TableRun, *, when: str) -> None:
    """Play the game from what an ideal camera reports, each draw announced ``when``: at
    its player's turn (``"turn"``); as soon as the player before has laid their card, before
    the camera has seen it (``"early"``); or while the camera is still reporting the cards
    of the capture before it gone, one by one (``"settling"``)."""
    scenes = list(run.scenes())
    announced: set[int] = set()
    before = None
    for k, scene in enumerate(scenes):
        run.now += 0.5
        after = scenes[k + 1] if k + 1 < len(scenes) else None
        seen = changes(before, scene, run.now)
        draw = after is not None and isinstance(after.move, DrawFate) and isinstance(scene.move, Play)
        if draw and when == "early" and scene.move.player != after.move.player:
            run.feed([DrawAnnounced("dashboard", run.now, after.move.player)])
            announced.add(id(after))
        gone = [o for o in seen if isinstance(o, CardGone)]
        if draw and when == "settling" and len(gone) > 1:
            # The capturing card is reported gone (the table still looks as the game has it),
            # the announcement comes, then the cards it took.
            first = next((o for o in gone if o.card is scene.move.card), gone[0])
            run.feed([first, DrawAnnounced("dashboard", run.now, after.move.player)])
            seen = [o for o in seen if o is not first]
            announced.add(id(after))
        if isinstance(scene.move, DrawFate) and id(scene) not in announced:
            run.feed([DrawAnnounced("dashboard", run.now, scene.move.player)])
        run.feed(seen)
        before = scene
    run.wait(5.0)


@pytest.mark.parametrize("when", ["turn", "early", "settling"])
@pytest.mark.parametrize(
    "players,teams,seed,deck_owner",
    # (seed 103: a Dark Decay discarded to a Dark Decay, the one laid first was played)
    [(2, 0, 4, None), (3, 0, 12, None), (4, 2, 5, None), (5, 0, 103, None),
     # A player's own World deck, its stickers printed with their seal (rop markers --owner):
     # World cards discarded to a Dark Decay are seen with an owner.
     (3, 0, 12, "ann"), (5, 0, 103, "bob")],
)
def test_announced_draws_leave_only_the_targets_to_ask(players, teams, seed, deck_owner, when):
    run = TableRun(players, teams, fate=True, seed=seed, deck_owner=deck_owner)
    # A camera alone: draws are not seen by any sensor (as `rop play --camera` sets it up).
    run.tracker.config = replace(run.tracker.config, facts={**run.tracker.config.facts, "draws_visible": False})
    play_announcing(run, when=when)
    assert not run.problems(), run.problems()[:3]
    assert len(run.applied) == len(run.moves)
    game = run.tracker.game
    assert game.totals == run.truth.totals and game.outcome() == run.truth.outcome()
    assert run.tracker.state is TrackerState.SYNCED
    questions = [e for e in run.events if isinstance(e, Question)]
    assert all(q.prompt.startswith("Whom does the") for q in questions), [q.prompt for q in questions if not q.prompt.startswith("Whom")]
    targeted = [m for m in run.moves if isinstance(m, Play) and m.target]
    assert len(questions) <= len(targeted)
    if players == 2:
        assert not questions  # a lone opponent is the only possible target


@pytest.mark.parametrize("seed", [4, 6])
def test_a_draw_left_unannounced_shows_when_the_next_player_lays_a_fate_card(seed):
    """A Fate card carries its owner's seal: when it is laid by the player after the one to
    move, the one to move must have drawn, announced or not. The tracker finds that draw
    (or asks about it) rather than going out of sync."""
    run = TableRun(2, fate=True, seed=seed)
    run.tracker.config = replace(run.tracker.config, facts={**run.tracker.config.facts, "draws_visible": False})
    scenes = list(run.scenes())
    skipped = next(k for k in range(len(scenes) - 1)
                   if isinstance(scenes[k].move, DrawFate) and isinstance(scenes[k + 1].move, Play)
                   and scenes[k + 1].move.card.is_fate and scenes[k + 1].move.player != scenes[k].move.player)
    before = None
    for k, scene in enumerate(scenes):
        run.now += 0.5
        if isinstance(scene.move, DrawFate) and k != skipped:
            run.feed([DrawAnnounced("dashboard", run.now, scene.move.player)])
        run.feed(changes(before, scene, run.now))
        before = scene
    run.wait(5.0)
    assert not run.problems(), run.problems()[:3]
    assert len(run.applied) == len(run.moves)
    assert run.tracker.game.totals == run.truth.totals


def test_a_dark_decay_right_after_two_crystals_met_with_a_players_own_deck():
    """The table the camera lost: three players with Fate decks and the expansion, the World
    cards carrying ann's seal (her own deck). ann's Crystal meets cy's and both leave the
    table (R19); bob lays a Dark Decay in front of him, ann and cy each lay the card they
    discard face up in their own Fate zone, and all three are taken away. The Decay is
    recorded with both discards, and the World card laid next is cy's play, not bob's (the
    World cards discarded were taken for cards still in play, so the Decay was never
    explained and the next card was put on bob)."""
    run = TableRun(3, fate=True, seed=118, expansion=True, deck_owner="ann")
    run.tracker.config = replace(run.tracker.config, facts={**run.tracker.config.facts, "draws_visible": False})
    crystals = next(i for i, m in enumerate(run.moves) if isinstance(m, Play) and m.card.id == "F001" and i and crystals_met(run, i))
    decay = run.moves[crystals + 1]
    assert isinstance(decay, Play) and decay.card.id == "F004" and len(decay.discards) == 2
    assert all(card.is_world for _, card in decay.discards)
    play_announcing(run, when="turn")
    assert not run.problems(), run.problems()[:3]
    assert len(run.applied) == len(run.moves)
    assert run.tracker.game.totals == run.truth.totals

