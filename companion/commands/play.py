"""``rop play``: keep a game at a real table in the dashboard, by keyboard and mouse.

Every event is saved as it happens to a ``rop-record/1`` file in the games directory, so
``rop play --resume`` continues a game exactly where it stood after a crash or a closed
terminal. Sensor options (camera, NFC readers) will feed the same dashboard later.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.moves import UNSEEN, Deal, NewRound
from companion.record import RecordError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "play",
        help="keep a game at the table in the dashboard (manual entry, saved as it happens)",
        description="Keep a game of Rule of Power at a real table: set up players, teams, target and "
        "Fate decks, type deals and plays, undo and correct any event. Every event is saved to a "
        "rop-record/1 file as it happens; --resume continues the last unfinished game.",
    )
    p.add_argument("--players", default=None, help="players in seating order, clockwise: ann,bob,cy,dee (skips the setup dialog)")
    p.add_argument("--teams", type=int, default=0, help="number of teams; team-mates sit alternately (R16)")
    p.add_argument("--target", type=int, default=11, help="points to win: 11, 16, 21, ... (R14)")
    p.add_argument("--expansion", action="store_true", help="with the Higher Powers expansion (R2)")
    p.add_argument("--fate", choices=("none", "random", "custom"), default="none", help="Fate decks: none, seven at random each, or --fate-decks")
    p.add_argument("--fate-decks", default="", metavar="DECKS", help='"ann=F001 F002 F003 F004 F005 F006 F007; bob=..."')
    p.add_argument("--dealer", default="", help="the first round's dealer (default: the last player listed)")
    p.add_argument("--companion-deals", action="store_true", help="the companion shuffles and deals (no physical cards needed)")
    p.add_argument("--seed", type=int, default=None, help="the companion's shuffle, for a repeatable game")
    p.add_argument("--teaching", action="store_true", help="start in teaching mode (shows the hand of the player to move)")
    p.add_argument("--resume", nargs="?", const="", default=None, metavar="RECORD", help="continue the last unfinished game (or RECORD)")
    p.add_argument("--games-dir", default=None, help="where games are saved (default $ROP_GAMES_DIR or ~/.local/share/rop/games)")
    sensors = p.add_argument_group("sensors (not available yet)")
    sensors.add_argument("--camera", default=None, help=argparse.SUPPRESS)
    sensors.add_argument("--nfc", default=None, help=argparse.SUPPRESS)
    sensors.add_argument("--serial", default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_play)


def _dealt_by_companion(moves: list) -> bool:
    """A record the companion dealt has every card known and every Fate deck's order."""
    for move in moves:
        if isinstance(move, NewRound) and not move.fate_order_known:
            return False
        if isinstance(move, Deal) and any(c is UNSEEN for _, cards in move.hands for c in cards):
            return False
    return True


class ResumeError(Exception):
    pass


def resume_app(record: str | None, games_dir: Path, *, teaching: bool = False, seed: int | None = None):  # type: ignore[no-untyped-def]
    """The dashboard on a saved game, ready to continue it: ``record``, or the last unfinished
    game in ``games_dir``. A last line cut short by a crash is dropped (it was never whole)."""
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.sources import ManualSource
    from companion.dashboard.store import GameFile, last_unfinished, load_for_resume

    if record:
        path = Path(record)
        try:
            game = load_for_resume(path)
        except (OSError, RecordError) as exc:
            raise ResumeError(f"cannot resume {path}: {exc}") from None
    else:
        found = last_unfinished(games_dir)
        if found is None:
            raise ResumeError(f"no unfinished game in {games_dir}")
        path, game = found
    if game.outcome() is not None:
        raise ResumeError(f"{path} is a finished game; rop replay {path} --tui shows it")
    moves = list(game.move_stack)
    rounds = [m for m in moves if isinstance(m, NewRound)]
    fate_sets = {p: list(rounds[0].deck_of(p)) for p in game.players if rounds and rounds[0].deck_of(p)}
    first_dealer = rounds[0].dealer if rounds else None
    source = ManualSource(companion_deals=_dealt_by_companion(moves), fate_sets=fate_sets, first_dealer=first_dealer, seed=seed)
    return DashboardApp(source, game=game, game_file=GameFile.reopen(path, game.setup), teaching=teaching, games_dir=games_dir)


def cmd_play(args: argparse.Namespace) -> int:
    if args.camera or args.nfc or args.serial:
        print("rop play: the camera and NFC readers cannot feed the dashboard yet; play by keyboard without them", file=sys.stderr)
        return 2
    from companion.dashboard.app import DashboardApp
    from companion.dashboard.sources import ManualSource
    from companion.dashboard.store import default_games_dir
    from companion.dashboard.tablesetup import SetupError, TableSetup, build_table_setup

    games_dir = Path(args.games_dir).expanduser() if args.games_dir else default_games_dir()
    table: TableSetup | None = None
    if args.players is not None and args.resume is None:
        try:
            table = build_table_setup(
                args.players,
                teams=args.teams,
                target=args.target,
                expansion=args.expansion,
                fate=args.fate,
                fate_decks=args.fate_decks,
                dealer=args.dealer,
                companion_deals=args.companion_deals,
                seed=args.seed,
            )
        except SetupError as exc:
            print(f"rop play: {exc}", file=sys.stderr)
            return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("rop play: the dashboard needs a terminal", file=sys.stderr)
        return 2
    if args.resume is not None:
        try:
            app = resume_app(args.resume or None, games_dir, teaching=args.teaching, seed=args.seed)
        except ResumeError as exc:
            print(f"rop play: {exc}", file=sys.stderr)
            return 1
        app.run()
        return 0
    source = ManualSource(seed=args.seed)
    if table is not None:
        source.fate_sets = table.fate_sets
        source.first_dealer = table.first_dealer
        source.companion_deals = table.companion_deals
    app = DashboardApp(source, teaching=args.teaching, needs_setup=table is None, setup=table.setup if table else None, games_dir=games_dir)
    app.run()
    return 0
