"""``rop hint`` and ``rop review``: the coach on a game record, of any game that has a coach
(:func:`~companion.coach.model.model_of`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from itertools import islice
from typing import Any

from companion.coach import LEVELS, Advice, Coach, CoachError, CoachModel, Mark, model_of, review
from companion.coach.review import THRESHOLDS
from companion.contract import Move, State
from companion.records.format import RecordError, Replayer, load_game, read_record, record_file


#: Samples per decision of a review and of a hint, unless told otherwise: the default level's
#: fixed samples, enough for marks that do not hinge on a lucky sample and few enough for a
#: whole game in seconds. Fixed, so that both repeat; and the same, so that a hint and a review
#: of one position give one estimate (the same seed, samples and worlds).
REVIEW_SAMPLES = LEVELS["default"].fixed_samples


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hint",
        help="rank a player's moves with their expected points, chances and reasons",
        description="The coach's advice for PLAYER in the position after line N of a game record "
        "(default: its end): every legal move with the expected margin of the scoring period (the "
        "round, the season) and its 95 % interval, the chance to win the game, the points that "
        "change hands and the risks. It uses only what that player can see.",
    )
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--player", required=True, help="whose move to judge (they must have a decision to make there)")
    p.add_argument("--line", type=int, default=None, metavar="N", help="the position after line N (default: the end)")
    p.add_argument("--level", choices=list(LEVELS), default="default", help="how hard to think (default: default)")
    p.add_argument("--budget-ms", type=float, default=None, help="think for this many milliseconds instead of a fixed number of samples")
    p.add_argument(
        "--samples", type=int, default=None,
        help="exactly this many samples (default: the level's fixed number, the default level's as many as a review takes)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    p.add_argument("--json", action="store_true", help="the advice as one JSON object")
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser(
        "review",
        help="mark each decision of a game as good, inaccuracy, mistake or blunder",
        description="Review a finished (or tracked and completed) game: each decision is judged "
        "from what its player could know at that moment and marked by the drop in winning "
        "chances against the best move (-1..1 scale: "
        + ", ".join(f"{t} {name}" for t, name in reversed(THRESHOLDS))
        + ").",
    )
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--player", default=None, help="review only this player's decisions")
    p.add_argument(
        "--samples", type=int, default=REVIEW_SAMPLES, help=f"samples per decision (default {REVIEW_SAMPLES}; more is firmer and slower)"
    )
    p.add_argument("--all", action="store_true", help="list good decisions too")
    p.add_argument("--seed", type=int, default=0, help="seed of the samples (default 0)")
    p.add_argument("--json", action="store_true", help="the marks as one JSON object")
    p.set_defaults(func=cmd_review)


class _Collector(Replayer):
    """Replays the record, every rule checked, and keeps the moves and the line of each."""

    def __init__(self) -> None:
        super().__init__()
        self.setup: Any = None
        self.moves: list[Move] = []
        self.lines: list[int] = []

    def begin_game(self, setup: Any, line: int) -> None:
        super().begin_game(setup, line)
        self.setup = setup

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        self.moves.append(move)
        self.lines.append(line)


def _fail(command: str, message: str) -> int:
    print(f"rop {command}: {message}", file=sys.stderr)
    return 2


class _Counted:
    """The lines of a record, counted as they are read."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.lines:
            self.read += 1
            yield line


def cmd_hint(args: argparse.Namespace) -> int:
    try:
        # The record is read as every record file is (a regular file, line by line, bounded),
        # and no further than the position asked for.
        with record_file(args.record) as lines:
            counted = _Counted(lines)
            if args.line is not None and args.line < 1:
                for _ in counted:
                    pass
            else:
                # The history kept: the coach reads what was played (as the review does).
                game = load_game(counted if args.line is None else islice(counted, args.line), keep_history=True)
            n = counted.read if args.line is None else args.line
            if not 1 <= n <= counted.read:
                return _fail("hint", f"{args.record}: line {args.line} is out of range (the record has {counted.read} lines)")
    except RecordError as exc:
        if exc.path is None:
            exc = RecordError(exc.reason, line=exc.line, rule=exc.rule, path=args.record)
        return _fail("hint", str(exc))
    if args.player not in game.players:
        return _fail("hint", f"{args.record}: unknown player {args.player!r}; the players are {', '.join(game.players)}")
    if args.samples is not None and args.samples < 1:
        return _fail("hint", f"--samples must be at least 1, not {args.samples}")
    try:
        model_of(game.game)  # a game without a coach is told so before any search
    except CoachError as exc:
        return _fail("hint", f"{args.record}: {exc}")
    try:
        samples = args.samples if args.samples is not None or args.budget_ms is not None else LEVELS[args.level].fixed_samples
        advice = Coach(args.level, seed=args.seed).advise(game, args.player, budget_ms=args.budget_ms, samples=samples)
    except CoachError as exc:
        # Say plainly who is to move there, and where the player is next to decide.
        where = "at the end of the record" if args.line is None else f"after line {n}"
        if game.is_game_over():
            what = "the game is over"
        elif not game.deciding:
            what = f"nobody is to move: the game waits for {model_of(game.game).waits_for(game)}"
        else:
            what = str(exc)
        nxt = _next_decision(args.record, args.player, n)
        then = f"; {args.player} is next to move after line {nxt} (--line {nxt})" if nxt else ""
        return _fail("hint", f"{args.record}: {where} {what}{then}")
    if args.json:
        print(json.dumps({"record": args.record, "line": n, **advice.to_json()}))
    else:
        print(format_advice(advice, game, n))
    return 0


