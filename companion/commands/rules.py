"""``rop legal`` and ``rop score``: the rules on demand."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.games.rule_of_power.engine.captures import capture_options, refused_captures, sort_options
from companion.games.rule_of_power.engine.cards import CARD_FORMS, Card, UnknownCardError, parse_cards
from companion.games.rule_of_power.engine.scoring import score_round
from companion.observations.textio import InputError, decode_text, loads_json, read_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "legal",
        help="capture options of a card on a centre (R4, R5)",
        description="List every capture a card may make on the given centre (R4), or with a "
        "Mystic Crystal in play (R5), and why the sums a player might expect are not options. "
        f"Cards are written as {CARD_FORMS}. Expansion cards (11-13, W041-W052) are always recognised.",
    )
    p.add_argument("--center", "--centre", dest="center", required=True, help="centre cards, comma separated, e.g. 2p,4m,W035 ('' for none)")
    p.add_argument("--card", required=True, help="the card played: a World card (6d, W036), the Warlock or the Vampire")
    p.add_argument("--crystal", action="store_true", help="a Mystic Crystal is in play (R5)")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"card": id, "options": [[id, ...], ...], "refused": [{"cards": [id, ...], "reason": text, "rule": "R4"}, ...]}',
    )
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser(
        "score",
        help="score a round from each side's captured cards (R6-R13)",
        description='Score one round. FILE (or - for standard input) holds {"sides": {"ann": '
        '{"captured": ["W001", ...], "sweeps": 1}, ...}, "expansion": false}.',
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the score JSON of rop-record/1")
    p.set_defaults(func=cmd_score)


def _fail(message: str) -> int:
    print(f"rop: {message}", file=sys.stderr)
    return 2


def cmd_legal(args: argparse.Namespace) -> int:
    try:
        centre = parse_cards(args.center)
    except UnknownCardError as exc:
        return _fail(f"--center: {exc}")
    try:
        card = Card.parse(args.card)
    except UnknownCardError as exc:
        return _fail(f"--card: {exc}")
    if card.value is None:
        return _fail(f"--card: {card.long_label} is not played to the centre and captures nothing")
    seen: set[Card] = set()
    for c in centre:
        if not c.to_centre:
            # Only World cards and the Warlock and Vampire are played to the centre (R20);
            # other Fate cards act and leave play (R23).
            return _fail(f"{c.id} ({c.title}) never lies in the centre: only World cards, F002 and F003 do (R20)")
        if c.is_world and c in seen:
            return _fail(f"--center: {c.label} is listed twice")
        seen.add(c)
    if card.is_world and card in seen:
        return _fail(f"{card.label} cannot be both played and in the centre")
    empowered = bool(args.crystal and card.is_wizard)
    options = sort_options(centre, capture_options(centre, card.value, empowered=empowered))
    refused = refused_captures(centre, card.value, empowered=empowered)
    if args.json:
        print(
            json.dumps(
                {
                    "card": card.id,
                    "options": [[c.id for c in o] for o in options],
                    "refused": [{"cards": [c.id for c in r.cards], "reason": r.reason, "rule": r.rule} for r in refused],
                }
            )
        )
        return 0
    if empowered:
        print(f"{card.long_label}, empowered by the Mystic Crystal (R5):")
    else:
        print(f"{card.long_label} on {', '.join(c.label for c in centre) or 'an empty centre'}:")
    if not options:
        why = next((r.reason for r in refused if not r.cards), "the card stays in the centre (R4)")
        print(f"  no capture: {why}")
    elif len(options) == 1 or not any(len(o) == 1 for o in options):
        rule = "R5" if empowered else "R4"
        print(f"  {len(options)} option{'s' if len(options) != 1 else ''} ({rule}; capturing is compulsory):")
    else:
        print(f"  {len(options)} options: a card of the same value must be taken alone (R4):")
    for o in options:
        print("  - " + " + ".join(c.long_label for c in o))
    sums = [r for r in refused if r.cards]
    if sums:
        print("  Not options:")
    for r in sums:
        print(f"  - {r.reason}")
    return 0


def _read_json(path: str) -> Any:
    """The score file (``-``: standard input), through the safe loader."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_SCORE_BYTES + 1)
        if len(data) > MAX_SCORE_BYTES:
            raise InputError(f"more than {MAX_SCORE_BYTES} bytes is not a score file", path="<stdin>")
        return loads_json(decode_text(data, path="<stdin>"), path="<stdin>")
    return read_json(path, max_bytes=MAX_SCORE_BYTES)


