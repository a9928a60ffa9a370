"""A fault in the companion's own code ends no game: a worker's or a sensor's fault is shown on
the dashboard and the game goes on; and a dashboard that does die of one ends ``rop`` with a
non-zero exit status, not 0 as if the table had quit."""

from __future__ import annotations

import os
import pty
import select
import sys
import textwrap

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.sources import ClockedSource
from companion.dashboard.tracker_source import TrackerSource
from companion.dashboard.widgets.event_log import EventLog
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable
from companion.observations import CardSeen
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from hardware.tag_events import TagPresent
from tests.dashboard.driving import until


def run_in_a_terminal(code: str) -> tuple[int, str]:
    """``code`` run by this Python in a pseudo-terminal, as ``rop`` runs at a table: its exit
    status and what it wrote. Reads until the program ends (it ends by itself)."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child runs the code
        os.execve(sys.executable, [sys.executable, "-c", code], dict(os.environ, TERM="xterm-256color"))
    output = bytearray()
    while True:
        select.select([fd], [], [])
        try:
            data = os.read(fd, 65536)
        except OSError:  # the terminal closed: the program ended
            break
        if not data:
            break
        output += data
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), output.decode(errors="replace")


@pytest.mark.parametrize(
    "where",
    [
        # A worker thread of the dashboard dies (the tracker's worker did, on a refused move).
        "self.run_worker(lambda: self.broken('the worker'), thread=True)",
        # A handler of the dashboard's own raises.
        "self.broken('the table screen')",
    ],
)
def test_rop_exits_non_zero_when_its_dashboard_dies(where: str) -> None:
    """A dashboard that dies of an exception shows its traceback and ``rop`` exits with a
    non-zero status (it used to exit with 0, as if the table had quit)."""
    code = textwrap.dedent(f"""
        import sys
        from textual.app import App
        from companion.commands.play import run_dashboard

        class Dies(App):
            def broken(self, what):
                raise RuntimeError(what + " broke")

            def on_mount(self):
                {where}

        sys.exit(run_dashboard(Dies()))
    """)
    status, shown = run_in_a_terminal(code)
    assert status == 1, shown[-2000:]
    assert "broke" in shown and "RuntimeError" in shown


class Feed:
    """Sensors whose observations a test hands on, as a sensor's thread would."""

    def __init__(self) -> None:
        self.emit = None

    def __call__(self, emit):  # type: ignore[no-untyped-def]
        self.emit = emit
        return self

    def stop(self) -> None:
        pass


def notes(app: DashboardApp) -> list[str]:
    """The lines of the dashboard's event log that are no move."""
    return [e.text for e in app.table.query_one(EventLog).entries if e.index is None]


@pytest.mark.asyncio
async def test_a_sensor_that_hands_on_no_observation_is_shown_and_the_game_goes_on() -> None:
    """A sensor's bug hands the tracker's worker something that is no observation (here a
    reader's raw tag event): the dashboard says so, and the cards seen next are played (the
    worker used to die, and the dashboard with it)."""
    setup = GameSetup(("ann", "bob"))
    feed = Feed()
    tracker = Tracker(GameSession(setup), TrackerConfig(first_dealer="bob", facts={"draws_visible": False}))
    app = DashboardApp(TrackerSource(tracker, feed, label="test camera"), setup=setup, games_dir=False)
    async with app.run_test(size=(120, 40)):
        await until(lambda: feed.emit is not None and app.game is not None and app.game.round_number == 1)
        feed.emit(TagPresent("serial:/dev/ttyACM0", 1.0, "board:0", "04A1B2C3D4E5F6"))
        for k, cid in enumerate(("W002", "W014", "W035", "W029")):
            feed.emit(CardSeen("camera", 2.0 + k, Card.from_id(cid), None, "centre"))
        await until(lambda: app.game.deal_number == 1, "the first deal, after the fault")
        await until(lambda: any("no observation" in n for n in notes(app)), "the fault shown")
        assert app.is_running


class StumblingTable(ClockedSource):
    """A move source on the table's clock (as the demo table and a replay are) whose next move
    fails to come once, as a demo player's thinking might."""

    name = "demo"

    def __init__(self, setup: GameSetup) -> None:
        super().__init__(delay=0.03)
        self.setup = setup
        self.moves = list(VirtualTable(setup, seed=3).moves(setup.game.new_state(setup, keep_history=False)))[:12]
        self.played = 0
        self.stumbled = False

    def new_session(self) -> GameSession:
        return GameSession(self.setup)

    def reset(self) -> None:
        assert self.session is not None
        self.session.start(self.setup, source=self.name)

    def produce(self) -> bool:
        if self.played == 5 and not self.stumbled:
            self.stumbled = True
            raise ValueError("the demo player lost the thread")
        if self.played == len(self.moves):
            return False
        self.played += 1
        self.propose(self.moves[self.played - 1])
        return True


@pytest.mark.asyncio
async def test_a_clocked_source_that_fails_is_shown_paused_and_its_game_kept() -> None:
    """The demo table's or a replay's clock runs in a worker of the dashboard: a move that
    fails to come is shown, the clock pauses with the game as it stands, and the table steps
    on (it used to end the dashboard)."""
    setup = GameSetup(("ann", "bob"))
    source = StumblingTable(setup)
    app = DashboardApp(source, setup=setup, games_dir=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: source.stumbled and source.paused, "the stumble")
        assert len(app.game.move_stack) == 5
        await until(lambda: any("lost the thread" in n for n in notes(app)), "the fault shown")
        await pilot.press("space")  # the table resumes the clock
        await until(lambda: source.finished, "the rest of the game")
        assert app.is_running and len(app.game.move_stack) == 12
