"""``rop demo``: the companion on its built-in demo table."""

from __future__ import annotations

import argparse
import sys
import time

from companion.cards import Card
from companion.game import GameState, Phase
from companion.moves import Deal, DrawFate, NewRound, Pass, Play
from companion.record import Replayer, read_record
from companion.samples import SAMPLES, sample_path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="watch a demo game played out on a virtual table")
    p.add_argument("--sample", default="teams-4", choices=sorted(SAMPLES), help="which built-in game")
    p.add_argument("--delay", type=float, default=0.4, help="seconds between moves")
    p.set_defaults(func=cmd_demo)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(c.id for c in cards) or "-"


def describe(game: GameState, move: object) -> str:
    """One line of commentary for a move just played."""
    if isinstance(move, NewRound):
        return f"Round {game.round_number}: {move.dealer} deals"
    if isinstance(move, Deal):
        last = ' "last hand"' if game.is_last_deal else ""
        centre = f"; centre {_cards(move.centre)}" if move.centre else ""
        return f"Deal {game.deal_number} of {game.deals_in_round}{last}{centre}"
    if isinstance(move, DrawFate):
        return f"{move.player} draws a Fate card"
    if isinstance(move, Pass):
        return f"{move.player} passes"
    if isinstance(move, Play):
        text = f"{move.player} plays {move.card.title}"
        if move.capture:
            text += f", takes {', '.join(c.title for c in move.capture)}"
            if game.sweeps(move.player) and game.sweeps(move.player)[-1] is move.card and not game.centre:
                text += " - clean sweep!"
        if move.target:
            text += f" on {move.target}"
        return text
    return str(move)


def cmd_demo(args: argparse.Namespace) -> int:
    path = sample_path(args.sample)
    out = sys.stdout

    class Narrator(Replayer):
        def visit_move(self, move, line):  # type: ignore[no-untyped-def]
            super().visit_move(move, line)
            game = self.game
            assert game is not None
            print(describe(game, move), file=out, flush=True)
            if game.phase in (Phase.ROUND, Phase.OVER) and game.results:
                result = game.results[-1]
                for reason in result.score.reasons():
                    print("   " + reason, file=out)
                print("   Totals: " + ", ".join(f"{s} {t}" for s, t in result.totals.items()), file=out, flush=True)
            time.sleep(args.delay)

    narrator = Narrator()
    with open(path, encoding="utf-8") as fp:
        read_record(fp, narrator, path=str(path))
    assert narrator.game is not None
    outcome = narrator.game.outcome()
    if outcome:
        print(f"Winner: {outcome.winner}", file=out)
    return 0


def run_replay_tui(path: str) -> int:
    print("the dashboard is not available in this build; use rop replay without --tui", file=sys.stderr)
    return 2
