"""A game's options on the command line.

Each :class:`~companion.contract.Option` a game declares (and each its dashboard kit adds) is
an argument of the commands that set up a table, in the game's own words: ``--NAME VALUE``, or
``--NAME`` for a flag; a flag that is on unless turned off is spelt ``--no-NAME``. The options
of the other games are accepted by the parser only to be refused by name ("GAME has no
--NAME"), where argparse would call them unrecognised.

A table option left out is not set (``None``): the game then takes its own default, which the
help shows. :func:`given` reads back those that were given, by :attr:`Option.name`.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.contract.options import Option
from companion.observations.argtypes import int_range

__all__ = ["REFUSED", "add_options", "given", "refuse_options", "spelling"]

REFUSED = "refused_option"
"""Where the parser leaves the words refusing an option of another game, for ``rop`` to say
(``args.refused_option``)."""

_Group = argparse.ArgumentParser | argparse._ArgumentGroup


def spelling(option: Option) -> str:
    """How the command line spells ``option``: ``--first-word`` for ``first_word``, or
    ``--no-first-word`` for a flag that is on unless turned off."""
    if option.kind == "flag" and option.default:
        return "--no-" + option.name.replace("_", "-")
    return option.flag


def _help(option: Option, *, default: Any) -> str:
    """The option's words, with its range and its default."""
    notes = []
    if option.kind == "int" and option.low is not None and option.high is not None:
        notes.append(f"{option.low} to {option.high}")
    if option.kind in ("int", "choice") and default is not None:
        notes.append(f"default {default}")
    if option.kind == "flag" and option.default:
        notes.append(f"on unless {spelling(option)}")
    if not notes:
        return option.help
    if option.help.endswith(")"):
        return f"{option.help}; {', '.join(notes)}"
    return f"{option.help} ({', '.join(notes)})"


def _reader(option: Option) -> Any:
    """``type=`` for argparse: the option's own reading, its message without the flag (argparse
    names the argument itself)."""
    if option.kind == "int" and option.low is not None:
        return int_range(option.low, option.high)

    def read(text: str) -> Any:
        try:
            return option.read(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{option.flag}: ")) from None

    read.__name__ = option.kind
    return read


def add_options(group: _Group, options: Iterable[Option], *, defaults: bool = False) -> None:
    """An argument for each of ``options``; left out, it is ``None`` (the game's default
    applies), or with ``defaults`` the option's own default."""
    for option in options:
        default = option.default if defaults else None
        shown = option.default
        if option.kind == "flag":
            action = "store_false" if option.default else "store_true"
            group.add_argument(spelling(option), dest=option.name, action=action, default=default, help=_help(option, default=shown))
            continue
        kwargs: dict[str, Any] = {"dest": option.name, "default": default, "type": _reader(option)}
        if option.kind == "choice":
            kwargs["choices"] = tuple(option.choices)
        elif option.kind == "int":
            kwargs["metavar"] = "N"
        else:
            kwargs["metavar"] = option.name.split("_")[-1].upper()
            shown = None
        group.add_argument(option.flag, help=_help(option, default=shown), **kwargs)


class _Refuse(argparse.Action):
    """An option of another game: noted, for ``rop`` to refuse by name."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, refusal: str, **kwargs: Any) -> None:
        self.refusal = refusal
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        if getattr(namespace, REFUSED, None) is None:
            setattr(namespace, REFUSED, self.refusal)


def refuse_options(parser: argparse.ArgumentParser, title: str, others: Mapping[str, Sequence[Option]]) -> None:
    """Accept, to refuse them by name, the options of other games (``others``: by game title)
    that the parser does not take: "GAME has no --NAME (an option of OTHER)"."""
    taken = set(parser._option_string_actions)
    owners: dict[str, list[str]] = {}
    kinds: dict[str, Option] = {}
    for other, options in others.items():
        for option in options:
            flag = spelling(option)
            if flag not in taken and other not in owners.setdefault(flag, []):
                owners[flag].append(other)
                kinds.setdefault(flag, option)
    for flag, games in owners.items():
        refusal = f"{title} has no {flag} (an option of {' and '.join(games)})"
        nargs = 0 if kinds[flag].kind == "flag" else None
        parser.add_argument(flag, dest=argparse.SUPPRESS, nargs=nargs, action=_Refuse, refusal=refusal, default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def given(args: argparse.Namespace, options: Iterable[Option]) -> dict[str, Any]:
    """The options among ``options`` the command line gave, by name."""
    found = {}
    for option in options:
        value = getattr(args, option.name, None)
        if value is not None:
            found[option.name] = value
    return found
