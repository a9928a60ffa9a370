"""The basic screens: the table screen (the status line, the table panel, the scores panel),
the settlement of a period and the set-up dialog, each made from the game's contract and its
kit's words (:class:`~companion.dashboard.basic.kit.KitHooks`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Select

from companion.contract import Move, Option
from companion.dashboard.basic.hooks import BasicTableChoice, KitHooks
from companion.dashboard.basic.words import waiting_words
from companion.dashboard.kit import SetupError
from companion.dashboard.screens.form import SetupForm
from companion.dashboard.screens.settlement import Settlement
from companion.dashboard.screens.table import TableScreen
from companion.dashboard.widgets.base import GamePanel
from companion.dashboard.widgets.status_line import StatusLine


__all__ = ["BasicSettlement", "BasicSetup", "BasicStatus", "BasicTable", "ScoresPanel", "TablePanel"]

TCSS = Path(__file__).with_name("basic.tcss")


def _kit(state: Any) -> KitHooks:
    kit: KitHooks = state.game.dashboard()
    return kit


class BasicStatus(StatusLine):
    """The game's title, what the table waits for, and the source's status."""

    def render_game(self, game: Any) -> Text:
        text = Text(f"{game.game.title} · {waiting_words(game.game, game)}", style="bold")
        room = self.size.width - len(text.plain) - 3
        status = self.fitted_status(room) if room > 0 else ""
        if status:
            text.append(f" {status}", style="dim")
        return text


class TablePanel(GamePanel):
    """The table as the game's kit words it (:meth:`KitHooks.table_lines`)."""

    BORDER_TITLE = "Table"

    def render_game(self, game: Any) -> Text:
        return Text("\n".join(_kit(game).table_lines(game)))


class ScoresPanel(GamePanel):
    """Every finished period, the totals and the result: the game's score lines."""

    BORDER_TITLE = "Scores"

    def render_game(self, game: Any) -> Text:
        return Text("\n".join(game.game.score_lines(game)))


class BasicTable(TableScreen):
    """The status line, the table above the event log, the scores beside them."""

    CSS_PATH = TCSS
    SIDE_PANELS = (("scores", "Scores"),)
    ENTRY_PLACEHOLDER = "a move (its words or number), undo ... F1 help"

    def status_line(self) -> StatusLine:
        return BasicStatus(id="status")

    def compose_main(self) -> ComposeResult:
        yield TablePanel(id="table")

    def compose_side(self) -> ComposeResult:
        yield ScoresPanel(id="scores")


class BasicSettlement(Settlement):
    """A finished period: each of the game's score lines a point."""

    def __init__(self) -> None:
        super().__init__()
        self._title: str | None = None

    def load(self, state: Any, result: Any, moves: Sequence[Move]) -> None:
        kit = _kit(state)
        self._title = f"Settlement of {kit.period} {getattr(result, 'number', '')}".rstrip()
        self.steps = [(line.partition(":")[0], Text(line.partition(":")[2].strip() or line)) for line in state.game.score_lines(state)]
        self.begin()

    def heading(self) -> str | None:
        return self._title


def _field(option: Option) -> Widget:
    ident = f"opt-{option.name}"
    if option.kind == "flag":
        return Select([("yes", True), ("no", False)], value=bool(option.default), allow_blank=False, id=ident, compact=True)
    if option.kind == "choice":
        return Select([(c, c) for c in option.choices], value=option.default, allow_blank=False, id=ident, compact=True)
    return Input(str(option.default), id=ident, compact=True)


class BasicSetup(SetupForm[BasicTableChoice]):
    """The players in seating order and every option of the game."""

    CSS_PATH = TCSS

    def __init__(self, kit: KitHooks) -> None:
        super().__init__()
        self.kit = kit
        game = kit.game
        self.HEADING = f"[b]New game of {game.title}[/b]: players in seating order, {game.min_players} to {game.max_players}"

    def rows(self) -> Iterator[tuple[str | None, list[Widget]]]:
        yield "players", [Input(", ".join(self.kit.game.default_players(self.kit.game.min_players)), id="players", compact=True)]
        for option in self.kit.game.options:
            yield option.name, [_field(option)]

    def action_start(self) -> None:
        options: dict[str, Any] = {}
        try:
            for option in self.kit.game.options:
                widget = self.query_one(f"#opt-{option.name}")
                if isinstance(widget, Input):
                    options[option.name] = option.read(widget.value)
                elif isinstance(widget, Select):
                    options[option.name] = widget.value
            table = self.kit.table_choice(self.query_one("#players", Input).value, **options)
        except (SetupError, ValueError) as exc:
            self.refuse(str(exc))
            return
        self.dismiss(table)
