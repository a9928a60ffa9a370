"""The tracker's reasoning about taps at a Ruse and Bruise table, tap by tap: what each tap
means (B7, B8, B14, B15), and every tap no move explains answered in the players' words with its
ruling, the game as it was (nothing recorded is lost), the game going on afterwards."""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.circle_of_power.cards import ALL_CARDS as CIRCLE_CARDS
from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.game import Phase
from companion.games.ruse_and_bruise.moves import Move, Place, Round
from companion.games.ruse_and_bruise.simulation.taps import TABLE_OWNER, taps_for
from companion.observations import CardTapped
from companion.tracker import MoveApplied, Notice, RuleHint

from tests.games.ruse_and_bruise.tracking.harness import RabRun


def _steps(run: RabRun) -> Iterator[tuple[Move, list[CardTapped]]]:
    yield from taps_for(run.dealt, run.moves)


def _until(run: RabRun, done: int) -> list[tuple[Move, list[CardTapped]]]:
    """``run``'s first ``done`` moves tapped; the steps still to come."""
    steps = list(_steps(run))
    played = 0
    for i, (_, taps) in enumerate(steps):
        if len(run.applied) >= done:
            return steps[i:]
        run.feed(taps)
        played = i
    assert played
    return []


def _tap(run: RabRun, card: object, owner: str | None, reader: str) -> list[object]:
    """One stray tap: what the tracker says of it (the run's own checks stay off)."""
    events = run.tracker.observe(CardTapped("serial:sim", run.now, card, owner, reader))  # type: ignore[arg-type]
    assert not [e for e in events if isinstance(e, MoveApplied)], events
    return list(events)


def _first(run: RabRun, kind: type, after: int = 0) -> int:
    return next(i for i, m in enumerate(run.moves) if i >= after and type(m) is kind)


def _finish(run: RabRun, steps: list[tuple[Move, list[CardTapped]]]) -> None:
    """The rest of the game tapped as it was played, then kept exactly."""
    for _, taps in steps:
        run.feed(taps)
    run.events = [e for e in run.events if not isinstance(e, (RuleHint, Notice))]
    run.assert_kept()


def _colour(run: RabRun, player: str) -> str:
    return run.setup.colours[run.setup.players.index(player)]


def test_a_card_of_the_player_not_in_turn_waits_naming_whose_turn_it_is() -> None:
    run = RabRun(3, 0, readers=True)
    at = _first(run, Place)
    steps = _until(run, at)
    game = run.tracker.game
    before = list(game.move_stack)
    player = game.in_turn
    other = next(p for p in game.players if p != player)
    (hint,) = _tap(run, Influence.from_id("KING"), _colour(run, other), "column-1")
    assert isinstance(hint, RuleHint) and hint.rule == "B8"
    assert f"it is {player}'s turn ({_colour(run, player)}), not {other}'s" in hint.message
    assert list(run.tracker.game.move_stack) == before
    _finish(run, steps)


def test_a_colour_no_player_has_and_a_card_of_another_game_are_named() -> None:
    run = RabRun(2, 0, readers=True)
    steps = _until(run, _first(run, Place))
    unused = next(c for c in ("blue", "white", "red", "yellow", "green", "black") if c not in run.setup.colours)
    (hint,) = _tap(run, Influence.from_id("KING"), unused, "column-1")
    assert isinstance(hint, RuleHint) and hint.rule == "B1"
    assert f"KING of {unused} tapped: no player of this table has that colour" in hint.message
    assert all(c in hint.message for c in run.setup.colours)
    (notice,) = _tap(run, CIRCLE_CARDS[0], "ann", "column-1")
    assert isinstance(notice, Notice) and "is not a Ruse and Bruise card" in notice.message
    _finish(run, steps)


