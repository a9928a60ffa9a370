"""``rop demo``: the companion on its built-in demo table.

The dashboard opens on a virtual table playing a game of its own at a watchable pace (pause,
step, faster, slower, restart). ``--plain`` prints the commentary of a shipped sample game in
the terminal instead, without the dashboard.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.commands.games import add_game_option, chosen_game, option_typed
from companion.commands.options import add_options, given, refuse_options
from companion.commands.play import run_dashboard
from companion.contract import Game, Option, registry
from companion.dashboard.kit import DashboardKit, NoDashboardError, kit_of
from companion.observations.argtypes import float_range, int_range
from companion.records.format import RecordError, Replayer, open_record, read_record, record_lines
from companion.session import Applied


def _kit(game: Game | None = None) -> DashboardKit:
    """The dashboard kit of the game the demo plays (by default the registry's default)."""
    return kit_of(game or registry.game())


def _samples(game: Game | None = None) -> dict[str, Path]:
    """The sample records of ``game`` (by default the registry's default), by name, the one
    the demo shows first."""
    return {sample.name: sample.path for sample in registry.samples_of(game or registry.game())}


def _every_sample() -> dict[str, tuple[Game, Path]]:
    """Every game's sample records, by name, with their game."""
    found: dict[str, tuple[Game, Path]] = {}
    for game in registry.games():
        for sample in registry.samples_of(game):
            found.setdefault(sample.name, (game, sample.path))
    return found


class DemoOptionError(ValueError):
    """A demo option the game chosen has no use for, or a sample of another game."""


def game_typed(argv: Sequence[str]) -> Game:
    """The game the demo's words name: ``--game``, else the game of ``--sample``'s record,
    else the default game (whose arguments the parser then takes)."""
    wanted = chosen_game(argv)
    if wanted is None:
        sample = option_typed(argv, "--sample")
        if sample is not None and sample in (every := _every_sample()):
            return every[sample][0]
    try:
        return registry.game(wanted) if wanted else registry.game()
    except registry.UnknownGameError:
        return registry.game()  # --game's own check says which games there are


def demo_game(args: argparse.Namespace) -> Game:
    """The game the demo plays: ``--game``, else the sample's game, else the default game."""
    if args.game:
        game = registry.game(args.game)
        if args.sample and args.sample not in _samples(game):
            raise DemoOptionError(f"{args.sample} is not a sample of {game.title}: rop replay --samples lists every game's")
        return game
    if args.sample:
        return _every_sample()[args.sample][0]
    return registry.game()


def default_level(levels: Sequence[str]) -> str:
    """The demo's level when none is asked for: the coach where the game has one, else its
    strongest level."""
    return "coach" if "coach" in levels else levels[-1]


def demo_level(args: argparse.Namespace, game: Game) -> str:
    """``--level``, or the game's default (:func:`default_level`)."""
    levels = list(_kit(game).demo.levels)
    if args.level is None:
        return default_level(levels)
    if args.level not in levels:
        raise DemoOptionError(f"{game.title}'s demo players play at {', '.join(levels)}, not {args.level}")
    return args.level


def demo_options(game: Game) -> tuple[Option, ...]:
    """The demo's options of ``game``: the game's own, in the demo's terms where its demo
    sets them otherwise, and the demo table's (:attr:`DemoKit.options
    <companion.dashboard.kit.DemoKit.options>`)."""
    try:
        own = tuple(kit_of(game).demo.options)
    except NoDashboardError:
        own = ()
    overridden = {o.name for o in own}
    return (*(o for o in game.options if o.name not in overridden), *own)


def demo_setup_options(args: argparse.Namespace, game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The demo table's options the command line gives, as ``game`` takes them: the set-up's
    (the game's options, :meth:`DemoKit.setup <companion.dashboard.kit.DemoKit.setup>`) and
    the virtual table's (:meth:`DemoKit.table <companion.dashboard.kit.DemoKit.table>`)."""
    chosen = given(args, demo_options(game))
    declared = {o.name for o in game.options}
    setup = {name: value for name, value in chosen.items() if name in declared}
    table = {name: value for name, value in chosen.items() if name not in declared}
    return setup, table


def register(sub: argparse._SubParsersAction, argv: Sequence[str]) -> None:
    """``rop demo``, with the demo options of the game ``argv`` names."""
    g = game_typed(argv)
    try:
        kit: DashboardKit | None = kit_of(g)
    except NoDashboardError:
        kit = None
    samples = list(_samples(g))
    p = sub.add_parser(
        "demo",
        help="watch a demo game played out on a virtual table, in the dashboard",
        description=f"Open the dashboard on a virtual table that plays a game of {g.title} of its own: "
        "Space pauses, N steps, +/- change the pace, R restarts, F2 toggles teaching mode, F1 lists every key. "
        "Its players play at --level: the coach by default where the game has one, so that the demo shows "
        "good play. With --plain, print the commentary of a sample game instead. Another game: --game NAME "
        f"({', '.join(registry.names())}).",
    )
    add_game_option(p, default=None)
    p.add_argument("--plain", action="store_true", help="print the commentary in the terminal, without the dashboard")
    p.add_argument(
        "--sample",
        default=None,
        choices=sorted(_every_sample()),
        metavar="NAME",
        help=(f"replay a shipped sample game of {g.title}: {', '.join(samples)}; default with --plain: {samples[0]}" if samples else f"{g.title} ships no sample game")
        + " (rop replay --samples lists every game's)",
    )
    p.add_argument("--delay", type=float_range(0, 60), default=None, help="seconds between moves, 0 to 60 (default 0.4 plain, 0.7 dashboard)")
    low, high = g.min_players, g.max_players
    players = max(low, min(4, high))
    p.add_argument("--players", type=int_range(low, high), default=players, help=f"players at the demo table, {low} to {high} (default {players})")
    table = p.add_argument_group(f"the {g.title} demo table (left out, the demo's defaults)")
    add_options(table, demo_options(g))
    refuse_options(p, g.title, {other.title: demo_options(other) for other in registry.games() if other.name != g.name})
    p.add_argument("--seed", type=int, default=7, help="the demo table's shuffle (default 7)")
    p.add_argument("--no-teaching", action="store_true", help="start with teaching mode off")
    levels = list(kit.demo.levels) if kit is not None else []
    p.add_argument(
        "--level",
        choices=levels or None,
        default=None,
        help=f"how the demo's players play: {kit.demo.level_words}; default {default_level(levels)}" if kit is not None and levels else "how the demo's players play",
    )
    p.add_argument(
        "--camera-sim",
        action="store_true",
        help="the demo table seen through the real camera path: rendered frames, seal detection, "
        "the stabiliser and the table tracker (--delay is the time each step lies on the table)",
    )
    p.add_argument("--record-observations", default=None, metavar="FILE", help="with --camera-sim: also write what the camera reports to an observation log")
    p.set_defaults(func=cmd_demo)


def _is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def cmd_demo(args: argparse.Namespace) -> int:
    try:
        game = demo_game(args)
        level = demo_level(args, game)
        setup_options, table_options = demo_setup_options(args, game)
    except (DemoOptionError, NoDashboardError) as exc:
        print(f"rop demo: {exc}", file=sys.stderr)
        return 2
    setup = None
    if not args.sample and not args.camera_sim:
        try:
            setup = _kit(game).demo.setup(args.players, **setup_options)
            # The virtual table says here, not in the clock's worker, what it cannot do.
            _kit(game).demo.table(setup, seed=args.seed, level=level, slips=0.0, **table_options)
        except ValueError as exc:
            print(f"rop demo: {exc}", file=sys.stderr)
            return 2
    if args.plain or not _is_terminal():
        if not args.plain:
            print("rop demo: no terminal to draw the dashboard on; printing the commentary (--plain)", file=sys.stderr)
        samples = _samples(game)
        if not args.sample and not samples:
            print(f"rop demo: {game.title} ships no sample game to comment on", file=sys.stderr)
            return 2
        sample = args.sample or next(iter(samples))
        return run_plain(sample, 0.4 if args.delay is None else args.delay, game=game)
    if args.camera_sim:
        return run_camera_sim(args, game, table_options)
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.sources import DemoSource, ReplaySource

    delay = 0.7 if args.delay is None else args.delay
    source: DemoSource | ReplaySource
    if args.sample:
        source = ReplaySource(_samples(game)[args.sample], delay=delay)
    else:
        assert setup is not None
        source = DemoSource(setup, seed=args.seed, delay=delay, level=level, **table_options)
    app = DashboardApp(source, game=game, teaching=not args.no_teaching)
    return run_dashboard(app)


def camera_sim_app(
    *,
    seed: int = 7,
    step_s: float = 1.5,
    teaching: bool = True,
    games_dir: str | bool = False,
    record: str | None = None,
    game: Game | None = None,
    **options: Any,
):
    """The dashboard on the demo table (of ``game``, by default the default game's) seen
    through the camera path and the tracker, with the demo table's ``options``
    (:attr:`DemoKit.options <companion.dashboard.kit.DemoKit.options>`); with ``record``, what
    the camera reports is written to that observation log too."""
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.tracker_source import TrackerSource
    from companion.observations.log import ObservationRecorder
    from companion.session import GameSession
    from companion.tracker import Tracker, TrackerConfig

    camera = _kit(game).demo.camera(seed=seed, step_s=step_s, **options)
    table = camera.log
    recorder = ObservationRecorder(record, table) if record else None
    source = TrackerSource(Tracker(GameSession(table.setup), TrackerConfig.from_log(table)), camera.start, label="camera-sim", recorder=recorder)
    return DashboardApp(source, teaching=teaching, setup=table.setup, games_dir=games_dir)


def run_camera_sim(args: argparse.Namespace, game: Game | None = None, options: dict[str, Any] | None = None) -> int:
    from companion.observations.log import ObservationLogError

    if args.sample:
        print("rop demo: --camera-sim plays a game of its own (two players on the demo mat); --sample replays a record", file=sys.stderr)
        return 2
    try:
        app = camera_sim_app(
            seed=args.seed,
            step_s=1.5 if args.delay is None else args.delay,
            teaching=not args.no_teaching,
            record=args.record_observations,
            game=game,
            **(options or {}),
        )
    except (ObservationLogError, ValueError) as exc:
        print(f"rop demo: {exc}", file=sys.stderr)
        return 2
    return run_dashboard(app)


def run_plain(sample: str, delay: float, *, game: Game | None = None) -> int:
    """The commentary of a sample game (of ``game``, by default the default game's): each move
    in the event log's words and, at the end of each scoring period, the reasons of its points
    and the totals."""
    path = _samples(game)[sample]
    kit = _kit(game)
    out = sys.stdout

    class Narrator(Replayer):
        told = 0

        def visit_move(self, move, line):
            game = self.game
            assert game is not None
            effects = game.apply(move)
            first, *rest = kit.log_lines(game, Applied("plain", self.told, move, effects))
            self.told += 1
            print(first.text, file=out, flush=True)
            if effects.result is not None:
                for entry in rest:
                    if entry.kind == "note":
                        print("   " + entry.text, file=out)
                print("   Totals: " + ", ".join(f"{s} {t}" for s, t in game.totals.items()), file=out, flush=True)
            time.sleep(delay)

    narrator = Narrator()
    with open_record(path) as fp:
        read_record(record_lines(fp, str(path)), narrator, path=str(path))
    assert narrator.game is not None
    outcome = narrator.game.outcome()
    if outcome:
        print(f"Winner: {outcome.winner}", file=out)
    return 0


def run_replay_tui(path: str, *, delay: float = 0.7) -> int:
    """``rop replay RECORD --tui``: the record played back in the dashboard."""
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.kit import NoDashboardError
    from companion.dashboard.sources import ReplaySource

    try:
        source = ReplaySource(path, delay=delay)
    except (OSError, RecordError) as exc:
        print(f"rop replay: {exc}", file=sys.stderr)
        return 1
    try:
        kit_of(source.setup.game)
    except NoDashboardError as exc:
        print(f"rop replay: {exc}; without --tui, rop replay prints the scores", file=sys.stderr)
        return 2
    if not _is_terminal():
        print("rop replay: --tui needs a terminal; without it, rop replay prints the scores", file=sys.stderr)
        return 2
    return run_dashboard(DashboardApp(source, teaching=False))
