"""The basic kit (:class:`BasicKit`): a whole dashboard kit from the contract, for a game to
start from and replace part by part."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.contract import Game, Move, Option
from companion.dashboard.basic.demo import BasicDemo
from companion.dashboard.basic.hooks import BasicTableChoice
from companion.dashboard.basic.manual import BasicManual
from companion.dashboard.basic.words import waiting_words
from companion.dashboard.kit import DemoKit, Flag, ManualTable, SetupError

if TYPE_CHECKING:
    from textual.binding import BindingType

    from companion.dashboard.basic.screens import BasicSetup
    from companion.dashboard.screens.settlement import Settlement
    from companion.dashboard.screens.table import TableScreen
    from companion.dashboard.kit import DashboardKit
    from companion.dashboard.widgets.event_log import LogEntry
    from companion.observations import Observation
    from companion.session import Applied

__all__ = ["BasicKit", "BasicTableChoice"]


class BasicKit:
    """A dashboard kit made from ``game``'s contract alone. Override what the game says better:
    :meth:`table_lines` (the table panel), :meth:`parse_move` (a move typed in the game's own
    words), :meth:`table_move` (a move the companion makes for the table), :attr:`entry_syntax`
    and :attr:`legend` for the help screen, and any of the screens."""

    period = "round"
    table_options: Sequence[Option] = ()
    manual_options: Sequence[Option] = ()
    entry_syntax = "a move as the table panel lists it, or its number; undo, redo, next (F5), hint, help"
    legend: Sequence[tuple[str, str]] = (("1, 2, ...", "the moves of the player to move, numbered: type the number"),)

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.demo: DemoKit = BasicDemo(self)

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def key_words(self) -> Mapping[str, tuple[str, str]]:
        return {
            "settlement": ("Results", f"The settlement of the last finished {self.period}"),
            "next_step": ("Next", "The table's next move, when the companion makes it"),
        }

    # ------------------------------------------------------------------ the game's words

    def listed_moves(self, state: Any) -> list[Move]:
        """The moves the table panel numbers: those of a single player in turn. Where players
        decide at once nothing is listed: the screen is shared, and a listing would show what
        one of them holds."""
        if state.simultaneous or len(tuple(state.deciding)) != 1:
            return []
        return list(state.legal_moves)

    def table_lines(self, state: Any) -> list[str]:
        """The table panel: what the table waits for and the moves listed, numbered."""
        lines = [waiting_words(self.game, state)]
        lines += [f"{n}  {self.game.describe(m)}" for n, m in enumerate(self.listed_moves(state), 1)]
        if not state.deciding and not state.is_game_over():
            lines.append(f"Type it: {self.entry_syntax}")
        return lines

    def parse_move(self, text: str, state: Any) -> Move | None:
        """A move typed in the game's own words, ``None`` when the text is none (the basic
        manual then matches the moves' descriptions)."""
        return None

    def table_move(self, state: Any) -> Move | None:
        """The table's move that the companion makes by itself now, ``None`` when the table
        types it."""
        return None

    # ------------------------------------------------------------------ screens

    def table_screen(self, *, editable: bool) -> TableScreen:
        from companion.dashboard.basic.screens import BasicTable

        return BasicTable(editable=editable)

    def settlement_screen(self) -> Settlement:
        from companion.dashboard.basic.screens import BasicSettlement

        return BasicSettlement()

    def setup_screen(self) -> BasicSetup:
        from companion.dashboard.basic.screens import BasicSetup

        return BasicSetup(self)

    # ------------------------------------------------------------------ words

    def log_lines(self, state: Any, applied: Applied) -> list[LogEntry]:
        from companion.dashboard.widgets.event_log import LogEntry  # the widgets import Textual: not for the command line

        lines = [LogEntry(self.game.narrate(state, applied.move, applied.effects), applied.index)]
        if applied.effects.result is not None:
            lines += [LogEntry(line, applied.index, "result") for line in self.game.score_lines(state)[-2:]]
        return lines

    def played(self, state: Any, applied: Applied) -> None:
        return None

    def refusal(self, move: Move, error: ValueError) -> Flag:
        rule = getattr(error, "rule", None)
        return Flag(self._player(move), str(error), rule)

    @staticmethod
    def _player(move: Move) -> str | None:
        player = getattr(move, "player", None)
        return player if isinstance(player, str) else None

    def dialog_keys(self, *, editable: bool) -> list[tuple[str, list[BindingType]]]:
        from companion.dashboard.basic.screens import BasicSettlement

        return [("Settlement screen", BasicSettlement.BINDINGS)]

    # ------------------------------------------------------------------ manual play

    def manual(self, *, seed: int | None = None, **options: Any) -> ManualTable:
        return BasicManual(self, seed=seed, **options)

    def table_choice(self, players: str, **options: Any) -> BasicTableChoice:
        """The players (separated by commas or blanks) and the game's options; an option the
        game does not have is refused by name."""
        options.pop("seed", None)
        names = [p for p in re.split(r"[\s,]+", players.strip()) if p]
        declared = {o.name for o in self.game.options}
        for name in options:
            if name not in declared:
                raise SetupError(f"{self.game.title} has no --{name.replace('_', '-')}")
        try:
            setup = self.game.make_setup(names, **options)
        except ValueError as exc:
            raise SetupError(str(exc)) from None
        return BasicTableChoice(setup)

    def resume_options(self, state: Any) -> dict[str, Any]:
        return {}

    def announcement(self, move: Move, *, source: str, at: float) -> Observation | None:
        return None


if TYPE_CHECKING:

    def _is_a_kit(kit: BasicKit) -> DashboardKit:
        """mypy holds the basic kit to the whole protocol."""
        return kit
