"""The commands games bring to ``rop`` (``legal``, ``score``, ``simulate``, ...): one command
name for every game that has it, ``--game`` choosing whose (the default game without it).

The arguments of such a command are its game's own, so the game is known before the command
line is parsed: :func:`register` reads ``--game`` from the words typed, and each command's
parser takes that game's arguments (``rop legal --game circle-of-power --help`` shows Circle
of Power's).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion.commands.game_command import GameCommand
from companion.contract import Game
from companion.contract.registry import DEFAULT, UnknownGameError, game, games, names

__all__ = ["register", "chosen_game", "add_game_option", "game_commands", "variants"]


def chosen_game(argv: Sequence[str]) -> str | None:
    """The game named by ``--game NAME`` (or ``--game=NAME``) among the words typed."""
    for i, word in enumerate(argv):
        if word == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--game="):
            return word.partition("=")[2]
    return None


def add_game_option(parser: argparse.ArgumentParser, *, default: str | None = DEFAULT) -> None:
    """``--game NAME``, one of the registered games."""
    parser.add_argument(
        "--game",
        choices=names(),
        default=default,
        help=f"the game ({', '.join(names())}; default {DEFAULT})" if default else f"the game ({', '.join(names())})",
    )


def variants() -> list[str]:
    """Every variant a registered game names (``--variant``'s choices)."""
    return sorted({c for g in games() for o in g.options if o.name == "variant" for c in o.choices})


def game_commands(g: Game) -> dict[str, GameCommand]:
    """The commands ``g`` brings, by name (none when it brings none)."""
    return {c.name: c for c in g.commands()}


def register(sub: argparse._SubParsersAction, argv: Sequence[str]) -> None:
    """Add every game command, with the arguments of the game ``argv`` names."""
    wanted = chosen_game(argv)
    try:
        chosen = game(wanted) if wanted else game()
    except UnknownGameError:
        chosen = game()  # --game's own check says which games there are
    mine = game_commands(chosen)
    everyone: dict[str, tuple[Game, GameCommand]] = {}
    for g in games():
        for name, command in game_commands(g).items():
            everyone.setdefault(name, (g, command))
    for name, (_, command) in everyone.items():
        shown = mine.get(name, command)
        p = sub.add_parser(name, help=shown.help, description=shown.description)
        add_game_option(p)
        shown.add_arguments(p)
        p.set_defaults(func=_runner(name, shown if name in mine else None, chosen))


def _runner(name: str, command: GameCommand | None, chosen: Game) -> object:
    def run(args: argparse.Namespace) -> int:
        if command is None:
            have = [g.name for g in games() if name in game_commands(g)]
            print(f"rop {name}: {chosen.title} has no {name} command (--game {' or '.join(have)} has)", file=sys.stderr)
            return 2
        return command.run(args)

    return run
