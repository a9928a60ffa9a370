"""The tracker's reasoning about a Circle of Power table, fed what an ideal camera reports of
each scene (cards seen laid and seen gone, :func:`~companion.observations.scene.changes`) or
the taps the protocol has the table make, on a clock the test moves:
whole games of every variant and table size, and the moments a table makes hard (cards laid out
of turn, battle cards left lying, an act still under way, a card the rules refuse, what no
sensor can tell)."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.circle_of_power.moves import Conquer, Play, Reveal, Season
from companion.observations.scene import changes
from companion.games.circle_of_power.simulation.taps import CITY_READER, LINE_READER, PLAY_READER, taps_for
from companion.games.rule_of_power.engine.cards import Card as WorldCard
from companion.observations import CardTapped
from companion.observations.scene import Scene, TableCard
from companion.session import GameSession
from companion.tracker import InSync, MoveApplied, Notice, OutOfSync, Question, RuleHint, Tracker, TrackerState

from tests.games.circle_of_power.tracking.harness import OWNER, CopRun

GAMES = [(players, variant) for variant in ("basic", "lonely-tyrant", "coloured-cities") for players in (2, 3, 4)]


@pytest.mark.parametrize(("players", "variant"), GAMES)
@pytest.mark.parametrize("level", [0, 1])
def test_whole_games_seen_by_a_camera_need_no_key(players: int, variant: str, level: int) -> None:
    """Every variant, 2-4 players, played by random players (who retake and rebel often) and
    by players of simple habits: the tracker follows the whole game from what lies face up."""
    run = CopRun(players, variant, seed=players, level=level)
    run.play_camera()
    run.assert_kept()


@pytest.mark.parametrize(("players", "variant"), GAMES)
@pytest.mark.parametrize("level", [0, 1])
def test_whole_games_tapped_need_no_key(players: int, variant: str, level: int) -> None:
    run = CopRun(players, variant, seed=players, level=level, readers=True)
    run.play_nfc()
    run.assert_kept()
    assert {e.how for e in run.events if isinstance(e, MoveApplied)} <= {"nfc", "forced"}


def feed_scenes(run: CopRun, scenes: list[Scene], *, step: float = 0.5) -> None:
    before = None
    for scene in scenes:
        run.now += step
        run.feed(changes(before, scene, run.now))
        before = scene


def first_index(scenes: list[Scene], kind: type, *, after: int = 0) -> int:
    return next(i for i, s in enumerate(scenes) if i >= after and type(s.move) is kind)


def test_a_card_laid_out_of_turn_waits_for_the_card_before_it() -> None:
    """The second player of an action lays their card before the first: it is theirs (their
    seat says so), and it counts once the first player's card is laid, in turn (C8)."""
    run = CopRun(3, "basic", seed=1)
    scenes = run.scenes()
    k = first_index(scenes, Play)
    assert type(scenes[k + 1].move) is Play
    first, second = scenes[k], scenes[k + 1]
    swapped = Scene(tuple(t for t in second.cards if t not in first.cards or t in scenes[k - 1].cards), second.move, "")
    played = len([m for m in run.moves[: run.moves.index(first.move)]])
    feed_scenes(run, scenes[:k] + [swapped])
    assert len(run.applied) == played  # nothing yet: the card before it is not laid
    assert run.tracker.state is TrackerState.WAITING
    feed_scenes(run, [second])
    assert len(run.applied) == played + 2  # (each checked against the true move as it came)
    feed_scenes(run, scenes[k + 2 :])
    run.wait(5)
    run.assert_kept()


def test_battle_cards_left_lying_until_the_next_plays_are_no_desync() -> None:
    """The battle cards of an action stay on the table while the winner acts, the next city is
    turned up and the next cards are laid; they are gathered only then."""
    run = CopRun(2, "basic", seed=0)
    scenes = run.scenes()
    k = next(i for i, s in enumerate(scenes) if s.caption == "the battle cards are gathered face down")
    gathered = {t for t in scenes[k - 1].cards if t.zone.startswith("battle:")}
    late = [Scene(s.cards + tuple(g for g in gathered if g.card not in {c.card for c in s.cards}), s.move, s.caption) for s in scenes[k : k + 3]]
    feed_scenes(run, scenes[:k] + late + scenes[k + 3 :])
    run.wait(5)
    run.assert_kept()


