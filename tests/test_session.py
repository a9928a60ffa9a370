"""The game session without a screen: moves checked and applied, the record written as they
happen, undo, redo and corrections, and what its listeners hear."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup, IllegalMoveError
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, NewRound, Pass, Play
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import (
    Applied,
    Corrected,
    GameSession,
    RecordTrouble,
    RedoDropped,
    Refused,
    SessionEvent,
    Started,
    Undone,
)
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable, make_setup

W = Card.from_id
SETUP = GameSetup(("ann", "bob"))
DEAL = Deal.make({"ann": ["W012", "W033", "W005"], "bob": ["W016", "W021", "W040"]}, ["W004", "W024", "W038", "W009"])


def session_with_listener(**kw) -> tuple[GameSession, list[SessionEvent]]:
    session = GameSession(SETUP, **kw)
    heard: list[SessionEvent] = []
    session.subscribe(heard.append)
    return session, heard


def test_moves_are_checked_applied_and_announced_with_what_they_did() -> None:
    session, heard = session_with_listener()
    assert isinstance(session.propose(NewRound.make("bob")), Applied)
    assert isinstance(session.propose(DEAL), Applied)
    refused = session.propose(Play.from_ids("bob", "W016"), source="tracker (camera)")
    assert isinstance(refused, Refused) and refused.rule == "R17" and refused.source == "tracker (camera)"
    applied = session.propose(Play.from_ids("ann", "W012"))
    assert isinstance(applied, Applied) and applied.index == 2 and applied.effects.laid
    assert [type(e) for e in heard] == [Applied, Applied, Refused, Applied]
    assert session.effects(2) is applied.effects
    assert len(session.moves) == 3


def test_every_change_is_written_to_the_record_as_it_happens(tmp_path: Path) -> None:
    record = GameFile.create(tmp_path, SETUP)
    session = GameSession(SETUP, record=record)
    for move in (NewRound.make("bob"), DEAL, Play.from_ids("ann", "W012"), Play.from_ids("bob", "W016", ["W024", "W012"])):
        session.propose(move)
        assert list(load_game(record.path, keep_history=True).move_stack) == list(session.moves)
    session.undo()
    assert list(load_game(record.path, keep_history=True).move_stack) == list(session.moves)
    session.redo()
    assert len(load_game(record.path, keep_history=True).move_stack) == 4
    session.close()


def test_redo_re_applies_and_a_new_move_drops_the_stale_undone_ones() -> None:
    session, heard = session_with_listener()
    for move in (NewRound.make("bob"), DEAL, Play.from_ids("ann", "W012"), Play.from_ids("bob", "W016", ["W024", "W012"])):
        session.propose(move)
    session.undo()
    session.undo()
    assert [type(e) for e in heard[-2:]] == [Undone, Undone]
    assert session.redo_moves == (Play.from_ids("bob", "W016", ["W024", "W012"]), Play.from_ids("ann", "W012"))
    redone = session.redo()
    assert isinstance(redone, Applied) and redone.redo and len(session.redo_moves) == 1
    # The same move as the next undone one keeps the redo list; another drops it, and says so.
    other = Play.from_ids("bob", "W021")
    assert isinstance(session.propose(other), Applied)
    assert isinstance(heard[-1], RedoDropped) and heard[-1].moves == (Play.from_ids("bob", "W016", ["W024", "W012"]),)
    assert session.redo_moves == () and session.redo() is None


def test_a_correction_replaces_one_event_and_re_applies_the_rest_that_fits(tmp_path: Path) -> None:
    """Correct event N; the later events that still fit are applied again, and exactly those
    that do not are reported with their rule."""
    record = GameFile.create(tmp_path, SETUP)
    session, heard = session_with_listener(record=record)
    played = [
        NewRound.make("bob"),
        DEAL,
        Play.from_ids("ann", "W012"),  # to the centre
        Play.from_ids("bob", "W016", ["W024", "W012"]),  # 6 = 4 + 2
        Play.from_ids("ann", "W033"),
        Play.from_ids("bob", "W021"),
    ]
    for move in played:
        assert isinstance(session.propose(move), Applied)
    # ann really played the 5 first: bob's capture of her 2 no longer fits (R4), nor then
    # ann's next play (it is bob's turn, R17); bob's 1 still does.
    corrected = session.correct(2, Play.from_ids("ann", "W005"))
    assert isinstance(heard[-1], Corrected) and heard[-1] is corrected
    assert session.moves[2:] == (Play.from_ids("ann", "W005"), Play.from_ids("bob", "W021"))
    assert [(d.index, d.error.rule) for d in corrected.dropped] == [(3, "R4"), (4, "R17")]
    assert corrected.reapplied == (3,)
    assert list(load_game(record.path, keep_history=True).move_stack) == list(session.moves)
    # A correction that does not fit changes nothing.
    before = session.moves
    with pytest.raises(IllegalMoveError):
        session.correct(2, Play.from_ids("bob", "W040"))
    assert session.moves == before
    session.close()


def test_a_record_that_cannot_be_written_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    # A full disk: every write fails with ENOSPC.
    record = GameFile(tmp_path / "game.jsonl", SETUP, open("/dev/full", "w", encoding="utf-8"))
    session, heard = session_with_listener(record=record)
    session.propose(NewRound.make("bob"))
    applied = session.propose(DEAL)
    assert isinstance(applied, Applied) and len(session.moves) == 2
    assert any(isinstance(e, RecordTrouble) and "event 2" in e.message for e in heard)
    assert [type(e) for e in heard if not isinstance(e, RecordTrouble)] == [Applied, Applied]


def test_start_begins_a_new_game_and_tells_the_listeners() -> None:
    session, heard = session_with_listener()
    session.propose(NewRound.make("bob"))
    started = session.start(make_setup(3), source="demo")
    assert isinstance(heard[-1], Started) and heard[-1] is started and started.setup.players == ("ann", "bob", "cy")
    assert session.moves == () and session.redo_moves == ()


def test_moves_from_several_threads_are_applied_one_at_a_time_in_order() -> None:
    """The tracker's thread and the keyboard propose at once: every change holds the lock,
    and the listeners hear the changes in the order they were made."""
    setup = make_setup(2)
    table = VirtualTable(setup, seed=3)
    session = GameSession(setup)
    heard: list[int] = []
    session.subscribe(lambda e: heard.append(e.index) if isinstance(e, Applied) else None)

    def play(n: int) -> None:
        for _ in range(n):
            with session.lock:
                move = table.next_move(session.game)
                if move is None:
                    return
                session.propose(move)

    threads = [threading.Thread(target=play, args=(40,)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert heard == list(range(len(session.moves)))
    assert all(isinstance(m, (NewRound, Deal, Play, DrawFate, Pass)) for m in session.moves)
