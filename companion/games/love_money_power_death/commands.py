"""Love, Money, Power, Death's own commands: ``rop legal --game love-money-power-death`` (who
wins a round and what a player not yet seen may commit, L6-L9, L14) and ``rop simulate --game
love-money-power-death`` (a whole legal game written as ``lmpd-record/1``)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys

from companion.commands.simulated import write_simulated
from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.games.love_money_power_death.policies import POLICIES, simulate
from companion.games.love_money_power_death.query import legal, parse_query
from companion.games.love_money_power_death.setup import DEFAULT_FIVES, FIVES, MOST
from companion.observations.argtypes import int_range

__all__ = ["COMMANDS", "Legal", "Simulate", "LEVELS"]

LEVELS = {cls.name: level for level, cls in POLICIES.items()}
"""The simulated players' levels by name: ``random``, ``rule-of-thumb``, ``eager``,
``cautious`` and ``counter`` (:mod:`~companion.games.love_money_power_death.policies` says how each plays)."""


def _fail(command: str, message: str) -> int:
    print(f"rop {command}: {message}", file=sys.stderr)
    return 2


class Legal:
    name = "legal"
    help = "who wins a round and what a player not yet seen may commit (L6-L9, L14)"
    description = (
        "A round of Love, Money, Power, Death as far as it is known: the noble, each player's "
        "revealed card or ?, the cards known in hands and out of play. Says who wins the noble and "
        "why (suit, then rank; agents, L8, L9) once every card is known, and what each player not "
        "yet seen may commit (L6, L14). Cards are written N3L, 4Mb, 5D, A2 (any case, or "
        "n3-love, 3 Money b). A query that describes no possible moment is refused."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("--noble", default=None, help="the round's noble (N3L); leave out before it is turned")
        p.add_argument("--plays", required=True, help="every player in seating order with the card revealed, ? if not seen: ann=3La,bob=A2,cy=?")
        p.add_argument("--hands", default="", help="cards known in hands: cy=1Pb+5M+A4 (a ? player's whole hand, or what is left of another's)")
        p.add_argument("--out", default="", help="further resources and agents known to be in no hand: 2Pa+A1")
        p.add_argument("--json", action="store_true", help='print {"suit": ..., "winner": ..., "why": ..., "commits": {...}}')

    def run(self, args: argparse.Namespace) -> int:
        try:
            answer = legal(*parse_query(args.noble, args.plays, args.hands, args.out))
        except (IllegalMoveError, InvalidMoveError, UnknownCardError) as exc:
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
        "Play a complete legal game of Love, Money, Power, Death on a virtual table (players at the "
        "chosen level, every card seen) and write its lmpd-record/1."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        from companion.games.love_money_power_death import GAME

        p.add_argument("--players", type=int_range(GAME.min_players, GAME.max_players), default=3, help=f"{GAME.min_players} to {GAME.max_players} players (default 3; nobles x players <= 42, L4)")
        p.add_argument(
            "--nobles",
            default=None,
            help="how many nobles (1-10), or which (N2L,N3M,...; L4); default: the deck's ten, or as many as the players allow",
        )
        p.add_argument("--fives", choices=FIVES, default=DEFAULT_FIVES, help=f"the suits of the deck's two rank-5 nobles (L1; default {DEFAULT_FIVES})")
        p.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable game")
        p.add_argument("--level", choices=list(LEVELS), default="random", help="how the players play (default: random)")
        p.add_argument("-o", "--output", default="-", help="record file (default: standard output)")

    def run(self, args: argparse.Namespace) -> int:
        from companion.games.love_money_power_death import GAME

        seed = args.seed if args.seed is not None else secrets.randbits(32)
        names = GAME.default_players(args.players)
        nobles = args.nobles if args.nobles is not None else MOST
        try:
            setup, moves = simulate(names, nobles, seed, LEVELS[args.level], fives=args.fives)
        except (IllegalMoveError, InvalidMoveError, UnknownCardError) as exc:
            return _fail("simulate", f"{exc}; nothing was written")
        return write_simulated(args.output, setup, moves, lambda state: f"{len(state.rounds)} rounds")


COMMANDS = (Legal(), Simulate())
"""Love, Money, Power, Death's commands, as ``rop`` offers them with ``--game
love-money-power-death``."""
