"""``rop replay`` and ``rop simulate``: game records in and out."""

from __future__ import annotations

import argparse
import json
import sys

from companion.engine.game import GameSetup, IllegalMoveError
from companion.engine.moves import InvalidMoveError
from companion.records.format import RecordError, RecordWriter, ReplaySummary, load_game
from companion.commands.rules import format_score_table
from companion.simulation.virtual_table import POLICIES, VirtualTable, make_setup
from companion.engine.game import GameState


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records, checking every rule, and print the scores",
        description="Replay rop-record/1 files (a club's whole archive in one call), check "
        "every move against the rules, and print each round's scores, the totals and the "
        "winner. Exits non-zero if any record is malformed or illegal.",
    )
    p.add_argument("records", nargs="+", metavar="RECORD")
    p.add_argument("--json", action="store_true", help="one JSON line per record")
    p.add_argument("--tui", action="store_true", help="show the game in the dashboard (one record)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "simulate",
        help="play a complete random legal game and write its record",
        description="Play a random legal game on a virtual table and write its rop-record/1.",
    )
    p.add_argument("--players", type=int, default=2, help="2 to 6 (default 2)")
    p.add_argument("--teams", type=int, default=0, help="number of teams (0: everyone alone)")
    p.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable game")
    p.add_argument("--fate", action="store_true", help="players use Fate decks")
    p.add_argument("--expansion", action="store_true", help="the Higher Powers expansion (R2)")
    p.add_argument("--target", type=int, default=11, help="points to win: 11, 16, 21, ... (R14)")
    p.add_argument("--level", choices=POLICIES, default="random", help="how the virtual players play (default: random)")
    p.add_argument("-o", "--output", default="-", help="record file (default: standard output)")
    p.set_defaults(func=cmd_simulate)


def cmd_replay(args: argparse.Namespace) -> int:
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
        summary = ReplaySummary.of(game)
        if args.json:
            print(json.dumps(summary.to_json()), flush=True)
        else:
            print_summary(path, game, summary)
    return status


def print_summary(path: str, game: GameState, summary: ReplaySummary) -> None:
    setup = game.setup
    teams = f", teams {' vs '.join(setup.sides)}" if setup.teams else ""
    print(f"{path}: {', '.join(setup.players)}{teams}; target {setup.target}{', expansion' if setup.expansion else ''}")
    for result in game.results:
        print(f"\nRound {result.number} (dealer {result.dealer})")
        print(format_score_table(result.score.sides))
        for line in result.score.reasons():
            print("  " + line)
        if result.leftover:
            who = result.last_capturer or "nobody (no capture this round)"
            print(f"  Left in the centre at the end, to {who} (R6): {', '.join(c.id for c in result.leftover)}")
        print("  Totals: " + ", ".join(f"{s} {t}" for s, t in result.totals.items()))
    outcome = game.outcome()
    if outcome:
        how = "Rule of Power (R13)" if outcome.termination.value == "rule_of_power" else f"reached {setup.target} first with the highest total (R14)"
        print(f"\nWinner: {outcome.winner}, {how}\n")
    else:
        print(f"\nUnfinished game: {len(game.results)} round(s) complete, {game.phase.value} next\n")


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        setup: GameSetup = make_setup(args.players, args.teams, target=args.target, expansion=args.expansion)
    except (IllegalMoveError, InvalidMoveError, ValueError) as exc:
        print(f"rop simulate: {exc}", file=sys.stderr)
        return 2
    table = VirtualTable(setup, seed=args.seed, fate=args.fate, policy=args.level)
    game = GameState(setup, keep_history=False)
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    try:
        writer = RecordWriter(out, setup)
        for move in table.moves(game):
            writer.write(move)
    finally:
        if out is not sys.stdout:
            out.close()
    if args.output != "-":
        outcome = game.outcome()
        assert outcome is not None
        print(f"wrote {args.output}: {len(game.results)} rounds, winner {outcome.winner}", file=sys.stderr)
    return 0