def test_a_reader_that_serves_no_column_is_named() -> None:
    run = RabRun(2, 0, readers=True)
    steps = _until(run, _first(run, Place))
    player = run.tracker.game.in_turn
    (notice,) = _tap(run, Influence.from_id("KING"), _colour(run, player), "column-3")
    assert isinstance(notice, Notice) and "column-3, which serves no column (the readers serve column-1 to column-2)" in notice.message
    problem = run.tracker.game.game.tracking().reader_problem("column-3", run.setup.players)
    assert problem == "'column-3': a table of 2 players has columns 1 to 2 (B7)"
    assert run.tracker.game.game.tracking().reader_problem("centre", run.setup.players) is not None
    _finish(run, steps)


def test_a_round_begins_once_every_column_has_its_goal_card() -> None:
    run = RabRun(3, 0, readers=True)
    ((first, taps), *steps) = list(_steps(run))
    assert type(first) is Round and len(taps) == 3
    # An influence card before the goal cards: the round begins first (B7).
    (hint,) = _tap(run, Influence.from_id("KING"), run.setup.colours[0], "column-1")
    assert isinstance(hint, RuleHint) and hint.rule == "B7" and "round 1 begins first" in hint.message
    # The first goal card tapped on column 2 by mistake, then on column 1: it is column 1's.
    assert _tap(run, taps[0].card, TABLE_OWNER, "column-2") == []
    run.feed(taps[:2])
    assert not run.applied
    run.feed(taps[2:])
    assert run.applied == [first] and run.tracker.game.phase is not Phase.ROUND
    # A goal card of this round tapped again on its own column's reader changes nothing.
    assert _tap(run, taps[1].card, TABLE_OWNER, "column-2") == []
    _finish(run, steps)


def test_a_goal_card_of_an_earlier_round_is_refused() -> None:
    run = RabRun(2, 0, readers=True)
    rounds = [i for i, m in enumerate(run.moves) if type(m) is Round]
    assert len(rounds) >= 2
    steps = _until(run, rounds[1])
    assert run.tracker.game.phase is Phase.ROUND
    old = run.moves[rounds[0]]
    assert type(old) is Round
    (hint,) = _tap(run, old.goals[0], TABLE_OWNER, "column-1")
    assert isinstance(hint, RuleHint) and hint.rule == "B5" and f"{old.goals[0].id} was turned over in an earlier round" in hint.message
    _finish(run, steps)


def test_a_goal_card_tapped_mid_round_on_another_column_is_refused() -> None:
    run = RabRun(2, 0, readers=True)
    steps = _until(run, _first(run, Place))
    goals = [c.goal for c in run.tracker.game.columns]
    assert isinstance(goals[0], Goal)
    (hint,) = _tap(run, goals[0], TABLE_OWNER, "column-2")
    assert isinstance(hint, RuleHint) and hint.rule == "B7"
    assert f"{goals[0].id} tapped on column 2's reader, but it heads column 1" in hint.message
    _finish(run, steps)


def test_a_card_already_placed_is_refused_by_the_rules() -> None:
    run = RabRun(3, 1, readers=True)
    steps = list(_steps(run))
    # The first placement tapped, then the same card again by its owner on their next turn.
    first = _first(run, Place)
    placed = run.moves[first]
    assert type(placed) is Place
    again = _first(run, Place, first + 1)
    while run.moves[again].player != placed.player:  # type: ignore[attr-defined]
        again = _first(run, Place, again + 1)
    rest = _until(run, again)
    assert rest and len(steps) > len(rest)
    assert (run.tracker.game.in_turn, run.tracker.game.phase) == (placed.player, Phase.PLACE)
    (hint,) = _tap(run, placed.card, _colour(run, placed.player), "column-1")
    assert isinstance(hint, RuleHint) and placed.card.id in hint.message  # type: ignore[union-attr]
    _finish(run, rest)


def test_the_tracking_part_knows_its_readers() -> None:
    run = RabRun(4, 0)
    tracking = run.tracker.game.game.tracking()
    assert tracking.facts == () and tracking.read_facts({}, run.setup.players) == {}
    assert [tracking.reader_problem(f"column-{k}", run.setup.players) for k in range(1, 5)] == [None] * 4
    assert "column-1 to column-4" in (tracking.reader_problem("goal-1", run.setup.players) or "")
