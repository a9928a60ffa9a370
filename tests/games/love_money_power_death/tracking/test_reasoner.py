"""The tracker's reasoning about a Love, Money, Power, Death table, fed what an ideal camera
reports of each scene (cards seen face up, cards seen gone) or the taps the protocol has the
table make, on a clock the test moves: whole games of 2-6 players, and the moments a table
makes hard."""

from __future__ import annotations

import pytest

from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import DEALT, Card
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Reveal, TurnUp
from companion.games.love_money_power_death.simulation.taps import taps_for
from companion.games.love_money_power_death.tracking.reasoner import LmpdTracking
from companion.games.rule_of_power.engine.cards import Card as WorldCard
from companion.observations import CardTapped
from companion.observations.scene import Scene, TableCard
from companion.session import Applied
from companion.tracker import MoveApplied, Notice, OutOfSync, RuleHint, TrackerState

from tests.games.love_money_power_death.helpers import c
from tests.games.love_money_power_death.tracking.harness import LmpdRun


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("level", [0, 1])
def test_whole_games_seen_by_a_camera_need_no_key(players: int, level: int) -> None:
    run = LmpdRun(players, seed=players, level=level)
    run.play_camera()
    run.assert_kept()
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    assert {e.how for e in applied if type(e.move) in (Commit, TurnUp, Reveal)} == {"camera"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("level", [0, 1])
def test_whole_games_tapped_need_no_key(players: int, level: int) -> None:
    run = LmpdRun(players, seed=players, level=level, readers=True)
    run.play_nfc()
    run.assert_kept()
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    assert {e.how for e in applied if type(e.move) in (Commit, TurnUp)} == {"nfc"}
    assert all(m == t for m, t in zip(run.applied, run.moves) if type(m) is Commit)  # every commit known


# ---------------------------------------------------------------------- by taps


def _round_taps(run: LmpdRun, number: int = 1) -> list:
    """The taps of round ``number``: its commits then its noble."""
    rounds = [taps for move, taps in taps_for(run.setup, run.moves) if taps]
    per_round = len(run.setup.players) + 1
    return [t for taps in rounds[(number - 1) * per_round : number * per_round] for t in taps]


def test_a_noble_tapped_before_the_last_commit_waits_for_it() -> None:
    """L7: the noble is turned once every player has committed; tapped sooner (a player slow
    to tap), it waits, and the round follows as soon as the last commit is in."""
    run = LmpdRun(3, seed=1, readers=True)
    run.handle(run.tracker.begin())
    taps = _round_taps(run)
    commits, noble = taps[:-1], taps[-1]
    run.feed(commits[:2])
    before = len(run.applied)
    run.feed([noble])
    assert len(run.applied) == before  # held
    notes = [e for e in run.events if isinstance(e, Notice)]
    assert notes and f"{noble.card.id} noted: the noble is turned once {commits[2].reader.removesuffix('-reader')} has committed (L7)" == notes[-1].message
    run.feed(commits[2:])
    assert [type(m) for m in run.applied[before:]] == [Commit, TurnUp, Reveal, Draw]
    assert run.tracker.game.round_number == 2 and not run.problems()


def test_a_second_tap_changes_no_commit_and_names_no_card() -> None:
    """L6: a committed card cannot be taken back or changed. The same card tapped again is
    nothing; another card gets a hint that names neither (both are in the player's hand)."""
    run = LmpdRun(2, seed=3, readers=True)
    run.handle(run.tracker.begin())
    first = _round_taps(run)[0]
    run.feed([first])
    run.feed([first])  # the same card, held to the reader a second time
    assert not run.problems()
    other = next(c for c in DEALT if c is not first.card and run.tracker.game.where(c) is None)
    run.handle(run.tracker.observe(CardTapped("serial:sim", 9.0, other, None, first.reader)))
    (hint,) = run.problems()
    assert isinstance(hint, RuleHint) and hint.rule == "L6"
    assert first.card.id not in hint.message and other.id not in hint.message
    assert run.tracker.game.commit_of(first.reader.removesuffix("-reader")) is first.card


def test_what_the_screen_says_of_a_tapped_commit_names_no_card() -> None:
    """The companion knows the card committed (the record has it); the table's event log says
    only that the player has committed (L6)."""
    run = LmpdRun(3, seed=2, readers=True)
    session = run.tracker.session
    said: list[str] = []
    session.subscribe(lambda e: said.append(GAME.narrate(session.game, e.move, e.effects)) if isinstance(e, Applied) else None)
    run.handle(run.tracker.begin())
    taps = _round_taps(run)
    run.feed(taps[:-1])
    commits = [m for m in run.applied if type(m) is Commit]
    assert len(commits) == 3 and all(isinstance(m.card, Card) for m in commits)
    assert len(said) == 4 and all("commits a card, face down (L6)" in s for s in said[1:])
    assert not any(m.card.id in s for m in commits for s in said)  # type: ignore[union-attr]


def test_cards_tapped_on_the_wrong_reader_get_a_hint_and_change_nothing() -> None:
    run = LmpdRun(2, seed=4, readers=True)
    run.handle(run.tracker.begin())
    noble = run.setup.nobles[0]
    ann = "ann-reader"
    run.handle(run.tracker.observe(CardTapped("serial:sim", 1.0, noble, None, ann)))
    run.handle(run.tracker.observe(CardTapped("serial:sim", 2.0, c("4Mb"), None, "centre-reader")))
    run.handle(run.tracker.observe(CardTapped("serial:sim", 3.0, c("4Mb"), None, "nowhere")))
    run.handle(run.tracker.observe(CardTapped("serial:sim", 4.0, WorldCard.from_id("W007"), None, ann)))
    hints = [e for e in run.events if isinstance(e, (RuleHint, Notice))]
    assert [getattr(h, "rule", None) for h in hints] == ["L6", "L7", None, None]
    assert f"ann committed {noble.id}: nobles are never in a hand" in hints[0].message
    assert all("4Mb" not in h.message for h in hints[1:])
    assert "another game" in hints[3].message
    assert [type(m) for m in run.applied] == [Deal]


def test_the_game_over_takes_no_more_taps() -> None:
    run = LmpdRun(2, seed=5, readers=True)
    run.play_nfc()
    run.assert_kept()
    run.handle(run.tracker.observe(CardTapped("serial:sim", run.now + 1, c("A1"), None, "bob-reader")))
    assert "the game is over (L12)" in run.events[-1].message  # type: ignore[attr-defined]
    assert len(run.applied) == len(run.moves)


# ---------------------------------------------------------------------- by camera


def _scene_index(scenes: list[Scene], kind: type, after: int = 0) -> int:
    return next(i for i, s in enumerate(scenes) if i >= after and type(s.move) is kind)


def test_a_slow_reveal_is_waited_for_and_no_desync() -> None:
    """The cards are turned face up one after another; a player taking their time keeps the
    reveal waiting, with a word for the table, never out of sync (L7)."""
    run = LmpdRun(4, seed=6)
    run.handle(run.tracker.begin())
    scenes = run.scenes()
    k = _scene_index(scenes, Reveal)
    last = run.feed_scenes(scenes[: k + 2])
    events = run.wait(10.0)
    assert [e.message for e in events if isinstance(e, Notice)] == ["the reveal: cy, dee still to turn their card face up (L7)"]
    assert run.tracker.state is TrackerState.WAITING and not run.problems()
    run.feed_scenes(scenes[k + 2 :], last)
    run.wait(5.0)
    run.assert_kept()


def test_a_card_committed_face_up_gets_a_hint() -> None:
    """L6: a card is committed face down. One lying face up in a commit place before the noble
    is turned is not taken for a reveal; after a moment the table is told."""
    run = LmpdRun(2, seed=7)
    run.handle(run.tracker.begin())
    card = next(m.card for m in run.moves if type(m) is Commit and m.player == "bob")
    shown = Scene((TableCard(card, None, "commit:bob"),), None, "bob's card face up")
    last = run.feed_scenes([shown])
    assert run.tracker.state is TrackerState.WAITING
    (hint,) = [e for e in run.wait(5.0) if isinstance(e, RuleHint)]
    assert hint.rule == "L6" and "bob's card lies face up in the commit place" in hint.message
    # Turned face down again: the game goes on as played.
    run.feed_scenes([Scene((), None, "")], last)
    assert run.tracker.state is TrackerState.SYNCED
    run.events.clear()
    run.feed_scenes(run.scenes())
    run.wait(5.0)
    run.assert_kept()


def test_cards_left_lying_until_the_next_round_are_no_desync() -> None:
    """The revealed cards and the noble may stay where they were until they are taken up
    (L10), even while the next noble is turned and the next cards revealed beside them."""
    run = LmpdRun(3, seed=8)
    run.handle(run.tracker.begin())
    lazy = [s for s in run.scenes() if s.move is not None]  # nothing ever taken up
    table: list[TableCard] = []
    scenes = []
    for s in lazy:
        new = [t for t in s.cards if t not in table]
        table += new
        scenes.append(Scene(tuple(table), s.move, s.caption))
    second = _scene_index(scenes, TurnUp, after=_scene_index(scenes, Reveal) + 1)
    last = run.feed_scenes(scenes[: second + 1])
    assert not run.problems() and run.tracker.game.round_number == 2 and run.tracker.game.noble is not None
    run.feed_scenes(scenes[second + 1 : second + 4], last)  # round 2 revealed beside round 1's cards
    assert not run.problems() and [r.to_json() for r in run.tracker.game.rounds] == [r.to_json() for r in run.truth.rounds[:2]]


def test_a_noble_laid_straight_in_its_winners_court_is_turned() -> None:
    """Nobody saw the noble in the middle (a hand over it until it went to its court): seen in
    the court, it is the noble turned, and the reveal follows from the commit places."""
    run = LmpdRun(2, seed=9)
    run.handle(run.tracker.begin())
    scenes = run.scenes()
    k = _scene_index(scenes, TurnUp)
    hidden = [s for s in scenes[k + 1 :] if TableCard(scenes[k].move.card, None, "noble") not in s.cards]  # type: ignore[union-attr]
    run.feed_scenes(scenes[:k] + hidden)
    run.wait(5.0)
    run.assert_kept()


def test_a_commit_is_known_from_its_back_and_names_no_card() -> None:
    """L6: a card lying face down in a player's commit place, its back seen, is their commit,
    made at once with the card unseen; the noble is not needed for it, and the reveal (L7)
    names the card in the record."""
    run = LmpdRun(3, seed=13)
    run.handle(run.tracker.begin())
    scenes = run.scenes()
    k = _scene_index(scenes, TurnUp)
    last = run.feed_scenes(scenes[:k])  # every card committed face down, the noble not turned
    commits = [m for m in run.applied if type(m) is Commit]
    assert [m.player for m in commits] == [m.player for m in run.moves[: len(run.applied)] if type(m) is Commit]
    assert sorted(m.player for m in commits) == ["ann", "bob", "cy"]
    assert all(m.card is UNSEEN for m in commits) and run.tracker.state is TrackerState.SYNCED
    run.feed_scenes(scenes[k:], last)
    run.wait(5.0)
    run.assert_kept()
    first = next(m for m in run.tracker.game.move_stack if type(m) is Reveal)
    assert first == next(m for m in run.moves if type(m) is Reveal)


def test_commits_whose_backs_are_unseen_are_made_by_the_noble() -> None:
    """Backs the camera cannot see (a deck without back seals, a hand over them): the noble
    turned says every player has committed (L7)."""
    run = LmpdRun(3, seed=14)
    run.handle(run.tracker.begin())
    faces = [Scene(tuple(t for t in s.cards if t.face_up), s.move, s.caption) for s in run.scenes()]
    run.feed_scenes(faces)
    run.wait(5.0)
    run.assert_kept()


def test_a_back_left_lying_after_its_reveal_commits_nobody() -> None:
    """The camera may still report the back of a card turned face up a moment after the
    reveal: it is no commit of the next round."""
    run = LmpdRun(2, seed=15)
    run.handle(run.tracker.begin())
    scenes = run.scenes()
    k = _scene_index(scenes, Reveal)
    backs = tuple(t for t in scenes[k - 1].cards if not t.face_up)
    lagging = [Scene(s.cards + backs, s.move, s.caption) for s in scenes[k : k + 2]]
    last = run.feed_scenes(scenes[:k] + lagging)
    assert run.tracker.game.round_number == 2 and not [m for m in run.applied[-2:] if type(m) is Commit]
    run.feed_scenes(scenes[k + 2 :], last)
    run.wait(5.0)
    run.assert_kept()


def test_a_card_where_no_move_explains_it_is_out_of_sync_in_words() -> None:
    run = LmpdRun(2, seed=10)
    run.handle(run.tracker.begin())
    scenes = run.scenes()
    k = _scene_index(scenes, Reveal)
    last = run.feed_scenes(scenes[: k + 2])
    noble = next(t.card for t in scenes[k].cards if t.zone == "noble")
    winner = run.truth.rounds[0].winner or "ann"
    loser = next(p for p in run.setup.players if p != winner)
    wrong = Scene((TableCard(noble, None, f"court:{loser}"),), None, "the noble laid in the wrong court")
    run.feed_scenes([wrong], last)
    (out,) = [e for e in run.wait(5.0) if isinstance(e, OutOfSync)]
    assert f"{noble.long_label} lies in {loser}'s court, but the game has it in {winner}'s court" in out.differences


# ---------------------------------------------------------------------- camera and taps


def test_taps_and_a_camera_together_keep_the_game() -> None:
    """The taps commit and turn the noble, and the reveal is made at once; the camera then
    sees the cards turned face up as the game has them."""
    run = LmpdRun(3, seed=11, readers=True)
    run.handle(run.tracker.begin())
    taps = {id(move): t for move, t in taps_for(run.setup, run.moves)}
    before: Scene | None = None
    for move in run.moves:
        run.feed(taps[id(move)])
        for scene in [s for s in run.scenes() if s.move is move]:
            before = run.feed_scenes([scene], before)
    run.wait(5.0)
    run.assert_kept()
    assert all(m == t for m, t in zip(run.applied, run.moves) if type(m) is Commit)


def test_a_commit_the_taps_missed_is_made_by_the_camera() -> None:
    """A player forgot to tap: the camera sees their card's back in their commit place (L6);
    their late tap changes nothing, and the reveal names their card."""
    run = LmpdRun(2, seed=12, readers=True)
    run.handle(run.tracker.begin())
    taps = _round_taps(run)
    run.feed(taps[:1])
    scenes = run.scenes()
    k = _scene_index(scenes, TurnUp)
    last = run.feed_scenes(scenes[: k + 1])
    assert [type(m) for m in run.applied] == [Deal, Commit, Commit, TurnUp]
    assert run.applied[2].card is UNSEEN  # type: ignore[union-attr]
    run.feed(taps[1:2])
    assert "the card" in run.events[-1].message and not run.problems()  # type: ignore[attr-defined]
    run.feed_scenes(scenes[k + 1 :], last)
    run.wait(5.0)
    run.assert_kept()


def test_the_readers_a_table_may_map() -> None:
    facts = LmpdTracking()
    players = ["ann", "bob"]
    assert facts.reader_problem("centre", players) is None and facts.reader_problem("commit:bob", players) is None
    assert facts.reader_problem("commit:cy", players) == "'commit:cy': cy does not play (the players are ann, bob)"
    assert "centre (the noble), or commit:<player> (commit:ann, commit:bob)" in (facts.reader_problem("fate:ann", players) or "")
