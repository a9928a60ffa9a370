"""The camera commands of ``rop``: ``markers``, ``calibrate`` and ``vision detect|watch``.

Only argparse is imported here; OpenCV, NumPy and AprilTag load when a command runs, so
``rop`` starts fast.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.observations.argtypes import int_range

if TYPE_CHECKING:
    from vision.layout import Layout

__all__ = ["register"]


DEFAULT_OUT = "markers"
"""Where ``rop markers`` writes when not told: a folder of the current directory."""

DEFAULT_PLAYERS = 4
"""The standard layout used without ``--players`` or ``--layout``."""


def _tables() -> list:
    """Every registered game that has a table spec, the default first."""
    from companion.contract import with_tables
    from companion.contract.registry import games

    return with_tables(games())


def register(sub: argparse._SubParsersAction) -> None:
    from companion.contract import table_of

    tables = _tables()
    decks = [*dict.fromkeys(name for g in tables for name in table_of(g).choices(expansions_apart=True) if name != "all"), "all"]
    words = "; ".join(f"{g.title}: {', '.join(table_of(g).choice_words())}" for g in tables)
    p = sub.add_parser("markers", help="print seal-marker stickers for a player's cards, or the mat's corner markers")
    p.add_argument("--owner", help="player the cards belong to (given an owner slot on first use), or the colour of a deck "
                                   "whose copies are the box's colours; omit for cards without owner")
    p.add_argument("--deck", choices=decks, default="all",
                   help=f"{words}; all (default): every card of the game")
    p.add_argument("--card", action="append", metavar="CARD",
                   help="only these cards (repeat, or comma separated): 6M, W016, thief, 10H, Q♠ ...; replaces --deck")
    p.add_argument("--mat", action="store_true", help="print the table mat's four corner markers instead")
    p.add_argument("--out", default=DEFAULT_OUT,
                   help=f"directory to write into: DIR/<owner>/... or DIR/mat/... (default {DEFAULT_OUT}, in the current directory)")
    _table_options(p)
    p.set_defaults(func=_markers)

    p = sub.add_parser("calibrate", help="check the camera against the table layout and draw the zones over its picture")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--camera", help="camera index or stream URL (default 0)")
    src.add_argument("--video", help="a video file (its first frame is used)")
    src.add_argument("--image", help="a still image")
    p.add_argument("--out", default="calibration-check.png", help="annotated image to write (default calibration-check.png)")
    p.add_argument("--no-window", action="store_true", help="do not open a preview window")
    _table_options(p)
    _detector_options(p, decimate=1.0)
    p.set_defaults(func=_calibrate)

    p = sub.add_parser("vision", help="find cards in camera images")
    vs = p.add_subparsers(dest="vision_command", metavar="SUBCOMMAND", required=True)
    d = vs.add_parser("detect", help="list the cards in images")
    d.add_argument("images", nargs="+", metavar="IMAGE")
    d.add_argument("--json", action="store_true", help="one JSON line per image")
    d.add_argument("--no-layout", action="store_true", help="ignore the mat: report no zones or table positions")
    _table_options(d)
    _detector_options(d, decimate=1.0)
    d.set_defaults(func=_detect)

    w = vs.add_parser("watch", help="follow the table through a camera or a video and print what changes")
    src = w.add_mutually_exclusive_group()
    src.add_argument("--camera", help="camera index or stream URL (default 0)")
    src.add_argument("--video", help="a video file instead of a camera")
    w.add_argument("--json", action="store_true", help="one JSON line per observation")
    w.add_argument("--preview", action="store_true", help="show an annotated preview window")
    w.add_argument("--max-frames", type=int_range(1), help="stop after this many frames")
    _table_options(w)
    _detector_options(w, decimate=2.0)
    w.set_defaults(func=_watch)


def _table_options(p: argparse.ArgumentParser) -> None:
    from companion.contract import table_of
    from companion.contract.registry import DEFAULT, names

    counts = [n for g in _tables() for n, _ in table_of(g).mats.files]
    low, high = min(counts, default=2), max(counts, default=6)
    g = p.add_argument_group("table")
    g.add_argument("--game", default=None, metavar="GAME",
                   help=f"the game the table plays, whose cards and layout are read: {', '.join(names())} (default {DEFAULT})")
    g.add_argument("--players", type=int_range(low, high), default=DEFAULT_PLAYERS,
                   help=f"the game's standard layout for this many players, {low}-{high} (default {DEFAULT_PLAYERS}; "
                        "several numbers may share one layout where a table has a fixed number of seats)")
    g.add_argument("--layout", help="a layout file instead of a standard layout")
    g.add_argument("--names", help="player names in seat order, comma separated: zones become capture:<name> "
                                   "(where a seat is one player's for the whole game)")
    g.add_argument("--calibration", help="calibration directory (owners.json, layouts/); default: see docs/vision.md")


def _detector_options(p: argparse.ArgumentParser, *, decimate: float) -> None:
    g = p.add_argument_group("detector")
    g.add_argument("--detector", choices=("aruco", "apriltag"), default="aruco",
                   help="OpenCV's ArUco detector (default) or AprilTag 3 (pupil-apriltags)")
    g.add_argument("--decimate", type=float, choices=(1.0, 2.0), default=decimate,
                   help=f"AprilTag only: quad decimation, 1 finds smaller markers, 2 is faster (default {decimate:g})")


class _Fail(Exception):
    """A user error: printed as ``rop: message``, exit status 2."""


def _run(fn):
    def handler(args: argparse.Namespace) -> int:
        from companion.observations.outfiles import OutputError
        from vision.camera import CameraError
        from vision.images import ImageError
        from vision.layout import LayoutError
        from vision.markers import MarkerIdError
        from vision.owners import OwnerError

        try:
            return fn(args)
        except (_Fail, CameraError, ImageError, LayoutError, OwnerError, MarkerIdError, OutputError) as exc:
            print(f"rop {args.command}: {exc}", file=sys.stderr)
            return 2

    return handler


def _game(args: argparse.Namespace):
    """The game named by ``--game`` (the default game's without it)."""
    from companion.contract.registry import UnknownGameError, game

    try:
        return game(args.game) if args.game else game()
    except UnknownGameError as exc:
        raise _Fail(f"--game: {exc}") from None


def _layout(args: argparse.Namespace):
    from vision.layout import load_layout

    layout = load_layout(args.layout or args.players, calibration=args.calibration, game=_game(args).name)
    return layout


def _names(args: argparse.Namespace) -> list[str] | None:
    if not getattr(args, "names", None):
        return None
    return [n.strip() for n in args.names.split(",") if n.strip()]


def _registry(args: argparse.Namespace):
    from vision.owners import REGISTRY_FILE, OwnerRegistry
    from vision.paths import calibration_dir

    return OwnerRegistry.load(calibration_dir(args.calibration) / REGISTRY_FILE)


def _reader(args: argparse.Namespace, *, use_layout: bool = True, changes_only: bool = False):
    from vision.detect import MarkerDetector
    from vision.markers import FAMILY, family_for
    from vision.reader import TableReader

    played = _game(args)
    _spec(played)
    layout = _layout(args) if use_layout else None
    names = _names(args) if layout else None
    if names and layout is not None and not layout.seats_are_players:
        raise _Fail(f"--names: a {played.title} table's zones keep their seat numbers (its players change seats during the game)")
    family = family_for(played.cards)
    if args.detector == "apriltag" and family != FAMILY:
        raise _Fail(f"AprilTag 3 does not know the codes {played.title}'s seals use (the seal dictionary's beyond AprilTag 36h11): "
                    "read them with --detector aruco")
    return TableReader(layout=layout, owners=_registry(args), players=names, cards=played.cards,
                       detector=MarkerDetector(backend=args.detector, decimate=args.decimate, family=family), changes_only=changes_only)


# --- rop markers ---


@_run
def _markers(args: argparse.Namespace) -> int:
    from vision.sheets import card_stickers, output_dir, sticking, write_card_sheets, write_mat_sheets

    out = Path(args.out)
    played = _game(args)
    if args.mat:
        layout = _layout(args)
        files = write_mat_sheets(layout, output_dir(out, "mat"))
        print(f"wrote {len(files)} files to {out / 'mat'}: print at 100 %, one corner marker per page")
        print(mat_next_steps(out / "mat", layout, calibrate_command(args)))
        return 0
    spec = _spec(played)
    cards = _deck(played, args.deck)
    if args.card:
        from companion.contract.errors import UnknownCardError

        try:
            chosen = played.cards.parse_many(",".join(args.card))
        except UnknownCardError as exc:
            raise _Fail(f"--card: {exc}") from None
        cards = list(dict.fromkeys(chosen))
    # The first game's stickers go into DIR/<owner>/ (as they always did), another game's into
    # DIR/<game>/<owner>/: one owner's decks of two games never overwrite each other's sheets.
    root = output_dir(out, played.name) if spec.stickers.names_game else out
    if args.owner is None:
        _refuse_without_owner(played, spec, cards)
        stickers = card_stickers(cards, None, None)
        files = write_card_sheets(stickers, output_dir(root, "nobody"), title="Seal markers, no owner", how=sticking(played.name))
        print(f"wrote {len(files)} files to {root / 'nobody'}: {len(stickers)} stickers, print at 100 %")
        print(next_steps(root / "nobody", played.name, calibrate_command(args), backs=len(stickers) > len(cards)))
        return 0
    colours = _colours(spec, cards)
    if colours:
        if args.owner not in colours:
            raise _Fail(f"--owner {args.owner}: the copies of these cards are the colours {', '.join(colours)}")
        slot, owner = colours.index(args.owner), args.owner
        sheets = output_dir(root, owner)
        title = f"Seal markers of {owner}"
    else:
        registry = _registry(args)
        known = registry.slot_of(args.owner) is not None
        slot = registry.assign(args.owner)
        owner = registry.name_of(slot) or args.owner
        sheets = output_dir(root, owner)  # before the owner is given a slot for nothing
        if not known:
            try:
                path = registry.save()
            except OSError as exc:
                raise _Fail(f"cannot save the owner registry {registry.path} ({exc.strerror or exc}): is the calibration directory writable?") from None
            print(f"{owner} is owner slot {slot} (saved in {path})")
        title = f"Seal markers of {owner} (owner slot {slot})"
    if spec.stickers.names_game:
        title = f"{played.title}: {title[0].lower()}{title[1:]}"
    stickers = card_stickers(cards, slot, owner)
    files = write_card_sheets(stickers, sheets, title=title, how=sticking(played.name))
    print(f"wrote {len(files)} files to {root / owner}: {len(stickers)} stickers, print at 100 %")
    print(next_steps(root / owner, played.name, calibrate_command(args), backs=len(stickers) > len(cards)))
    return 0


def _spec(played):
    """``played``'s table spec; a :class:`_Fail` for a game that has none yet, or when two
    installed games claim the same seal ids (the allocator's error, naming both)."""
    from companion.contract.allocation import AllocationError, installed

    spec = getattr(played, "table", None)
    if spec is None or spec.seals is None:
        raise _Fail(f"the companion has no seal markers for {played.title} cards yet")
    try:
        installed()
    except AllocationError as exc:
        raise _Fail(str(exc)) from None
    return spec


def _refuse_without_owner(played, spec, cards) -> None:
    """A :class:`_Fail` naming ``--owner`` when one of ``cards`` cannot go without an owner."""
    from companion.contract import Use

    if not any(d.unowned for d in spec.decks):
        raise _Fail(f"{played.title}'s seals name the deck's owner: give --owner NAME")
    for deck in dict.fromkeys(spec.deck_of(c) for c in cards):
        if not deck.unowned:
            shared = "/".join(n for n, chosen in spec.choices(expansions_apart=True).items()
                              if n != "all" and all(spec.deck_of(c).unowned for c in chosen))
            belongs = f"{deck.title} cards belong to a player" if deck.use is Use.PER_PLAYER else f"the {deck.title}'s seals name its owner"
            raise _Fail(f"{belongs}: give --owner NAME (or --deck {shared} for cards without owner)")


def _colours(spec, cards) -> tuple[str, ...]:
    """The colours naming the copies of ``cards``' decks, where those are the box's colours."""
    return next((spec.deck_of(c).colours for c in cards if spec.deck_of(c).colours), ())


def _deck(played, deck: str) -> list:
    """The cards of ``--deck`` for ``played``'s game."""
    decks = _spec(played).choices(expansions_apart=True)
    if deck not in decks:
        raise _Fail(f"--deck {deck}: {played.title}'s decks are {', '.join(decks)}")
    return list(decks[deck])


def calibrate_command(args: argparse.Namespace) -> str:
    """The ``rop calibrate`` to run after ``rop markers``, with the table options it was given
    (``--game``, ``--players`` or ``--layout``, ``--calibration``), so that it can be copied
    as it is and checks the same table."""
    from companion.contract.registry import DEFAULT

    command = ["./run", "rop", "calibrate"]
    played = _game(args)
    if played.name != DEFAULT:
        command += ["--game", played.name]
    if args.layout:
        command += ["--layout", args.layout]  # it wins over --players, as it does here
    elif args.players != DEFAULT_PLAYERS:
        command += ["--players", str(args.players)]
    if args.calibration:
        command += ["--calibration", args.calibration]
    return shlex.join([*command, "--camera", "0"])


def next_steps(folder: Path, game_name: str | None = None, calibrate: str = "./run rop calibrate --camera 0", *, backs: bool = False) -> str:
    """What a person does with the sheets once they are written, in the words of ``game_name``'s
    table spec (the default game's), ending with ``calibrate`` (the command that checks them)
    on a line of its own; ``backs``: the sheets hold back stickers too."""
    import textwrap

    from companion.contract.registry import game

    played = game(game_name) if game_name else game()
    stickers = _spec(played).stickers
    corner = stickers.corner or "upright in the card's seal corner: bottom left of the face, 2 mm from both edges, words at the bottom, reading the way the card does."
    example = f" ({stickers.example})" if stickers.example else ""
    return "\n".join(
        [
            "Next:",
            f"  1. Print {folder / 'markers.pdf'} at 100 % (actual size, not 'fit to page'); the 100 mm bar",
            "     at the foot of each sheet should measure 100 mm with a ruler.",
            "  2. Cut along the grey outlines. Each sticker names its card: short form, id and owner,",
            f"     then the card's name{example}.",
            *textwrap.wrap(f"Stick each one {corner}", width=91, initial_indent="  3. ", subsequent_indent="     "),
            *(textwrap.wrap("The stickers marked 'back' go on the backs, one on each card of that deck, in the same corner "
                            "as seen from the back: a card lying face down then shows whose deck it is, never which card.",
                            width=91, initial_indent="     ", subsequent_indent="     ") if backs else []),
            "  4. Check the camera reads them: lay a few cards on the mat and run the line below",
            "     (it lists the cards it reads and their owners):",
            f"     {calibrate}",
        ]
    )


def mat_next_steps(folder: Path, layout: Layout, calibrate: str = "./run rop calibrate --camera 0") -> str:
    """What a person does with the mat's corner pages once they are written: where each
    marker goes, from the layout; then ``calibrate`` (the command that checks the mat) on a
    line of its own."""
    w, h = layout.mat_mm
    corners = []
    for place in layout.mat_markers:
        cx, cy = place.centre_mm
        across = f"{cx:g} mm from the left edge" if cx < w / 2 else f"{w - cx:g} mm from the right edge"
        down = f"{cy:g} mm from the top edge" if cy < h / 2 else f"{h - cy:g} mm from the bottom edge"
        corners.append(f"     {place.corner.label}: its centre {across}, {down}")
    return "\n".join(
        [
            "Next:",
            f"  1. Print {folder / 'mat.pdf'} at 100 % (actual size, not 'fit to page'); the 100 mm bar",
            "     at the foot of each page should measure 100 mm with a ruler.",
            "  2. Cut each marker out with its white border; do not trim into the black square.",
            f"  3. Fix each flat at the corner of the {w:g} x {h:g} mm mat its page names:",
            *corners,
            "  4. Point the camera at the whole mat and check that it finds the corners and zones",
            "     (it writes calibration-check.png):",
            f"     {calibrate}",
        ]
    )


# --- rop calibrate ---


def _annotated_output(path: str) -> Path:
    """The annotated image's path, checked before any work: an image type OpenCV writes
    (by its extension) in a directory that can be written."""
    import cv2

    from companion.observations.outfiles import check_writable_dir

    out = Path(path)
    if not out.suffix or not cv2.haveImageWriter(str(out)):
        raise _Fail(f"cannot write {out}: {out.suffix or 'no extension'} is not an image type OpenCV writes (use .png or .jpg)")
    if out.is_dir():
        raise _Fail(f"cannot write {out}: it is a directory")
    check_writable_dir(out.parent)
    return out


@_run
def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    import numpy as np

    from companion.observations.outfiles import atomic_output
    from vision.images import read_image

    from vision.annotate import Preview, annotate
    from vision.camera import Frame, FrameSource, parse_source
    from vision.markers import MODULE_MM, MatCorner

    out = _annotated_output(args.out)
    reader = _reader(args)
    layout = reader.layout
    image: np.ndarray | None
    if args.image:
        image = read_image(args.image)
    else:
        source = FrameSource(parse_source(args.camera, args.video), max_retries=0)
        image = None
        # A live camera's first frames are often dark while exposure settles: take the tenth.
        for item in source.frames():
            if isinstance(item, Frame):
                image = item.image
                if source.is_file or item.index >= 9:
                    break
        source.close()
        if image is None:
            raise _Fail(f"{source.describe()} delivered no frame")
    view = reader.read(image)
    cal = view.calibration
    missing = [c.label for c in MatCorner if c not in view.mat_corners and c in {m.corner for m in layout.mat_markers}]
    print(f"layout: {layout.name} ({layout.source}), mat {layout.mat_mm[0]:g} x {layout.mat_mm[1]:g} mm")
    print(f"mat corners seen: {', '.join(c.label for c in view.mat_corners) or 'none'}" + (f"; missing: {', '.join(missing)}" if missing else ""))
    status = 0
    if cal is None:
        print("not calibrated: at least two corner markers of this layout must be visible and lie where the layout says")
        status = 1
    else:
        centre = cal.image_points([[layout.mat_mm[0] / 2, layout.mat_mm[1] / 2], [layout.mat_mm[0] / 2 + 10, layout.mat_mm[1] / 2]])
        px_per_mm = float(abs(centre[1] - centre[0]).max()) / 10
        module = px_per_mm * MODULE_MM
        verdict = ("good" if module >= 3 else "fair: expect a card missed now and then" if module >= 2.5
                   else "too small: move the camera closer or use a higher resolution")
        print(f"calibration error: {cal.error_mm:.2f} mm; seal markers will be {module:.1f} pixels per module ({verdict})")
    read = [f"{c.card.label} {c.owner or '(no owner)'}" + (f" in {c.zone}" if c.zone else " (zone unknown: the mat is not calibrated)") for c in view.cards]
    print(f"cards read: {', '.join(read) or 'none'}")
    if view.backs:
        print(f"backs read: {', '.join(_back_words(b) for b in view.backs)}")
    # A deck of another game on the mat is said once, so that it is not taken for a misread.
    others = [why for _, why in view.rejected if "another game" in why]
    if others:
        print(f"ignored: {'; '.join(others)}")
    annotated = annotate(image, view, layout)
    ok, encoded = cv2.imencode(out.suffix, annotated)
    if not ok:
        raise _Fail(f"cannot write {args.out}: OpenCV could not encode the image")
    with atomic_output(out, "wb") as fp:
        fp.write(encoded.tobytes())
    print(f"annotated image: {args.out}")
    if not args.no_window:
        preview = Preview("rop calibrate")
        if preview.available:
            print("preview window open: press any key to close")
            cv2.imshow(preview.title, annotated)
            cv2.waitKey(0)
            preview.close()
    return status


# --- rop vision detect ---


@_run
def _detect(args: argparse.Namespace) -> int:
    from vision.images import ImageError, read_image

    status = 0
    reader = _reader(args, use_layout=not args.no_layout)
    backs = any(d.backs for d in _spec(_game(args)).decks)  # their games' lines list the backs seen
    for path in args.images:
        try:
            image = read_image(path)
        except ImageError as exc:
            status = 1
            reason = str(exc).removeprefix(f"{path}: ")
            if args.json:
                print(json.dumps({"image": path, "cards": [], "error": reason}), flush=True)
            else:
                print(f"{path}: {reason}", file=sys.stderr)
            continue
        # Each image is its own table: a calibration must not carry over from the previous one.
        if reader.calibrator is not None:
            reader.calibrator.current = None
        view = reader.read(image)
        if args.json:
            line = {"image": path, "cards": [c.to_json() for c in view.cards]}
            if backs:
                line["backs"] = [b.to_json() for b in view.backs]
            print(json.dumps(line), flush=True)
        else:
            mat = "mat in view" if view.calibration else "no mat in view"
            seen = f", {len(view.backs)} backs" if backs else ""
            print(f"{path}: {len(view.cards)} cards{seen}, {mat}")
            for c in view.cards:
                where = f"{c.zone or 'no zone'} at {c.table_mm[0]:.0f},{c.table_mm[1]:.0f} mm" if c.table_mm else "position unknown"
                print(f"  {c.card.long_label}  owner {c.owner or '-'}  {where}  px {c.px[0]:.0f},{c.px[1]:.0f}")
            for b in view.backs:
                where = f"{b.zone or 'no zone'} at {b.table_mm[0]:.0f},{b.table_mm[1]:.0f} mm" if b.table_mm else "position unknown"
                print(f"  a back of the {b.back.deck}  owner {b.owner or '-'}  {where}  px {b.px[0]:.0f},{b.px[1]:.0f}")
    return status


# --- rop vision watch ---


@_run
def _watch(args: argparse.Namespace) -> int:
    from vision.annotate import Preview, annotate
    from vision.camera import FrameSource, parse_source
    from vision.stabiliser import Stabiliser
    from vision.watch import observation_json, watch

    reader = _reader(args, changes_only=True)  # a camera's successive frames
    source = FrameSource(parse_source(args.camera, args.video))
    source.open()
    stabiliser = Stabiliser(source="camera", layout=reader.layout)
    preview = Preview("rop vision watch") if args.preview else None
    if preview is not None and not preview.available:
        print(f"no preview window: {preview.reason}", file=sys.stderr)
        preview = None

    def on_frame(image, view) -> bool:
        return preview.show(annotate(image, view, reader.layout)) if preview else True

    try:
        for obs in watch(source, reader, stabiliser, on_frame=on_frame, max_frames=args.max_frames):
            if args.json:
                print(json.dumps(observation_json(obs)), flush=True)
            else:
                print(_describe(obs), flush=True)
    finally:
        source.close()
        if preview:
            preview.close()
    return 0


def _back_words(back) -> str:
    """A back read, in a few words: ``"a back of blue's influence in column:0"``."""
    whose = f"{back.owner}'s " if back.owner else ""
    return f"a back of {whose}{back.back.deck}" + (f" in {back.zone}" if back.zone else " (zone unknown)")


def _describe(obs) -> str:
    from companion.observations import BackGone, BackSeen, CardGone, CardLaid, CardSeen, LaidGone, SensorStatus

    if isinstance(obs, (CardLaid, LaidGone)):
        where = f"in {obs.zone or 'no zone'}" if isinstance(obs, CardLaid) else f"left {obs.zone or 'no zone'}, never read"
        return f"{obs.at:10.2f}  {'+' if isinstance(obs, CardLaid) else '-'} a card whose seal does not read (#{obs.mark}) {where}"
    if isinstance(obs, (BackSeen, BackGone)):
        whose = f"{obs.owner}'s " if obs.owner else ""
        where = f"in {obs.zone or 'no zone'}" if isinstance(obs, BackSeen) else f"left {obs.zone or 'no zone'}"
        return f"{obs.at:10.2f}  {'+' if isinstance(obs, BackSeen) else '-'} a back of {whose}{obs.deck} (#{obs.mark}) {where}"
    if isinstance(obs, CardSeen):
        named = "" if obs.mark is None else f", the card laid #{obs.mark}"
        return f"{obs.at:10.2f}  + {obs.card.long_label} ({obs.owner or 'no owner'}) in {obs.zone or 'no zone'}{named}"
    if isinstance(obs, CardGone):
        return f"{obs.at:10.2f}  - {obs.card.long_label} ({obs.owner or 'no owner'}) left {obs.zone or 'no zone'}"
    if isinstance(obs, SensorStatus):
        return f"{obs.at:10.2f}  camera {obs.state.value}: {obs.detail}"
    return repr(obs)
