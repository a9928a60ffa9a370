"""The tracker at a table that misbehaves: misreads, a hand over the centre, a card leaving and
coming back, illegal plays, corrections. Nothing is applied from an uncertain reading, and
nothing recorded is lost."""


from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.engine.moves import Play
from companion.observations import CardGone, CardSeen, SensorState, SensorStatus, UnknownTag
from companion.session import Applied, GameSession, Refused
from companion.tracker import InSync, MoveApplied, Notice, OutOfSync, Question, RuleHint, Tracker, TrackerConfig, TrackerState

W = Card.from_id


class Table:
    """A two-player table, bob dealing, watched by a camera we drive by hand."""

    def __init__(self, centre=("W002", "W014", "W035", "W029")):
        self.tracker = Tracker(GameSession(GameSetup(("ann", "bob"))), TrackerConfig(first_dealer="bob", unexplained_after=1.0, remind_after=3.0))
        self.t = 0.0
        self.events = []
        self.see(*centre)

    def _feed(self, obs):
        self.t += 0.1
        out = self.tracker.tick(self.t) + self.tracker.observe(obs)
        self.events += out
        return out

    def see(self, *ids, zone="centre", owner=None):
        out = []
        for i in ids:
            out += self._feed(CardSeen("camera", self.t, W(i), owner, zone))
        return out

    def gone(self, *ids, zone="centre", owner=None):
        out = []
        for i in ids:
            out += self._feed(CardGone("camera", self.t, W(i), owner, zone))
        return out

    def wait(self, seconds=1.5):
        self.t += seconds
        out = self.tracker.tick(self.t)
        self.events += out
        return out

    @property
    def game(self):
        return self.tracker.game

    def applied(self):
        """The plays applied from what the camera saw (the first deal left out)."""
        return [e.move for e in self.events if isinstance(e, MoveApplied) and e.how == "camera" and isinstance(e.move, Play)]


def kinds(events):
    return [type(e).__name__ for e in events]


def test_the_first_deal_is_recognised_from_the_centre():
    table = Table()
    deal = table.game.move_stack[-1]
    assert [c.id for c in deal.centre] == ["W002", "W014", "W035", "W029"]
    assert table.game.unseen_in_hand("ann") == 3 and table.game.turn == "ann"
    assert table.tracker.state is TrackerState.SYNCED


def test_a_play_without_capture_and_a_capture():
    table = Table()
    table.see("W013")  # a 3: no 3 in the centre, no pair makes 3
    assert table.applied() == [Play("ann", W("W013"))]
    table.see("W016")  # bob's 6 must take the 2 and the 4
    assert len(table.applied()) == 1 and table.tracker.state is TrackerState.WAITING
    table.gone("W016", "W002")
    assert len(table.applied()) == 1  # halfway through the pick-up: nothing yet
    table.gone("W014")
    assert table.applied()[-1] == Play("bob", W("W016"), (W("W002"), W("W014")))
    assert [c.id for c in table.game.stack("bob")] == ["W002", "W014", "W016"]


def test_a_capture_left_on_the_table_gets_a_hint():
    table = Table()
    table.see("W016")
    assert not table.applied()
    assert not table.wait(1.5)  # shown for a moment, as players do: no reminder yet
    hints = [e for e in table.wait(2.0) if isinstance(e, RuleHint)]
    assert hints and hints[0].rule == "R4" and "2P W002 + 4M W014" in hints[0].message
    table.gone("W016", "W002", "W014")
    assert table.applied() == [Play("ann", W("W016"), (W("W002"), W("W014")))]


def test_an_illegal_capture_is_flagged_and_waits_for_the_table():
    """The 6 taken with the 2 only: the rules say what is allowed, nothing is applied, and
    the game goes on once the table is put right."""
    table = Table()
    table.see("W016")
    table.gone("W016", "W002")
    out = table.wait()
    assert any(isinstance(e, RuleHint) and "W002" in e.message and e.rule == "R4" for e in out), out
    assert not table.applied() and table.tracker.state is TrackerState.OUT_OF_SYNC
    table.see("W002")  # the 2 goes back, the 6 back to the hand: the table is as before
    assert any(isinstance(e, InSync) for e in table.events)
    table.see("W016")
    table.gone("W016", "W002", "W014")
    assert table.applied() == [Play("ann", W("W016"), (W("W002"), W("W014")))]


def test_a_misread_card_that_is_elsewhere_is_out_of_sync_and_applies_nothing():
    table = Table()
    table.see("W016")
    table.gone("W016", "W002", "W014")
    n = len(table.game.move_stack)
    table.see("W016")  # a misread: W016 lies in ann's capture stack
    out = table.wait()
    sync = [e for e in out if isinstance(e, OutOfSync)]
    assert sync and "ann's capture stack" in sync[0].differences[0]
    assert sync[0].differences[0] == f"{W('W016').long_label} lies in the centre, but the game has it in ann's capture stack"
    assert len(table.game.move_stack) == n
    table.gone("W016")
    assert isinstance(table.events[-1], InSync)
    assert table.tracker.state is TrackerState.SYNCED


