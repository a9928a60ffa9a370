"""The coach's hint: the ranked moves of a player who is deciding, each with its expected round
margin, its interval, the chance to win and the reasons (docs/coach.md). The first ranking
comes within the default level's budget; the search goes on while the screen is open, and the
table is redrawn as it refines."""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.coach import LEVELS, Advice, Coach, CoachError, Search, model_of

__all__ = ["HintScreen", "advice_table", "position_key"]

FIRST_MS = LEVELS["default"].budget_ms
"""The first hint: the default level's budget, a bound (the search begins no playout that
would likely end after it), so that the hint is up within 100 ms on one core."""
MORE_MS = 250.0
"""Each refinement while the screen stays open."""
REFINEMENTS = 12


def position_key(game: Any) -> Hashable:
    """Tells one position of a game from the next (and from one reached by undo and another
    move): what a hint, or another estimate, was made for."""
    stack = game.move_stack
    return (id(game), len(stack), stack[-1] if stack else None, tuple(game.deciding))


def advice_table(advice: Advice, *, limit: int = 8) -> Table:
    """The ranked moves as a table a beginner can read."""
    table = Table(box=None, expand=True, pad_edge=False)
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("move", ratio=2)
    table.add_column("margin", justify="right", no_wrap=True)
    table.add_column("win", justify="right", no_wrap=True)
    table.add_column("why", ratio=3)
    for rank, m in enumerate(advice.moves[:limit], 1):
        # The reasons end with the risks' own words: the first risk is shown once, in bold.
        told = {risk.text for risk in m.risks}
        why = Text("; ".join([r for r in m.reasons if r not in told][:2]) or ("" if m.risks else "-"))
        for risk in m.risks[:1]:
            text = risk.text[0].upper() + risk.text[1:]
            why.append(("\n" if why.plain else "") + text, style="bold")
        margin = Text(f"{m.margin:+.2f}", style="bold" if rank == 1 else "")
        margin.append(f"\n{m.margin_low:+.1f}..{m.margin_high:+.1f}", style="dim")
        table.add_row(str(rank), Text(m.text, style="bold" if rank == 1 else ""), margin, f"{m.win:.0%}", why)
    return table


class HintScreen(ModalScreen[None]):
    """The coach's ranking for ``player``, refined while it is open."""

    DEFAULT_CSS = """
    HintScreen { align: center middle; }
    HintScreen > VerticalScroll {
        width: 96%; max-width: 150; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS = [Binding("escape,h,f7,q", "close", "Close")]

    class Advised(Message):
        """The hint's latest figures for the position ``position`` (:func:`position_key`):
        the table shows the same estimate rather than one of its own."""

        def __init__(self, position: Hashable, advice: Advice) -> None:
            super().__init__()
            self.position = position
            self.advice = advice

    def __init__(self, game: Any, player: str, *, judged: Any = None, remedy: str | None = None) -> None:
        """``game``: the game's state (:class:`~companion.contract.State`); ``judged``: what the
        search judges instead, a copy that knows what the player told the companion privately
        (:meth:`TableScreen.hint_game <companion.dashboard.screens.table.TableScreen.hint_game>`);
        ``remedy``: what the player can do when there is no hint."""
        super().__init__()
        self.player = player
        self.position = position_key(game)
        self.search: Search | None = None
        self.error: str | None = None
        self.remedy = remedy
        game = game if judged is None else judged
        self.period = "scoring period"
        """What the margin counts the points of: the game's scoring period (the round, the season)."""
        try:
            self.period = model_of(game.game).period
            # The wall clock: the first ranking is promised within its budget, however loaded the machine.
            self.search = Coach("default", clock=time.perf_counter).search(game, player)
        except CoachError as exc:
            self.error = str(exc)
        self.refined = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="hint-title")
            yield Static(id="hint-body")
            yield Static(f"Esc closes. Margin: the {self.period} points the move is expected to win or lose against "
                         "the best other side, with a 95 % interval; win: the chance to win the game (docs/coach.md).", id="hint-foot")

    def on_mount(self) -> None:
        if self.search is None:
            self.query_one("#hint-title", Static).update(Text(f"No hint: {self.error}", style="bold"))
            if self.remedy:
                self.query_one("#hint-body", Static).update(Text(self.remedy))
            return
        self.query_one("#hint-title", Static).update(Text(f"Thinking for {self.player}...", style="bold"))
        self.think(FIRST_MS)

    @work(thread=True, exclusive=True, group="hint")
    def think(self, budget_ms: float) -> None:
        # The search reads its own copy of the game: the table may move on meanwhile.
        assert self.search is not None
        self.search.run(budget_ms=budget_ms)
        advice = self.search.advice()
        self.app.call_from_thread(self.show, advice)

    def show(self, advice: Advice) -> None:
        if not self.is_attached:
            return
        self.query_one("#hint-title", Static).update(
            Text(f"Hint for {advice.player}: {advice.samples} sampled deals, {advice.playouts} playouts, "
                 f"{advice.elapsed_ms:.0f} ms", style="bold")
        )
        self.query_one("#hint-body", Static).update(advice_table(advice))
        self.post_message(self.Advised(self.position, advice))
        if self.refined < REFINEMENTS:
            self.refined += 1
            self.think(MORE_MS)

    def action_close(self) -> None:
        self.workers.cancel_group(self, "hint")
        self.dismiss(None)
