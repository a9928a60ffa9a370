"""Ruse and Bruise's own commands:

- ``rop cards values --game ruse-and-bruise``: enter the table's values table once (B4), card
  by card on a terminal or all at once with ``--values ASSN=6,...``; ``--show`` shows it.
  ``rop cards list`` lists the cards with their numbers.
- ``rop legal --game ruse-and-bruise --goal ... --cards ...``: one column's distribution, step
  by step (B18-B26), in words or as the record format's JSON.
- ``rop simulate --game ruse-and-bruise --players N``: a complete legal game, dealt and played
  by simulated players, written as ``rab-record/1``.

Where a command needs the values table and none is given, it takes the table's own; a table
without one is told how to enter it. The rulings' example table is used only when asked for
by name (``--values example``).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import IO

from companion.commands.simulated import write_simulated
from companion.contract.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE, PROFESSIONAL_NUMBERS
from companion.games.ruse_and_bruise.policies import LEVELS, simulate
from companion.games.ruse_and_bruise.query import legal
from companion.games.ruse_and_bruise.table_values import HOW_TO_ENTER, NoValuesTable, load_values, save_values, values_path
from companion.games.ruse_and_bruise.values import EXAMPLE, TABLE_CARDS, ValuesTable, ValuesTableError, bound_words, check_number
from companion.observations.argtypes import int_range
from companion.observations.outfiles import OutputError

__all__ = ["COMMANDS", "Cards", "Legal", "Simulate", "values_from"]

_NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def _fail(command: str, message: str) -> int:
    print(f"rop {command}: {message}", file=sys.stderr)
    return 2


def values_from(given: str | None, calibration: str | None) -> ValuesTable:
    """The values table a command works with: ``--values`` (``CARD=NUMBER,...``, or
    ``example`` for the rulings' example), else the table's own; :class:`NoValuesTable`
    saying how to enter it when there is none, :class:`ValuesTableError` for a table the
    bounds refuse (B4)."""
    if given is not None:
        if given.strip().lower() == "example":
            return EXAMPLE
        return ValuesTable.parse(given)
    table = load_values(calibration)
    if table is None:
        raise NoValuesTable(values_path(calibration))
    return table


def _add_values(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--values",
        default=None,
        metavar="CARD=N,...",
        help=f"the values table {what}: all 13 cards, ASSN=6,MUSK=9,... (B4), or 'example' for the rulings' example table; "
        "default: the one this table entered with rop cards values",
    )
    p.add_argument("--calibration", default=None, metavar="DIR", help="the directory of the table's settings (default: your data directory)")


class Cards:
    name = "cards"
    help = "the cards and the table's values table (B4): enter it once, show it, list the cards"
    description = (
        "Ruse and Bruise's rulebook prints only some of the cards' numbers: the other 13 come from your own cards, "
        "entered once for your table and kept with its settings (B4). 'rop cards values' asks for them "
        "card by card (or takes --values ASSN=6,MUSK=9,...), checks each against the rulebook's bounds "
        "and keeps them; every game of the table carries them in its record. 'rop cards values --show' "
        "shows them; 'rop cards list' lists every card with its number."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("what", choices=("values", "list"), help="values: enter or show the values table; list: the cards and their numbers")
        p.add_argument("--show", action="store_true", help="show the table's values table instead of entering it")
        _add_values(p, "to keep")

    def run(self, args: argparse.Namespace) -> int:
        if args.what == "list":
            return self._list(args)
        if args.show:
            return self._show(args)
        try:
            current = load_values(args.calibration)
        except ValuesTableError as exc:
            print(f"rop cards: {exc}; entering it anew", file=sys.stderr)
            current = None
        if args.values is not None:
            if args.values.strip().lower() == "example":
                return _fail("cards", "the example table is for trying the companion out, never a table's own numbers: give your cards' numbers (B4)")
            try:
                table = ValuesTable.parse(args.values)
            except ValuesTableError as exc:
                return _fail("cards", f"{exc}; nothing was kept")
        else:
            asked = ask_values(sys.stdin, sys.stdout, current)
            if asked is None:
                return _fail("cards", "the values table is not complete: nothing was kept")
            table = asked
        try:
            path = save_values(table, args.calibration)
        except (OutputError, OSError) as exc:
            return _fail("cards", f"{exc}; nothing was kept")
        print(f"kept the values table in {path}:")
        print(_table_lines(table))
        return 0

    @staticmethod
    def _show(args: argparse.Namespace) -> int:
        try:
            table = load_values(args.calibration)
        except ValuesTableError as exc:
            return _fail("cards", str(exc))
        if table is None:
            return _fail("cards", f"this table has no values table yet: {HOW_TO_ENTER} (B4)")
        print(f"the values table of this table ({values_path(args.calibration)}):")
        print(_table_lines(table))
        print(f"as --values: {table.text()}")
        return 0

    @staticmethod
    def _list(args: argparse.Namespace) -> int:
        try:
            table = values_from(args.values, args.calibration)
        except NoValuesTable:
            table = None
        except ValuesTableError as exc:
            return _fail("cards", str(exc))
        print("Influence cards (each player has one of each, in their colour, B1):")
        for card in INFLUENCE:
            if card.area is not None:
                number = f"{PROFESSIONAL_NUMBERS[0]} under {card.area}, else {PROFESSIONAL_NUMBERS[1]} (B3)"
            elif card.printed is not None:
                number = f"{card.printed} (B2)"
            elif card.id == "DOPPEL":
                number = "none of its own (B22)"
            elif table is not None:
                number = f"{table[card.id]} (your values table, B4)"
            else:
                number = "from your values table (B4): not entered yet"
            print(f"  {card.id:<9} {card.name:<19} {card.kind:<12} {number}")
        print("Goal cards (B5): " + ", ".join(g.id for g in GOALS[:6]) + ", and the same for each area")
        if table is None:
            print(f"This table has no values table yet: {HOW_TO_ENTER}.")
        return 0


def _table_lines(table: ValuesTable) -> str:
    return "\n".join(f"  {card_id:<8} {number:>3}   {bound_words(card_id)}" for card_id, number in table.items())


def ask_values(stdin: IO[str], stdout: IO[str], current: ValuesTable | None = None) -> ValuesTable | None:
    """Ask for the 13 numbers card by card (B4): each is checked against its bound as it is
    typed and asked again when wrong; Enter keeps the number the table has. ``None`` when the
    input ends before the last card."""
    print("The numbers of your own cards, as printed on them (the rulebook gives only some, B4).", file=stdout)
    found: dict[str, int] = {}
    for card_id in TABLE_CARDS:
        name = next(c.name for c in INFLUENCE if c.id == card_id)
        keep = f" [{current[card_id]}]" if current is not None else ""
        while True:
            print(f"{card_id} ({name}, {bound_words(card_id)}){keep}: ", end="", file=stdout, flush=True)
            line = stdin.readline()
            if not line:
                print(file=stdout)
                return None
            text = line.strip()
            if not _interactive(stdin):
                print(text, file=stdout)  # echo what was read, so that a log of the run reads like a dialogue
            if not text and current is not None:
                found[card_id] = current[card_id]
                break
            try:
                found[card_id] = check_number(card_id, text)
            except ValuesTableError as exc:
                print(f"  {exc}", file=stdout)
                continue
            break
    return ValuesTable.from_mapping(found)


def _interactive(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Legal:
    name = "legal"
    help = "one column's distribution, step by step (B18-B26)"
    description = (
        "Ruse and Bruise: who takes a column's goal card and why: what the Musketeers cancel, what the Wizard and the "
        "Witch remove (or that they neutralize each other), the Prince & Squire pairs, each card's value, "
        "the sums and the winner, a tie going to the card closest to the goal card (with a Beggar, the "
        "lowest sum and the furthest card). Cards are written owner:CARD from the goal card down, the "
        "owners any names (colours, players)."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("--goal", required=True, help="the goal card heading the column: music-3a (B5)")
        p.add_argument("--cards", required=True, help="the column's cards from the goal card down: blue:KING,white:WIZ,blue:DOPPEL,red:MINNE")
        _add_values(p, "to use")
        p.add_argument("--json", action="store_true", help='print {"goal", "cards", "steps", "sums", "winner", "why"} as record-format.md says')

    def run(self, args: argparse.Namespace) -> int:
        try:
            values = values_from(args.values, args.calibration)
            answer = legal(args.goal, args.cards, values)
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
        "Deal and play a complete legal game of Ruse and Bruise on a virtual table (players at the "
        "chosen level) and write its rab-record/1, every card named. It uses the table's values table, "
        "or --values (--values example: the rulings' example table)."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("--players", type=int_range(2, 6), default=4, help="2 to 6 players (default 4)")
        p.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable game")
        p.add_argument("--level", choices=LEVELS, default="random", help="how the players play (default: random)")
        _add_values(p, "to play with")
        p.add_argument("-o", "--output", default="-", help="record file (default: standard output)")

    def run(self, args: argparse.Namespace) -> int:
        try:
            values = values_from(args.values, args.calibration)
        except ValueError as exc:
            return _fail("simulate", f"{exc}; nothing was written")
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        try:
            setup, moves = simulate(_NAMES[: args.players], values, seed, args.level)
        except RuntimeError as exc:
            return _fail("simulate", f"{exc}; nothing was written")
        return write_simulated(args.output, setup, moves, lambda state: f"{len(state.results)} rounds, {len(moves)} events")


COMMANDS = (Cards(), Legal(), Simulate())
"""Ruse and Bruise's commands, as ``rop`` offers them with ``--game ruse-and-bruise``."""
