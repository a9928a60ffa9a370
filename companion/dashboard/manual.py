"""Manual play at the dashboard: the scorekeeper's part.

A game kept by hand starts with its record file (:func:`new_record`; its set-up chosen in the
game's dialog or on the command line). What is typed in the entry bar, picked in the event log
or answered in a dialog becomes a move proposed to the session, the correction of an event
already recorded, or one of the table's commands. What a typed text means, what the table does
next and how an event is corrected are the game's (its :class:`~companion.dashboard.kit.
ManualTable`); the :class:`Scorekeeper` proposes the moves, keeps the event being corrected
and says what the rest comes to: a step for the table (:data:`~companion.dashboard.kit.Step`:
a move, a dialog, a word), one of the table's commands, or a flag for what cannot be. The app
does what it says: it opens the dialogs, shows the words and the flags."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.contract import Move
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.dashboard.flag import Flag
from companion.dashboard.kit import Ask, Command, DashboardKit, EntryError, Step, Tell
from companion.dashboard.sources import ManualSource, MoveSource
from companion.records.store import GameFile, default_games_dir
from companion.session import GameSession

__all__ = ["Scorekeeper", "new_record"]


def new_record(setup: Any, games_dir: str | Path | None) -> tuple[GameFile | None, str]:
    """The record file of a new game kept by hand, in ``games_dir`` (``None``: the default
    one), and what the table is told: where the game is saved, or why it cannot be (then no
    file)."""
    folder = Path(games_dir) if games_dir else default_games_dir()
    try:
        record = GameFile.create(folder, setup)
    except OSError as exc:
        return None, f"Cannot save the game in {folder}: {exc.strerror}"
    # The name, then the folder: a path has no spaces, so a narrow log would break it
    # anywhere; given apart, each breaks only where the other ends.
    folder = record.path.parent
    shown = f"~/{folder.relative_to(Path.home())}" if folder.is_relative_to(Path.home()) else str(folder)
    return record, f"Saving the game as {record.path.name} in {shown}"


class Scorekeeper:
    """Manual play from ``source``, in the game's terms (``kit``): entries, corrections and
    the table's next steps. The app hands down :attr:`session`, the session kept."""

    def __init__(self, source: MoveSource, kit: DashboardKit) -> None:
        self.source = source
        self.kit = kit
        self.session: GameSession | None = None
        """The session kept (handed down by the app as it follows one)."""
        self.correcting: int | None = None
        """The event being corrected: the next entry replaces it."""

    @property
    def manual(self) -> ManualSource | None:
        """The source, when it is kept by hand and has a game."""
        source = self.source
        return source if isinstance(source, ManualSource) and self.session is not None else None

    def due(self) -> Step | None:
        """What the table must do now, if anything (the companion's deal, the deal dialog);
        asked when no dialog is open. Its move goes to the source (:meth:`play`)."""
        src = self.manual
        if src is None or not src.deals_by_hand:
            return None
        assert self.session is not None
        return src.table.next_step(self.session.game, asked=False)

    def next_step(self) -> Step | None:
        """What the table does next, asked for (F5): or why there is nothing to do. Its move
        goes to the source (:meth:`play`)."""
        src = self.manual
        if src is None:
            return None
        assert self.session is not None
        return src.table.next_step(self.session.game, asked=True)

    def play(self, move: Move) -> None:
        """A move of the table's next step, proposed to the session."""
        if self.manual is not None:
            self.manual.submit(move)

    def undo(self) -> Tell | None:
        """Take the last event back (the saved record follows); the word when there is none."""
        session = self.session
        if session is not None and self.source.editable and session.undo(source=self.source.name) is None:
            return Tell("Nothing to undo", timeout=2)
        return None

    def redo(self) -> Tell | None:
        """Apply the last event undone again; the word when there is none."""
        session = self.session
        if session is None or session.redo(source=self.source.name) is None:
            return Tell("Nothing to redo", timeout=2)
        return None

    def entered(self, text: str, *, teaching: bool) -> Step | Command | Flag | None:
        """What ``text``, typed in the entry bar, comes to (its move goes to :meth:`submit`);
        a :class:`Flag` when it is not understood (it stays in the bar, to be fixed). ``None``
        when no game is kept by hand."""
        src, session = self.manual, self.session
        if src is None or session is None:
            return None
        index = self.correcting
        # A correction is typed against the game as it stood before the event corrected.
        game = session.position_before(index) if index is not None else session.game
        try:
            return src.table.parse(text, game, correcting=index is not None, teaching=teaching)
        except EntryError as exc:
            return Flag(None, f"{text!r} not understood: {exc}", None)

    def submit(self, move: Move) -> Flag | None:
        """A move typed or picked: played now, or the correction of the event being corrected;
        the flag of a correction the rules refuse (the event stays to be corrected)."""
        src, session = self.manual, self.session
        assert src is not None and session is not None
        if self.correcting is None:
            src.submit(move)
            return None
        index, self.correcting = self.correcting, None
        try:
            session.correct(index, move, source=src.name)
        except (IllegalMoveError, InvalidMoveError) as exc:
            self.correcting = index
            flag = self.kit.refusal(move, exc)
            return replace(flag, text=f"Event {index + 1} cannot be {session.setup.game.describe(move)}: {flag.text}")
        return None

    def pick(self, index: int) -> Ask | Tell | None:
        """Event ``index`` picked in the log: the next entry replaces it, or the game's dialog
        for it does (:class:`Ask`, whose move goes to :meth:`submit`); the events after it are
        applied again where they still fit. A :class:`Tell` when it cannot be corrected, or to
        say that the right event is to be typed (then :attr:`correcting` is ``index``);
        ``None`` when no game is kept by hand."""
        src, session = self.manual, self.session
        if src is None or session is None:
            return None
        move = session.moves[index]
        step = src.table.correction(session.position_before(index), move)
        if isinstance(step, Tell):
            return step
        self.correcting = index
        if step is not None:
            return step
        return Tell(f"Type the right event {index + 1} (it was: {session.setup.game.describe(move)}); Esc cancels", timeout=5)

    def cancel(self) -> Tell | None:
        """The correction under way is given up: the event stays as it was."""
        if self.correcting is None:
            return None
        self.correcting = None
        return Tell("Correction cancelled", timeout=2)
