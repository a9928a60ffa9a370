"""``rop club``: the club's archive, standings, ratings, live page and table feed.

- ``add RECORD...`` replays each record by its game's rules and stores it (a duplicate is
  recognised, a correction replaces the stored game, a refused record names file, line and
  rule, or the game whose club part is not written, while the rest of the batch goes in).
- ``standings`` and ``history PLAYER`` read the archive, one game at a time (``--game``,
  the default game otherwise), with the columns the game's club part names.
- ``export GAME`` writes a stored game as a play for BG Stats (its import JSON, or with
  ``--url`` the link that opens the app with it); ``export --csv`` writes the archive as CSV.
- ``token TABLE`` issues a table's posting token; ``serve`` runs the live page and accepts
  the tables' events; ``push RECORD...`` sends records to a club server by hand.

Errors exit with status 2 and a message, never a traceback. The club's database layer
(SQLAlchemy) and its server are imported when a club command runs, never by ``rop`` itself.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.contract.registry import DEFAULT, UnknownGameError

if TYPE_CHECKING:
    from companion.club.archive import Archive, ParsedGame
    from companion.club.parts import ClubPart
    from companion.records.format import RecordError


def register(sub: argparse._SubParsersAction) -> None:
    club = sub.add_parser(
        "club",
        help="the club: archive of games, standings, ratings, live page",
        description="Keep every table's games in one archive (SQLite on this computer, or a "
        "PostgreSQL server), print standings and ratings, and serve a live page for spectators.",
    )
    csub = club.add_subparsers(dest="club_command", metavar="SUBCOMMAND")

    def game_option(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("--game", default=DEFAULT, metavar="NAME", help=f"the game {what} (default: {DEFAULT})")

    def db_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--db",
            metavar="URL",
            default=None,
            help="archive: a SQLite file or URL, or postgresql://... (default: $ROP_CLUB_DB, "
            "else club.sqlite in the user's data directory)",
        )

    p = csub.add_parser("add", help="check game records by the rules and store them")
    p.add_argument("records", nargs="+", metavar="RECORD", help="record files, or directories of *.jsonl")
    p.add_argument("--season", default=None, help="season label (default: the year of each game)")
    db_option(p)
    p.set_defaults(func=cmd_add)

    p = csub.add_parser("standings", help="games, wins, the game's figures and ratings per player and team")
    p.add_argument("--season", default=None)
    game_option(p, "whose standings are printed")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    db_option(p)
    p.set_defaults(func=cmd_standings)

    p = csub.add_parser("history", help="a player's games, results and rating after each")
    p.add_argument("player")
    p.add_argument("--season", default=None)
    game_option(p, "whose games are listed")
    p.add_argument("--json", action="store_true")
    db_option(p)
    p.set_defaults(func=cmd_history)

    p = csub.add_parser(
        "export",
        help="a stored game as a play for BG Stats, or the archive as CSV",
        description="Write a stored game (any game's) as a play for the BG Stats play logger: its "
        "import JSON, or with --url the link that opens BG Stats with the play to confirm. With "
        "--csv, write the archive instead: a row a seat of each stored game, with its figures.",
    )
    p.add_argument("game_id", nargs="?", metavar="GAME", help="the stored game's id, or its start (as the page shows it)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--url", action="store_true", help="print the link that opens BG Stats with the play")
    what.add_argument("--csv", action="store_true", help="the archive as CSV instead of one game")
    p.add_argument("--game", default=None, metavar="NAME", help="with --csv: only this game's games, with its figures first")
    p.add_argument("--season", default=None, help="with --csv: only this season")
    p.add_argument("--out", "-o", type=Path, default=None, metavar="FILE", help="write to FILE instead of standard output")
    db_option(p)
    p.set_defaults(func=cmd_export)

    p = csub.add_parser("token", help="issue a table's token for posting to the club server")
    p.add_argument("table")
    p.add_argument("--tokens", type=Path, default=None, help="tokens file (default: club-tokens.txt in the data directory)")
    p.set_defaults(func=cmd_token)

    p = csub.add_parser("serve", help="the live page for spectators, and the tables' posts")
    db_option(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this computer only)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--tokens", type=Path, default=None, help="tokens file (default: club-tokens.txt in the data directory)")
    game_option(p, "the page is titled after and whose standings it shows (tables of every game may post)")
    p.set_defaults(func=cmd_serve)

    p = csub.add_parser("push", help="send game records to a club server (catch-up by hand)")
    p.add_argument("records", nargs="+", metavar="RECORD")
    p.add_argument("--club", required=True, metavar="URL", help="the club server, e.g. http://club.local:8765")
    p.add_argument("--token", required=True, help="this table's token (rop club token TABLE)")
    p.set_defaults(func=cmd_push)

    club.set_defaults(func=lambda args: (club.print_help(), 2)[1])


def _fail(message: str) -> int:
    print(f"rop club: {message}", file=sys.stderr)
    return 2


def _open(args: argparse.Namespace) -> Archive | None:
    from companion.club.archive import Archive
    from companion.club.database import ArchiveUnavailable, open_archive

    try:
        return Archive(open_archive(args.db))
    except ArchiveUnavailable as exc:
        _fail(str(exc))
        return None


def describe(exc: RecordError) -> str:
    rule = f" [{exc.rule}]" if exc.rule else ""
    return f"{exc}{rule}"


#: Records stored per transaction by ``rop club add``.
ADD_BATCH = 200


def cmd_add(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from companion.club.archive import read_record_file, record_paths
    from companion.records.format import RecordError

    archive = _open(args)
    if archive is None:
        return 2
    refused = 0
    counts = {"added": 0, "duplicate": 0, "replaced": 0}
    what = {"added": "stored", "duplicate": "already stored", "replaced": "replaced (corrected)"}
    batch: list[tuple[Path, ParsedGame]] = []

    def store() -> bool:
        try:
            results = archive.store_many((parsed for _, parsed in batch), season=args.season)
        except SQLAlchemyError as exc:
            print(f"rop club add: the archive could not store {len(batch)} record(s) from {batch[0][0]} on: {exc}", file=sys.stderr)
            return False
        for (path, _), result in zip(batch, results):
            counts[result.status] += 1
            print(f"{path}: {what[result.status]} as game {result.game_id}")
        batch.clear()
        return True

    for path in record_paths(args.records):
        try:
            batch.append((path, read_record_file(path)))
        except RecordError as exc:
            refused += 1
            print(f"rop club add: refused {describe(exc)}", file=sys.stderr)
            continue
        if len(batch) >= ADD_BATCH and not store():
            return 2
    if batch and not store():
        return 2
    print(
        f"{counts['added']} stored, {counts['replaced']} replaced, {counts['duplicate']} already stored, {refused} refused",
        file=sys.stderr,
    )
    return 2 if refused else 0


def _part(name: str) -> ClubPart | None:
    """The club part of the game called ``name``; ``None`` (said) for a game the club
    cannot show."""
    from companion.club.parts import NoClubPart
    from companion.club.standings import club_part

    try:
        return club_part(name)
    except (UnknownGameError, NoClubPart) as exc:
        _fail(str(exc))
        return None


def cmd_standings(args: argparse.Namespace) -> int:
    from companion.club.standings import compute_standings

    part = _part(args.game)
    if part is None:
        return 2
    archive = _open(args)
    if archive is None:
        return 2
    table = compute_standings(archive.engine, args.season, game=args.game)
    if args.json:
        print(json.dumps(table.to_json(), indent=2))
        return 0
    if args.csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(table.columns)
        for row in table.rows():
            data = row.to_json()
            writer.writerow(["" if data[c] is None else data[c] for c in table.columns])
        return 0
    for title, rows in (("Players", table.players), ("Teams", table.teams)):
        if not rows:
            continue
        print(f"{title}{' (season ' + args.season + ')' if args.season else ''}")
        heads = "".join(f" {c.heading:>{c.width}}" for c in part.columns)
        name = max([16, *(len(s.name) for s in rows)])  # a long name moves the columns along
        print(f"  {'name':<{name}} {'games':>5} {'unfin':>5} {'wins':>4}{heads} {'rating':>7}")
        for s in rows:
            rating = f"{s.rating:7.2f}" if s.rating is not None else "      -"
            figures = "".join(f" {s.figures[c.figure]:>{c.width}}" for c in part.columns)
            print(f"  {s.name:<{name}} {s.games:>5} {s.unfinished:>5} {s.wins:>4}{figures} {rating}")
        print(standings_legend(part))
    if not table.players:
        print("no games stored yet")
    return 0


def standings_legend(part: ClubPart, width: int = 80) -> str:
    """The line (or lines, at ``width``) under a standings table that says what its short
    headings mean, in the game's words."""
    entries = ["unfin = unfinished games", *(c.legend for c in part.columns)]
    lines = ["  " + entries[0]]
    for entry in entries[1:]:
        # An entry is never split across lines: "agst = points" alone would say nothing.
        if len(lines[-1]) + 2 + len(entry) + 1 > width:
            lines[-1] += ","
            lines.append("  " + entry)
        else:
            lines[-1] += ", " + entry
    return "\n".join(lines)


