"""A table's options (teams, target, variant, ...): declared by each game, offered by every
command that sets up a table (``--target 16``, ``--variant lonely-tyrant``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Option", "with_defaults"]


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game's set-up.

    ``kind`` is ``"int"`` (a number from ``low`` to ``high``), ``"flag"`` (on or off),
    ``"choice"`` (one of ``choices``) or ``"text"`` (words the game reads itself: a player's
    name, a list of cards). ``name`` is the keyword of :meth:`Game.make_setup
    <companion.contract.Game.make_setup>` and, with ``-`` for ``_``, the command line's
    ``--name``."""

    name: str
    help: str
    kind: str
    default: Any
    choices: Sequence[str] = ()
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("int", "flag", "choice", "text"):
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")
        if self.kind == "choice" and self.default not in self.choices:
            raise ValueError(f"option {self.name}: default {self.default!r} is not one of the choices")

    @property
    def flag(self) -> str:
        """The command line's spelling: ``--target``, ``--variant``."""
        return "--" + self.name.replace("_", "-")

    def read(self, text: str) -> Any:
        """The option's value from text a person typed; :class:`ValueError` saying what is
        allowed."""
        if self.kind == "flag":
            lowered = text.strip().lower()
            if lowered in ("1", "yes", "true", "on"):
                return True
            if lowered in ("0", "no", "false", "off"):
                return False
            raise ValueError(f"{self.flag}: write yes or no, not {text!r}")
        if self.kind == "choice":
            value = text.strip().lower()
            if value not in self.choices:
                raise ValueError(f"{self.flag}: one of {', '.join(self.choices)}, not {text!r}")
            return value
        if self.kind == "text":
            return text.strip()
        try:
            number = int(text)
        except ValueError:
            raise ValueError(f"{self.flag}: a whole number, not {text!r}") from None
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise ValueError(f"{self.flag}: from {self.low} to {self.high}, not {number}")
        return number


def with_defaults(declared: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option's value: the one given, or its default. An option the game does
    not have is a :class:`ValueError` naming those it has."""
    names = {o.name for o in declared}
    unknown = [k for k in given if k not in names]
    if unknown:
        have = ", ".join(o.name for o in declared) or "none"
        raise ValueError(f"unknown option {unknown[0]!r}: this game's options are {have}")
    return {o.name: given.get(o.name, o.default) for o in declared}
