"""What the basic parts ask of the kit they belong to (:class:`KitHooks`), so that each part
knows the kit only by these, and the table a set-up makes (:class:`BasicTableChoice`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.contract import Game, Move

__all__ = ["BasicTableChoice", "KitHooks"]


@dataclass(frozen=True)
class BasicTableChoice:
    """A table as the set-up dialog or the command line chose it."""

    setup: Any
    first_dealer: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)


class KitHooks(Protocol):
    """The basic kit's members its screens, manual play and demo read: its game, its words,
    and what a game overrides (:class:`~companion.dashboard.basic.kit.BasicKit`)."""

    game: Game[Any, Any]
    period: str
    entry_syntax: str

    def listed_moves(self, state: Any) -> list[Move]: ...

    def table_lines(self, state: Any) -> list[str]: ...

    def parse_move(self, text: str, state: Any) -> Move | None: ...

    def table_move(self, state: Any) -> Move | None: ...

    def table_choice(self, players: str, **options: Any) -> BasicTableChoice: ...
