"""The table screen: everything a table looks at all game long.

On a small terminal (a laptop's 80x24) the side column shows one panel at a time, the scores
first; F4 turns to the next (Power Ring, Pride of Dragons, Players, Fate, Unseen cards), so
that the centre, the player to move, the move or hint and the running scores are always in
sight and everything else is one key away. On a large terminal every panel is shown."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Footer, Input

from companion.games.rule_of_power.dashboard.entry import card_candidates
from companion.dashboard.widgets.base import GamePanel
from companion.games.rule_of_power.dashboard.widgets.centre import CentreCards
from companion.dashboard.widgets.event_log import EventLog
from companion.games.rule_of_power.dashboard.widgets.fate import FatePanel
from companion.games.rule_of_power.dashboard.widgets.hand import PlayersPanel
from companion.games.rule_of_power.dashboard.widgets.moves import Flag, LastPlay, PlayPanel
from companion.games.rule_of_power.dashboard.widgets.power_ring import PowerRingPanel
from companion.games.rule_of_power.dashboard.widgets.pride import PridePanel
from companion.games.rule_of_power.dashboard.widgets.scores import ScoresPanel
from companion.games.rule_of_power.dashboard.widgets.status import TableStatus
from companion.games.rule_of_power.dashboard.widgets.unseen import UnseenPanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["CardSuggester", "SIDE_PANELS", "TableScreen"]

#: The side panels in the order F4 turns through them on a small terminal: id and title.
SIDE_PANELS: tuple[tuple[str, str], ...] = (
    ("scores", "Scores"),
    ("ring", "Power Ring"),
    ("pride", "Pride of Dragons"),
    ("players", "Players"),
    ("fate", "Fate"),
    ("unseen", "Unseen cards"),
)

#: Below this size the side column shows one panel at a time.
ROOMY_WIDTH = 120
ROOMY_HEIGHT = 40

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
        candidates = card_candidates(game)
        if low[0].isdigit():
            # The short form (6M) as the player says it; the same cards, the same notation.
            for card in candidates:
                short = card.short.lower()
                if card.is_world and short.startswith(low) and short != low:
                    return card.short
        for card in candidates:
            if card.id.lower().startswith(low) and card.id.lower() != low:
                return card.id
        for word in _WORDS:
            if word.startswith(low) and word != low:
                return word
        return None


class TableScreen(Screen[None]):
    """The panels, the event log and, in manual play, the entry bar."""

    BINDINGS = [
        Binding("f4", "next_panel", "Panels", tooltip="Small terminal: show the next side panel (Scores, Power Ring, Pride, Players, Fate, Unseen)"),
        Binding("b,left", "step_back", "Back", key_display="b", tooltip="Replay: one move back (pauses the clock)", priority=True),
    ]

    def __init__(self, *, editable: bool) -> None:
        super().__init__()
        self.editable = editable
        self.panel_index = 0
        """The side panel shown on a small terminal (an index into :data:`SIDE_PANELS`)."""

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
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self.editable:
            self.query_one("#entry", Input).focus()
        self._arrange()

    def on_resize(self) -> None:
        self._arrange()

    @property
    def roomy(self) -> bool:
        """Room for every panel at once."""
        return self.size.width >= ROOMY_WIDTH and self.size.height >= ROOMY_HEIGHT

    def _arrange(self) -> None:
        roomy = self.roomy
        self.query_one(CentreCards).set_class(not roomy, "-compact")
        self.set_class(not roomy, "-paged")
        shown = SIDE_PANELS[self.panel_index][0]
        for k, (panel_id, _title) in enumerate(SIDE_PANELS):
            widget = self.query_one(f"#{panel_id}")
            widget.display = roomy or panel_id == shown
            # The panel's title says which page it is and that F4 turns to the next one.
            nxt = SIDE_PANELS[(k + 1) % len(SIDE_PANELS)][1]
            widget.border_subtitle = None if roomy else f"F4: {nxt}"
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_panel":
            return not self.roomy
        if action == "step_back":
            from companion.dashboard.sources import ReplaySource

            return isinstance(getattr(self.app, "source", None), ReplaySource) and len(self.app.screen_stack) == 1
        return True

    def action_next_panel(self) -> None:
        """Turn the side column to its next panel (small terminals)."""
        self.panel_index = (self.panel_index + 1) % len(SIDE_PANELS)
        self._arrange()

    def action_step_back(self) -> None:
        """Replay: take the last move back; the clock pauses there."""
        from companion.dashboard.sources import ReplaySource

        source = getattr(self.app, "source", None)
        if isinstance(source, ReplaySource):
            if not source.back():
                self.app.notify("At the start of the record", timeout=2)

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
