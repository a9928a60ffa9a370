"""Which games the companion plays: found by name (``--game circle-of-power``) and by the
``format`` a record opens with (``cop-record/1``).

The games shipped with the companion are listed by their own package, ``companion.games``
(its ``SHIPPED``, read here by name); a game packaged apart registers itself under the
entry-point group ``companion.games`` (its ``pyproject.toml``:
``[project.entry-points."companion.games"] my-game = "my_package:GAME"``). Either way a game is
imported only when it is first asked for, so that the hosts and the contract never import one
(the import contracts in ``pyproject.toml``).

>>> game("rule-of-power").title
'Rule of Power'
>>> game_for_format("cop-record/1").name
'circle-of-power'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from functools import cache
from typing import Any

from companion.contract.game import Game, Sample

__all__ = ["DEFAULT", "ENTRY_POINTS", "UnknownGameError", "forget", "game", "game_for_format", "games", "names", "samples_of"]

SHIPPED_PACKAGE = "companion.games"
"""The package of the games shipped with the companion: its ``SHIPPED`` names each game's
plug-in object and record format, its ``DEFAULT`` the game every command plays when none is
named. The contract reads it by name, so that it imports no game."""

ENTRY_POINTS = "companion.games"
"""The entry-point group of games packaged apart."""

_shipped = importlib.import_module(SHIPPED_PACKAGE)
_BUILT_IN: dict[str, str] = {name: target for name, (target, _fmt) in _shipped.SHIPPED.items()}
_BUILT_IN_FORMATS: dict[str, str] = {fmt: name for name, (_target, fmt) in _shipped.SHIPPED.items()}
"""The shipped games' record formats, so that reading a record imports its game alone."""

DEFAULT: str = _shipped.DEFAULT
"""The game every command plays when none is named."""


class UnknownGameError(ValueError):
    """A name or record format that no registered game has."""


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


@cache
def _targets() -> dict[str, str]:
    # Imported here: reading the installed packages' metadata costs a command's start-up more
    # than the rules of a game do, and a shipped game never needs it.
    from importlib import metadata

    found = dict(_BUILT_IN)
    for entry in metadata.entry_points(group=ENTRY_POINTS):
        found.setdefault(entry.name, entry.value)
    return found


def forget() -> None:
    """Forget the games found so far, so that the next look-up reads the installed packages
    again (a game installed while the program runs)."""
    from companion.contract.allocation import installed

    _targets.cache_clear()
    game.cache_clear()
    installed.cache_clear()


def names() -> list[str]:
    """The registered games' names, the default first."""
    return sorted(_targets(), key=lambda n: (n != DEFAULT, n))


@cache
def game(name: str = DEFAULT) -> Game:
    """The game called ``name``; :class:`UnknownGameError` listing the games otherwise."""
    key = name.strip().lower()
    target = _BUILT_IN.get(key) or _targets().get(key)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}: the games are {', '.join(names())}")
    found: Game = _load(target)
    if found.name != key:
        raise UnknownGameError(f"{target} registered as {name!r} calls itself {found.name!r}")
    return found


def games() -> Iterator[Game]:
    """Every registered game, the default first."""
    for name in names():
        yield game(name)


def game_for_format(fmt: Any) -> Game:
    """The game whose records open with ``"format": fmt``; :class:`UnknownGameError`
    naming the formats known otherwise."""
    if isinstance(fmt, str) and fmt in _BUILT_IN_FORMATS:
        return game(_BUILT_IN_FORMATS[fmt])
    for g in games():
        if g.codec.format == fmt:
            return g
    known = ", ".join(repr(g.codec.format) for g in games())
    raise UnknownGameError(f"unknown record format {fmt!r}: this reader knows {known}")


def samples_of(g: Game) -> tuple[Sample, ...]:
    """The sample records ``g`` ships (none for a game that ships none)."""
    return tuple(g.samples())