MAX_SCORE_BYTES = 1024 * 1024


def _card_list(value: Any) -> tuple[Card, ...]:
    """A side's captured cards: a list of card ids, nothing else (R8-R13 score World cards;
    a captured Warlock or Vampire may sit in a stack, other Fate cards never do, R23)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValueError('"captured" must be a list of card ids like ["W001", "W014"]')
    cards = parse_cards(value)
    for c in cards:
        if not c.to_centre:
            raise ValueError(f"{c.id} ({c.title}) is never captured: Fate cards used for their effect leave play (R23)")
    return cards


def cmd_score(args: argparse.Namespace) -> int:
    try:
        data = _read_json(args.file)
    except InputError as exc:
        return _fail(str(exc))
    sides = data.get("sides") if isinstance(data, dict) else None
    if not isinstance(sides, dict) or not sides:
        return _fail(f'{args.file}: expected {{"sides": {{name: {{"captured": [...], "sweeps": n}}}}}}')
    expansion = data.get("expansion", False)
    if not isinstance(expansion, bool):
        return _fail(f'{args.file}: "expansion" must be true or false, not {expansion!r}')
    captured: dict[str, tuple[Card, ...]] = {}
    sweeps: dict[str, int] = {}
    owner: dict[Card, str] = {}
    for side, entry in sides.items():
        if not isinstance(entry, dict):
            return _fail(f"{args.file}: side {side!r} must be an object with \"captured\" and \"sweeps\"")
        try:
            cards = _card_list(entry.get("captured"))
        except ValueError as exc:  # UnknownCardError included
            return _fail(f"{args.file}: side {side!r}: {exc}")
        for c in cards:
            if c.is_expansion and not expansion:
                return _fail(f"{args.file}: side {side!r}: {c.id} is an expansion card but \"expansion\" is false (R2)")
            if c.is_world and c in owner:
                return _fail(f"{args.file}: {c.id} is captured by both {owner[c]!r} and {side!r}")
            owner[c] = side
        n = entry.get("sweeps", 0)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            return _fail(f"{args.file}: side {side!r}: \"sweeps\" must be a whole number, not {n!r}")
        captured[side] = cards
        sweeps[side] = n
    score = score_round(captured, sweeps, expansion=expansion)
    if args.json:
        out = score.to_json()
        out["reasons"] = score.reasons_json()
        print(json.dumps(out))
        return 0
    print(format_score_table(score.sides))
    print()
    for line in score.reasons():
        print(line)
    return 0


_COLUMNS = (
    ("world_cards", "World"),
    ("power_cards", "Power"),
    ("fire_dragon", "Fire"),
    ("pride_of_dragons", "Pride"),
    ("power_master", "Master"),
    ("power_points", "Chain"),
    ("sweeps", "Sweeps"),
)


def format_score_table(sides: Any) -> str:
    """A plain-text table of points per side."""
    width = max([4] + [len(s) for s in sides])
    head = "side".ljust(width) + "".join(f"{label:>8}" for _, label in _COLUMNS) + f"{'Total':>8}"
    rows = [head]
    for side, pts in sides.items():
        j = pts.to_json()
        rows.append(side.ljust(width) + "".join(f"{j[k]:>8}" for k, _ in _COLUMNS) + f"{j['total']:>8}")
    return "\n".join(rows)
