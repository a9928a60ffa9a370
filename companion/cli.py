"""The ``rop`` command.

Each subcommand lives in its own module and registers itself with ``register(subparsers)``;
the sensor packages (``vision.cli``, ``hardware.cli``) do the same, importing their heavy
dependencies only when their command runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

_COMMAND_MODULES = (
    "companion.commands.rules",
    "companion.commands.records",
    "companion.commands.demo",
    "companion.commands.play",
    "companion.commands.coach",
    "companion.commands.track",
    "companion.commands.club",
    "vision.cli",
    "hardware.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rop",
        description="Rule of Power table companion: rules, scores, records, dashboard and card sensors.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
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
    parser = build_parser()
    args = parser.parse_args(argv)
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
