"""The table screen: everything a table looks at all game long."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Footer, Input

from companion.dashboard.entry import card_candidates
from companion.dashboard.widgets.base import GamePanel
from companion.dashboard.widgets.centre import CentreCards
from companion.dashboard.widgets.event_log import EventLog
from companion.dashboard.widgets.fate import FatePanel
from companion.dashboard.widgets.hand import PlayersPanel
from companion.dashboard.widgets.moves import Flag, LastPlay, PlayPanel
from companion.dashboard.widgets.power_ring import PowerRingPanel
from companion.dashboard.widgets.pride import PridePanel
from companion.dashboard.widgets.scores import ScoresPanel
from companion.dashboard.widgets.status import TableStatus
from companion.dashboard.widgets.unseen import UnseenPanel
from companion.engine.game import GameState

__all__ = ["CardSuggester", "TableScreen"]

_WORDS = ("fate", "pass", "undo", "redo", "deal", "help", "thief", "swap", "decay", "renewal", "crystal", "exorcist", "warlock", "vampire")


class CardSuggester(Suggester):
    """Type-ahead for the entry bar: card ids of the player to move first, then words."""

    def __init__(self, game_of: Callable[[], GameState | None]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.game_of = game_of

    async def get_suggestion(self, value: str) -> str | None:
        if not value or " " in value:
            return None
        game: GameState | None = self.game_of()
        if game is None:
            return None
        low = value.lower()
        for card in card_candidates(game):
            if card.id.lower().startswith(low) and card.id.lower() != low:
                return card.id
        for word in _WORDS:
            if word.startswith(low) and word != low:
                return word
        return None


class TableScreen(Screen[None]):
    """The panels, the event log and, in manual play, the entry bar."""

    def __init__(self, *, editable: bool) -> None:
        super().__init__()
        self.editable = editable

    def compose(self) -> ComposeResult:
        yield TableStatus(id="status")
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield CentreCards(id="centre")
                yield PlayPanel(id="play")
                yield EventLog(editable=self.editable, id="log")
            with VerticalScroll(id="side"):
                with Vertical(id="col-scores", classes="column"):
                    yield ScoresPanel(id="scores")
                    yield PowerRingPanel(id="ring")
                    yield PridePanel(id="pride")
                with Vertical(id="col-table", classes="column"):
                    yield PlayersPanel(id="players")
                    yield FatePanel(id="fate")
                    yield UnseenPanel(id="unseen")
        if self.editable:
            yield Input(
                placeholder="card (W016, 6M), fate, pass, undo ... F1 help",
                id="entry",
                suggester=CardSuggester(lambda: getattr(self.app, "game", None)),
            )
        yield Footer()

    def on_mount(self) -> None:
        if self.editable:
            self.query_one("#entry", Input).focus()

    def on_resize(self) -> None:
        self.query_one(CentreCards).set_class(self.size.height < 40 or self.size.width < 120, "-compact")

    def show(self, game: GameState | None, *, teaching: bool, last_play: LastPlay | None, flag: Flag | None, status: str) -> None:
        """Hand the game state down to every panel."""
        play = self.query_one(PlayPanel)
        play.last_play = last_play
        play.flag = flag
        play.manual = self.editable
        self.query_one(TableStatus).source_status = status
        for panel in self.query(GamePanel):
            panel.teaching = teaching
            panel.game = game

    @property
    def log_widget(self) -> EventLog:
        return self.query_one(EventLog)
