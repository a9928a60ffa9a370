"""The settlement of a finished scoring period, as the shell runs it for every game.

A game's settlement screen (a round's points and tie-breaks, a season's cities) subclasses
:class:`Settlement` and says how to load a period (its steps) and what its title is; the
stepping is the shell's: one point per key press, all at once, closed. The app installs it
once and shows it over the table for each period that ends: in the demo and replays it
advances on the app's clock until it closes itself; in manual play it waits for the keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static

from companion.contract import Move
from companion.session import GameSession

__all__ = ["Settlement", "last_result"]


def last_result(session: GameSession | None) -> Any:
    """The last scoring period the session's game finished, ``None`` before the first."""
    if session is None:
        return None
    for index in reversed(range(len(session.moves))):
        result = session.effects(index).result
        if result is not None:
            return result
    return None


class Settlement(ModalScreen[None]):
    """The settlement screen of a game. Its points are ``steps`` (a title and its body each),
    of which the first ``shown`` are drawn, one after another, in its ``#steps`` scroll's
    ``#steps-body``. A game's screen gives :meth:`load` (which sets the steps, then calls
    :meth:`begin`) and :meth:`heading`."""

    BINDINGS = [
        Binding("space,enter,right,n", "next", "Next point"),
        Binding("a", "all", "Show all"),
        Binding("escape,q", "close", "Close"),
    ]

    #: Demo ticks everything stays shown before the settlement closes itself.
    READ_TICKS = 6

    shown: reactive[int] = reactive(0)

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[tuple[str, RenderableType]] = []
        self._ticks_done = 0
        self._closed_once = False

    # ------------------------------------------------------------------ the game's part

    def load(self, state: Any, result: Any, moves: Sequence[Move]) -> None:
        """The period ``result`` (an ``effects.result``) of ``state``'s game; ``moves``: the
        game's moves, at least to the period's end."""
        raise NotImplementedError

    def heading(self) -> str | None:
        """The title of the period loaded ("Settlement of round 2 (dealer ann)"); ``None``
        before one is."""
        raise NotImplementedError

    def all_shown(self) -> None:
        """Every step is on screen (a game may begin work then)."""

    def closing(self) -> None:
        """The settlement closes (a game may stop its work then)."""

    # ------------------------------------------------------------------ the shell's part

    def begin(self) -> None:
        """The steps of a newly loaded period: none shown yet, the title anew, the last
        period's points gone and the new ones starting at the top."""
        self._ticks_done = 0
        self._closed_once = False
        self.set_reactive(Settlement.shown, 0)
        # A screen mounted but whose parts are not (yet, or no longer) there draws at its mount.
        parts = self._parts()
        if parts is not None:
            self._show_title()
            body, steps = parts
            body.update("")
            steps.scroll_home(animate=False, immediate=True)

    def _parts(self) -> tuple[Static, VerticalScroll] | None:
        """The steps' body and their scroll, ``None`` while they are not both mounted (the
        screen's children mount after the screen may already be resumed)."""
        if not self.is_mounted:
            return None
        body = next(iter(self.query("#steps-body").results(Static)), None)
        steps = next(iter(self.query("#steps").results(VerticalScroll)), None)
        return None if body is None or steps is None else (body, steps)

    def _show_title(self) -> None:
        title = self.heading()
        for widget in self.query("#settlement-title").results(Static):
            if title is not None:
                widget.update(title)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="settlement-title")
            with VerticalScroll(id="steps"):
                yield Static(id="steps-body")
            yield Static("Space/Enter: next point  A: show all  Esc: close", classes="keys")

    def on_mount(self) -> None:
        self._show_title()
        self._draw(self.shown)

    def on_screen_resume(self) -> None:
        if self.shown == 0:
            self.action_next()

    def autoplay_tick(self) -> bool:
        """One tick of the demo's clock (the app's): the next point, or, once everything is
        shown and has been left a few ticks for the table to read, ``True``: time to close."""
        if self.shown < len(self.steps):
            self.action_next()
            return False
        self._ticks_done += 1
        return self._ticks_done >= self.READ_TICKS

    def action_next(self) -> None:
        if self.shown >= len(self.steps):
            self.action_close()
            return
        self.shown += 1

    def action_all(self) -> None:
        self.shown = len(self.steps)

    def watch_shown(self, new: int) -> None:
        if new >= len(self.steps) > 0:
            self.all_shown()
        self._draw(new)

    def action_close(self) -> None:
        """Close the settlement (once)."""
        if self.app.screen is self and not self._closed_once:
            self._closed_once = True
            self.closing()
            self.dismiss(None)

    def _draw(self, new: int) -> None:
        """The first ``new`` steps on screen, and how many are still to come."""
        mounted = self._parts()
        if mounted is None:
            return  # drawn at the mount
        shown, steps = mounted
        parts: list[RenderableType] = []
        for title, body in self.steps[:new]:
            parts += [Text(title, style="bold underline"), body, Text("")]
        shown.update(Group(*parts))
        # The newest step in view once it is laid out (a review may fill in later): scrolled to
        # the end, not anchored, since an anchored scroll lays a short page at its bottom.
        self.call_after_refresh(steps.scroll_end, animate=False, immediate=True)
        remaining = len(self.steps) - new
        self.sub_title = f"{remaining} more" if remaining else "done"

    def present(self, app: App[Any], name: str, *, every: float | None, closed: Callable[[], None]) -> None:
        """Show the settlement (installed in ``app`` as ``name``), advanced every ``every``
        seconds on the app's clock, or by the keys alone (``None``); ``closed`` is called
        when it closes."""
        timer: Timer | None = None

        def done(_: None) -> None:
            if timer is not None:
                timer.stop()
            closed()

        def tick() -> None:
            if app.screen is self and self.autoplay_tick():
                self.action_close()

        app.push_screen(name, done)
        if every:
            # The app's clock, not the screen's: a screen cannot close itself from its own timer.
            timer = app.set_interval(every, tick)