def test_an_act_that_may_still_be_under_way_waits_for_the_battle_cards_gathered() -> None:
    """Action 15 of Coloured Cities: bob, black, takes ann's city and gives his own to her. Once
    ann's city lies in his line, the table looks as if he kept his city, the season's end; the
    tracker waits, and his city going to ann makes the act."""
    run = CopRun(2, "coloured-cities", seed=3)
    give = run.moves[90]
    assert give == Conquer("bob", "ann", keep=False)
    scenes = run.scenes()
    k = next(i for i, s in enumerate(scenes) if s.move is give)
    feed_scenes(run, scenes[: k + 1])
    run.wait(0.3)  # (less than the harness's ``unexplained_after``, a second)
    assert len(run.applied) == 90 and run.tracker.state is TrackerState.WAITING  # not taken for a keep
    feed_scenes(run, scenes[k + 1 :])
    run.wait(5)
    run.assert_kept()
    assert run.applied[90] == give  # (an act is recorded exactly as made)


def test_a_card_the_rules_do_not_allow_gets_a_hint_and_waits_for_the_right_one() -> None:
    """A card already played this half of the season (C8) laid by the player to move: after a
    moment the table is told why, and the right card laid instead is played."""
    run = CopRun(2, "basic", seed=0)
    scenes = run.scenes()
    plays = [i for i, s in enumerate(scenes) if type(s.move) is Play]
    k = plays[5]  # in action 2: a card of action 1 is no longer in anybody's hand
    seat = int(next(t.zone for t in scenes[k].cards if t.card is scenes[k].move.card).partition(":")[2])
    wrong = TableCard(scenes[plays[0]].move.card, OWNER, f"battle:{seat}")
    feed_scenes(run, scenes[:k])
    run.now += 0.5
    run.feed(changes(scenes[k - 1], Scene(scenes[k - 1].cards + (wrong,), None, ""), run.now))
    run.wait(2)
    hints = [e for e in run.events if isinstance(e, RuleHint)]
    assert len(hints) == 1 and "C8" in (hints[0].rule or "") and f"take {wrong.card.id} back" in hints[0].message
    run.events.remove(hints[0])
    run.now += 0.5
    run.feed(changes(Scene(scenes[k - 1].cards + (wrong,), None, ""), scenes[k], run.now))
    feed_scenes(run, scenes[k + 1 :])
    run.wait(5)
    run.assert_kept()


def test_a_city_in_the_wrong_seat_is_out_of_sync_until_put_right() -> None:
    run = CopRun(2, "basic", seed=0)
    scenes = run.scenes()
    k = first_index(scenes, Reveal)
    feed_scenes(run, scenes[: k + 1])
    city = next(t for t in scenes[k].cards if t.zone == "city:0")
    moved = Scene(tuple(dataclasses.replace(t, zone="line:0") if t is city else t for t in scenes[k].cards), None, "")
    run.now += 0.5
    run.feed(changes(scenes[k], moved, run.now))
    run.wait(2)
    out = [e for e in run.events if isinstance(e, OutOfSync)]
    assert out and any(f"{city.card.id}" in d and "line" in d for d in out[-1].differences)
    run.events = [e for e in run.events if not isinstance(e, OutOfSync)]
    run.now += 0.5
    run.feed(changes(moved, scenes[k], run.now))
    assert any(isinstance(e, InSync) for e in run.events)
    feed_scenes(run, scenes[k + 1 :])
    run.wait(5)
    run.assert_kept()


def test_the_bottom_joker_nobody_showed_is_asked_with_one_key() -> None:
    """The dealer puts the city deck on its joker without laying the joker face up first: with
    both jokers in the deck the camera cannot tell which lies at the bottom (C6); once the
    cities are dealt and the next city turned up, it asks (one key)."""
    run = CopRun(3, "basic", seed=0)
    season = run.moves[0]
    assert type(season) is Season and not any(c.is_joker for _, c in season.cities)
    scenes = run.scenes()
    k = first_index(scenes, Reveal)
    dealt = [Scene(tuple(t for t in s.cards if t.card is not season.bottom), s.move, s.caption) for s in scenes[:k]]
    feed_scenes(run, dealt)
    assert not run.applied and not run.questions
    feed_scenes(run, scenes[k:])
    run.wait(5)
    run.assert_kept(keys=1)
    asked = next(e for e in run.events if isinstance(e, Question))
    assert [c.moves[0].bottom.id for c in asked.choices] == ["X1", "X2"]  # type: ignore[attr-defined]


