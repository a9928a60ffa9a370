"""What every game's reasoning about its table does the same way: compare the table with the
game again after each move applied until it is explained or waits, say when the table is back
in step, ask a question once (not again at each reading), and take an answer that may no
longer fit. A game's :class:`~companion.tracker.tracker.TableReasoner` builds on
:class:`TableReasoning` and gives what is its own: the moves the rules force
(:meth:`TableReasoning._forced`), one comparison of the table with the game
(:meth:`TableReasoning._step`) and how a move found is applied
(:meth:`TableReasoning._push`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.contract import Move
from companion.observations import CardLaid, LaidGone
from companion.tracker.events import Choice, InSync, MoveApplied, Notice, OutOfSync, Question, TrackerEvent, TrackerState
from companion.tracker.view import Zones

if TYPE_CHECKING:
    from companion.tracker.tracker import Tracker

__all__ = ["TableReasoning"]


class TableReasoning:
    """The shared half of a game's table reasoner, for one ``tracker``."""

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self._asked: object = None
        """The question last asked, so that the same one is not asked at every reading."""
        self._hinted: object = None
        """The table last explained as not matching, so that it is said once."""
        self._desync: tuple[str, ...] | None = None
        """While out of sync, the differences last said; ``None`` otherwise."""

    # ------------------------------------------------------------------ the game's own part

    def _forced(self) -> list[TrackerEvent]:
        """Apply what the rules leave no choice about."""
        raise NotImplementedError

    def _step(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """One comparison of the table with the game, adding to ``events``; ``True`` when
        moves were applied (the table is to be compared again)."""
        raise NotImplementedError

    def _push(self, move: Move, how: str) -> MoveApplied:
        """Propose ``move`` to the session (:class:`IllegalMoveError` if refused)."""
        raise NotImplementedError

    def unread(self, obs: CardLaid | LaidGone) -> None:
        """A card laid that the camera cannot name yet: the view keeps it; a game that reads
        the order cards were laid in keeps its place there."""

    # ------------------------------------------------------------------ shared

    def reconcile(self, *, waited: bool, apply_forced: bool = True) -> list[TrackerEvent]:
        """Compare the table with the game and act, again after every move applied, until the
        table is explained or waits."""
        events: list[TrackerEvent] = []
        while True:
            if apply_forced:
                events.extend(self._forced())
            apply_forced = True
            if not self._step(waited, events):
                return events

    def _synced(self, events: list[TrackerEvent]) -> None:
        """The table looks as the game expects: said when it did not, the question closed."""
        tracker = self.tracker
        if tracker.state is TrackerState.OUT_OF_SYNC:
            events.append(InSync())
        tracker.state = TrackerState.SYNCED
        tracker.question = None
        self._asked = None
        self._hinted = None
        self._desync = None

    def _out_of_sync(self, differences: tuple[str, ...]) -> list[TrackerEvent]:
        """No legal move explains the table: say every difference, and apply nothing more
        until the table matches the game again or a correction is made
        (:meth:`_still_out_of_sync`). Cards laid meanwhile are no evidence of a move: they
        may be the next action's, laid over a card the camera never read."""
        self.tracker.state = TrackerState.OUT_OF_SYNC
        self._desync = differences
        return [OutOfSync(differences)]

    def _still_out_of_sync(self, waited: bool, events: list[TrackerEvent]) -> bool:
        """Whether the table is out of sync (it does not match the game: the caller has
        looked), so that nothing is applied. Once a change has stayed (``waited``: cards are
        laid and taken one at a time) the differences are said again if they changed, all of
        them."""
        if self._desync is None:
            return False
        tracker = self.tracker
        tracker.state = TrackerState.OUT_OF_SYNC
        if not waited:
            return True
        now = tracker.differences()
        if now != self._desync:
            self._desync = now
            events.append(OutOfSync(now))
        return True

    def _corrected(self) -> None:
        """A correction was made elsewhere (a move typed, an undo): the table is explained
        afresh, and said to be out of sync again if it still cannot be."""
        self._asked = None
        self._hinted = None
        if self._desync is not None:
            self._desync = None
            if self.tracker.state is TrackerState.OUT_OF_SYNC:
                self.tracker.state = TrackerState.WAITING

    def _unexplained(self, waited: bool, events: list[TrackerEvent], explain: Callable[[], list[TrackerEvent]]) -> bool:
        """The table shows what no move explains (yet): a question open is waited on; a table
        on its way is waited for (``waited`` false); one that stayed so gets ``explain()``:
        what the table must enter, or what differs. Returns ``False``, nothing applied."""
        tracker = self.tracker
        if tracker.question is not None:
            tracker.state = TrackerState.ASKING
        elif not waited:
            if tracker.state is not TrackerState.OUT_OF_SYNC:
                tracker.state = TrackerState.WAITING
        else:
            events.extend(explain())
        return False

    def _ask_once(self, choices: tuple[Choice, ...], prompt: str, events: list[TrackerEvent]) -> None:
        """Ask the table which of ``choices`` happened, unless that is the question open."""
        tracker = self.tracker
        key = tuple(c.moves for c in choices)
        if key != self._asked:
            self._asked = key
            tracker.question = Question(prompt, choices)
            events.append(tracker.question)
        tracker.state = TrackerState.ASKING

    def _first_sight(self, observed: Zones) -> bool:
        """Whether the table shows ``observed`` for the first time since it was last
        explained: what is said of a table is said once."""
        key = tuple(sorted((zone, tuple(sorted(c.id for c in cards.elements()))) for zone, cards in observed.items()))
        if key == self._hinted:
            return False
        self._hinted = key
        return True

    def _answer(self, moves: tuple[Move, ...], how: Callable[[Move], str]) -> list[TrackerEvent]:
        """The table's answer applied, move by move (``how`` names each one's source); one
        that no longer fits the game (it moved on while the question was open) is dropped
        with a message, and what follows of the answer with it."""
        events: list[TrackerEvent] = []
        for move in moves:
            try:
                events.append(self._push(move, how(move)))
            except (IllegalMoveError, InvalidMoveError) as exc:
                events.append(Notice(f"The answer no longer fits the game and is dropped: {exc}"))
                break
        return events
