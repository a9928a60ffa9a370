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
from companion.games.circle_of_power.dashboard.prompts import table_kind
from companion.games.circle_of_power.dashboard.screens.hand import HandScreen
from companion.games.circle_of_power.dashboard.told import ToldHands
from companion.games.circle_of_power.setup import is_dummy

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
        # Off the footer (a laptop's 80 columns are full): F1, the hint (F7) and the season dialog name it.
        Binding("f8", "tell_hand", "My hand", show=False, tooltip="Tell the companion your own hand, privately (never shown), for the coach's hint (F7)"),
    ]

    SIDE_PANELS = SIDE_PANELS
    ENTRY_PLACEHOLDER = "card (7h, 10♥), 1-9 or conquer bob, undo ... F1 help"

    def __init__(self, *, editable: bool) -> None:
        super().__init__(editable=editable)
        self.told = ToldHands()
        """The hands the players told the companion privately (F8), for the hint alone."""

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

    # ------------------------------------------------------------------ hands told privately

    def _unseen_players(self, game: CircleState | None) -> list[str]:
        """The players whose hand the companion has not wholly seen, this season."""
        if game is None or game.phase in (Phase.SEASON, Phase.OVER):
            return []
        return [p for p in game.seats if not is_dummy(p) and game.unseen_in_hand(p)]

    def offers(self, action: str) -> bool:
        if action == "tell_hand":
            return self.editable and bool(self._unseen_players(self.game))
        return super().offers(action)

    def action_tell_hand(self) -> None:
        """A player tells the companion their own hand (:mod:`..told`): the player to move by
        default, else the first whose hand is unseen."""
        game = self.game
        unseen = self._unseen_players(game)
        if game is None or not unseen:
            self.notify("No hand to tell: the companion sees every hand dealt now, or none is dealt", timeout=3)
            return
        who = game.to_move if game.to_move in unseen else unseen[0]

        def told(player: str | None) -> None:
            if player is not None:
                n = self.told.given(game).get(player, 0)
                self.notify(f"{player}'s hand: given ({n} card{'s' if n != 1 else ''}); F7 gives {player} the coach's hint", timeout=4)
                self.refresh_view()

        self.app.push_screen(HandScreen(game, who, lambda player, cards: self.told.tell(game, player, cards)), told)

    def hint_game(self, game: CircleState, player: str) -> tuple[CircleState, str | None]:
        """The game with the hand ``player`` told (:meth:`ToldHands.judged`); when the companion
        still lacks cards of it for a card's hint, how to give them."""
        judged = self.told.judged(game, player)
        remedy = None
        if game.phase is Phase.PLAY and judged.unseen_in_hand(player) and self.editable:
            remedy = f"{player} may tell the companion their hand, privately: F8 (it is never shown). An act gets a hint without it."
        return judged, remedy

    def show(self, state: Any, *, teaching: bool, played: Any, flag: Flag | None, status: str) -> None:
        if isinstance(state, CircleState):
            self.query_one(EmperorsPanel).given = self.told.given(state)
        super().show(state, teaching=teaching, played=played, flag=flag, status=status)

    def show_play(self, played: Any, flag: Flag | None) -> None:
        action = self.query_one(ActionPanel)
        action.flag = flag
        action.table = table_kind(getattr(self.app, "source", None), editable=self.editable)
