"""``rop tags``: enrol card tags, watch the readers, list and check the registry.

Registered by the ``rop`` command through :func:`register`. nfcpy and pyserial are
imported inside the handlers so that ``rop`` starts fast and works without them.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from companion.observations.argtypes import float_range, non_empty

__all__ = ["register"]


WATCH_MAX_SECONDS = 7 * 24 * 3600


def _port(text: str) -> str:
    from hardware.board_link import PortError, check_port

    try:
        return check_port(text)
    except PortError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub: Any) -> None:
    from companion.contract import table_of, with_tables
    from companion.contract.registry import DEFAULT, games, names

    tags = sub.add_parser(
        "tags",
        help="NFC card tags: enrol, watch the readers, list and check the registry",
        description="NFC card tags. The registry lives in <calibration>/tags/<owner>.jsonl (docs/nfc.md).",
    )
    tags.set_defaults(func=lambda args: (tags.print_help(), 2)[1])
    cmds = tags.add_subparsers(dest="tags_command", metavar="ACTION")

    def common(p: argparse.ArgumentParser, reader: bool = True) -> None:
        p.add_argument("--calibration", metavar="DIR", help="calibration directory (default: $ROP_CALIBRATION, else ~/.local/share/rop/calibration; docs/nfc.md)")
        if reader:
            src = p.add_mutually_exclusive_group()
            src.add_argument("--nfc", metavar="PATH", type=non_empty("the NFC reader path"), help="nfcpy reader: usb, usb:VID:PID, tty:USB0:pn532, or pn532:PORT for a PN532 on any serial port (default: usb)")
            src.add_argument("--serial", metavar="PORT", type=_port, help="reader board: /dev/ttyACM0, COM3, socket://host:port")

    tables = with_tables(games())
    decks = [*dict.fromkeys(d for g in tables for d in table_of(g).choices(expansions_apart=False) if d != "all"), "all"]
    offered = "; ".join(f"{g.title}'s {', '.join(d for d in table_of(g).choices(expansions_apart=False) if d != 'all')}" for g in tables)
    expansions = "; ".join(f"{g.title}: {', '.join(p.what for d in table_of(g).decks for p in d.parts if p.expansion)}"
                           for g in tables if any(p.expansion for d in table_of(g).decks for p in d.parts))
    p = cmds.add_parser("enrol", help="tap every card once to record its tag (and write the card on it)")
    common(p)
    p.add_argument("--owner", required=True, help="whose cards these are (also the registry file name)")
    p.add_argument("--game", default=None, metavar="GAME", help=f"whose deck: {', '.join(names())} (default {DEFAULT})")
    p.add_argument("--deck", choices=decks, default="all",
                   help=f"which cards to walk through: {offered}; or all")
    p.add_argument("--expansion", action="store_true", help=f"include the chosen deck's expansion cards ({expansions or 'none'})")
    p.add_argument("--card", action="append", metavar="CARD", help="only these cards (repeat, or comma separated: 6M, W016, thief, 10H, Q♠), e.g. to replace a tag")
    p.add_argument("--no-write", action="store_true", help="record UIDs only, do not write NDEF on the tags")
    p.set_defaults(func=_enrol)

    p = cmds.add_parser("watch", help="print taps, lifts and reader status live (for setting up a table)")
    common(p)
    p.add_argument("--seconds", type=float_range(0, WATCH_MAX_SECONDS), help="stop after this many seconds, at most a week (default: until Ctrl-C)")
    p.set_defaults(func=_watch)

    p = cmds.add_parser("list", help="list enrolled tags")
    common(p, reader=False)
    p.add_argument("--owner", help="only this owner's tags")
    p.set_defaults(func=_list)

    p = cmds.add_parser("check", help="check the registry files; exit status 1 on problems")
    common(p, reader=False)
    p.set_defaults(func=_check)

    p = cmds.add_parser("forget", help="remove a tag from the registry, by UID or by card (6m, W016, thief)")
    common(p, reader=False)
    p.add_argument("what", metavar="UID|CARD")
    p.add_argument("--owner", required=True)
    p.add_argument("--game", default=None, metavar="GAME", help="the card's game, where its notation could name another game's card (10D)")
    p.set_defaults(func=_forget)


def _registry(args: argparse.Namespace) -> Any:
    from .registry import Registry, calibration_dir

    return Registry.load(calibration_dir(args.calibration) / "tags")


def _start_reader(args: argparse.Namespace, emit: Any, write_plan: Any = None, cards: Any = None) -> Any:
    """The raw tag source for enrolment (events before any registry lookup); ``cards`` is the
    catalogue whose records the tags may already carry."""
    if args.serial:
        from .board_link import BoardLink

        return BoardLink(args.serial, emit).start()
    from .usb_reader import UsbReader

    return UsbReader(args.nfc or "usb", emit, write_plan=write_plan, cards=cards).start()


def _say_problems(registry: Any) -> None:
    for problem in registry.problems:
        print(f"warning: {problem}", file=sys.stderr)


def _enrol(args: argparse.Namespace) -> int:
    from companion.contract.allocation import AllocationError, installed
    from companion.contract.errors import UnknownCardError
    from companion.contract.registry import UnknownGameError, game

    from .enrolment import Enrolment, read_lines_into
    from .registry import RegistryError, normalise_owner

    try:
        owner = normalise_owner(args.owner)
        played = game(args.game) if args.game else game()
        installed()  # two installed games claiming one record type: refused, both named
    except (RegistryError, UnknownGameError, AllocationError) as exc:
        print(f"rop tags enrol: {exc}", file=sys.stderr)
        return 2
    if args.card:
        try:
            cards = list(dict.fromkeys(played.cards.parse_many(",".join(args.card))))
        except UnknownCardError as exc:
            print(f"rop tags enrol: --card: {exc}", file=sys.stderr)
            return 2
    else:
        try:
            cards = _deck(played, args.deck, args.expansion)
        except ValueError as exc:
            print(f"rop tags enrol: --deck: {exc}", file=sys.stderr)
            return 2
    colours = _colours(played, cards)
    if colours and owner not in colours:
        # A deck printed in each of the box's colours: its tags name the colour, as its seals do.
        print(f"rop tags enrol: --owner {args.owner}: the copies of these cards are the colours {', '.join(colours)}; "
              f"enrol each colour's cards with --owner COLOUR", file=sys.stderr)
        return 2
    registry = _registry(args)
    _say_problems(registry)
    write = not args.no_write and not args.serial
    if args.serial and not args.no_write:
        print("note: the reader board reads UIDs only; the cards are recorded by UID", file=sys.stderr)
    walk = Enrolment(registry, owner, cards, write=write)
    reader = _start_reader(args, walk.event, write_plan=walk.write_plan if write else None, cards=played.cards)
    read_lines_into(walk.typed, sys.stdin)
    try:
        result = walk.run()
    finally:
        reader.stop()
    return 1 if result.quit_early and not result.enrolled else 0


def _colours(played: Any, cards: list[Any]) -> tuple[str, ...]:
    """The colours naming the copies of ``cards``' decks, where those are the box's colours."""
    spec = getattr(played, "table", None)
    return next((spec.deck_of(c).colours for c in cards if spec.deck_of(c).colours), ()) if spec is not None else ()


def _deck(played: Any, deck: str, expansion: bool) -> list[Any]:
    """The cards of ``--deck`` in ``played``'s game (its table spec's), with their deck's
    expansion cards if ``expansion``; :class:`ValueError` for a deck it lacks."""
    spec = getattr(played, "table", None)
    if spec is None:
        raise ValueError(f"{played.title} has no decks the companion can enrol yet")
    decks = spec.choices(expansions_apart=False)
    if deck not in decks:
        raise ValueError(f"{played.title}'s decks are {', '.join(decks)}, not {deck}")
    return list(spec.with_expansions(decks[deck]) if expansion else decks[deck])


def _watch(args: argparse.Namespace) -> int:
    from companion.observations import CardLifted, CardTapped, SensorStatus, UnknownTag

    from .board import ErrorLine, ReaderLine
    from .sensors import NfcSensors

    registry = _registry(args)
    _say_problems(registry)
    start = time.monotonic()

    def stamp() -> str:
        return f"{time.monotonic() - start:8.3f}"

    def show(obs: Any) -> None:
        if isinstance(obs, CardTapped):
            line = f"{obs.reader:8} TAP   {obs.card.long_label} ({obs.owner or 'table'})  tag {obs.uid}"
        elif isinstance(obs, CardLifted):
            line = f"{obs.reader:8} LIFT  {obs.card.long_label} ({obs.owner or 'table'})  tag {obs.uid}"
        elif isinstance(obs, UnknownTag):
            line = f"{obs.reader:8} ????  {obs.reason}"
        elif isinstance(obs, SensorStatus):
            readers = ", ".join(obs.readers) or "none"
            line = f"{'status':8} {obs.state.value.upper()}: {obs.detail} [readers: {readers}]"
        else:
            line = repr(obs)
        print(f"{stamp()} {line}", flush=True)

    def board_message(message: Any) -> None:
        if isinstance(message, ReaderLine):
            state = f"up, {message.detail}" if message.up else f"DOWN ({message.detail}): check its wiring and power"
            print(f"{stamp()} board:{message.index:<2} reader {state}", flush=True)
        elif isinstance(message, ErrorLine) and message.index is not None:
            print(f"{stamp()} board:{message.index:<2} reader error {message.code}", flush=True)

    serial = [args.serial] if args.serial else []
    nfc = [] if args.serial else [args.nfc or "usb"]
    def bad_line(raw: str, reason: str) -> None:
        # Lines the board link rejected: the table setter sees noise and wiring faults too.
        print(f"{stamp()} {'board':8} REJECTED {raw!r}: {reason}", flush=True)

    reader = NfcSensors(show, nfc=nfc, serial=serial, registry=registry, on_board_message=board_message, on_bad_line=bad_line).start()
    print(f"{stamp()} watching {args.serial or args.nfc or 'usb'}; Ctrl-C stops", flush=True)
    try:
        if args.seconds is not None:
            time.sleep(args.seconds)
        else:
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
    return 0


def _list(args: argparse.Namespace) -> int:
    from .registry import RegistryError, normalise_owner

    registry = _registry(args)
    try:
        owner = normalise_owner(args.owner) if args.owner else None
    except RegistryError as exc:
        print(f"rop tags list: {exc}", file=sys.stderr)
        return 2
    entries = [e for e in registry.entries if owner is None or e.owner == owner]
    for e in sorted(entries, key=lambda e: (e.owner, e.card.id)):
        print(f"{e.owner:12} {e.card.long_label:34} {e.uid:20} {'NDEF' if e.ndef else 'UID '}  {e.enrolled}")
    print(f"{len(entries)} tag(s) in {registry.directory}")
    _say_problems(registry)
    return 0


def _check(args: argparse.Namespace) -> int:
    registry = _registry(args)
    for problem in registry.problems:
        print(problem)
    owners = registry.owners()
    print(f"{len(registry.entries)} tag(s) of {len(owners)} owner(s) in {registry.directory}: "
          f"{len(registry.problems)} problem(s)")
    return 1 if registry.problems else 0


def _forget(args: argparse.Namespace) -> int:
    from .registry import RegistryError

    from companion.contract.errors import UnknownCardError
    from companion.contract.registry import game, games

    registry = _registry(args)
    what = args.what
    # A card in any notation of any game (6m, w7, thief, 10h, Q♠); tag UIDs are 8 or 14 hex
    # digits, never shorter.
    if len(what.strip()) < 8:
        chosen = [game(args.game)] if args.game in {g.name for g in games()} else []
        for played in chosen or [game(), *(g for g in games() if g.name != game().name)]:
            try:
                what = played.cards.parse(what).id
                break
            except UnknownCardError:
                continue
    try:
        gone = registry.forget(args.owner, what)
    except RegistryError as exc:
        print(f"rop tags forget: {exc}", file=sys.stderr)
        return 2
    if not gone:
        print(f"rop tags forget: {args.owner} has no tag {args.what} in {registry.directory}", file=sys.stderr)
        return 1
    for e in gone:
        print(f"forgot {e.owner}'s {e.card.long_label}: tag {e.uid}")
    return 0
