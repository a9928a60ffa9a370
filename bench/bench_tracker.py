"""Latency of the table tracker: from an observation to the updated dashboard.

Recorded observations (what a camera over a real table reports during a game, with the Fate
draws the players announce) are fed one at a time to the dashboard's tracker source, in a
headless dashboard. For each observation that changes the game, the time from handing it over
to the moment the dashboard has applied the move and redrawn its screen is measured, at 80x24
and at 160x48. The tracker's own decision time is reported too.

    ./run bench tracker            (python -m bench tracker)
    ./run bench tracker -- --quick
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import time

from companion.game import GameState
from companion.moves import DrawFate, NewRound
from companion.observations import DrawAnnounced, Observation
from companion.simulate import make_setup, simulate_game
from companion.tracker import Tracker, TrackerConfig
from companion.tracker.staging import changes, stage


def recorded_observations(players: int, teams: int, seed: int) -> tuple[object, list[Observation], NewRound]:
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
    return setup, out, first


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def tracker_only(games: int) -> list[float]:
    times = []
    for seed in range(games):
        setup, observations, first = recorded_observations(4, 2, seed)
        tracker = Tracker(GameState(setup), TrackerConfig(first_dealer=first.dealer, fate_decks={p: first.deck_of(p) for p in setup.players}, draws_visible=True))
        for obs in observations:
            start = time.perf_counter()
            tracker.tick(obs.at)
            tracker.observe(obs)
            times.append(time.perf_counter() - start)
    return times


async def dashboard_path(seed: int, limit: int, size: tuple[int, int] = (160, 48)) -> tuple[list[float], int]:
    """Latency of each observation that changed the game: from handing it to the sensors'
    queue to the end of the first frame that shows the move, rendered to the bytes a
    truecolor terminal would be sent."""
    from rich.console import Console

    from companion.dashboard.app import DashboardApp
    from companion.dashboard.tracker_source import TrackerSource

    setup, observations, first = recorded_observations(4, 2, seed)
    config = TrackerConfig(first_dealer=first.dealer, fate_decks={p: first.deck_of(p) for p in setup.players}, draws_visible=True)

    class Feed:
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
    source = TrackerSource(Tracker(GameState(setup), config), feed, label="recorded camera")
    app = DashboardApp(source, setup=setup, games_dir=False, settlement_autoplay=False)
    display = app._display

    def timed_display(screen, renderable):  # type: ignore[no-untyped-def]
        # Textual hands every frame to App._display; a headless app stops short of writing
        # it to a terminal, so the bench renders the terminal's bytes itself.
        display(screen, renderable)
        if renderable is not None and app.game is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(terminal)
            frames.append((time.perf_counter(), len(app.game.move_stack)))

    app._display = timed_display  # type: ignore[method-assign]
    latencies: list[float] = []
    async with app.run_test(size=size) as pilot:
        while feed.emit is None or app.game is None:
            await asyncio.sleep(0.01)
        for obs in observations[:limit]:
            if app.screen is not app.screen_stack[0]:
                app.pop_screen()  # a round's settlement: the table reads it, then plays on
            await pilot.pause()  # each observation meets a dashboard at rest
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
            latencies.append(shown - start)
    return latencies, len(observations[:limit])


def report(name: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(
        f"  {name}: n={len(ms)}, median {statistics.median(ms):.2f} ms, p95 {percentile(ms, 95):.2f} ms, max {max(ms):.2f} ms"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench tracker")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    print("tracker decision per observation (4 players in teams, Fate decks, recorded camera observations):")
    report("tracker alone", tracker_only(3 if args.quick else 10))
    limit = 150 if args.quick else 600
    for size in ((80, 24), (160, 48)):
        latencies, fed = asyncio.run(dashboard_path(seed=1, limit=limit, size=size))
        print(f"observation -> dashboard updated (headless {size[0]}x{size[1]} dashboard, {fed} observations fed one at a time):")
        report("observations that changed the game", latencies)
        p95 = percentile([v * 1000 for v in latencies], 95)
        print(f"  target: p95 within 100 ms -> {'met' if p95 <= 100 else 'NOT met'}")
    return 0
