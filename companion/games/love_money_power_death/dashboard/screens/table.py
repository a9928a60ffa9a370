"""Love, Money, Power, Death's table screen: its panels in the dashboard's frame.

The main column holds the round under way (the noble, who has committed, the cards once
revealed, who won and why) above the event log; the side column the players (piles, hands,
courts, crowns), the rounds decided and the nobles. On a small terminal (a laptop's 80x24) the
side column shows one of them at a time, the players first; F4 turns to the next
(:data:`SIDE_PANELS`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.suggester import Suggester

from companion.dashboard.flag import Flag
from companion.dashboard.screens.table import TableScreen
from companion.dashboard.widgets.status_line import StatusLine
from companion.games.love_money_power_death.dashboard.screens import TCSS
from companion.games.love_money_power_death.dashboard.widgets.nobles import NoblesPanel
from companion.games.love_money_power_death.dashboard.widgets.players import PlayersPanel
from companion.games.love_money_power_death.dashboard.widgets.round import RoundPanel
from companion.games.love_money_power_death.dashboard.widgets.rounds import RoundsPanel
from companion.games.love_money_power_death.dashboard.widgets.status import LmpdStatus
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["LmpdTable", "EntrySuggester", "SIDE_PANELS"]

#: The side panels in the order F4 turns through them on a small terminal: id and title.
SIDE_PANELS: tuple[tuple[str, str], ...] = (
    ("players", "Players"),
    ("rounds", "Rounds"),
    ("nobles", "Nobles"),
)

NARROW_SIDE = 38
"""The side column's width on a small terminal (the frame's is 44): more room for the round."""


class EntrySuggester(Suggester):
    """Type-ahead for the entry bar: the players still to commit (``ann commits``), the nobles
    still face down once everyone has committed, ``reveal`` and the table's words."""

    WORDS = ("reveal", "undo", "redo", "next", "help", "hint", "quit")

    def __init__(self, game_of: Callable[[], LmpdState | None]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.game_of = game_of

    async def get_suggestion(self, value: str) -> str | None:
        game = self.game_of()
        if not value or game is None:
            return None
        low = value.lower()
        if game.phase is Phase.COMMIT:
            for name in game.deciding:
                full = f"{name} commits"
                if full.lower().startswith(low) and full.lower() != low:
                    return value + full[len(value) :]
        if game.phase is Phase.NOBLE:
            for card in game.nobles_left:
                if card.id.lower().startswith(low) and card.id.lower() != low:
                    return value + card.id[len(value) :]
        for word in self.WORDS:
            if word.startswith(low) and word != low:
                return value + word[len(value) :]
        return None


class LmpdTable(TableScreen):
    """The status line, the round and the event log, and the table's panels."""

    CSS_PATH = TCSS

    BINDINGS = [
        Binding("f4", "next_panel", "Panels", tooltip="Small terminal: show the next side panel (Players, Rounds, Nobles)"),
    ]

    SIDE_PANELS = SIDE_PANELS
    ENTRY_PLACEHOLDER = "ann commits, N3P, reveal 4Mb A2 2Pa, undo ... F1 help"

    def status_line(self) -> StatusLine:
        return LmpdStatus(id="status")

    def compose_main(self) -> ComposeResult:
        yield RoundPanel(id="round")

    def compose_side(self) -> ComposeResult:
        with Vertical(id="col-players", classes="column"):
            yield PlayersPanel(id="players")
            yield RoundsPanel(id="rounds")
        with Vertical(id="col-nobles", classes="column"):
            yield NoblesPanel(id="nobles")

    def suggester(self) -> Suggester:
        return EntrySuggester(lambda: self.game)

    def arrange_panels(self, roomy: bool) -> None:
        self.query_one("#side").styles.width = None if roomy else NARROW_SIDE

    def show_play(self, played: Any, flag: Flag | None) -> None:
        panel = self.query_one(RoundPanel)
        panel.flag = flag
        panel.manual = self.editable
