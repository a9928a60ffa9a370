"""Circle of Power's own commands: ``rop legal --game circle-of-power`` (who wins an action and
what they may do, C3, C9-C14) and ``rop simulate --game circle-of-power`` (complete legal games
written as ``cop-record/1``)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys

from companion.games.circle_of_power.policies import POLICIES, simulate
from companion.games.circle_of_power.query import legal, parse_next, parse_plays, parse_seats, parse_trophies
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.setup import VARIANTS
from companion.commands.simulated import write_simulated
from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.observations.argtypes import int_range

__all__ = ["COMMANDS", "Legal", "Simulate", "LEVELS"]

_NAMES = ("ann", "bob", "cy", "dee")

LEVELS = {cls.name: level for level, cls in POLICIES.items()}
"""The simulated players' levels by name: ``random`` and ``rule-of-thumb``
(:mod:`~companion.games.circle_of_power.policies` says how each plays)."""


def _fail(command: str, message: str) -> int:
    print(f"rop {command}: {message}", file=sys.stderr)
    return 2


class Legal:
    name = "legal"
    help = "who wins an action and what the winner may do (C3, C9-C14)"
    description = (
        "Circle of Power: the initiative of an action (each emperor's trump suit, the card that wins and why, C9) and "
        "every act the winner may choose, each with why: which city may take which in the circle "
        "(J < Q < K < A < J, jokers, C3), conquer or retake (C10-C13), or regroup and whether the "
        "city rebels (C14). Cards are written 10H, qs, 7♥, X1 or joker."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("--seats", required=True, help="the four emperors clockwise with their cities: ann=KH,bob=QS,cy=X1,@1=AC")
        p.add_argument("--next", required=True, dest="next_city", help="the next available city (JD), or none in action 15")
        p.add_argument("--plays", required=True, help="the battle cards in play order: bob=7H,cy=10S,@1=2C,ann=9H (1 to 4)")
        p.add_argument("--variant", choices=VARIANTS, default="basic", help="basic (default), lonely-tyrant or coloured-cities")
        p.add_argument("--trophies", default="", help="lines of victories: bob=QD+JH,cy=AS")
        p.add_argument("--json", action="store_true", help='print {"trumps": {...}, "winner": name, "choices": [...], "threatened": bool}')

    def run(self, args: argparse.Namespace) -> int:
        try:
            seats = parse_seats(args.seats)
            plays = parse_plays(args.plays)
            next_city = parse_next(args.next_city)
            trophies = parse_trophies(args.trophies) if args.trophies.strip() else {}
            answer = legal(seats, next_city, plays, variant=args.variant, trophies=trophies)
        except (IllegalMoveError, InvalidMoveError, UnknownCardError, ValueError) as exc:
            return _fail("legal", str(exc))
        if args.json:
            print(json.dumps(answer.to_json(), ensure_ascii=False))
        else:
            print("\n".join(answer.lines()))
        return 0


class Simulate:
    name = "simulate"
    help = "play a complete random legal game and write its record"
    description = (
        f"Play a complete legal game of Circle of Power ({GAME.min_players} to {GAME.max_players} players, dummies "
        f"in the empty seats) on a virtual table, players at the chosen level and the auto emperors by C11, and "
        f"write its {GAME.codec.format}."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        from companion.commands.options import add_options

        low, high = GAME.min_players, GAME.max_players
        p.add_argument("--players", type=int_range(low, high), default=high, help=f"{low} to {high} players; the missing emperors are dummies (default {high})")
        add_options(p, GAME.options, defaults=True)
        p.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable game")
        p.add_argument("--level", choices=list(LEVELS), default="random", help="how the players play (default: random)")
        p.add_argument("-o", "--output", default="-", help="record file (default: standard output)")

    def run(self, args: argparse.Namespace) -> int:
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        try:
            setup, moves = simulate(_NAMES[: args.players], args.variant, seed, args.target, LEVELS[args.level])
        except RuntimeError as exc:
            return _fail("simulate", f"{exc}; nothing was written")

        return write_simulated(args.output, setup, moves, lambda state: f"{len(state.results)} seasons")


COMMANDS = (Legal(), Simulate())
"""Circle of Power's commands, as ``rop`` offers them with ``--game circle-of-power``."""
