"""``rop play``: keep a game at a real table in the dashboard, by keyboard and mouse.

``--game NAME`` chooses the game (the default game without it); the table's options are that
game's own (:attr:`Game.options <companion.contract.Game.options>`) and those its dashboard kit
adds for a table kept by hand (:attr:`DashboardKit.table_options
<companion.dashboard.kit.DashboardKit.table_options>`), in the game's words, so that ``rop play
--game NAME --help`` shows the options of that game alone. Every event is saved as it happens
to the game's record in the games directory, so ``rop play --resume`` continues a game exactly
where it stood after a crash or a closed terminal. With sensor options (``--camera``,
``--nfc``, ``--serial`` or a ``--config`` file) the table tracker follows the game from what
the sensors see, and the keyboard corrects it. ``--record-observations`` keeps what the
sensors reported in an observation log, and ``--observations`` plays such a log back through
the tracker (:mod:`companion.observations.log`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.commands.games import add_game_option, game_typed
from companion.commands.options import add_options, given, refuse_options
from companion.contract import Game, Option
from companion.contract.registry import games, names
from companion.records.format import RecordError


def register(sub: argparse._SubParsersAction, argv: Sequence[str]) -> None:
    """``rop play``, with the table options of the game ``argv`` names."""
    g = game_typed(argv)
    p = sub.add_parser(
        "play",
        help="keep a game at the table in the dashboard (manual entry, saved as it happens)",
        description=f"Keep a game of {g.title} at a real table: set up the table (the players and "
        f"{g.title}'s options below, or the set-up dialog), then type each move as it is played; "
        "F1 in the dashboard lists the keys and how moves are typed. Undo and correct any event. "
        f"Every event is saved to the game's record ({g.codec.format}) as it happens; --resume "
        f"continues the last unfinished game. Another game: --game NAME ({', '.join(names())}).",
    )
    add_table_arguments(p, g, manual=True)
    p.add_argument("--seed", type=int, default=None, help="the companion's shuffle, for a repeatable game")
    p.add_argument("--teaching", action="store_true", help="start in teaching mode (shows the hand of the player to move)")
    p.set_defaults(func=cmd_play)


def table_options(g: Game, *, manual: bool) -> tuple[Option, ...]:
    """The options of a table of ``g`` kept by hand: the game's own and those its dashboard
    kit adds (with ``manual``, manual play's too: ``rop play``'s and not ``rop track``'s)."""
    from companion.dashboard.kit import NoDashboardError, kit_of

    try:
        kit = kit_of(g)
    except NoDashboardError:
        return tuple(g.options)
    return (*g.options, *kit.table_options, *(kit.manual_options if manual else ()))


def add_table_arguments(p: argparse.ArgumentParser, g: Game, *, manual: bool) -> None:
    """The options that describe a table of ``g``, its sensors and where it is saved (``rop
    play``; ``rop track`` without ``manual``); another game's table options are refused by
    name."""
    add_game_option(p)
    p.add_argument("--players", default=None, help="players in seating order, clockwise: ann,bob,cy,dee (skips the setup dialog)")
    p.add_argument("--resume", nargs="?", const="", default=None, metavar="RECORD", help="continue the last unfinished game (or RECORD)")
    p.add_argument("--games-dir", default=None, help="where games are saved (default $ROP_GAMES_DIR or ~/.local/share/rop/games)")
    # A table option is passed on to the game only when given: the game has its own defaults.
    # Each game has table options of its own: the group says whose these are, and where the others' are.
    table = p.add_argument_group(
        f"the {g.title} table, options of {g.title} alone (with --players; left out, the game's defaults; "
        f"another game's: rop {p.prog.split()[-1]} --game NAME --help)"
    )
    add_options(table, table_options(g, manual=manual))
    refuse_options(p, g.title, {other.title: table_options(other, manual=manual) for other in games() if other.name != g.name})
    club = p.add_argument_group("club: the table's events sent to a club server as they happen (docs/club.md)")
    club.add_argument("--club", default=None, metavar="URL", help="the club server (rop club serve), e.g. http://club.local:8765")
    club.add_argument("--token", default=None, help="this table's token (rop club token TABLE; default $ROP_CLUB_TOKEN)")
    sensors = p.add_argument_group("sensors: the companion follows the table by itself (docs/tracker.md)")
    sensors.add_argument("--camera", default=None, metavar="INDEX|URL", help="an overhead camera: cv2.VideoCapture index or URL")
    sensors.add_argument("--video", default=None, metavar="FILE", help="a recorded video of the table instead of a live camera")
    sensors.add_argument("--video-speed", type=float, default=None, metavar="X", help="--video played at X times the pace it was filmed (0: as fast as it decodes, on the video's own clock; default 1)")
    sensors.add_argument("--nfc", action="append", default=[], metavar="PATH", help="a USB NFC reader (usb, usb:VID:PID, pn532:PORT); repeatable")
    sensors.add_argument("--serial", action="append", default=[], metavar="PORT", help="a reader board (a device, socket://, loop://); once per board: the first's readers are board:0 ..., the second's board2:0 ...")
    sensors.add_argument("--reader", action="append", default=[], metavar="NAME=ZONE", help="which zone of the table layout a reader serves: board:0=centre; repeatable")
    sensors.add_argument("--layout", default=None, help="the table layout: a file, or a player count (default: the players' count)")
    sensors.add_argument("--config", default=None, metavar="FILE", help="a table configuration (players, sensors, readers), e.g. calibration/table.json")
    sensors.add_argument("--calibration", default=None, metavar="DIR", help="the calibration directory (owners, tags, layouts)")
    sensors.add_argument("--record-observations", default=None, metavar="FILE", help="also write what the sensors report to an observation log")
    sensors.add_argument("--observations", default=None, metavar="FILE", help="play an observation log back through the tracker, instead of sensors")
    sensors.add_argument("--speed", type=float, default=1.0, help="--observations played this many times faster (0: all at once; default 1)")


class Feed(Protocol):
    """What follows a session to somewhere else (the club server), until closed."""

    def close(self) -> None: ...


def club_feed(args: argparse.Namespace) -> Callable[[Any], Feed] | None:
    """What follows a session to feed the club server, with ``--club``; ``None`` without."""
    if not args.club:
        return None
    import os

    from companion.club.table import TableFeed

    token = args.token or os.environ.get("ROP_CLUB_TOKEN")
    if not token:
        raise ClubOptionError("--club needs this table's token: --token T or $ROP_CLUB_TOKEN (rop club token TABLE makes one)")
    return lambda session: TableFeed(session, args.club, token)


def has_sensors(args: argparse.Namespace) -> bool:
    return bool(args.camera is not None or args.video or args.nfc or args.serial or args.config or args.observations)


def games_dir_of(args: argparse.Namespace) -> Path:
    from companion.records.store import default_games_dir

    return Path(args.games_dir).expanduser() if args.games_dir else default_games_dir()


class ResumeError(Exception):
    pass


def run_dashboard(app: Any) -> int:
    """Run a dashboard until it closes; the exit status of ``rop``: 0 when the table quit it,
    non-zero when it died of a fault (Textual shows the traceback and sets its return code)."""
    app.run()
    return int(app.return_code or 0)


class ClubOptionError(Exception):
    """``--club`` given without what it needs."""


def resume_app(record: str | None, games_dir: Path, *, teaching: bool = False, seed: int | None = None, on_session: Callable[[Any], object] | None = None):
    """The dashboard on a saved game, ready to continue it: ``record``, or the last unfinished
    game in ``games_dir``. A last line cut short by a crash is dropped (it was never whole)."""
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.kit import kit_of
    from companion.dashboard.sources import ManualSource

    session, report = resumed_session(record or "", games_dir)
    # Manual play goes on as the record says it went (the kit reads what it needs from it).
    source = ManualSource(seed=seed, **kit_of(session.setup.game).resume_options(session.game))
    app = DashboardApp(source, session=session, teaching=teaching, games_dir=games_dir, on_session=on_session)
    app.resume_message = report.message
    return app


def game_of(args: argparse.Namespace) -> Game:
    """The game the command line names (``--game``; the default game without it)."""
    from companion.contract.registry import game

    return game(args.game) if getattr(args, "game", None) else game()


def _table_setup(args: argparse.Namespace, *, manual: bool):
    """Players and the table options given on the command line, as the chosen game's
    dashboard kit reads them; an option left out takes the game's own default
    (:class:`~companion.dashboard.kit.SetupError` if wrong)."""
    from companion.dashboard.kit import kit_of

    g = game_of(args)
    options = given(args, table_options(g, manual=manual))
    return kit_of(g).table_choice(args.players, seed=getattr(args, "seed", None), **options)  # rop track deals nothing: it has no --seed


def table_config(args: argparse.Namespace):
    """The table's configuration: the ``--config`` file, with the command line on top."""
    from companion.sensors.table import TableConfig, TableConfigError

    config = TableConfig.load(args.config) if args.config else TableConfig()
    if args.players:
        table = _table_setup(args, manual=False)
        config.setup = table.setup
        config.facts = {**config.facts, **table.facts}
        config.first_dealer = table.first_dealer
    if args.camera is not None:
        config.camera = int(args.camera) if args.camera.isdigit() else args.camera
    config.video = args.video or config.video
    if args.video_speed is not None:
        if args.video_speed < 0:
            raise TableConfigError(f"--video-speed {args.video_speed:g}: give 0 (as fast as possible) or more")
        config.video_speed = args.video_speed
    config.nfc += args.nfc
    config.serial += args.serial
    for mapping in args.reader:
        name, _, zone = mapping.partition("=")
        if not zone:
            raise TableConfigError(f"--reader {mapping!r}: write NAME=ZONE, e.g. board:0=centre")
        config.readers[name.strip()] = zone.strip()
    config.layout = args.layout or config.layout
    config.calibration = args.calibration or config.calibration
    if config.first_dealer is None:
        config.first_dealer = config.players[-1]
    config.check_readers(args.config or "--reader")
    return config


@dataclass
class SensedTable:
    """A table as its sensors see it: how it is equipped (``log``, the header an observation
    log would have), how to start its sensors, the clock they stamp observations with."""

    log: Any
    start: Any
    clock: Callable[[], float]
    label: str
    recorder: Any = None


def sensed_table(args: argparse.Namespace) -> SensedTable:
    """The sensors of the table the options describe: a played-back observation log, or the
    camera and NFC readers of the table configuration."""
    from companion.observations.facts import facts_of
    from companion.observations.log import LogPlayback, ObservationLog, ObservationRecorder, read_observation_log
    from companion.sensors.table import TableSensors

    if args.observations:
        log = read_observation_log(args.observations)
        playback = LogPlayback(log.observations, speed=args.speed)
        table = SensedTable(log, playback.start, playback.clock, f"log {Path(args.observations).name}")
    else:
        config = table_config(args)
        log = ObservationLog(
            config.setup,
            config.first_dealer,
            dict(config.readers),
            hands_unseen=True,
            facts=facts_of(config.setup.game).equip(config.facts, nfc=config.has_nfc),
        )

        sensors = TableSensors(config)
        label = " + ".join(x for x in ("camera" if config.has_camera else "", "NFC" if config.has_nfc else "") if x)
        # The table's clock stamps typed announcements: a video's own clock when it plays unpaced.
        table = SensedTable(log, sensors.start, sensors.clock, label)
    if args.record_observations:
        table.recorder = ObservationRecorder(args.record_observations, table.log, clock=table.clock)
    return table


def resumed_session(record: str, games_dir: Path):
    """The session of a saved game, ``record`` or (empty) the last unfinished game in
    ``games_dir``, replayed with its history and its record reopened; and the report of what
    resuming kept and set aside."""
    from companion.records.store import GameFile, last_unfinished, load_for_resume
    from companion.session import GameSession

    if record:
        path = Path(record)
        try:
            game, report = load_for_resume(path)
        except (OSError, RecordError) as exc:
            raise ResumeError(f"cannot resume {path}: {exc}") from None
    else:
        try:
            found = last_unfinished(games_dir)
        except (OSError, RecordError) as exc:
            raise ResumeError(f"cannot resume the last game: {exc}") from None
        if found is None:
            raise ResumeError(f"no unfinished game in {games_dir}")
        game, report = found
        path = report.path
    if game.outcome() is not None:
        raise ResumeError(f"{path} is a finished game; rop replay {path} --tui shows it")
    return GameSession(game=game, record=GameFile.reopen(path, game.setup)), report


def sensor_app(args: argparse.Namespace, games_dir: Path):
    """The dashboard following the table through its sensors (new game, or ``--resume``)."""
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.tracker_source import TrackerSource
    from companion.session import GameSession
    from companion.tracker import Tracker, TrackerConfig

    table = sensed_table(args)
    setup = table.log.setup
    if args.resume is None:
        # A new game's record is made by the dashboard when it starts the game.
        session = GameSession(setup)
        tracker = Tracker(session, TrackerConfig.from_log(table.log))
        source = TrackerSource(tracker, table.start, label=table.label, clock=table.clock, recorder=table.recorder)
        return DashboardApp(source, session=session, teaching=args.teaching, setup=setup, games_dir=games_dir, on_session=club_feed(args))
    session, report = resumed_session(args.resume, games_dir)
    tracker = Tracker(session, TrackerConfig.from_log(table.log))
    source = TrackerSource(tracker, table.start, label=table.label, clock=table.clock, recorder=table.recorder)
    app = DashboardApp(source, session=session, teaching=args.teaching, games_dir=games_dir, on_session=club_feed(args))
    app.resume_message = report.message
    return app


def table_errors() -> tuple[type[Exception], ...]:
    """What setting up a sensed table may refuse with a message for the table."""
    from companion.dashboard.kit import NoDashboardError, SetupError
    from companion.contract.errors import IllegalMoveError, InvalidMoveError
    from companion.observations.log import ObservationLogError
    from companion.sensors.table import TableConfigError

    return (TableConfigError, SetupError, NoDashboardError, IllegalMoveError, InvalidMoveError, ResumeError, ClubOptionError, RecordError, ObservationLogError, OSError)


def _play_with_sensors(args: argparse.Namespace, games_dir: Path) -> int:
    from companion.dashboard.kit import NoDashboardError

    try:
        app = sensor_app(args, games_dir)
    except NoDashboardError as exc:
        # A game without a screen yet is still followed, into its record, by `rop track`.
        print(f"rop play: {exc}: rop track takes the same options and follows the table without a screen", file=sys.stderr)
        return 2
    except table_errors() as exc:
        print(f"rop play: {exc}", file=sys.stderr)
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("rop play: the dashboard needs a terminal", file=sys.stderr)
        return 2
    return run_dashboard(app)


def cmd_play(args: argparse.Namespace) -> int:
    from companion.dashboard.kit import NoDashboardError, kit_of

    try:
        kit_of(game_of(args))
    except NoDashboardError as exc:
        print(f"rop play: {exc}; rop simulate and rop legal --game {game_of(args).name} serve it meanwhile", file=sys.stderr)
        return 2
    if has_sensors(args):
        g = game_of(args)
        if g.tracking() is None:
            print(f"rop play: {g.title} cannot be followed by sensors yet; without sensor options it is kept by keyboard", file=sys.stderr)
            return 2
        return _play_with_sensors(args, games_dir_of(args))
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.kit import SetupError, TableChoice
    from companion.dashboard.sources import ManualSource

    games_dir = games_dir_of(args)
    table: TableChoice | None = None
    if args.players is not None and args.resume is None:
        try:
            table = _table_setup(args, manual=True)
        except SetupError as exc:
            print(f"rop play: {exc}", file=sys.stderr)
            return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("rop play: the dashboard needs a terminal", file=sys.stderr)
        return 2
    try:
        follow = club_feed(args)
    except ClubOptionError as exc:
        print(f"rop play: {exc}", file=sys.stderr)
        return 2
    if args.resume is not None:
        try:
            app = resume_app(args.resume or None, games_dir, teaching=args.teaching, seed=args.seed, on_session=follow)
        except ResumeError as exc:
            print(f"rop play: {exc}", file=sys.stderr)
            return 1
        return run_dashboard(app)
    source = ManualSource(seed=args.seed)
    if table is not None:
        source.choose(dict(table.options))
    app = DashboardApp(
        source, game=game_of(args), teaching=args.teaching, needs_setup=table is None, setup=table.setup if table else None, games_dir=games_dir, on_session=follow
    )
    return run_dashboard(app)
