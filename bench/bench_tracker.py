"""Latency of the table tracker: from an observation to the updated dashboard.

Observation logs (``rop-observations/1``) are played through the full path: each observation
is handed to the dashboard's tracker source as a sensor would hand it, the tracker decides in
its worker thread, the headless dashboard applies the move and draws the next frame, which is
rendered to the bytes a truecolor terminal would be sent. For each observation that changes
the game, the time from handing it over to the end of that frame is measured, at 80x24 and
at 160x48. Observations are fed one at a time to a dashboard at rest, on the log's own clock.

Two logs by default:

- ``bench/data/camera-sim-2p.jsonl``: the demo table's whole game seen through the camera
  path (rendered frames, seal detection, the stabiliser), recorded with
  ``python -m bench.record_observations``;
- a 4-player game in teams with Fate decks, as an ideal camera reports it (generated from a
  simulated game), the busiest dashboard.

``--log FILE`` measures any other log, such as one recorded at a real table with ``rop play
--record-observations``.

    ./run bench tracker            (python -m bench tracker)
    ./run bench tracker -- --quick
    ./run bench tracker -- --log my-table.jsonl
    ./run bench tracker -- --slowest 10     (the moves behind the tail)
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import time
from pathlib import Path

from companion.games.rule_of_power.engine.moves import DrawFate, NewRound
from companion.observations.log import ObservationLog, read_observation_log
from companion.observations import DrawAnnounced, Observation
from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from companion.games.rule_of_power.simulation.staging import stage
from companion.observations.scene import changes

CAMERA_LOG = Path(__file__).parent / "data" / "camera-sim-2p.jsonl"


def simulated_log(players: int, teams: int, seed: int) -> ObservationLog:
    """A simulated game's observations as an ideal camera reports them, with the Fate draws
    the players announce, half a second apart."""
    setup = make_setup(players, teams)
    _, moves = simulate_game(setup, seed=seed, fate=True)
    first = moves[0]
    assert isinstance(first, NewRound)
    out: list[Observation] = []
    before = None
    t = 0.0
    for scene in stage(setup, moves):
        t += 0.5
        if isinstance(scene.move, DrawFate):
            out.append(DrawAnnounced("table", t, scene.move.player))
        out.extend(changes(before, scene, t))
        before = scene
    decks = {p: first.deck_of(p) for p in setup.players}
    return ObservationLog(setup, first_dealer=first.dealer, facts={"fate_decks": decks, "draws_visible": True}, observations=out)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def tracker_only(logs: list[ObservationLog]) -> list[float]:
    times = []
    for log in logs:
        tracker = Tracker(GameSession(log.setup), TrackerConfig.from_log(log))
        tracker.begin()
        for obs in log.observations:
            start = time.perf_counter()
            tracker.tick(obs.at)
            tracker.observe(obs)
            times.append(time.perf_counter() - start)
    return times


async def dashboard_path(log: ObservationLog, limit: int, size: tuple[int, int] = (160, 48)) -> list[tuple[float, str]]:
    """Latency of each observation that changed the game: from handing it to the tracker
    source to the end of the first frame that shows the move, with the moves it showed."""
    from rich.console import Console

    from companion.dashboard.app import DashboardApp
    from companion.dashboard.tracker_source import TrackerSource

    observations = log.observations[:limit]
    table_time = [observations[0].at if observations else 0.0]

    class Feed:
        """The sensors: the bench hands each observation over itself."""

        emit = None

        def __call__(self, emit):  # type: ignore[no-untyped-def]
            self.emit = emit
            return self

        def stop(self) -> None:
            pass

    terminal = Console(file=io.StringIO(), width=size[0], height=size[1], color_system="truecolor", force_terminal=True)
    frames: list[tuple[float, int]] = []
    """(end of the frame, moves of the game it shows)."""

    feed = Feed()
    # The table's time stands still while the bench waits between observations.
    source = TrackerSource(Tracker(GameSession(log.setup), TrackerConfig.from_log(log)), feed, label="observation log", clock=lambda: table_time[0])
    app = DashboardApp(source, setup=log.setup, games_dir=False, settlement_autoplay=False)
    display = app._display

    def timed_display(screen, renderable):  # type: ignore[no-untyped-def]
        # Textual hands every frame to App._display; a headless app stops short of writing
        # it to a terminal, so the bench renders the terminal's bytes itself.
        display(screen, renderable)
        if renderable is not None and app.game is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(terminal)
            frames.append((time.perf_counter(), len(app.game.move_stack)))

    app._display = timed_display  # type: ignore[method-assign]
    latencies: list[tuple[float, str]] = []
    async with app.run_test(size=size) as pilot:
        while feed.emit is None or app.game is None:
            await asyncio.sleep(0.01)
        for obs in observations:
            if app.screen is not app.screen_stack[0]:
                app.pop_screen()  # a round's settlement: the table reads it, then plays on
            await pilot.pause()  # each observation meets a dashboard at rest
            table_time[0] = obs.at
            before = source.handled
            moves_before = len(source.tracker.game.move_stack)
            start = time.perf_counter()
            feed.emit(obs)
            while source.handled == before:
                await asyncio.sleep(0.0002)
            target = len(source.tracker.game.move_stack)
            if target == moves_before:
                continue
            deadline = start + 10
            while not any(at > start and moves == target for at, moves in frames[-4:]):
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"the dashboard did not show move {target} within 10 s")
                await asyncio.sleep(0.0002)
            shown = next(at for at, moves in frames[-4:] if at > start and moves == target)
            game = source.tracker.game
            moves = ", ".join(type(m).__name__ for m in game.move_stack[moves_before:target])
            latencies.append((shown - start, f"move {target}: {moves}"))
        followed = len(source.tracker.game.move_stack)
    print(f"  {len(observations)} observations fed, {followed} moves followed, tracker {source.tracker.state.value}")
    return latencies


def report(name: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(f"  {name}: n={len(ms)}, median {statistics.median(ms):.2f} ms, p95 {percentile(ms, 95):.2f} ms, max {max(ms):.2f} ms")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench tracker")
    parser.add_argument("--quick", action="store_true", help="the first 150 observations of each log")
    parser.add_argument("--slowest", type=int, default=0, metavar="N", help="also list the N slowest observations of each run and the moves they brought")
    parser.add_argument("--log", action="append", default=[], metavar="FILE", help="an observation log to play instead of the default two; repeatable")
    args = parser.parse_args(argv)
    if args.log:
        logs = [(Path(f).name, read_observation_log(f)) for f in args.log]
    else:
        logs = [
            ("camera log, 2 players, demo table", read_observation_log(CAMERA_LOG)),
            ("4 players in teams, Fate decks", simulated_log(4, 2, seed=1)),
        ]
    print("tracker decision per observation:")
    report("tracker alone", tracker_only([log for _, log in logs]))
    limit = 150 if args.quick else 10**9
    met = True
    for name, log in logs:
        for size in ((80, 24), (160, 48)):
            print(f"observation -> dashboard frame ({name}; headless {size[0]}x{size[1]} dashboard):")
            timed = asyncio.run(dashboard_path(log, limit, size))
            latencies = [seconds for seconds, _ in timed]
            report("observations that changed the game", latencies)
            for seconds, moves in sorted(timed, reverse=True)[: args.slowest]:
                print(f"    {seconds * 1000:7.2f} ms  {moves}")
            p95 = percentile([v * 1000 for v in latencies], 95)
            met &= p95 <= 100
            print(f"  target: p95 within 100 ms -> {'met' if p95 <= 100 else 'NOT met'}")
    print(f"latency target (p95 within 100 ms) {'met by every log and size' if met else 'NOT met'}")
    return 0