def cmd_history(args: argparse.Namespace) -> int:
    from companion.club.standings import history

    part = _part(args.game)
    if part is None:
        return 2
    archive = _open(args)
    if archive is None:
        return 2
    rows = history(archive.engine, args.player, args.season, game=args.game)
    if not rows:
        return _fail(f"no stored games of player {args.player!r}")
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for line in history_lines(part, rows):
        print(line)
    return 0


def history_lines(part: ClubPart, rows: list[dict[str, Any]]) -> list[str]:
    """``rop club history``'s header row and a line per game, each column as wide as its
    widest entry, so that a long season or player name moves the whole column along."""
    rated = [f"{r['rating_after']:.2f}" for r in rows if r["rating_after"] is not None]
    digits = max(map(len, rated), default=0)
    table = [["played", "season", "players", "side", "result", part.history_heading, "rating", "game"]]
    for r in rows:
        # The ratings' points line up: "rating  0.74" over "rating -1.83".
        rating = f"rating {r['rating_after']:>{digits}.2f}" if r["rating_after"] is not None else "not rated"
        table.append(
            [
                r["played_at"][:16], r["season"], ", ".join(r["players"]), r["side"], r["result"],
                part.history_text.format(**r), rating, r["game"][:12],
            ]
        )
    widths = [max(len(row[k]) for row in table) for k in range(len(table[0]))]
    figures = 5
    lines = []
    for n, row in enumerate(table):
        # The game's figures are one fixed-width piece: its heading is centred over them, and
        # they end under a heading wider than they are.
        cells = [(cell.center(w) if n == 0 else cell.rjust(w)) if k == figures else cell.ljust(w) for k, (cell, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


def cmd_export(args: argparse.Namespace) -> int:
    from companion.club.export import GameNotFound, archive_rows, bgstats_play, bgstats_url, find_game
    from companion.club.parts import NoClubPart

    if args.csv == (args.game_id is not None):
        return _fail("export: give a stored game's id, or --csv for the whole archive")
    if args.game is not None and not args.csv:
        return _fail("export: --game chooses the games of --csv; a stored game is named by its id")
    if args.game is not None and _part(args.game) is None:
        return 2
    archive = _open(args)
    if archive is None:
        return 2
    try:
        out = args.out.open("w", encoding="utf-8", newline="") if args.out else sys.stdout
    except OSError as exc:
        return _fail(f"export: cannot write {args.out}: {exc.strerror or exc}")
    try:
        if args.csv:
            writer = csv.writer(out)
            for row in archive_rows(archive.engine, game=args.game, season=args.season):
                writer.writerow(row)
            return 0
        try:
            gid = find_game(archive.engine, args.game_id)
        except GameNotFound as exc:
            return _fail(f"export: {exc}")
        stored = archive.game(gid)
        assert stored is not None
        try:
            play = bgstats_play(stored, [json.loads(line) for line in archive.events(gid)])
        except (UnknownGameError, NoClubPart) as exc:
            return _fail(f"export: {exc}")
        print(bgstats_url(play) if args.url else json.dumps(play, indent=2, ensure_ascii=False), file=out)
        return 0
    finally:
        if args.out:
            out.close()


def cmd_token(args: argparse.Namespace) -> int:
    from companion.club.tokens import TokenError, default_tokens_path, issue_token

    path = args.tokens or default_tokens_path()
    try:
        token = issue_token(path, args.table)
    except (TokenError, OSError) as exc:
        return _fail(str(exc))
    print(token)
    print(f"token for table {args.table} written (hashed) to {path}; give it to the table: rop ... --club URL --token TOKEN", file=sys.stderr)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from companion.club.database import ArchiveUnavailable
    from companion.club.parts import NoClubPart
    from companion.club.server import serve
    from companion.club.tokens import TokenError, default_tokens_path

    try:
        return serve(args.db, host=args.host, port=args.port, tokens_path=args.tokens or default_tokens_path(), game=args.game)
    except (ArchiveUnavailable, TokenError, OSError, UnknownGameError, NoClubPart) as exc:
        return _fail(str(exc))


def cmd_push(args: argparse.Namespace) -> int:
    from companion.club.archive import record_paths
    from companion.club.feed import PushError, push_record

    status = 0
    for path in record_paths(args.records):
        try:
            sent = push_record(args.club, args.token, path)
        except PushError as exc:
            status = 2
            print(f"rop club push: {exc}", file=sys.stderr)
            continue
        print(f"{path}: {sent.sent} event(s) sent, {sent.already} already on the server (game {sent.game_id})")
    return status
