"""``rop track``: the table's sensors through the tracker into the saved record, with no screen.

For a Raspberry Pi under the table, a script, or a server gathering a club's tables: the same
sensor options and table file as ``rop play``, the same record in the games directory (and
``--resume``), and on standard output one JSON object per line for every move applied, move
refused, question, rule hint, desync and sensor status::

    {"kind": "game", "record": "...jsonl", "players": ["ann", "bob"], "resumed": 0}
    {"kind": "move", "event": 3, "source": "tracker (camera)", "record": {"event": "play", ...}, "text": "ann plays ..."}
    {"kind": "question", "prompt": "Which move was it?", "choices": [{"number": 1, "label": "..."}]}
    {"kind": "hint", "rule": "...", "message": "..."}
    {"kind": "desync", "differences": ["..."]}
    {"kind": "status", "sensor": "camera", "state": "connected", "detail": ""}
    {"kind": "failure", "message": "..."}

and, for each finished scoring period, the game's own line (:meth:`Game.period_json
<companion.contract.Game.period_json>`). A line on standard input answers the open question
with its number, announces a card drawn that no sensor sees (``draw ann``), takes back the
last event (``undo``) or ends (``quit``); a question nobody answers stays pending while the
game goes on being watched. The table's options are the chosen game's (``--game``), as
``rop play`` takes them.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from functools import partial
from typing import IO, Any

from companion.commands.games import game_typed
from companion.commands.play import (
    add_table_arguments,
    club_feed,
    games_dir_of,
    has_sensors,
    resumed_session,
    sensed_table,
    table_errors,
)
from companion.observations import DrawAnnounced, SensorStatus
from companion.observations.log import LogPlayback
from companion.records.format import move_event
from companion.session import Applied, Corrected, GameSession, RecordTrouble, RedoDropped, Refused, SessionEvent, Started, Undone
from companion.tracker import Failure, InSync, Notice, OutOfSync, Question, RuleHint, Tracker, TrackerConfig, TrackerEvent
from companion.tracker.runner import TrackerRunner

__all__ = ["register", "cmd_track", "JsonLines"]


def register(sub: argparse._SubParsersAction, argv: Sequence[str]) -> None:
    """``rop track``, with the table options of the game ``argv`` names."""
    g = game_typed(argv)
    p = sub.add_parser(
        "track",
        help="follow the table through its sensors into the saved record, without a screen (JSON lines)",
        description=f"Follow a game of {g.title} through the table's camera and NFC readers and save it as "
        "it happens, with no terminal user interface: one JSON line per move, question, rule hint, desync "
        "and sensor status on standard output. A line on standard input answers a question by its number, "
        "announces a card drawn that no sensor sees ('draw ann'), undoes the last event ('undo') or ends ('quit').",
    )
    add_table_arguments(p, g, manual=False)
    p.set_defaults(func=cmd_track)


class JsonLines:
    """Writes the session's changes and the tracker's words as JSON lines, one thread at a time."""

    def __init__(self, out: IO[str], session: GameSession) -> None:
        self.out = out
        self.session = session
        self.question: Question | None = None
        self._lock = threading.Lock()

    def write(self, obj: dict[str, Any]) -> None:
        with self._lock:
            self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
            self.out.flush()

    def session_changed(self, event: SessionEvent) -> None:
        """A session listener: called with the session locked, right after the change."""
        game = self.session.game
        played = game.setup.game
        if isinstance(event, Applied):
            self.write(
                {
                    "kind": "move",
                    "event": event.index + 1,
                    "source": event.source,
                    "record": move_event(event.move, game.setup),
                    "text": played.narrate(game, event.move, event.effects),
                }
            )
            result = event.effects.result
            if result is not None:
                self.write(played.period_json(game, result))
        elif isinstance(event, Refused):
            self.write({"kind": "refused", "source": event.source, "rule": event.rule, "message": str(event.error)})
        elif isinstance(event, Undone):
            self.write({"kind": "undone", "event": event.index + 1, "source": event.source})
        elif isinstance(event, Corrected):
            self.write(
                {
                    "kind": "corrected",
                    "event": event.index + 1,
                    "dropped": [{"event": d.index + 1, "message": str(d.error)} for d in event.dropped],
                }
            )
        elif isinstance(event, RedoDropped):
            self.write({"kind": "notice", "message": f"{len(event.moves)} undone event{'s' if len(event.moves) != 1 else ''} can no longer be re-applied"})
        elif isinstance(event, RecordTrouble):
            self.write({"kind": "error", "message": event.message})
        elif isinstance(event, Started):
            record = getattr(self.session.record, "path", None)
            self.write({"kind": "game", "record": str(record) if record else None, "players": list(event.setup.players), "resumed": event.resumed})

    def tracker_events(self, events: list[TrackerEvent]) -> None:
        for e in events:
            if isinstance(e, Question):
                self.question = e
                choices = [{"number": i + 1, "label": c.label} for i, c in enumerate(e.choices)]
                self.write({"kind": "question", "prompt": e.prompt, "choices": choices})
            elif isinstance(e, RuleHint):
                self.write({"kind": "hint", "rule": e.rule, "message": e.message})
            elif isinstance(e, OutOfSync):
                self.write({"kind": "desync", "differences": list(e.differences)})
            elif isinstance(e, InSync):
                self.write({"kind": "in_sync"})
            elif isinstance(e, Failure):
                self.write({"kind": "failure", "message": e.message})
            elif isinstance(e, Notice):
                self.write({"kind": "notice", "message": e.message})

    def status(self, obs: SensorStatus) -> None:
        self.write({"kind": "status", "sensor": obs.source, "state": obs.state.value, "detail": obs.detail})


def read_commands(lines: IO[str], runner: TrackerRunner, out: JsonLines) -> None:
    """Answers and announcements typed on standard input, one per line, until it ends."""
    tracker = runner.tracker
    for line in lines:
        words = line.split()
        if not words:
            continue
        head = words[0].lower()
        if head.isdigit():
            out.tracker_events(runner.locked(partial(tracker.answer, int(head) - 1)))
        elif head == "draw" and len(words) == 2:
            runner.observe(DrawAnnounced("stdin", runner.clock(), words[1]))
        elif head == "undo":
            if tracker.session.undo(source="stdin") is None:
                out.write({"kind": "notice", "message": "nothing to undo"})
        elif head in ("quit", "exit"):
            runner.stop()
            return
        else:
            out.write({"kind": "notice", "message": f"not understood: {line.strip()!r} (a question's number, draw PLAYER, undo or quit)"})


def cmd_track(args: argparse.Namespace) -> int:
    from companion.records.store import GameFile

    if not has_sensors(args):
        print("rop track: no sensors: give --camera, --video, --nfc, --serial, --config or --observations", file=sys.stderr)
        return 2
    games_dir = games_dir_of(args)
    try:
        table = sensed_table(args)
        resumed = None
        if args.resume is not None:
            session, report = resumed_session(args.resume, games_dir)
            resumed = report.message
        else:
            setup = table.log.setup
            session = GameSession(setup, record=GameFile.create(games_dir, setup))
    except table_errors() as exc:
        print(f"rop track: {exc}", file=sys.stderr)
        return 2
    try:
        follow = club_feed(args)
    except table_errors() as exc:
        print(f"rop track: {exc}", file=sys.stderr)
        return 2
    out = JsonLines(sys.stdout, session)
    session.subscribe(out.session_changed)
    out.session_changed(Started("track", session.setup, len(session.moves)))
    if resumed is not None:
        out.write({"kind": "notice", "message": resumed})
    tracker = Tracker(session, TrackerConfig.from_log(table.log))
    runner = TrackerRunner(tracker, table.start, out.tracker_events, clock=table.clock, recorder=table.recorder, on_status=out.status)
    threading.Thread(target=read_commands, args=(sys.stdin, runner, out), name="stdin", daemon=True).start()
    feed = follow(session) if follow is not None else None
    runner.start()
    if isinstance(runner.sensors, LogPlayback):
        # A played-back log ends: so does the command, once the tracker has taken it all in.
        playback = runner.sensors

        def finish_at_the_end() -> None:
            playback.wait()
            runner.finish()

        threading.Thread(target=finish_at_the_end, name="log end", daemon=True).start()
    try:
        runner.run()
    except KeyboardInterrupt:
        pass
    finally:
        runner.stop()
        if feed is not None:
            feed.close()
        session.close()
    return 0