def test_a_set_up_laid_slowly_in_the_documented_order_is_awaited_not_out_of_sync() -> None:
    """C6, as docs/tracker.md has the dealer set up: the joker face up for the bottom of the
    city deck first, then each city, a few seconds apart. Until the cities lie, the table is
    on its way to a set-up: awaited, never a difference ("X2 lies on the city deck, but the
    game has it not dealt yet")."""
    run = CopRun(2, "basic", seed=0)
    scenes = run.scenes()
    k = first_index(scenes, Reveal)
    feed_scenes(run, scenes[:k], step=4.0)  # far longer than the tracker waits for a table on its way
    run.wait(4.0)
    assert not run.problems(), run.problems()
    assert [type(m) for m in run.applied] == [Season]
    feed_scenes(run, scenes[k:])
    run.wait(5)
    run.assert_kept()


def test_a_set_up_that_is_no_set_up_is_still_out_of_sync() -> None:
    """A battle card laid before any season is set up is no step of a set-up (C6): out of sync."""
    run = CopRun(2, "basic", seed=0)
    scenes = run.scenes()
    k = first_index(scenes, Play)
    card = scenes[k].move.card  # type: ignore[union-attr]
    run.now += 0.5
    run.feed(changes(None, Scene((TableCard(card, OWNER, "battle:0"),), None, ""), run.now))
    run.wait(4.0)
    assert any(isinstance(e, OutOfSync) for e in run.events)


def test_without_a_first_dealer_the_table_is_asked_who_deals() -> None:
    run = CopRun(2, "lonely-tyrant", seed=197)
    run.tracker = Tracker(GameSession(run.setup), dataclasses.replace(run.tracker.config, first_dealer=None))
    run.play_camera()
    run.assert_kept(keys=1)
    asked = next(e for e in run.events if isinstance(e, Question))
    assert [c.moves[0].dealer for c in asked.choices] == ["ann", "bob"]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- NFC


def test_the_bottom_joker_is_turned_up_by_the_companion_with_no_tap() -> None:
    """C7: the bottom joker lies face up from the set-up and comes out last: once it is all the
    city deck holds, the companion makes it the next available city by itself, and a tap of it
    made anyway changes nothing."""
    run = CopRun(2, "basic", seed=0, readers=True)
    taps = list(taps_for(run.setup, run.moves, OWNER))
    bottoms = [m for m, t in taps if type(m) is Reveal and m.card.is_joker and not t]
    assert bottoms, "the protocol taps no bottom joker"
    k = next(i for i, (m, t) in enumerate(taps) if type(m) is Reveal and not t)
    for _, t in taps[:k]:
        run.feed(t)
    reveal = taps[k][0]
    assert run.applied[-1] == reveal and type(reveal) is Reveal
    assert next(e for e in reversed(run.events) if isinstance(e, MoveApplied)).how == "forced"
    events = run.tracker.observe(CardTapped("serial:sim", run.now + 0.1, reveal.card, OWNER, CITY_READER))
    assert [type(e) for e in events] == [Notice] and "next available city already (C7)" in events[0].message  # type: ignore[attr-defined]
    for _, t in taps[k:]:
        run.feed(t)
    run.assert_kept()


def test_another_games_card_tapped_is_named_and_ignored() -> None:
    run = CopRun(2, "basic", seed=0, readers=True)
    events = run.tracker.observe(CardTapped("serial:sim", 0.1, WorldCard.from_id("W007"), "ann", PLAY_READER))
    assert [type(e) for e in events] == [Notice] and "not a Circle of Power card" in events[0].message  # type: ignore[attr-defined]
    run.play_nfc()
    run.assert_kept()


def test_a_tap_no_act_allows_gets_a_hint_and_the_right_taps_make_the_act() -> None:
    run = CopRun(2, "basic", seed=0, readers=True)
    taps = list(taps_for(run.setup, run.moves, OWNER))
    k = next(i for i, (m, t) in enumerate(taps) if type(m) is Conquer and t)
    for _, t in taps[:k]:
        run.feed(t)
    game = run.tracker.game
    winner = game.to_move
    own = game.city(winner)
    events = run.tracker.observe(CardTapped("serial:sim", 50.0, own, OWNER, LINE_READER))  # a city cannot take itself
    assert [type(e) for e in events] == [RuleHint] and "line reader" in events[0].message  # type: ignore[attr-defined]
    for _, t in taps[k:]:
        run.feed(t)
    run.assert_kept()


