"""The table screen's frame: what the table looks at all game long, in any game.

A game's table screen subclasses :class:`TableScreen` and brings its status line and its
panels: those of the main column (above the event log) and those of the side column. The
frame keeps the rest: the event log, the entry bar in manual play, the footer, and the paging
of the side column on a small terminal (a laptop's 80x24), where it shows one panel at a time
and F4 turns to the next (:attr:`TableScreen.SIDE_PANELS`), so that the main column is always
in sight and everything else is one key away. On a large terminal every panel is shown.

How the screen follows the session's changes is its base's
(:class:`~companion.dashboard.screens.view.SessionView`). What is typed in its entry bar
(``Input.Submitted`` from ``#entry``), picked in its event log (:class:`EventLog.Picked
<companion.dashboard.widgets.event_log.EventLog.Picked>`) or asked of it with its own keys
(:class:`TableScreen.StepBack`) bubbles up as a message to the app, which hands it on to
manual play or the source; what the screen needs to know of them the app hands down
(:attr:`TableScreen.replay`, :attr:`TableScreen.hint`)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.scalar import Scalar
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Footer, Input

from companion.dashboard.flag import Flag
from companion.dashboard.screens.hint import HintScreen
from companion.dashboard.screens.view import SessionView
from companion.dashboard.widgets.base import GamePanel
from companion.dashboard.widgets.event_log import EventLog
from companion.dashboard.widgets.status_line import StatusLine

__all__ = ["ROOMY_HEIGHT", "ROOMY_WIDTH", "TableScreen"]

#: Below this size the side column shows one panel at a time.
ROOMY_WIDTH = 120
ROOMY_HEIGHT = 40


class MainColumn(Vertical):
    """The table screen's main column: the game's main panels above the event log. It tells
    the screen each new size it takes."""

    class Resized(Message):
        """The main column took a new size."""

    def on_resize(self) -> None:
        self.post_message(self.Resized())


class TableScreen(SessionView):
    """The frame of a game's table screen: its status line and panels, the event log and, in
    manual play, the entry bar."""

    BINDINGS = [
        Binding("f4", "next_panel", "Panels", tooltip="Small terminal: show the next side panel"),
        Binding("b,left", "step_back", "Back", key_display="b", tooltip="Replay: one move back (pauses the clock)", priority=True),
    ]

    SIDE_PANELS: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The side panels in the order F4 turns through them on a small terminal: id and title."""

    ENTRY_PLACEHOLDER: ClassVar[str] = "a move, undo ... F1 help"

    class StepBack(Message):
        """Replay: the table asks for the last move back (B)."""

    def __init__(self, *, editable: bool) -> None:
        super().__init__(editable=editable)
        self.panel_index = 0
        """The side panel shown on a small terminal (an index into :attr:`SIDE_PANELS`)."""
        self.replay = False
        """The source is a replay, which can step back (handed down by the app)."""
        self.hint: HintScreen.Advised | None = None
        """The coach's hint's latest figures and their position (handed down by the app):
        panels that estimate the same things (teaching mode's risks) show these for that
        position, so that one thing has one figure on the screen."""

    # ------------------------------------------------------------------ what a game brings

    def status_line(self) -> StatusLine:  # pragma: no cover - abstract
        """The game's status line, at the top."""
        raise NotImplementedError

    def compose_main(self) -> ComposeResult:  # pragma: no cover - abstract
        """The panels of the main column, above the event log."""
        raise NotImplementedError

    def compose_side(self) -> ComposeResult:  # pragma: no cover - abstract
        """The side column: the panels of :attr:`SIDE_PANELS` (in columns of class
        ``column``, side by side on a wide terminal)."""
        raise NotImplementedError

    def suggester(self) -> Suggester | None:
        """Type-ahead for the entry bar."""
        return None

    def arrange_panels(self, roomy: bool) -> None:
        """The panels' own arrangement at this size (compact cards on a small terminal...)."""

    def hint_game(self, game: Any, player: str) -> tuple[Any, str | None]:
        """What the coach's hint for ``player`` judges: ``game`` itself, or a copy that knows
        what the player told the companion privately (Circle of Power: their hand); and what
        the player can do when the hint cannot judge them (``None``: nothing to add)."""
        return game, None

    def show_play(self, played: Any, flag: Flag | None) -> None:
        """Hand down what the play panel keeps of the last move (:meth:`DashboardKit.played
        <companion.dashboard.kit.DashboardKit.played>`) and the move just refused."""

    # ------------------------------------------------------------------ the frame

    def compose(self) -> ComposeResult:
        yield self.status_line()
        with Horizontal(id="body"):
            with MainColumn(id="main"):
                yield from self.compose_main()
                yield EventLog(editable=self.editable, id="log")
            with VerticalScroll(id="side"):
                yield from self.compose_side()
        if self.editable:
            yield Input(placeholder=self.ENTRY_PLACEHOLDER, id="entry", suggester=self.suggester())
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self.editable:
            self.query_one("#entry", Input).focus()
        self._arrange()

    def on_resize(self) -> None:
        self._arrange()

    def own_keys(self) -> list[Binding]:
        """The table's own keys (F4, B), in the game's words where its screen gives them (for
        the help screen)."""
        keys: dict[str, Binding] = {}
        for cls in reversed(type(self).__mro__):
            if issubclass(cls, TableScreen):
                keys.update((b.key, b) for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding))
        return list(keys.values())

    @property
    def roomy(self) -> bool:
        """Room for every panel at once."""
        return self.size.width >= ROOMY_WIDTH and self.size.height >= ROOMY_HEIGHT

    def _arrange(self) -> None:
        roomy = self.roomy
        self.arrange_panels(roomy)
        self.call_after_refresh(self._fit_main)
        self.set_class(not roomy, "-paged")
        panels = self.SIDE_PANELS
        shown = panels[self.panel_index][0] if panels else None
        for k, (panel_id, _title) in enumerate(panels):
            widget = self.query_one(f"#{panel_id}")
            widget.display = roomy or panel_id == shown
            # The panel's title says which page it is and that F4 turns to the next one.
            nxt = panels[(k + 1) % len(panels)][1]
            widget.border_subtitle = None if roomy else f"F4: {nxt}"
        self.refresh_bindings()

    def _fit_main(self) -> None:
        """On a small terminal the main column's last panel (the play, the action under way)
        may grow until the event log keeps no more than its least height (its last lines): a
        refused move with its rule and its reminder, or the winner's choices, are read whole
        rather than cut beside the log's empty rows. On a large terminal each panel keeps the
        share its style gives it."""
        found = self.query("#main")
        if not found:  # called after a refresh that came as the screen closed (the app quitting)
            return
        main = found.first()
        log = self.log_widget
        panels = [w for w in main.children if w.display and w is not log]
        if not panels:
            return
        last, others = panels[-1], panels[:-1]
        if self.roomy or not main.size.height:
            if last.styles.max_height is not None and last.styles.max_height.is_cells:
                last.styles.max_height = None  # the panel's own share again
            return
        least = log.styles.min_height
        floor = least.cells if least is not None and least.cells else 4
        room = max(main.size.height - sum(w.outer_size.height for w in others) - floor, floor)
        if last.styles.max_height != Scalar.from_number(room):
            last.styles.max_height = room
            if isinstance(last, GamePanel):
                last.refresh_panel()  # what it leaves out depends on its room

    def on_main_column_resized(self, event: MainColumn.Resized) -> None:
        # The column's height settles after the screen's (the status line, the entry bar):
        # its rows are shared out again at every size it takes.
        self.call_after_refresh(self._fit_main)

    def offers(self, action: str) -> bool:
        """Whether the table offers its own key's ``action`` now, no dialog open."""
        if action == "next_panel":
            return not self.roomy
        if action == "step_back":
            return self.replay
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step_back" and len(self.app.screen_stack) > 1:
            return False
        return self.offers(action)

    def action_next_panel(self) -> None:
        """Turn the side column to its next panel (small terminals)."""
        if self.SIDE_PANELS:
            self.panel_index = (self.panel_index + 1) % len(self.SIDE_PANELS)
        self._arrange()

    def action_step_back(self) -> None:
        """Replay: take the last move back; the clock pauses there."""
        self.post_message(self.StepBack())

    def show(self, state: Any, *, teaching: bool, played: Any, flag: Flag | None, status: str) -> None:
        """Hand the game's state down to every panel."""
        self.show_play(played, flag)
        self.query_one(StatusLine).source_status = status
        for panel in self.query(GamePanel):
            panel.guard = self.guard
            panel.teaching = teaching
            panel.game = state
        self.call_after_refresh(self._fit_main)
