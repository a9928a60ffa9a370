"""Circle of Power's table screen: its panels in the dashboard's frame.

The main column holds the action under way (its cards, the initiative, the winner's choices)
above the event log; the side column the circle with the four cities on it, the emperors with
their cities, trump suits and lines, the seasons' points and the two decks. On a small
terminal (a laptop's 80x24) the side column shows one of them at a time, the circle first; F4
turns to the next (:data:`SIDE_PANELS`)."""

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
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.dashboard.widgets.action import ActionPanel
from companion.games.circle_of_power.dashboard.widgets.circle import CirclePanel
from companion.games.circle_of_power.dashboard.widgets.decks import DecksPanel
from companion.games.circle_of_power.dashboard.widgets.emperors import EmperorsPanel
from companion.games.circle_of_power.dashboard.widgets.seasons import SeasonsPanel
from companion.games.circle_of_power.dashboard.widgets.status import CircleStatus
from companion.games.circle_of_power.dashboard.screens import TCSS

__all__ = ["CircleTable", "EntrySuggester", "SIDE_PANELS"]

#: The side panels in the order F4 turns through them on a small terminal: id and title.
SIDE_PANELS: tuple[tuple[str, str], ...] = (
    ("circle", "Circle"),
    ("emperors", "Emperors"),
    ("seasons", "Seasons"),
    ("decks", "Decks"),
)

NARROW_SIDE = 40
"""The side column's width on a small terminal (the frame's is 44)."""

_WORDS = ("conquer", "retake", "regroup", "season", "undo", "redo", "help", "hint")


class EntrySuggester(Suggester):
    """Type-ahead for the entry bar: the acts and the names of the emperors the winner may
    take, the cards of the hand of the player to play when the companion has seen it, and the
    table's words."""

    def __init__(self, game_of: Callable[[], CircleState | None]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.game_of = game_of

    async def get_suggestion(self, value: str) -> str | None:
        game = self.game_of()
        if not value or game is None:
            return None
        low = value.lower()
        head, _, rest = low.partition(" ")
        if rest == "" and not value.endswith(" "):
            if game.phase is Phase.PLAY and game.to_move is not None:
                for card in sorted(game.hand(game.to_move)):
                    if card.id.lower().startswith(low) and card.id.lower() != low:
                        return card.id
            for word in _WORDS:
                if word.startswith(low) and word != low:
                    return word
            return None
        if head in ("conquer", "retake") and game.phase is Phase.ACT:
            victims = [game.seats[c.victim] for c in game.choices() if c.victim is not None]
            for name in dict.fromkeys(victims):
                if name.lower().startswith(rest) and name.lower() != rest:
                    return f"{value[: len(head) + 1]}{name}"
        return None


class CircleTable(TableScreen):
    """The status line, the action and the event log, the circle and the table's panels."""

    CSS_PATH = TCSS

    BINDINGS = [
        Binding("f4", "next_panel", "Panels", tooltip="Small terminal: show the next side panel (Circle, Emperors, Seasons, Decks)"),
    ]

    SIDE_PANELS = SIDE_PANELS
    ENTRY_PLACEHOLDER = "card (7h, 10♥), 1-9 or conquer bob, undo ... F1 help"

    def status_line(self) -> StatusLine:
        return CircleStatus(id="status")

    def compose_main(self) -> ComposeResult:
        yield ActionPanel(id="action")

    def compose_side(self) -> ComposeResult:
        with Vertical(id="col-circle", classes="column"):
            yield CirclePanel(id="circle")
            yield DecksPanel(id="decks")
        with Vertical(id="col-table", classes="column"):
            yield EmperorsPanel(id="emperors")
            yield SeasonsPanel(id="seasons")

    def suggester(self) -> Suggester:
        return EntrySuggester(lambda: self.game)

    def arrange_panels(self, roomy: bool) -> None:
        # A laptop's 80x24: a little more room for the action, the side column still holding
        # the circle's picture and its attacks in full.
        self.query_one("#side").styles.width = None if roomy else NARROW_SIDE

    def show_play(self, played: Any, flag: Flag | None) -> None:
        action = self.query_one(ActionPanel)
        action.flag = flag
        action.manual = self.editable
