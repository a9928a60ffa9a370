"""Move sources: where the dashboard's moves come from.

Every source proposes moves to the game session (:class:`~companion.session.GameSession`),
which checks them against the rules, applies and records them; the dashboard shows what the
session tells it. The same interface serves

- :class:`DemoSource`, the game's demo table (:meth:`DemoKit.table
  <companion.dashboard.kit.DemoKit.table>`) playing a game of its own at a watchable pace and a
  chosen level, with a slip now and then to show how the companion flags an illegal move;
- :class:`ReplaySource`, a game record (of any game) played back at the same pace, forwards
  and backwards;
- :class:`ManualSource`, the scorekeeper typing what happens at the table, in the game's own
  terms (:class:`~companion.dashboard.kit.ManualTable`);
- the table tracker (:mod:`companion.dashboard.tracker_source`), from camera and NFC readers.

Clocked sources (demo, replay) run in an async worker of the app and obey its controls:
pause, step, faster, slower, restart.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message

from companion.dashboard.kit import DashboardKit, DemoTable, ManualTable, kit_of
from companion.dashboard.messages import SourceFinished, SourceNote
from companion.contract import Move
from companion.records.format import RecordError, RecordVisitor, open_record, read_record, record_lines
from companion.session import GameSession

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump
    from textual.worker import Worker

__all__ = ["SPEEDS", "ClockedSource", "DemoSource", "ManualSource", "MoveSource", "ReplaySource", "read_moves"]

log = logging.getLogger(__name__)

#: Seconds between moves, slowest first.
SPEEDS: tuple[float, ...] = (3.0, 2.0, 1.4, 1.0, 0.7, 0.45, 0.25, 0.1, 0.03)


class MoveSource:
    """Produces the moves of a game and proposes them to the session."""

    name = "source"
    clocked = False
    """Obeys pause, step, faster and slower."""
    can_restart = False
    editable = False
    """The table may undo and correct moves (manual entry)."""
    quiet = False
    """Fast-forwarding: no settlement screen for the periods it ends."""
    live = False
    """Follows a table that plays on by itself: a settlement makes way when it does."""

    def __init__(self) -> None:
        self.app: App[Any] | None = None
        self.session: GameSession | None = None
        self.kit: DashboardKit | None = None
        self.view: MessagePump | None = None

    def attach(self, app: App[Any], session: GameSession | None, *, view: MessagePump, kit: DashboardKit) -> None:
        """Produce for ``app`` (whose workers run the source), into ``session``, in the game's
        terms (``kit``); what the source says goes to ``view``, the app's table screen, in
        order with the session's changes."""
        self.app = app
        self.session = session
        self.kit = kit
        self.view = view

    def new_session(self) -> GameSession | None:
        """The session this source starts, when it makes its own game (demo, replay)."""
        return None

    def post(self, message: Message) -> None:
        """Tell the table screen."""
        assert self.view is not None
        self.view.post_message(message)

    def propose(self, move: Move) -> None:
        assert self.session is not None
        self.session.propose(move, source=self.name)

    def start(self) -> None:
        """Begin producing (called once the app is running)."""

    def stop(self) -> None:
        """Stop producing (the app is closing)."""

    def hold(self) -> None:
        """Stop producing until :meth:`release` (the table reads a settlement)."""

    def release(self) -> None:
        pass

    @property
    def status(self) -> str:
        return self.name


