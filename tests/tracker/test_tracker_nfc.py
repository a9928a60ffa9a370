"""Games followed through NFC taps alone: the card played, the cards taken when the choice is
not forced, Fate draws on each player's Fate reader."""

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.observations import CardTapped
from companion.tracker import Notice, RuleHint, TrackerState

from tests.tracker.harness import NfcRun


@pytest.mark.parametrize("players,teams,fate,seed", [(2, 0, False, 30), (4, 2, False, 31), (2, 0, True, 32), (4, 2, True, 33), (5, 0, True, 34), (6, 3, True, 35)])
def test_nfc_follows_a_whole_game(players, teams, fate, seed):
    run = NfcRun(players, teams, fate=fate, seed=seed)
    run.play()
    assert not run.problems(), run.problems()[:3]
    assert len(run.applied) == len(run.moves)
    assert run.tracker.game.totals == run.truth.totals and run.tracker.game.outcome() == run.truth.outcome()
    assert run.tracker.state is TrackerState.SYNCED


def test_a_tap_that_breaks_a_rule_is_flagged_and_changes_nothing():
    run = NfcRun(2, seed=36)
    run.play(until=3)  # the round, the first deal and one play
    game = run.tracker.game
    n = len(game.move_stack)
    taken = next(c for c in [*game.stack(game.players[0]), *game.stack(game.players[1])] if c.is_world) if any(game.stack(p) for p in game.players) else game.centre[0]
    out = run.tracker.observe(CardTapped("serial:test", 99.0, taken, None, "board:0"))
    assert out and isinstance(out[-1], (RuleHint, Notice))
    assert len(game.move_stack) == n


def test_a_world_card_on_a_fate_reader_is_explained():
    run = NfcRun(2, seed=37)
    run.play(until=3)
    out = run.tracker.observe(CardTapped("serial:test", 99.0, Card.from_id("W001"), None, "fate-reader:ann"))
    assert isinstance(out[-1], Notice) and "centre reader" in out[-1].message


@pytest.mark.parametrize("players,teams,fate,seed,deck_owner", [(2, 0, True, 40, None), (4, 2, True, 41, None), (4, 2, True, 41, "dee")])
def test_camera_and_nfc_together(players, teams, fate, seed, deck_owner):
    """Both sensors at once, each confirming the other: the tap names the card played, the
    camera sees what it takes; with a player's own World deck, the camera sees its cards with
    their owner's seal, the tap without (one card, whoever's seal it bears)."""
    from tests.tracker.harness import BothRun

    run = BothRun(players, teams, fate=fate, seed=seed, deck_owner=deck_owner)
    run.play()
    assert not run.problems(), run.problems()[:3]
    assert run.tracker.game.totals == run.truth.totals and run.tracker.game.outcome() == run.truth.outcome()


class GestureRun(NfcRun):
    """The table names a Thief's or a Mirror Swap's target the documented way: the target
    taps one of their Fate cards on their own Fate reader. Questions answered so are not
    keys pressed."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.gestures = 0
        self.keys = 0

    def handle(self, events) -> None:  # type: ignore[no-untyped-def]
        from companion.games.rule_of_power.engine.moves import Play
        from companion.tracker import MoveApplied, Question

        for e in events:
            if isinstance(e, Question):
                n = len(self.applied)
                truth = self.moves[n : n + len(e.choices[0].moves)]
                last = truth[-1] if truth else None
                if isinstance(last, Play) and last.target and "tap a card on their Fate reader" in e.prompt:
                    self.gestures += 1
                    self.events.append(e)
                    card = self.tracker.config.facts["fate_decks"][last.target][0]
                    self.feed([CardTapped("serial:test", self.now, card, last.target, f"fate-reader:{last.target}")])
                    continue
                self.keys += 1
            elif isinstance(e, MoveApplied):
                pass
            super().handle([e])


@pytest.mark.parametrize("players,teams,seed", [(3, 0, 50), (4, 2, 51), (5, 0, 52), (6, 3, 53)])
def test_a_tap_on_the_targets_fate_reader_names_a_thief_or_mirror_swap_target(players, teams, seed):
    """With 3 or more players the target of a Thief or a Mirror Swap is not something a reader
    can see: the target taps a Fate card on their own Fate reader, and no key is pressed."""
    run = GestureRun(players, teams, fate=True, seed=seed)
    run.play()
    assert not run.problems(), run.problems()[:3]
    assert run.tracker.game.totals == run.truth.totals and run.tracker.game.outcome() == run.truth.outcome()
    assert run.keys == 0 and run.gestures > 0  # every such game here has targets to name


def test_an_answer_that_no_longer_fits_is_dropped_with_a_message():
    """A question is open about a target; the game moves on meanwhile (the tracker applied the
    move itself, as the table showed it); the late answer is dropped and said so, and nothing
    is raised."""
    from companion.tracker import Question

    run = NfcRun(3, fate=True, seed=5)
    asked: list[Question] = []

    def hold(events):  # the questions are left open
        for e in events:
            if isinstance(e, Question):
                asked.append(e)
            else:
                run.handle([e])

    from companion.games.rule_of_power.simulation.taps import taps_for

    for _, taps in taps_for(run.setup, run.moves):
        for obs in taps:
            hold(run.tracker.observe(obs))
        if asked:
            break
    assert asked, "the game asks about a target"
    question = asked[0]
    n = len(run.tracker.game.move_stack)
    # The move happens without the tracker (as the table played it, applied under its name).
    for move in question.choices[0].moves:
        run.tracker.session.propose(move, source="tracker (test)")
    assert len(run.tracker.game.move_stack) > n
    out = run.tracker.answer(0)
    assert any(isinstance(e, Notice) and "no longer fits" in e.message for e in out)
