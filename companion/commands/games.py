"""The commands games bring to ``rop`` (``legal``, ``score``, ``simulate``, ...): one command
name for every game that has it, ``--game`` choosing whose (the default game without it).

The arguments of such a command are its game's own, so the game is known before the command
line is parsed: :func:`register` reads ``--game`` from the words typed, and each command's
parser takes that game's arguments (``rop NAME --game GAME --help`` shows GAME's).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion.commands.game_command import GameCommand
from companion.contract import Game
from companion.contract.registry import DEFAULT, UnknownGameError, game, games, names

__all__ = ["register", "chosen_game", "option_typed", "game_typed", "add_game_option", "game_commands"]


def option_typed(argv: Sequence[str], option: str) -> str | None:
    """The value of ``option`` (``--game``) among the words typed: ``--game NAME``,
    ``--game=NAME``, or a prefix argparse takes for it (``--ga NAME``); the last one given."""
    found = None
    for i, word in enumerate(argv):
        name, eq, value = word.partition("=")
        if len(name) < 3 or not option.startswith(name):
            continue
        if eq:
            found = value
        elif i + 1 < len(argv):
            found = argv[i + 1]
    return found


def chosen_game(argv: Sequence[str]) -> str | None:
    """The game named by ``--game NAME`` (or ``--game=NAME``) among the words typed."""
    return option_typed(argv, "--game")


def game_typed(argv: Sequence[str]) -> Game:
    """The game ``--game`` names among the words typed; the default game without it, or when
    it names no game (``--game``'s own check then says which games there are)."""
    wanted = chosen_game(argv)
    try:
        return game(wanted) if wanted else game()
    except UnknownGameError:
        return game()


def add_game_option(parser: argparse.ArgumentParser, *, default: str | None = DEFAULT) -> None:
    """``--game NAME``, one of the registered games."""
    parser.add_argument(
        "--game",
        choices=names(),
        default=default,
        help=f"the game ({', '.join(names())}; default {DEFAULT})" if default else f"the game ({', '.join(names())})",
    )


def game_commands(g: Game) -> dict[str, GameCommand]:
    """The commands ``g`` brings, by name (none when it brings none)."""
    return {c.name: c for c in g.commands()}


def register(sub: argparse._SubParsersAction, argv: Sequence[str], *, only: str | None = None) -> list[str]:
    """Add every game command, with the arguments of the game ``argv`` names; with ``only``,
    that command alone if the game has it (so that ``rop legal`` imports no other game).
    Returns the names added."""
    chosen = game_typed(argv)
    mine = game_commands(chosen)
    if only is not None:
        if only not in mine:
            return []
        _add(sub, mine[only], chosen)
        return [only]
    everyone: dict[str, tuple[GameCommand, Game]] = {}
    for g in games():
        for name, command in game_commands(g).items():
            everyone.setdefault(name, (command, g))
    for name, (command, owner) in everyone.items():
        if name in mine:
            _add(sub, mine[name], chosen)
        else:
            _add(sub, command, chosen, has=False, shown_for=owner)
    return list(everyone)


def _add(sub: argparse._SubParsersAction, shown: GameCommand, chosen: Game, *, has: bool = True, shown_for: Game | None = None) -> None:
    """The parser of a game command, as ``shown`` (``shown_for``'s, ``chosen``'s unless
    told) describes it; it runs ``chosen``'s, or says ``chosen`` has none (``has`` false)."""
    p = sub.add_parser(shown.name, help=shown.help, description=shown.description, epilog=_others(shown.name, shown_for or chosen))
    add_game_option(p)
    shown.add_arguments(p)
    p.set_defaults(func=_runner(shown.name, shown if has else None, chosen))


def _others(name: str, described: Game) -> str | None:
    """The words under a game command's ``--help``: the help is ``described``'s, and which
    other games have a command of that name, with their own arguments."""
    others = [g for g in games() if g.name != described.name and name in game_commands(g)]
    if not others:
        return None
    listed = ", ".join(g.name for g in others)
    return f"This is {described.title}'s {name}. Another game's, with its own options: rop {name} --game NAME --help, NAME one of {listed}."


def _runner(name: str, command: GameCommand | None, chosen: Game) -> object:
    def run(args: argparse.Namespace) -> int:
        if command is None:
            have = [g.name for g in games() if name in game_commands(g)]
            print(f"rop {name}: {chosen.title} has no {name} command (--game {' or '.join(have)} has)", file=sys.stderr)
            return 2
        return command.run(args)

    return run