class ClockedSource(MoveSource):
    """A source that gives one move per tick of a clock the table controls."""

    clocked = True

    def __init__(self, *, delay: float = 0.7, paused: bool = False) -> None:
        super().__init__()
        self.speed = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - delay))
        self.paused = paused
        self.finished = False
        self._holds = 0
        self._steps = 0
        self._wake: asyncio.Event | None = None
        self._worker: Worker[None] | None = None

    # -- what to produce
    def reset(self) -> None:
        """(Re)start the game in the session."""
        raise NotImplementedError

    def produce(self) -> bool:
        """Propose the next move; ``False`` at the end."""
        raise NotImplementedError

    async def produce_async(self) -> bool:
        """:meth:`produce`, for a source whose next move takes a while to find: it may think
        in a thread, so that the table stays responsive meanwhile."""
        return self.produce()

    # -- the clock
    @property
    def delay(self) -> float:
        return SPEEDS[self.speed]

    def start(self, *, fresh: bool = True) -> None:
        """Run the clock; ``fresh``: from the beginning of the game, else from where it is."""
        assert self.app is not None
        self.finished = False
        self._worker = self.app.run_worker(self._run(fresh), name=f"{self.name} clock", group="source", exclusive=True)

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._poke()

    def step(self) -> None:
        """One move now (pauses the clock)."""
        self.paused = True
        self._steps += 1
        self._poke()

    def faster(self) -> None:
        self.speed = min(self.speed + 1, len(SPEEDS) - 1)
        self._poke()

    def slower(self) -> None:
        self.speed = max(self.speed - 1, 0)
        self._poke()

    def hold(self) -> None:
        self._holds += 1

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)
        self._poke()

    def restart(self) -> None:
        if not self.can_restart:
            return
        self.finished = False
        self._steps = 0
        self.start()

    @property
    def status(self) -> str:
        if self.finished:
            state = "finished"
        elif self.paused:
            state = "paused"
        else:
            state = "playing"
        return f"{self.name} {state} {self.delay:g}s"

    async def _tick(self) -> None:
        """Wait for the next tick: the delay, or a step when paused; never while held."""
        while True:
            self._wake = asyncio.Event()
            if self._steps and not self._holds:
                self._steps -= 1
                return
            if self.paused or self._holds:
                await self._wake.wait()
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.delay)
            except TimeoutError:
                if not self.paused and not self._holds:
                    return

    async def _run(self, fresh: bool) -> None:
        if fresh:
            self.reset()
        while True:
            await self._tick()
            try:
                more = await self.produce_async()
            except Exception as exc:  # noqa: BLE001 - a fault of ours ends no game: shown, and the clock waits
                log.exception("the %s failed", self.name)
                self.paused = True
                self.post(SourceNote(f"The {self.name} failed ({type(exc).__name__}: {exc}); paused, the game so far is kept", self.name, severity="error"))
                continue
            if not more:
                self.finished = True
                self.post(SourceFinished(self.name))
                return


class DemoSource(ClockedSource):
    """The game's demo table playing a legal game at ``level`` (one of the game's
    :attr:`DemoKit.levels <companion.dashboard.kit.DemoKit.levels>`), with an occasional slip
    (an illegal attempt, flagged by the dashboard and followed by the right move). ``options``
    are the demo table's own (Rule of Power's ``fate``). A level that thinks (every one but the
    first) thinks in a thread, on a copy of the game."""

    name = "demo"
    can_restart = True

    def __init__(
        self, setup: Any, *, seed: int = 7, slips: float = 0.08, level: str = "random", delay: float = 0.7, paused: bool = False, **options: Any
    ) -> None:
        super().__init__(delay=delay, paused=paused)
        self.setup = setup
        self.seed = seed
        self.slips = slips
        self.level = level
        self.options = options
        self.demo = kit_of(setup.game).demo
        self.table: DemoTable | None = None

    def new_session(self) -> GameSession:
        return GameSession(self.setup)

    def reset(self) -> None:
        assert self.session is not None
        self.table = self.demo.table(self.setup, seed=self.seed, level=self.level, slips=self.slips, **self.options)
        self.session.start(self.setup, source=self.name)
        self.post(SourceNote(self.table.intro, self.name))

    def produce(self) -> bool:
        assert self.session is not None and self.table is not None
        move = self.table.next_move(self.session.game)
        if move is None:
            return False
        self.propose(move)
        return True

    async def produce_async(self) -> bool:
        if self.level == self.demo.levels[0]:
            return self.produce()
        assert self.session is not None and self.table is not None
        # The players think in a thread, on their own copy of the game; a restart meanwhile
        # cancels this clock, and the move found is dropped with it.
        table = self.table
        move = await asyncio.to_thread(table.next_move, self.session.game.copy(keep_history=False))
        if move is None:
            return False
        self.propose(move)
        return True


