"""A game's own facts about how a table is set up, beside the seats and the sensors: what a
table configuration and an observation log write down for the tracker (Rule of Power: each
player's seven Fate cards; whether Fate draws are tapped on readers or announced)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

__all__ = ["TableFacts", "facts_of"]


class TableFacts(Protocol):
    """How a game reads and writes its table facts (``game.tracking()`` provides it)."""

    @property
    def facts(self) -> tuple[str, ...]:
        """The facts' names, as keys of a configuration or a log's header."""

    def read_facts(self, data: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """The facts found in ``data`` (absent ones at their defaults), each checked;
        :class:`ValueError` naming the key for a bad one."""

    def facts_json(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The facts as JSON values, under their names."""

    def equip(self, facts: Mapping[str, Any], *, nfc: bool) -> dict[str, Any]:
        """The facts as a table with these sensors has them (``nfc``: the table has NFC readers;
        Rule of Power: Fate draws are then tapped on the players' Fate readers)."""

    def reader_problem(self, zone: str, players: Sequence[str]) -> str | None:
        """Why an NFC reader cannot serve ``zone`` at a table of ``players`` (the zones of a
        configuration's ``readers``), ``None`` when it can."""


def facts_of(game: Any) -> TableFacts:
    """The table facts of ``game``; :class:`ValueError` when the companion cannot follow that
    game's table yet."""
    found: TableFacts | None = game.tracking()
    if found is None:
        raise ValueError(f"the companion cannot follow a {game.title} table yet")
    return found

