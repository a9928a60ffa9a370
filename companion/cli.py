"""The ``rop`` command.

Each subcommand lives in its own module and registers itself with ``register(subparsers)``;
the sensor packages (``vision.cli``, ``hardware.cli``) do the same, importing their heavy
dependencies only when their command runs. The commands a game brings (``legal``, ``score``,
``simulate``) are the game's own, offered for every game by :mod:`companion.commands.games`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion.commands import games

_COMMAND_MODULES = (
    "companion.commands.records",
    "companion.commands.demo",
    "companion.commands.play",
    "companion.commands.coach",
    "companion.commands.track",
    "companion.commands.club",
    "vision.cli",
    "hardware.cli",
)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``rop`` command's parser; ``argv``, the words typed, says which game's arguments the
    games' own commands take (``--game``)."""
    parser = argparse.ArgumentParser(
        prog="rop",
        description="Card-table companion for Rule of Power and Circle of Power: rules, scores, "
        "records, dashboard and card sensors. Commands take --game NAME where games differ.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    games.register(sub, argv)
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # A command module not written yet is simply absent; a missing dependency is not.
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