def test_taps_made_before_the_act_is_known_follow_it() -> None:
    """The next city is turned up and tapped, and the first card of the next action, before the
    winner taps the city they conquered: both wait for the act, then count."""
    run = CopRun(2, "basic", seed=0, readers=True)
    taps = list(taps_for(run.setup, run.moves, OWNER))
    k = next(i for i, (m, t) in enumerate(taps) if type(m) is Conquer and t and type(taps[i + 1][0]) is Reveal)
    for _, t in taps[:k]:
        run.feed(t)
    act, reveal, play = taps[k][1], taps[k + 1][1], taps[k + 2][1]
    assert [t.reader for t in reveal + play] == [CITY_READER, PLAY_READER]
    before = len(run.applied)
    run.feed(reveal + play)
    assert len(run.applied) == before
    run.feed(act)
    assert len(run.applied) == before + 3  # the act, the reveal, the play (each checked as it came)
    for _, t in taps[k + 3 :]:
        run.feed(t)
    run.assert_kept()


def _second_action(run: CopRun) -> tuple[list[Scene], list[int], Play]:
    """The scenes of a 3-player game whose second action ann leads with 2C (C8), the
    indices of its plays and of the next action's, and ann's play."""
    scenes = run.scenes()
    plays = [i for i, s in enumerate(scenes) if type(s.move) is Play]
    lead = scenes[plays[4]].move
    assert isinstance(lead, Play) and (lead.player, lead.card.id) == ("ann", "2C")
    return scenes, plays, lead


def _without(scene: Scene, card: object) -> Scene:
    return Scene(tuple(t for t in scene.cards if t.card is not card), scene.move, scene.caption)


def test_an_action_gathered_unread_is_out_of_sync_and_no_later_card_is_credited() -> None:
    """ann's battle card is never seen; the others lay theirs, the act is made and the cards are
    gathered: an action went by that the game never had. The tracker says so at once and takes
    none of the next action's cards (ann's 9H among them) for the play it waited for, until a
    correction is made; the plays entered by hand, it finds the act and the rest from the table."""
    run = CopRun(3, "coloured-cities", seed=7, target=1)
    scenes, plays, lead = _second_action(run)
    feed_scenes(run, scenes[: plays[4]] + [_without(s, lead.card) for s in scenes[plays[4] : plays[9] + 1]])
    run.wait(5)
    out = [e for e in run.events if isinstance(e, OutOfSync)]
    assert out, "never said out of sync"
    assert run.tracker.state is TrackerState.OUT_OF_SYNC
    assert len(run.applied) == next(i for i, m in enumerate(run.moves) if m is lead)  # nothing after ann's turn
    words = out[-1].differences
    assert sum("was taken up" in d for d in words) == 3, words  # bob's 7H, cy's 8H, @1's 10D
    assert any(d.startswith("9H ") and "lies as ann's battle card" in d for d in words), words
    # The plays entered by hand (a correction): the act, the next city and the plays on the table follow.
    start = len(run.applied)
    for move in run.moves[start : start + 4]:
        assert type(move) is Play
        run.tracker.session.propose(move, source="keyboard")
        run.applied.append(move)
    run.now += 0.5
    run.handle(run.tracker.tick(run.now))
    assert run.tracker.state is not TrackerState.OUT_OF_SYNC
    assert len(run.applied) == next(i for i, m in enumerate(run.moves) if m is scenes[plays[9]].move) + 1


def test_a_battle_card_hidden_for_a_moment_is_not_lost() -> None:
    """While the tracker waits for ann's card (read late), a hand hides bob's for a moment: the
    camera calls it gone and sees it again. Nothing is lost: once ann's card is read, the four
    plays are applied in turn (C8)."""
    run = CopRun(3, "coloured-cities", seed=7, target=1)
    scenes, plays, lead = _second_action(run)
    feed_scenes(run, scenes[: plays[4]] + [_without(s, lead.card) for s in scenes[plays[4] : plays[7] + 1]])
    # bob's card of this action, in seat 1 (a scene's cards are a set: picked by its zone, not its order).
    bob = next(t for t in scenes[plays[7]].cards if t.zone == "battle:1" and t not in scenes[plays[4] - 1].cards)
    assert bob.card.id == "7H"
    hidden = _without(scenes[plays[7]], lead.card)
    run.now += 0.5
    run.feed(changes(hidden, _without(hidden, bob.card), run.now))
    assert any(isinstance(e, OutOfSync) for e in run.events)
    run.now += 0.5
    run.feed(changes(_without(hidden, bob.card), hidden, run.now))
    assert run.tracker.state is not TrackerState.OUT_OF_SYNC
    run.now += 0.5
    run.feed(changes(hidden, scenes[plays[7]], run.now))
    assert len(run.applied) == next(i for i, m in enumerate(run.moves) if m is scenes[plays[7]].move) + 1
