"""``rop track``: the sensors through the tracker into the saved record, with no screen; one
JSON line per event on standard output, answers on standard input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from companion.commands.track import JsonLines, read_commands
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup
from companion.observations import CardGone, CardSeen
from companion.records.format import load_game, move_event
from companion.records.store import list_games
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from companion.tracker.runner import TrackerRunner

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "bench" / "data" / "camera-sim-2p.jsonl"


def test_rop_track_follows_an_observation_log_into_the_record(tmp_path: Path) -> None:
    games = tmp_path / "games"
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "track", "--observations", str(LOG), "--speed", "0", "--games-dir", str(games)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["kind"] == "game" and lines[0]["players"] == ["ann", "bob"] and lines[0]["resumed"] == 0
    moves = [line for line in lines if line["kind"] == "move"]
    assert len(moves) > 30
    (path,) = list_games(games)
    assert lines[0]["record"] == str(path)
    game = load_game(path, keep_history=True)
    # Every event saved was printed as it happened, numbered as in the record; the saved file
    # has since filled in the hands dealt face down (null when printed), as each round ended.
    assert [m["event"] for m in moves] == list(range(1, len(game.move_stack) + 1))
    saved = [move_event(m, game.setup) for m in game.move_stack]
    for printed, kept in zip([m["record"] for m in moves], saved, strict=True):
        if printed["event"] == "deal":
            assert printed.get("center") == kept.get("center")
            assert all(c is None or c in kept["hands"][p] for p, cards in printed["hands"].items() for c in cards)
        else:
            assert printed == kept
    assert any(c is not None for m in saved if m["event"] == "deal" for cards in m["hands"].values() for c in cards)
    assert all(m["source"].startswith("tracker (") for m in moves)
    assert any(line["kind"] == "round" and line["totals"] for line in lines)


def test_a_question_is_answered_by_a_line_on_standard_input() -> None:
    session = GameSession(GameSetup(("ann", "bob")))
    out = io.StringIO()
    printer = JsonLines(out, session)
    session.subscribe(printer.session_changed)
    tracker = Tracker(session, TrackerConfig(first_dealer="bob", unexplained_after=1.0))
    runner = TrackerRunner(tracker, lambda emit: None, printer.tracker_events)  # type: ignore[arg-type, return-value]
    printer.tracker_events(tracker.begin())
    t = 0.0
    for cid in ("W002", "W014", "W035", "W029"):
        t += 0.1
        printer.tracker_events(tracker.observe(CardSeen("camera", t, Card.from_id(cid), None, "centre")))
    # A hand takes the 2 and the 4: any unseen 6 could have done it, so the table is asked.
    for cid in ("W002", "W014"):
        t += 0.1
        printer.tracker_events(tracker.observe(CardGone("camera", t, Card.from_id(cid), None, "centre")))
    printer.tracker_events(tracker.tick(t + 2.0))
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    (question,) = [line for line in lines if line["kind"] == "question"]
    assert question["choices"][0]["number"] == 1
    events = len(session.moves)
    read_commands(io.StringIO("1\nnonsense\nquit\n"), runner, printer)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    answered = [line for line in lines if line["kind"] == "move" and line["source"] == "tracker (answer)"]
    assert answered and len(session.moves) > events
    assert answered[-1]["record"]["capture"] == ["W002", "W014"]
    assert any(line["kind"] == "notice" and "not understood" in line["message"] for line in lines)
    assert runner.stopped


class _BrokenLog:
    """An observation log whose writer fails (a fault of ours, not the disk's) from its
    second observation on."""

    def __init__(self) -> None:
        self.kept: list[object] = []

    def record(self, obs: object) -> None:
        if self.kept:
            raise RuntimeError("the log's writer broke")
        self.kept.append(obs)


def test_a_fault_in_a_worker_ends_no_game_and_is_reported() -> None:
    """The runner takes the observations of a log whose writer breaks: the fault is reported
    as a failure (a JSON line of rop track), the log stops, and the game goes on being kept."""
    session = GameSession(GameSetup(("ann", "bob")))
    out = io.StringIO()
    printer = JsonLines(out, session)
    session.subscribe(printer.session_changed)
    tracker = Tracker(session, TrackerConfig(first_dealer="bob", unexplained_after=1.0))
    seen = [CardSeen("camera", 0.1 * k, Card.from_id(cid), None, "centre") for k, cid in enumerate(("W002", "W014", "W035", "W029"), 1)]
    log = _BrokenLog()

    def sensors(emit):  # type: ignore[no-untyped-def]
        for obs in seen:
            emit(obs)
        return type("Stopped", (), {"stop": lambda self: None})()

    runner = TrackerRunner(tracker, sensors, printer.tracker_events, recorder=log)
    runner.start()
    runner.finish()
    runner.run()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert any(line["kind"] == "failure" and "observation log stopped" in line["message"] for line in lines)
    assert len(log.kept) == 1 and runner.handled == len(seen)
    # The first deal's four centre cards were all seen and applied: the game went on.
    assert [m["record"]["event"] for m in lines if m["kind"] == "move"] == ["round", "deal"]
