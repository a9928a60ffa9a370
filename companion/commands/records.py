"""``rop replay``: game records of every game checked and scored."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.contract.registry import games, samples_of
from companion.records.format import RecordError, load_game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records, checking every rule, and print the scores",
        description="Replay game records of any game the companion plays (each record's first line "
        "names its format), a club's whole archive in one call; check every move against the rules, "
        "and print the scores of each scoring period, the totals and the winner. Exits non-zero if any "
        "record is malformed or illegal.",
    )
    p.add_argument("records", nargs="*", metavar="RECORD")
    p.add_argument(
        "--json",
        action="store_true",
        help='one JSON line per record: {"record": path, ...} and the scores in the shape its game\'s '
        "record format describes (each scoring period's points, the totals, the winner)",
    )
    p.add_argument("--samples", action="store_true", help="list the sample records shipped with the companion, with their paths")
    p.add_argument("--tui", action="store_true", help="show the game in the dashboard (one record)")
    p.set_defaults(func=cmd_replay)


def list_samples() -> int:
    """The shipped sample records of every game, each with its path and what it shows."""
    print("Sample records shipped with the companion (rop demo --sample NAME shows one in the dashboard):")
    for game in games():
        for sample in samples_of(game):
            print(f"  {sample.name:<16} {game.title}: {sample.description}\n  {'':<16} {sample.path}")
    return 0


def record_json(path: str, game: Any) -> dict[str, Any]:
    """One record's line of ``rop replay --json``: the record, then the game's scores as its
    record format says (:meth:`Game.summary <companion.contract.Game.summary>`)."""
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
