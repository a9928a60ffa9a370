"""``rop replay`` and ``rop simulate``: game records in and out."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from companion.games.rule_of_power.engine.game import GameSetup, IllegalMoveError
from companion.games.rule_of_power.engine.moves import InvalidMoveError
from companion.records.format import RecordError, RecordWriter, load_game
from companion.observations.argtypes import int_range
from companion.observations.outfiles import OutputError, atomic_output
from companion.simulation.virtual_table import POLICIES, VirtualTable, make_setup
from companion.games.rule_of_power.engine.game import GameState
from companion.samples import SAMPLES, sample_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records, checking every rule, and print the scores",
        description="Replay rop-record/1 files (a club's whole archive in one call), check "
        "every move against the rules, and print each round's scores, the totals and the "
        "winner. Exits non-zero if any record is malformed or illegal.",
    )
    p.add_argument("records", nargs="*", metavar="RECORD")
    p.add_argument(
        "--json",
        action="store_true",
        help='one JSON line per record: {"record": path, "players": [...], "sides": [...], "rounds": '
        '[{"scores": ..., "reasons": ...}], "totals": ..., "winner": ...}',
    )
    p.add_argument("--samples", action="store_true", help="list the sample records shipped with the companion, with their paths")
    p.add_argument("--tui", action="store_true", help="show the game in the dashboard (one record)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "simulate",
        help="play a complete random legal game and write its record",
        description="Play a random legal game on a virtual table and write its rop-record/1.",
    )
    p.add_argument("--players", type=int_range(2, 6), default=2, help="2 to 6 (default 2)")
    p.add_argument("--teams", type=int_range(0, 3), default=0, help="number of teams, 0 to 3 (0: everyone alone)")
    p.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable game")
    p.add_argument("--fate", action="store_true", help="players use Fate decks")
    p.add_argument("--expansion", action="store_true", help="the Higher Powers expansion (R2)")
    p.add_argument(
        "--target",
        type=int_range(11, MAX_SIMULATED_TARGET),
        default=11,
        help=f"points to win: 11, 16, 21, ... up to {MAX_SIMULATED_TARGET} (R14)",
    )
    p.add_argument("--level", choices=POLICIES, default="random", help="how the virtual players play (default: random)")
    p.add_argument("-o", "--output", default="-", help="record file (default: standard output)")
    p.set_defaults(func=cmd_simulate)


def list_samples() -> int:
    """The shipped sample records, each with its path and what it shows."""
    print("Sample records shipped with the companion (rop demo --sample NAME shows one in the dashboard):")
    for name, (players, teams, fate, expansion, _seed) in SAMPLES.items():
        what = f"{players} players" + (f" in {teams} teams" if teams else "")
        what += ", Fate decks" if fate else ""
        what += ", Higher Powers expansion" if expansion else ""
        print(f"  {name:<16} {what}\n  {'':<16} {sample_path(name)}")
    return 0


def record_json(path: str, game: Any) -> dict[str, Any]:
    """One record's line of ``rop replay --json``: the record, then the game's scores as its
    record format says (Rule of Power: players, sides, each round's points with their reasons,
    totals, winner)."""
    return {"record": path, **game.game.summary(game)}


def cmd_replay(args: argparse.Namespace) -> int:
    if args.samples:
        return list_samples()
    if not args.records:
        print("rop replay: name one or more records (rop replay --samples lists the shipped ones)", file=sys.stderr)
        return 2
    if args.tui:
        if len(args.records) != 1:
            print("rop replay --tui shows one record at a time", file=sys.stderr)
            return 2
        from companion.commands.demo import run_replay_tui

        return run_replay_tui(args.records[0])
    status = 0
    for path in args.records:
        try:
            game = load_game(path)
        except RecordError as exc:
            status = 1
            rule = f" [{exc.rule}]" if exc.rule else ""
            print(f"rop replay: {exc}{rule}", file=sys.stderr)
            if args.json:
                print(json.dumps({"record": path, "error": exc.reason, "line": exc.line, "rule": exc.rule}))
            continue
        if args.json:
            print(json.dumps(record_json(path, game)), flush=True)
        else:
            first, *rest = game.game.score_lines(game)
            print(f"{path}: {first}")
            for line in rest:
                print(line)
            print()
    return status


def _simulate_into(out: IO[str], table: VirtualTable, game: GameState) -> None:
    writer = RecordWriter(out, table.setup)
    for move in table.moves(game):
        writer.write(move)


MAX_SIMULATED_TARGET = 101
"""The virtual table plays a bounded number of moves; every target up to this one is reached
well within them, for any number of players (R14 allows any 11 + 5k by agreement)."""


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        setup: GameSetup = make_setup(args.players, args.teams, target=args.target, expansion=args.expansion)
    except (IllegalMoveError, InvalidMoveError, ValueError) as exc:
        print(f"rop simulate: {exc}", file=sys.stderr)
        return 2
    table = VirtualTable(setup, seed=args.seed, fate=args.fate, policy=args.level)
    game = GameState(setup, keep_history=False)
    try:
        if args.output == "-":
            _simulate_into(sys.stdout, table, game)
        else:
            # Written through a temporary file: a game that cannot be finished or written
            # leaves nothing behind.
            with atomic_output(args.output) as out:
                _simulate_into(out, table, game)
    except OutputError as exc:
        print(f"rop simulate: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"rop simulate: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        print(f"rop simulate: {exc} (target {setup.target}); nothing was written", file=sys.stderr)
        return 1
    if args.output != "-":
        outcome = game.outcome()
        assert outcome is not None
        print(f"wrote {args.output}: {len(game.results)} rounds, winner {outcome.winner}", file=sys.stderr)
    return 0