class _Found(Exception):
    """The line sought is found: nothing further is read."""

    def __init__(self, line: int) -> None:
        self.line = line


class _Decisions(Replayer):
    """Replays a record up to the first line after ``after`` after which ``player`` is deciding."""

    def __init__(self, player: str, after: int) -> None:
        super().__init__()
        self.player, self.after = player, after

    def visit_move(self, move: Move, line: int) -> None:
        super().visit_move(move, line)
        if line > self.after and self.player in self.game.deciding:
            raise _Found(line)


def _next_decision(path: str, player: str, after: int) -> int | None:
    """The first line after line ``after`` of the record at ``path`` after which ``player`` is
    deciding, ``None`` if there is none, or none before a line that cannot be read (the hint
    was asked about an earlier line: what is wrong further on is not its concern)."""
    try:
        with record_file(path) as lines:
            read_record(lines, _Decisions(player, after), path=path)
    except _Found as found:
        return found.line
    except RecordError:
        return None
    return None


def format_advice(advice: Advice, game: State, line: int) -> str:
    """The advice in words: the position, then each move ranked with its figures and reasons."""
    model = model_of(game.game)
    out = [
        f"{advice.player} to move after line {line} {model.position(game)}",
        f"{advice.samples} sampled deals, {advice.playouts} playouts, {advice.elapsed_ms:.0f} ms ({advice.level})",
    ]
    for i, m in enumerate(advice.moves, 1):
        out.append(
            f"{i:2}. {m.text}: {m.margin:+.2f} points against the best other side this {model.period} "
            f"(95 % sure: {m.margin_low:+.1f} to {m.margin_high:+.1f}), wins the game {m.win:.0%}"
        )
        for reason in m.reasons:
            out.append(f"      {reason}")
    return "\n".join(out)


def cmd_review(args: argparse.Namespace) -> int:
    collector = _Collector()
    try:
        with record_file(args.record) as lines:
            read_record(lines, collector, path=args.record)
    except RecordError as exc:
        return _fail("review", str(exc))
    setup = collector.setup
    assert setup is not None
    if args.player is not None and args.player not in setup.players:
        return _fail("review", f"{args.record}: unknown player {args.player!r}; the players are {', '.join(setup.players)}")
    try:
        model = model_of(setup.game)
        moves = setup.game.codec.complete(collector.moves)
        if args.samples < 1:
            return _fail("review", f"--samples must be at least 1, not {args.samples}")
        marks = review(setup, moves, args.player, coach=Coach(seed=args.seed), samples=args.samples)
    except CoachError as exc:
        return _fail("review", f"{args.record}: {exc}")
    unseen = model.unseen_cards(moves)
    if args.json:
        print(json.dumps(_review_json(args, collector, marks, unseen)))
    else:
        _print_review(args, collector, marks, unseen, model)
    return 0


def _review_json(args: argparse.Namespace, collector: _Collector, marks: list[Mark], unseen: int) -> dict[str, Any]:
    return {
        "record": args.record,
        "player": args.player,
        "thresholds": {name: t for t, name in THRESHOLDS},
        "unseen_cards": unseen,
        "marks": [{"line": collector.lines[m.index], **m.to_json()} for m in marks],
    }


def _print_review(args: argparse.Namespace, collector: _Collector, marks: list[Mark], unseen: int, model: CoachModel) -> None:
    """The counts of each mark, then each decision marked (every one with ``--all``), with the
    better move and why."""
    counts = {name: 0 for name in ("good", "inaccuracy", "mistake", "blunder")}
    for m in marks:
        counts[m.verdict] += 1
    who = args.player or "every player"
    print(f"{args.record}: {len(marks)} decisions of {who}: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    if unseen:
        print(f"({unseen} dealt cards were never seen; those hands are sampled like hidden ones)")
    for m in marks:
        if m.verdict == "good" and not args.all:
            continue
        print(
            f"line {collector.lines[m.index]} ({model.period} {m.round}) {m.player}: {m.played}: {m.verdict.upper()} "
            f"(chance to win {m.played_advice.win:.0%} instead of {m.best_advice.win:.0%}, "
            f"about {m.margin_drop:.1f} points fewer this {model.period})"
        )
        if m.verdict != "good":
            print(f"      better: {m.best}")
            for reason in m.why:
                print(f"      {reason}")