class _Collector(RecordVisitor):
    def __init__(self) -> None:
        self.setup: Any = None
        self.moves: list[Move] = []

    def begin_game(self, setup: Any, line: int) -> None:
        self.setup = setup

    def visit_move(self, move: Move, line: int) -> None:
        self.moves.append(move)


def read_moves(path: str | Path) -> tuple[Any, list[Move], RecordError | None]:
    """The setup and moves of a record as written (rules are checked when they are played);
    a malformed line ends the list and is returned as the error."""
    collector = _Collector()
    error = None
    with open_record(path) as fp:
        try:
            read_record(record_lines(fp, str(path)), collector, path=str(path))
        except RecordError as exc:
            error = exc
    if collector.setup is None:
        raise error or RecordError("the record is empty", line=1, path=str(path))
    return collector.setup, collector.moves, error


class ReplaySource(ClockedSource):
    """A game record played back move by move; :meth:`back` steps back one move."""

    name = "replay"
    can_restart = True

    def __init__(self, path: str | Path, *, delay: float = 0.7, paused: bool = False) -> None:
        super().__init__(delay=delay, paused=paused)
        self.path = Path(path)
        self.setup, self.moves, self.error = read_moves(self.path)
        # A move that breaks a rule ends the replay: it is shown, flagged, and nothing after it.
        check = self.setup.game.new_state(self.setup, keep_history=False)
        for i, move in enumerate(self.moves):
            if not check.is_legal(move):
                self.moves = self.moves[: i + 1]
                self.error = RecordError(f"event {i + 1} breaks a rule, so the replay stops there", line=i + 2, path=str(self.path))
                break
            check.push(move, check=False)
        self.index = 0
        """How many of the record's moves were played (the last one may have been refused)."""

    def new_session(self) -> GameSession:
        return GameSession(self.setup)

    def reset(self) -> None:
        assert self.session is not None
        self.index = 0
        self.session.start(self.setup, source=self.name)
        self.post(SourceNote(f"Replaying {self.path.name}", self.name))

    def produce(self) -> bool:
        index = self.index
        if index >= len(self.moves):
            if self.error is not None and not self.finished:
                self.post(SourceNote(f"The record stops here: {self.error}", self.name, severity="error"))
            return False
        self.index += 1
        self.propose(self.moves[index])
        return True

    def back(self) -> bool:
        """One move back, through the session's undo; the clock pauses there (a finished
        replay starts its clock again). False at the start of the record."""
        assert self.session is not None
        self.paused = True
        self._steps = 0
        if self.session.undo(source=self.name) is None:
            return False
        self.index = len(self.session.game.move_stack)
        if self.finished:
            self.start(fresh=False)
        return True

    def to_end(self) -> None:
        """Play every remaining move at once."""
        self.quiet = True
        try:
            while self.index < len(self.moves):
                self.index += 1
                self.propose(self.moves[self.index - 1])
        finally:
            self.quiet = False
        self.paused = True
        self._poke()


class ManualSource(MoveSource):
    """The scorekeeper's keyboard and mouse: moves typed or picked in the dashboard, in the
    game's own terms (its :class:`~companion.dashboard.kit.ManualTable`, made once the game is
    known). ``seed``: the companion's shuffle; ``options``: what the game's manual play needs
    besides the set-up (Rule of Power: ``companion_deals``, ``fate_sets``, ``first_dealer``)."""

    name = "manual"
    editable = True
    deals_by_hand = True
    """The table enters each deal (or lets the companion deal); a tracker that sees the deals
    itself says no."""

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        super().__init__()
        self.seed = seed
        self.options = options
        self._table: ManualTable | None = None

    def choose(self, options: dict[str, Any]) -> None:
        """The options of the table chosen in the set-up dialog or on the command line."""
        self.options.update(options)
        self._table = None

    @property
    def table(self) -> ManualTable:
        """The game's manual play at this table."""
        if self._table is None:
            assert self.kit is not None, "a manual source is attached before it is used"
            self._table = self.kit.manual(seed=self.seed, **self.options)
        return self._table

    def submit(self, move: Move) -> None:
        self.propose(move)

    @property
    def status(self) -> str:
        return self.table.status
