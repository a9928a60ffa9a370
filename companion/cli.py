"""The ``rop`` command.

Each subcommand lives in its own module and registers itself with ``register(subparsers)``,
or ``register(subparsers, words)`` where its options are the chosen game's (``rop play
--game NAME``); the sensor packages (``vision.cli``, ``hardware.cli``) do the same. The
commands a game brings (``rop legal``, ``rop simulate``...) are the game's own, offered for
every game by :mod:`companion.commands.games`.

``rop NAME ...`` imports the module of command NAME alone, and each module imports its heavy
dependencies (the club's database, the dashboard, OpenCV) only when its command runs: a
quick answer costs no more than its own work. The whole command line, every module and every
game, is built only for ``rop --help`` and for a name no module here registers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["build_parser", "main"]

_COMMAND_MODULES: dict[str, str] = {
    "replay": "companion.commands.records",
    "demo": "companion.commands.demo",
    "play": "companion.commands.play",
    "hint": "companion.commands.coach",
    "review": "companion.commands.coach",
    "track": "companion.commands.track",
    "club": "companion.commands.club",
    "markers": "vision.cli",
    "calibrate": "vision.cli",
    "vision": "vision.cli",
    "tags": "hardware.cli",
}
"""The module that registers each command, by the name typed after ``rop``, in the order
``rop --help`` lists them (after the games' commands)."""

_GAME_OPTIONS = frozenset({"companion.commands.demo", "companion.commands.play", "companion.commands.track"})
"""The modules whose commands take the chosen game's options: they register with the words
typed."""


def _module(name: str) -> ModuleType | None:
    """A command module; ``None`` for one not written yet (a missing dependency is no such
    thing: it is raised)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def _register(sub: argparse._SubParsersAction, name: str, words: Sequence[str]) -> bool:
    module = _module(name)
    if module is None:
        return False
    if name in _GAME_OPTIONS:
        module.register(sub, words)
    else:
        module.register(sub)
    return True


def _games() -> ModuleType:
    """The games' own commands (:mod:`companion.commands.games`), imported when asked for."""
    return importlib.import_module("companion.commands.games")


def _description() -> str:
    """What ``rop`` is, naming the games the registry holds."""
    from companion.contract.registry import DEFAULT, games, names

    titles = [g.title for g in games()]
    listed = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
    return (
        f"Card-table companion for {listed}: rules, scores, records, dashboard and card sensors. "
        f"Commands take --game NAME where games differ ({', '.join(names())}; default {DEFAULT})."
    )


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``rop`` command's parser for the words typed, ``argv``: those say which command's
    module to import (all of them without one) and which game's arguments the commands take
    (``--game``)."""
    words = list(argv)
    typed = words[0] if words and not words[0].startswith("-") else None
    if typed is not None:
        parser = argparse.ArgumentParser(prog="rop")
        sub = parser.add_subparsers(dest="command", metavar="COMMAND")
        module = _COMMAND_MODULES.get(typed)
        if module is not None and _register(sub, module, words):
            return parser
        if module is None and _games().register(sub, words, only=typed):
            return parser
    parser = argparse.ArgumentParser(prog="rop", description=_description())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _games().register(sub, words)
    for module in dict.fromkeys(_COMMAND_MODULES.values()):
        _register(sub, module, words)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from companion.commands.options import REFUSED

    refusal = getattr(args, REFUSED, None)  # another game's option, refused by name
    if refusal is not None:
        print(f"rop {args.command}: {refusal}", file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
