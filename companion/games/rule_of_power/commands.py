"""Rule of Power's own commands: ``rop legal`` and ``rop score`` (the rules on demand) and
``rop simulate`` (random legal games written as records). Each describes Rule of Power in its
``--help``; ``rop simulate`` takes the game's own options (:attr:`GAME.options
<companion.games.rule_of_power.RuleOfPower.options>`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from companion.games.rule_of_power.engine.captures import capture_options, refused_captures, sort_options
from companion.games.rule_of_power.engine.cards import CARD_FORMS, Card, UnknownCardError, parse_cards
from companion.games.rule_of_power.engine.scoring import score_round
from companion.contract.errors import IllegalMoveError, InvalidMoveError
from companion.games.rule_of_power import GAME
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.summary import format_score_table
from companion.observations.argtypes import int_range
from companion.observations.outfiles import OutputError
from companion.observations.textio import InputError, decode_text, loads_json, read_json
from companion.records.format import save_record

__all__ = ["COMMANDS", "Legal", "Score", "Simulate"]


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
    print("\n".join(_legal_lines(card, centre, options, refused, empowered=empowered)))
    return 0


def _legal_lines(card: Card, centre: Sequence[Card], options: Sequence[Sequence[Card]], refused: Sequence[Any], *, empowered: bool) -> list[str]:
    """``rop legal``'s answer in words: the options (R4, R5), and why the sums a player might
    expect are not options."""
    lines = []
    if empowered:
        lines.append(f"{card.long_label}, empowered by the Mystic Crystal (R5):")
    else:
        lines.append(f"{card.long_label} on {', '.join(c.label for c in centre) or 'an empty centre'}:")
    if not options:
        why = next((r.reason for r in refused if not r.cards), "the card stays in the centre (R4)")
        lines.append(f"  no capture: {why}")
    elif len(options) == 1 or not any(len(o) == 1 for o in options):
        rule = "R5" if empowered else "R4"
        lines.append(f"  {len(options)} option{'s' if len(options) != 1 else ''} ({rule}; capturing is compulsory):")
    else:
        lines.append(f"  {len(options)} options: a card of the same value must be taken alone (R4):")
    lines.extend("  - " + " + ".join(c.long_label for c in o) for o in options)
    sums = [r for r in refused if r.cards]
    if sums:
        lines.append("  Not options:")
    lines.extend(f"  - {r.reason}" for r in sums)
    return lines


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
                if owner[c] == side:
                    return _fail(f"{args.file}: side {side!r}: {c.label} is listed twice")
                return _fail(f"{args.file}: {c.label} is captured by both {owner[c]!r} and {side!r}")
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


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.games.rule_of_power.simulation.virtual_table import VirtualTable

    try:
        setup = GAME.make_setup(GAME.default_players(args.players), **{o.name: getattr(args, o.name) for o in GAME.options})
    except (IllegalMoveError, InvalidMoveError, ValueError) as exc:
        print(f"rop simulate: {exc}", file=sys.stderr)
        return 2
    table = VirtualTable(setup, seed=args.seed, fate=args.fate, policy=args.level)
    game = GameState(setup)  # the history kept: a virtual coach reads the plays, as at the table
    try:
        save_record(args.output, setup, table.moves(game))
    except OutputError as exc:
        print(f"rop simulate: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # a reader that stopped reading (rop simulate | head): rop ends quietly
    except OSError as exc:
        print(f"rop simulate: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        print(f"rop simulate: {exc} (target {setup.target}); nothing was written", file=sys.stderr)
        return 1
    if args.output != "-":
        outcome = game.outcome()
        assert outcome is not None
        print(f"wrote {args.output}: {len(game.results)} rounds, winner {outcome.winner}", file=sys.stderr)
    return 0


class Legal:
    name = "legal"
    help = "capture options of a card on a centre (R4, R5)"
    description = (
        "Rule of Power: list every capture a card may make on the given centre (R4), or with a Mystic Crystal in play "
        f"(R5), and why the sums a player might expect are not options. Cards are written as {CARD_FORMS}. "
        "Expansion cards (11-13, W041-W052) are always recognised."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("--center", "--centre", dest="center", required=True, help="centre cards, comma separated, e.g. 2p,4m,W035 ('' for none)")
        p.add_argument("--card", required=True, help="the card played: a World card (6d, W036), the Warlock or the Vampire")
        p.add_argument("--crystal", action="store_true", help="a Mystic Crystal is in play (R5)")
        p.add_argument(
            "--json",
            action="store_true",
            help='print {"card": id, "options": [[id, ...], ...], "refused": [{"cards": [id, ...], "reason": text, "rule": "R4"}, ...]}',
        )

    def run(self, args: argparse.Namespace) -> int:
        return cmd_legal(args)


class Score:
    name = "score"
    help = "score a round from each side's captured cards (R6-R13)"
    description = (
        'Score one round of Rule of Power. FILE (or - for standard input) holds {"sides": {"ann": '
        '{"captured": ["W001", ...], "sweeps": 1}, ...}, "expansion": false}.'
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        p.add_argument("file", metavar="FILE")
        p.add_argument("--json", action="store_true", help="print the score JSON of rop-record/1")

    def run(self, args: argparse.Namespace) -> int:
        return cmd_score(args)


class Simulate:
    name = "simulate"
    help = "play a complete random legal game and write its record"
    description = (
        f"Play a complete legal game of Rule of Power ({GAME.min_players} to {GAME.max_players} players, "
        f"alone or in teams) on a virtual table and write its {GAME.codec.format}."
    )

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        from companion.commands.options import add_options
        from companion.games.rule_of_power.simulation.virtual_table import POLICIES

        low, high = GAME.min_players, GAME.max_players
        p.add_argument("--players", type=int_range(low, high), default=low, help=f"{low} to {high} (default {low})")
        add_options(p, GAME.options, defaults=True)
        p.add_argument("--fate", action="store_true", help="players use Fate decks (R18)")
        p.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable game")
        p.add_argument("--level", choices=POLICIES, default="random", help="how the virtual players play (default: random)")
        p.add_argument("-o", "--output", default="-", help="record file (default: standard output)")

    def run(self, args: argparse.Namespace) -> int:
        return cmd_simulate(args)


COMMANDS = (Legal(), Score(), Simulate())
"""Rule of Power's commands, as ``rop`` offers them (``--game rule-of-power``, the default)."""