def test_out_of_sync_says_every_difference_again_as_the_table_changes():
    """Out of sync, each change of the table that stays is said again, every difference as it
    now is; nothing is applied meanwhile, and the table put right is in sync again."""
    table = Table()
    table.see("W016")
    table.gone("W016", "W002", "W014")
    n = len(table.game.move_stack)
    table.see("W016")  # a misread: W016 lies in ann's capture stack
    first = [e for e in table.wait() if isinstance(e, OutOfSync)]
    assert len(first) == 1 and len(first[0].differences) == 1
    assert not [e for e in table.gone("W029") if isinstance(e, OutOfSync)]  # said once it stays
    again = [e for e in table.wait() if isinstance(e, OutOfSync)]
    assert len(again) == 1 and again[0].differences == (
        f"{W('W016').long_label} lies in the centre, but the game has it in ann's capture stack",
        f"{W('W029').long_label} should lie in the centre but is not seen there",
    )
    assert not table.wait()  # said once
    table.see("W013")  # bob's next card: no evidence while the table is out of sync
    table.wait()
    assert len(table.game.move_stack) == n and table.tracker.state is TrackerState.OUT_OF_SYNC
    table.gone("W013")
    table.see("W029")
    table.gone("W016")
    assert isinstance(table.events[-1], InSync)
    table.see("W013")
    assert table.applied()[-1] == Play("bob", W("W013"))


def test_a_hand_over_the_centre_applies_nothing():
    """Two cards hidden by a hand look like a capture by a card nobody saw: the tracker waits,
    asks only if it lasts, and withdraws the question when the cards reappear."""
    table = Table()
    table.see("W013")  # ann plays, bob to move with three unseen cards
    n = len(table.game.move_stack)
    table.gone("W002", "W014")  # a hand covers the 2 and the 4 (they add up to 6)
    assert len(table.game.move_stack) == n and table.tracker.state is TrackerState.WAITING
    out = table.wait(2.0)
    assert [type(e) for e in out] == [Question]  # several unseen 6s could have done it
    assert len(table.game.move_stack) == n
    table.see("W002", "W014")  # the hand is gone
    assert table.tracker.state is TrackerState.SYNCED and table.tracker.question is None
    assert len(table.game.move_stack) == n


def test_a_card_leaving_and_coming_back():
    table = Table()
    table.gone("W029")  # nobody can take a 9 alone without a card seen
    table.wait(0.5)
    table.see("W029")
    assert table.tracker.state is TrackerState.SYNCED and not table.applied()
    table.gone("W035")
    out = table.wait(2.0)
    assert any(isinstance(e, (OutOfSync, Question)) for e in out)
    table.see("W035")
    assert table.tracker.state is TrackerState.SYNCED and not table.applied()


def test_undo_and_manual_correction_made_at_the_session():
    """An undo and a move typed at the table reach the tracker through the session: after the
    undo it waits for the table to change (the 3 still lies there), and the typed move puts the
    table and the game in step again."""
    table = Table()
    table.see("W013")
    assert table.applied() == [Play("ann", W("W013"))]
    session = table.tracker.session
    undone = session.undo()
    assert undone is not None and undone.move == Play("ann", W("W013"))
    table.wait(0.1)
    assert table.tracker.state is TrackerState.OUT_OF_SYNC and table.game.turn == "ann"
    refused = session.propose(Play("bob", W("W013")))  # not bob's turn
    assert isinstance(refused, Refused) and refused.rule == "R17"
    applied = session.propose(Play("ann", W("W013")))
    assert isinstance(applied, Applied) and applied.source == "manual"
    table.wait(0.1)
    assert table.tracker.state is TrackerState.SYNCED and table.game.turn == "bob"
    assert [m for m in table.applied()] == [Play("ann", W("W013"))]  # the camera applied it once


def test_sensor_notices():
    table = Table()
    out = table.tracker.observe(SensorStatus("camera", 1.0, SensorState.LOST, "no frame for 2 s"))
    assert isinstance(out[0], Notice) and "lost" in out[0].message
    out = table.tracker.observe(UnknownTag("serial:/dev/ttyACM0", 1.0, "board:0", "04A1B2C3", "tag not in the registry"))
    assert "04A1B2C3" in out[0].message


def test_round_end_leftover_may_linger_until_cleared():
    """R6: the last capturer takes what is left; until somebody clears the table the camera
    still sees it, and that is no desync."""
    from tests.tracker.harness import TableRun

    run = TableRun(2, seed=21)
    scenes = list(run.scenes())
    end = next(k for k, s in enumerate(scenes) if s.move is None)  # the clearing scene
    run.play(until=end)
    assert run.tracker.game.results and not run.problems()
    assert run.tracker.state is TrackerState.SYNCED


def test_a_play_laid_while_a_capture_is_still_being_lifted_is_the_next_players():
    """A slow lift: ann shows her 6 and takes the 2 and the 4 with it, but the camera reports
    the 2 and the 4 gone only seconds later; meanwhile bob lays his 5 and takes the 5 with it.
    Seen alone, bob's capture looks like ann's own move (her hand is face down, she could hold
    a 5); in the order the table showed things, ann's 6 left the centre first and had cards to
    take (R4), so the capture is hers and bob's play waits for it, however long it takes."""
    table = Table()
    table.see("W016")  # ann's 6 must take the 2 and the 4
    table.gone("W016")  # her hand lifts it; the 2 and the 4 are still reported there
    table.see("W025")  # bob lays his 5 ...
    table.gone("W025", "W035")  # ... and takes the 5 with it
    table.wait(2.0)
    table.wait(4.0)  # well past the tracker's patience
    assert table.applied() == []  # nothing is put on the wrong player
    assert not [e for e in table.events if isinstance(e, (OutOfSync, RuleHint))]
    assert table.tracker.state is TrackerState.WAITING
    table.gone("W002", "W014")  # the camera catches up
    assert table.applied() == [Play("ann", W("W016"), (W("W002"), W("W014"))), Play("bob", W("W025"), (W("W035"),))]
    assert table.tracker.state is TrackerState.SYNCED
