"""Manual play at the dashboard: the scorekeeper's part.

A game kept by hand starts with its record file (its set-up chosen in the game's dialog or on
the command line). What is typed in the entry bar, picked in the event log or answered in a
dialog becomes a move proposed to the session, the correction of an event already recorded,
or one of the table's commands. What a typed text means, what the table does next and how an
event is corrected are the game's (its :class:`~companion.dashboard.kit.ManualTable`); the
:class:`Scorekeeper` does what they say: it proposes the moves, opens the dialogs, keeps the
event being corrected and flags what cannot be."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.widgets import Input

from companion.dashboard.kit import Ask, Command, EntryError, Flag, Step, Submit, TableChoice, Tell
from companion.dashboard.sources import ManualSource
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract import Move
from companion.records.store import GameFile, default_games_dir
from companion.session import GameSession

if TYPE_CHECKING:
    from companion.dashboard.app import DashboardApp

__all__ = ["Scorekeeper"]


class Scorekeeper:
    """Manual play in ``app``: entries, corrections and the table's next steps."""

    def __init__(self, app: DashboardApp) -> None:
        self.app = app
        self.correcting: int | None = None
        """The event being corrected: the next entry replaces it."""

    @property
    def source(self) -> ManualSource | None:
        source = self.app.source
        return source if isinstance(source, ManualSource) and self.app.session is not None else None

    def set_up(self, table: TableChoice | None) -> None:
        """The table chosen in the game's set-up dialog: its game starts (none: the app ends)."""
        if table is None:
            self.app.exit(1)
            return
        if isinstance(self.app.source, ManualSource):
            self.app.source.choose(dict(table.options))
        self.start(table.setup)

    def start(self, setup: Any) -> None:
        """A new game kept by hand: its record file (unless the app saves none) and the first
        round."""
        app = self.app
        record = None
        if app.games_dir is not False:
            games_dir = Path(app.games_dir) if app.games_dir else default_games_dir()  # type: ignore[arg-type]
            try:
                record = GameFile.create(games_dir, setup)
            except OSError as exc:
                app.table.note(f"Cannot save the game in {games_dir}: {exc.strerror}", kind="error")
        if app.session is None:
            app.follow(GameSession(setup, record=record))
            app.table.reset()
            self.correcting = None
        else:
            app.session.start(setup, record=record, source=app.source.name)
        if record is not None:
            # The name, then the folder: a path has no spaces, so a narrow log would break it
            # anywhere; given apart, each breaks only where the other ends.
            folder = record.path.parent
            shown = f"~/{folder.relative_to(Path.home())}" if folder.is_relative_to(Path.home()) else str(folder)
            app.table.note(f"Saving the game as {record.path.name} in {shown}")
        app.refresh_view()
        app.source.start()
        self.due()

    def due(self) -> None:
        """What the table must do now, if anything (the companion's deal, the deal dialog)."""
        src = self.source
        if src is not None and src.deals_by_hand and len(self.app.screen_stack) == 1:
            self.take(src.table.next_step(self.app.game, asked=False), src.submit)

    def next_step(self) -> None:
        """What the table does next, asked for (F5): or why there is nothing to do."""
        src = self.source
        if src is not None:
            self.take(src.table.next_step(self.app.game, asked=True), src.submit)

    def take(self, step: Step | Command | None, submit: Callable[[Move], None], *, cancelled: Callable[[], None] | None = None) -> None:
        """Do what manual play says: propose a move with ``submit``, open a dialog whose move
        goes there too, tell the table something, or run one of the table's commands."""
        app = self.app
        match step:
            case Submit(move):
                submit(move)
            case Ask(screen):
                app.push_screen(screen, lambda move: submit(move) if move else cancelled() if cancelled else None)
            case Tell(text, severity, timeout):
                app.notify(text, severity=severity, timeout=timeout)
            case Command(name):
                commands = {"undo": self.undo, "redo": self.redo, "next": self.next_step}
                commands.update(help=app.action_help, hint=app.action_hint, quit=app.exit)
                commands[name]()

    def undo(self) -> None:
        """Take the last event back (the saved record follows)."""
        app = self.app
        if app.session is not None and app.source.editable and app.session.undo(source=app.source.name) is None:
            app.notify("Nothing to undo", timeout=2)

    def redo(self) -> None:
        """Apply the last event undone again."""
        app = self.app
        if app.session is None or app.session.redo(source=app.source.name) is None:
            app.notify("Nothing to redo", timeout=2)

    def entered(self, bar: Input) -> None:
        """What was typed in the entry bar ``bar``: done, or flagged when it is not understood
        (it stays in the bar, to be fixed)."""
        src = self.source
        if src is None:
            return
        assert self.app.session is not None
        text = bar.value
        index = self.correcting
        # A correction is typed against the game as it stood before the event corrected.
        game = self.app.session.position_before(index) if index is not None else self.app.session.game
        try:
            entry = src.table.parse(text, game, correcting=index is not None, teaching=self.app.teaching)
        except EntryError as exc:
            self.app.table.show_flag(Flag(None, f"{text!r} not understood: {exc}", None))
            return
        bar.value = ""
        self.take(entry, self.submit)

    def submit(self, move: Move) -> None:
        """A move typed or picked: played now, or the correction of the event being corrected."""
        src = self.source
        assert src is not None and self.app.session is not None
        if self.correcting is None:
            src.submit(move)
            return
        index, self.correcting = self.correcting, None
        try:
            self.app.session.correct(index, move, source=src.name)
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.correcting = index
            flag = self.app.kit.refusal(move, exc)
            self.app.table.show_flag(replace(flag, text=f"Event {index + 1} cannot be {self.app.plugin.describe(move)}: {flag.text}"))
            return
        self.app.refresh_view()

    def pick(self, index: int) -> None:
        """Event ``index`` picked in the log: the next entry replaces it (or the game's dialog
        for it does); the events after it are applied again where they still fit."""
        src = self.source
        if src is None:
            return
        session = self.app.session
        assert session is not None
        move = session.moves[index]
        step = src.table.correction(session.position_before(index), move)
        if isinstance(step, Tell):
            self.take(step, self.submit)
            return
        self.correcting = index
        if step is not None:
            self.take(step, self.submit, cancelled=self.cancel)
            return
        self.app.notify(f"Type the right event {index + 1} (it was: {self.app.plugin.describe(move)}); Esc cancels", timeout=5)
        self.app.refresh_view()
        self.app.action_focus_entry()

    def cancel(self) -> None:
        """The correction under way is given up: the event stays as it was."""
        if self.correcting is not None:
            self.correcting = None
            self.app.notify("Correction cancelled", timeout=2)
            self.app.refresh_view()
