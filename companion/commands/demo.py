"""``rop demo``: the companion on its built-in demo table.

The dashboard opens on a virtual table playing a game of its own at a watchable pace (pause,
step, faster, slower, restart). ``--plain`` prints the commentary of a shipped sample game in
the terminal instead, without the dashboard.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from companion.commands.games import add_game_option, variants
from companion.commands.play import run_dashboard
from companion.dashboard.kit import DashboardKit, NoDashboardError, kit_of
from companion.contract import registry
from companion.contract import Game
from companion.observations.argtypes import float_range, int_range
from companion.records.format import RecordError, Replayer, open_record, read_record, record_lines
from companion.session import Applied


def _kit(game: Game | None = None) -> DashboardKit:
    """The dashboard kit of the game the demo plays (by default the registry's default)."""
    return kit_of(game or registry.game())


def _samples(game: Game | None = None) -> dict[str, Path]:
    """The sample records of ``game`` (by default the registry's default), by name."""
    return {sample.name: sample.path for sample in registry.samples_of(game or registry.game())}


def _every_sample() -> dict[str, tuple[Game, Path]]:
    """Every game's sample records, by name, with their game."""
    found: dict[str, tuple[Game, Path]] = {}
    for game in registry.games():
        for sample in registry.samples_of(game):
            found.setdefault(sample.name, (game, sample.path))
    return found


def _levels() -> list[str]:
    """Every level a game's demo players may play at."""
    levels: dict[str, None] = {}
    for game in registry.games():
        try:
            levels.update(dict.fromkeys(kit_of(game).demo.levels))
        except NoDashboardError:
            continue
    return list(levels)


class DemoOptionError(ValueError):
    """A demo option the game chosen has no use for, or a sample of another game."""


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


def demo_level(args: argparse.Namespace, game: Game) -> str:
    """``--level``, or the game's default: the coach where the game has one, else its
    strongest level."""
    levels = list(_kit(game).demo.levels)
    if args.level is None:
        return "coach" if "coach" in levels else levels[-1]
    if args.level not in levels:
        raise DemoOptionError(f"{game.title}'s demo players play at {', '.join(levels)}, not {args.level}")
    return args.level


def demo_setup_options(args: argparse.Namespace, game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The demo table's options the command line gives, as ``game`` takes them: the set-up's
    (teams, expansion, variant, target) and the virtual table's (Fate decks). An option the game
    has no use for is a :class:`DemoOptionError`."""
    declared = {o.name for o in game.options}
    setup: dict[str, Any] = {}
    given = {"teams": args.teams, "expansion": args.expansion, "variant": args.variant, "target": args.target}
    for name, value in given.items():
        if name in declared:
            if name == "teams" and value is None:
                value = 2  # the demo seats a game with teams in two teams unless told otherwise
            if value is not None:
                setup[name] = value
        elif value is not None:
            raise DemoOptionError(f"{game.title} has no --{name}")
    table: dict[str, Any] = {"fate": False} if args.no_fate else {}
    return setup, table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="watch a demo game played out on a virtual table, in the dashboard",
        description="Open the dashboard on a virtual table that plays a game of its own: Space pauses, "
        "N steps, +/- change the pace, R restarts, F2 toggles teaching mode, F1 lists every key. "
        "Its players play at --level: the coach by default, so that the demo shows good play. "
        "With --plain, print the commentary of a sample game instead.",
    )
    add_game_option(p, default=None)
    p.add_argument("--plain", action="store_true", help="print the commentary in the terminal, without the dashboard")
    p.add_argument(
        "--sample",
        default=None,
        choices=sorted(_every_sample()),
        help="replay a shipped sample game (rop replay --samples lists them; default with --plain: teams-4, or the game's first)",
    )
    p.add_argument("--delay", type=float_range(0, 60), default=None, help="seconds between moves, 0 to 60 (default 0.4 plain, 0.7 dashboard)")
    p.add_argument("--players", type=int_range(2, 6), default=4, help="players at the demo table, 2 to 6 (Circle of Power 2 to 4; default 4)")
    p.add_argument("--teams", type=int_range(0, 3), default=None, help="Rule of Power: number of teams, 0 to 3 (default 2; 0: everyone alone)")
    p.add_argument("--no-fate", action="store_true", help="Rule of Power: play without Fate decks")
    p.add_argument("--expansion", action="store_true", default=None, help="Rule of Power: with the Higher Powers expansion (R2)")
    p.add_argument("--variant", default=None, choices=variants(), help="Circle of Power: basic (default), lonely-tyrant (C18) or coloured-cities (C19)")
    p.add_argument("--target", type=int, default=None, help="Circle of Power: trophies that end the game (C17; default 6)")
    p.add_argument("--seed", type=int, default=7, help="the demo table's shuffle (default 7)")
    p.add_argument("--no-teaching", action="store_true", help="start with teaching mode off")
    p.add_argument(
        "--level",
        choices=_levels(),
        default=None,
        help="how the demo's players play. Rule of Power: random (any legal move), greedy (the best immediate points), "
        "coach (the coach, from each player's view only; coach:fast and coach:deep think less or more); default coach. "
        "Circle of Power: random, rule-of-thumb (a newcomer's habits), and coach once the game has a coach; "
        "default the coach, else rule-of-thumb",
    )
    p.add_argument(
        "--camera-sim",
        action="store_true",
        help="the demo table seen through the real camera path: rendered frames, seal detection, "
        "the stabiliser and the table tracker (two players; --delay is the time each step lies on the table)",
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
        sample = args.sample or ("teams-4" if "teams-4" in samples else next(iter(samples)))
        return run_plain(sample, 0.4 if args.delay is None else args.delay, game=game)
    if args.camera_sim:
        return run_camera_sim(args, game)
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
    *, seed: int = 7, fate: bool = True, step_s: float = 1.5, teaching: bool = True, games_dir: str | bool = False, record: str | None = None, game: Game | None = None
):
    """The dashboard on the demo table (of ``game``, by default the default game's) seen
    through the camera path and the tracker; with ``record``, what the camera reports is
    written to that observation log too."""
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.tracker_source import TrackerSource
    from companion.observations.log import ObservationRecorder
    from companion.session import GameSession
    from companion.tracker import Tracker, TrackerConfig

    camera = _kit(game).demo.camera(seed=seed, step_s=step_s, fate=fate)
    table = camera.log
    recorder = ObservationRecorder(record, table) if record else None
    source = TrackerSource(Tracker(GameSession(table.setup), TrackerConfig.from_log(table)), camera.start, label="camera-sim", recorder=recorder)
    return DashboardApp(source, teaching=teaching, setup=table.setup, games_dir=games_dir)


def run_camera_sim(args: argparse.Namespace, game: Game | None = None) -> int:
    from companion.observations.log import ObservationLogError

    if args.sample:
        print("rop demo: --camera-sim plays a game of its own (two players on the demo mat); --sample replays a record", file=sys.stderr)
        return 2
    try:
        app = camera_sim_app(
            seed=args.seed, fate=not args.no_fate, step_s=1.5 if args.delay is None else args.delay, teaching=not args.no_teaching, record=args.record_observations, game=game
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
