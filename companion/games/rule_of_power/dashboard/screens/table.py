"""Rule of Power's table screen: its panels in the dashboard's frame.

The main column holds the centre and the play panel (the card just played, a refused move,
teaching mode's legal moves); the side column the scores, the Power Ring, the Pride of
Dragons, the players, the Fate cards and the unseen cards. On a small terminal (a laptop's
80x24) the side column shows one of them at a time, the scores first; F4 turns to the next
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
from companion.games.rule_of_power.dashboard.entry import card_candidates
from companion.games.rule_of_power.dashboard.widgets.centre import CentreCards
from companion.games.rule_of_power.dashboard.widgets.fate import FatePanel
from companion.games.rule_of_power.dashboard.widgets.hand import PlayersPanel
from companion.games.rule_of_power.dashboard.widgets.moves import PlayPanel
from companion.games.rule_of_power.dashboard.widgets.power_ring import PowerRingPanel
from companion.games.rule_of_power.dashboard.widgets.pride import PridePanel
from companion.games.rule_of_power.dashboard.widgets.scores import ScoresPanel
from companion.games.rule_of_power.dashboard.widgets.status import TableStatus
from companion.games.rule_of_power.dashboard.widgets.unseen import UnseenPanel
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["CardSuggester", "RuleOfPowerTable", "SIDE_PANELS"]

#: The side panels in the order F4 turns through them on a small terminal: id and title.
SIDE_PANELS: tuple[tuple[str, str], ...] = (
    ("scores", "Scores"),
    ("ring", "Power Ring"),
    ("pride", "Pride of Dragons"),
    ("players", "Players"),
    ("fate", "Fate"),
    ("unseen", "Unseen cards"),
)

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


class RuleOfPowerTable(TableScreen):
    """The status line, the centre and the play panel, the scores and the table's panels."""

    DEFAULT_CSS = """
    RuleOfPowerTable #main #centre {
        height: auto;
    }
    """

    BINDINGS = [
        Binding("f4", "next_panel", "Panels", tooltip="Small terminal: show the next side panel (Scores, Power Ring, Pride, Players, Fate, Unseen)"),
    ]

    SIDE_PANELS = SIDE_PANELS
    ENTRY_PLACEHOLDER = "card (W016, 6M), fate, pass, undo ... F1 help"

    def status_line(self) -> StatusLine:
        return TableStatus(id="status")

    def compose_main(self) -> ComposeResult:
        yield CentreCards(id="centre")
        yield PlayPanel(id="play")

    def compose_side(self) -> ComposeResult:
        with Vertical(id="col-scores", classes="column"):
            yield ScoresPanel(id="scores")
            yield PowerRingPanel(id="ring")
            yield PridePanel(id="pride")
        with Vertical(id="col-table", classes="column"):
            yield PlayersPanel(id="players")
            yield FatePanel(id="fate")
            yield UnseenPanel(id="unseen")

    def suggester(self) -> Suggester:
        return CardSuggester(lambda: self.game)

    def arrange_panels(self, roomy: bool) -> None:
        centre = self.query_one(CentreCards)
        if centre.has_class("-compact") == roomy:
            # Drawn again in its new form (chips or big cards), and laid out at its new height.
            centre.set_class(not roomy, "-compact")
            centre.refresh_panel()

    def show_play(self, played: Any, flag: Flag | None) -> None:
        play = self.query_one(PlayPanel)
        play.hint = self.hint
        play.last_play = played
        play.flag = flag
        play.manual = self.editable
