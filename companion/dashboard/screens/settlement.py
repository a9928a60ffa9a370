"""The settlement of a finished scoring period, as the shell runs it for every game.

A game's settlement screen (a round's points and tie-breaks, a season's cities) subclasses
:class:`Settlement` and says how to load a period and take one tick of the demo's clock. The
app installs it once and shows it over the table for each period that ends: in the demo and
replays it advances on the app's clock until it closes itself; in manual play it waits for
the keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static

from companion.games.protocol import Move
from companion.session import GameSession

__all__ = ["Settlement", "last_result"]


def last_result(session: GameSession | None) -> Any:
    """The last scoring period the session's game finished, ``None`` before the first."""
    for index in reversed(range(len(session.moves) if session is not None else 0)):
        result = session.effects(index).result  # type: ignore[union-attr]
        if result is not None:
            return result
    return None


class Settlement(ModalScreen[None]):
    """The settlement screen of a game: what the shell calls on it. Its points are ``steps``
    (a title and its body each), of which the first ``shown`` are drawn, one after another,
    in its ``#steps`` scroll's ``#steps-body``."""

    steps: list[tuple[str, RenderableType]]
    shown: int

    def load(self, state: Any, result: Any, moves: Sequence[Move]) -> None:
        """The period ``result`` (an ``effects.result``) of ``state``'s game; ``moves``: the
        game's moves, at least to the period's end."""
        raise NotImplementedError

    def autoplay_tick(self) -> bool:
        """One tick of the demo's clock: the next point, or ``True`` once everything has been
        shown long enough: time to close."""
        raise NotImplementedError

    def action_close(self) -> None:
        """Close the settlement (once)."""
        raise NotImplementedError

    def action_all(self) -> None:
        self.shown = len(self.steps)

    def _draw(self, new: int) -> None:
        """The first ``new`` steps on screen, and how many are still to come."""
        if not self.is_mounted:
            return
        parts: list[RenderableType] = []
        for title, body in self.steps[:new]:
            parts += [Text(title, style="bold underline"), body, Text("")]
        self.query_one("#steps-body", Static).update(Group(*parts))
        # Anchored, the newest step stays in view at every layout (a review may fill in later).
        self.query_one("#steps", VerticalScroll).anchor()
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
