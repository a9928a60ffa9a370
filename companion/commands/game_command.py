"""A command a game brings to ``rop`` (``rop legal``, ``rop score``, ``rop simulate``): the
same command name for every game, its arguments and its work the game's own. ``rop NAME
--game GAME ...`` runs GAME's (the default game's without ``--game``)."""

from __future__ import annotations

import argparse
from typing import Protocol

__all__ = ["GameCommand"]


class GameCommand(Protocol):
    """One command of a game: ``name`` as typed after ``rop``, a one-line ``help``, a
    ``description`` for ``--help``, its arguments and what it does."""

    @property
    def name(self) -> str: ...

    @property
    def help(self) -> str: ...

    @property
    def description(self) -> str: ...

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the command's own arguments (``--game`` is added by ``rop`` itself)."""

    def run(self, args: argparse.Namespace) -> int:
        """Do the work; the exit status (0 success, 2 for input the command refuses)."""
