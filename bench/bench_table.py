"""Whole tables followed with no keyboard, per sensor set-up: games kept exactly, the keys the
table had to press, and how soon the tracker knows what a player did.

Each game is played by the virtual table and shown to the companion as players handle cards:

- **Camera** set-ups film it at a natural pace (``vision.scenes.natural_play``): for every
  action a hand comes in from the nearest edge, lays or takes the cards under it and leaves,
  about a second per action, and the next player's hand follows 0.3 s later. Frames go
  through marker detection, the stabiliser (its defaults, as ``rop play`` uses them) and the
  tracker, on the video's clock (frame n at n / fps). With Fate decks every draw is announced
  as a player types ``fate`` (the camera cannot see it). The first round of each game is
  played (the whole game when one round reaches the target; ``--whole`` for whole games).
- **NFC** set-ups tap the cards on the real reader firmware, running on the emulated board
  (``hardware.emulator``: an ATmega328P under simavr in real time, PN532 chips, the serial
  line through a pseudo-terminal), as the docs tell players to: the card played and, when
  the capture is not forced, the cards it takes, on the centre reader; a drawn Fate card on
  its owner's Fate reader; Dark Decay discards. A Thief's or a Mirror Swap's target taps one
  of their Fate cards on their own Fate reader when the tracker asks. Whole games.

A question no gesture answers is answered with one key (the right choice), and counted.
Per set-up it reports:

- exact: games (or rounds) the tracker ended with every move played, the same scores, and
  nothing out of sync;
- keys/game: keys pressed per game (or round) played;
- act -> known: from a player's action to the tracker knowing it (median, 95th percentile and
  worst): with a camera, from the hand leaving the table to the ``CardGone`` of a card it
  took; with NFC, from a tag held to a reader to the tracker's answer to the tap;
- camera only: events right (cards laid reported seen and cards taken reported gone, each
  within 2 s, with no spurious report), spurious reports, laid -> seen (from the card lying
  on the table under the hand to its ``CardSeen``) and ms/frame (detection and stabiliser,
  one core).

Circle of Power's set-ups (``cop-...``, :mod:`bench.bench_table_circle`) play games of its
variants in turn, by NFC (a play, a city and a line reader: whole games) or by camera over its
mat (the first season, as the camera set-ups above play the first round; ``--whole``).
Ruse and Bruise's (``rab-...``, :mod:`bench.bench_table_ruse`) play by NFC (a reader at each
column: whole games, no key) or by camera over its standard mat (the first round, ``--whole``),
what no camera sees typed and counted as keys. Love,
Money, Power, Death's (``lmpd-...``, :mod:`bench.bench_table_lmpd`) tap whole games of 2-6
players on a commit reader each and the centre reader, or film the first round over the
standard mat of its players (``--whole``).

``python -m bench table [-- --games N] [--seed S] [--setups nfc-2,webcam-2,...] [--fps F] [--whole] [--quick]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bench_tracker import percentile
from bench.followed import Followed


@dataclass(frozen=True)
class Setup:
    kind: str  # "camera" or "nfc"
    players: int
    teams: int
    fate: bool
    what: str
    mat: object = None
    module_px: float = 0.0
    game: str = "rule-of-power"
    per_board: int = 8
    """NFC: readers per board (eight on the board of ``firmware/``, four on boards built before)."""


LMPD = "love-money-power-death"

SETUPS = {
    "nfc-2": Setup("nfc", 2, 0, False, "NFC, the centre reader alone, 2 players, World cards"),
    "nfc-4": Setup("nfc", 4, 2, False, "NFC, the centre reader alone, 4 players in teams, World cards"),
    "nfc-fate-2": Setup("nfc", 2, 0, True, "NFC with Fate decks, a Fate reader per player, 2 players"),
    "nfc-fate-3": Setup("nfc", 3, 0, True, "NFC with Fate decks, a Fate reader per player, 3 players (targets named by a tap)"),
    "nfc-fate-4": Setup("nfc", 4, 0, True, "NFC with Fate decks, a Fate reader per player, 4 players on one board"),
    "nfc-fate-5": Setup("nfc", 5, 0, True, "NFC with Fate decks, a Fate reader per player, 5 players on two boards of four readers", per_board=4),
    "nfc-fate-6": Setup("nfc", 6, 0, True, "NFC with Fate decks, a Fate reader per player, 6 players on one board of seven readers"),
    "webcam-2": Setup("camera", 2, 0, False, "webcam over the small 2-player mat, stickers 40 px wide (3.8 px/module)", "demo", 3.8),
    "1080p-2": Setup("camera", 2, 0, False, "1080p over the standard 2-player mat (2.7 px/module)", 2, 2.7),
    "webcam-4": Setup("camera", 4, 2, False, "3.8 px/module over the 4-player mat (a 2.5K camera)", 4, 3.8),
    "1080p-4": Setup("camera", 4, 2, False, "2.7 px/module over the 4-player mat (1762 x 1426)", 4, 2.7),
    "1080p-3": Setup("camera", 3, 0, False, "1080p over the 3-player mat (2.3 px/module)", 3, 2.3),
    "1440p-3": Setup("camera", 3, 0, False, "1440p over the 3-player mat (3.1 px/module)", 3, 3.1),
    "webcam-2-fate": Setup("camera", 2, 0, True, "webcam, 2 players with Fate decks, every draw announced (typed)", "demo", 3.8),
    # Circle of Power (bench.bench_table_circle): whole games, the variants in turn.
    "cop-nfc-2": Setup("nfc", 2, 0, False, "NFC, a play, a city and a line reader, 2 players and 2 dummies", game="circle-of-power"),
    "cop-nfc-3": Setup("nfc", 3, 0, False, "NFC, a play, a city and a line reader, 3 players and a dummy", game="circle-of-power"),
    "cop-nfc-4": Setup("nfc", 4, 0, False, "NFC, a play, a city and a line reader, 4 players", game="circle-of-power"),
    "cop-1080p-2": Setup("camera", 2, 0, False, "1080p over the Circle of Power mat (2.6 px/module), 2 players", module_px=2.6, game="circle-of-power"),
    "cop-1080p-3": Setup("camera", 3, 0, False, "1080p over the Circle of Power mat (2.6 px/module), 3 players", module_px=2.6, game="circle-of-power"),
    "cop-1080p-4": Setup("camera", 4, 0, False, "1080p over the Circle of Power mat (2.6 px/module), 4 players", module_px=2.6, game="circle-of-power"),
    "cop-1440p-4": Setup("camera", 4, 0, False, "1440p over the Circle of Power mat (3.5 px/module), 4 players", module_px=3.5, game="circle-of-power"),
    # Ruse and Bruise (bench.bench_table_ruse): NFC whole games, the camera's first round.
    "rab-nfc-2": Setup("nfc", 2, 0, False, "NFC, a reader at each column, 2 players", game="ruse-and-bruise"),
    "rab-nfc-4": Setup("nfc", 4, 0, False, "NFC, a reader at each column, 4 players", game="ruse-and-bruise"),
    "rab-nfc-6": Setup("nfc", 6, 0, False, "NFC, a reader at each column, 6 players on one board", game="ruse-and-bruise"),
    "rab-1080p-2": Setup("camera", 2, 0, False, "1080p over the Ruse and Bruise mat (2.8 px/module), 2 players, what no camera sees typed", module_px=2.8, game="ruse-and-bruise"),
    "rab-1080p-4": Setup("camera", 4, 0, False, "1080p over the Ruse and Bruise mat (2.8 px/module), 4 players, what no camera sees typed", module_px=2.8, game="ruse-and-bruise"),
    # Love, Money, Power, Death (bench.bench_table_lmpd): a commit reader per player and the centre reader.
    **{f"lmpd-nfc-{n}": Setup("nfc", n, 0, False, f"NFC, {n} commit readers and the centre reader, {n} players", game=LMPD) for n in range(2, 7)},
    **{f"lmpd-1080p-{n}": Setup("camera", n, 0, False, f"1080p over the {n}-player mat (2.8 px/module), {n} players", module_px=2.8, game=LMPD) for n in range(2, 7)},
}

DEFAULT = ("nfc-2,nfc-4,nfc-fate-3,nfc-fate-6,webcam-2,1080p-2,1080p-4,cop-nfc-2,cop-nfc-3,cop-nfc-4,cop-1080p-2,cop-1080p-3,cop-1080p-4,"
           "rab-nfc-2,rab-nfc-4,rab-nfc-6,rab-1080p-2")


@dataclass
class Result:
    exact: bool
    keys: int
    delays: list[float]
    whole: bool
    # camera only
    right: int = 0
    total: int = 0
    spurious: list[str] = field(default_factory=list)
    seen_delays: list[float] = field(default_factory=list)
    ms_frame: float | None = None


class Table(Followed):
    """The players' side: the true game, the tracker following it, and the keys pressed to
    answer what it asks (always the right choice). ``same`` tells whether a tracked move is the
    true one as far as the sensors can tell; with ``checked``, each move applied is compared
    with the true one as it comes, and one that differs is a problem."""

    def __init__(self, moves: Sequence[Any], tracker: Any, *, same: Callable[[Any, Any], bool] | None = None, checked: bool = False) -> None:
        super().__init__(same or _same, checked=checked)
        self.moves = list(moves)
        self.tracker = tracker

    def exact(self, truth: Any, end: int) -> bool:
        """Every move up to ``end`` applied, nothing out of sync, and the scores of the rounds
        played (all of them, or the first) those of the game played."""
        rounds = len(truth.results) if end == len(self.moves) else 1
        results = self.tracker.game.results
        return (not self.problems and len(self.applied) >= end and len(results) >= rounds
                and [r.score.to_json() for r in results[:rounds]] == [r.score.to_json() for r in truth.results[:rounds]])


def _same(tracked: Any, true: Any) -> bool:
    """A tracked move is the true one as far as sensors can tell (hidden hands, the order of
    cards taken together, cards that change hands face down are not seen)."""
    from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play

    if type(tracked) is not type(true):
        return False
    if isinstance(tracked, Deal):
        return sorted(tracked.centre) == sorted(true.centre)
    if isinstance(tracked, NewRound):
        return bool(tracked.dealer == true.dealer)
    if isinstance(tracked, Play):
        return (tracked.player, tracked.card, tracked.target, frozenset(tracked.capture), frozenset(tracked.discards)) == (
            true.player, true.card, true.target, frozenset(true.capture), frozenset(true.discards))
    return bool(tracked == true)


def _game(setup: Setup, seed: int) -> tuple[Any, Any, list[Any], Any]:
    from companion.games.rule_of_power.engine.moves import NewRound
    from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game

    rules = make_setup(setup.players, setup.teams)
    truth, moves = simulate_game(rules, seed=seed, fate=setup.fate)
    first = next(m for m in moves if isinstance(m, NewRound))
    return rules, truth, moves, first


def play_camera(setup: Setup, seed: int, fps: float, whole: bool) -> Result:
    from companion.games.rule_of_power.engine.moves import DrawFate, NewRound
    from companion.observations import CardGone, CardSeen, DrawAnnounced
    from companion.session import GameSession
    from companion.games.rule_of_power.simulation.staging import stage
    from companion.tracker import Tracker, TrackerConfig
    from vision.layout import demo_layout, load_layout
    from vision.markers import MODULE_MM
    from vision.owners import OwnerRegistry
    from vision.reader import TableReader
    from vision.render import VirtualCamera
    from vision.scenes import natural_play
    from vision.stabiliser import Stabiliser
    from vision.watch import read_frame

    rules, truth, moves, first = _game(setup, seed)
    end = len(moves) if whole else next((i for i, m in enumerate(moves) if isinstance(m, NewRound) and i > 0), len(moves))
    # A camera alone: draws are announced, never seen (as `rop play --camera` sets it up).
    config = TrackerConfig(first_dealer=first.dealer, facts={"fate_decks": {p: first.deck_of(p) for p in rules.players}, "draws_visible": False})
    table = Table(moves, Tracker(GameSession(rules), config))
    tracker = table.tracker
    names = list(rules.players)
    layout = demo_layout() if setup.mat == "demo" else load_layout(int(setup.mat))  # type: ignore[call-overload]
    ppm = setup.module_px / MODULE_MM
    w, h = layout.mat_mm
    camera = VirtualCamera.looking_at((w / 2, h / 2), ppm, size=(int((w + 50) * ppm) // 2 * 2, int((h + 50) * ppm) // 2 * 2))
    reader = TableReader(layout=layout, owners=OwnerRegistry(names + [None] * (8 - len(names))), players=names, changes_only=True)
    stab = Stabiliser(layout=layout.seated(names))
    reports: list[Any] = []
    actions: list[Any] = []
    seconds = 0.0
    frames = 0
    last = None
    t = 0.0
    for frame in natural_play(list(stage(rules, moves[:end])), layout.seated(names), names, camera=camera, fps=fps, seed=seed):
        t = frame.at
        if frame.scene is not last and isinstance(frame.scene.move, DrawFate):
            table.handle(tracker.observe(DrawAnnounced("dashboard", t, frame.scene.move.player)))  # `fate` typed
        last = frame.scene
        if frame.action is not None and (not actions or actions[-1] is not frame.action):
            actions.append(frame.action)
        table.handle(tracker.tick(t))
        began = time.perf_counter()
        _, observed = read_frame(reader, stab, frame.image, t)
        seconds += time.perf_counter() - began
        frames += 1
        for obs in observed:
            if isinstance(obs, (CardSeen, CardGone)):
                reports.append(obs)
            table.handle(tracker.observe(obs))
    table.handle(tracker.tick(t + 5.0))
    # Match every true event with the first fitting report after it.
    used: set[int] = set()
    right = total = 0
    gone_delays: list[float] = []
    seen_delays: list[float] = []
    for a in actions:
        for kind, keys, since in ((CardGone, a.taken, a.hand_gone), (CardSeen, a.laid, a.change)):
            for key in keys:
                total += 1
                for i, r in enumerate(reports):
                    if i in used or not isinstance(r, kind) or (r.card.id, r.owner) != key or r.at < a.start:
                        continue
                    if r.at - since <= 2.0:
                        used.add(i)
                        right += 1
                        (gone_delays if kind is CardGone else seen_delays).append(r.at - since)
                    break
    spurious = [f"{'gone' if isinstance(r, CardGone) else 'seen'} {r.card.id} at {r.at:.1f} s" for i, r in enumerate(reports) if i not in used]
    return Result(table.exact(truth, end), table.keys, gone_delays, end == len(moves), right, total, spurious, seen_delays,
                  1000 * seconds / max(1, frames))


def play_nfc(setup: Setup, seed: int, firmware: Any) -> Result:
    from companion.games.rule_of_power.engine.moves import Play
    from companion.session import GameSession
    from companion.games.rule_of_power.simulation.taps import board_layout, fate_reader, taps_for
    from companion.tracker import Question, Tracker, TrackerConfig
    from hardware.tapping import CLUB, TappedBoard, tapped_boards

    rules, truth, moves, first = _game(setup, seed)
    players = list(rules.players)
    fate_readers = setup.fate
    where, readers = board_layout(players, fate_readers, per_board=setup.per_board)
    decks = {p: first.deck_of(p) for p in players}
    config = TrackerConfig(readers=readers, first_dealer=first.dealer, facts={"fate_decks": decks, "draws_visible": True})
    table = Table(moves, Tracker(GameSession(rules), config))
    tracker = table.tracker
    delays: list[float] = []

    def tap(board: TappedBoard, reader: str, card: Any, owner: str) -> None:
        began = time.perf_counter()
        events = tracker.observe(board.hold(reader, card, owner))
        delays.append(time.perf_counter() - began)
        board.lift(reader)
        handle(board, events)

    def handle(board: TappedBoard, events: Sequence[Any]) -> None:
        for e in events:
            if isinstance(e, Question):
                n = len(table.applied)
                last = moves[n + len(e.choices[0].moves) - 1] if n + len(e.choices[0].moves) - 1 < len(moves) else None
                if isinstance(last, Play) and last.target and fate_readers:
                    tap(board, where[fate_reader(last.target)], decks[last.target][0], last.target)  # the gesture
                    continue
            table.handle([e])

    with tempfile.TemporaryDirectory() as tmp, tapped_boards(firmware, readers, decks, Path(tmp)) as board:
        for _, taps in taps_for(rules, moves):
            for t in taps:
                tap(board, where[t.reader], t.card, (t.owner if t.card.is_fate else None) or CLUB)
    return Result(table.exact(truth, len(moves)), table.keys, delays, True)


def fmt(xs: list[float], scale: float = 1.0, unit: str = "s") -> str:
    """Median / p95 / worst of ``xs``, scaled (1000: seconds shown as milliseconds)."""
    if not xs:
        return "-"
    digits = 0 if scale > 1 else 2
    return " / ".join(f"{scale * x:.{digits}f}" for x in (statistics.median(xs), percentile(xs, 95), max(xs))) + f" {unit}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench table", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per set-up")
    parser.add_argument("--seed", type=int, default=0, help="the first game's deal")
    parser.add_argument("--setups", default=DEFAULT, help=f"comma separated, of {', '.join(SETUPS)}")
    parser.add_argument("--fps", type=float, default=10.0, help="camera frames per second")
    parser.add_argument("--whole", action="store_true", help="camera set-ups play whole games, not their first round")
    parser.add_argument("--quick", action="store_true", help="one game per set-up")
    args = parser.parse_args(argv)
    names = args.setups.split(",")
    unknown = [n for n in names if n not in SETUPS]
    if unknown:
        parser.error(f"unknown set-up(s): {', '.join(unknown)}; known: {', '.join(SETUPS)}")
    import cv2

    cv2.setNumThreads(1)
    firmware = None
    if any(SETUPS[n].kind == "nfc" for n in names):
        from hardware.emulator import build_firmware

        firmware = build_firmware()
    games = 1 if args.quick else args.games
    print(f"no key but the answers counted; camera: natural play at {args.fps:g} frames/s; NFC: the reader firmware on the emulated board")
    print(f"{'set-up':14} {'game':15} {'played':>11} {'exact':>6} {'keys/game':>9} {'act->known median/p95/max':>26}   "
          f"{'events right':>12} {'spurious':>8} {'laid->seen med/p95/max':>22} {'ms/frame':>8}")
    for name in names:
        setup = SETUPS[name]
        seeds = list(range(args.seed, args.seed + games))
        results = []
        for seed in seeds:
            if setup.game == LMPD:
                from bench import bench_table_lmpd as lmpd

                if setup.kind == "nfc":
                    results.append(lmpd.play_nfc(setup.players, seed, firmware))
                else:
                    results.append(lmpd.play_camera(setup.players, seed, args.fps, args.whole))
            elif setup.game in ("circle-of-power", "ruse-and-bruise"):
                from bench import bench_table_circle, bench_table_ruse

                other = bench_table_circle if setup.game == "circle-of-power" else bench_table_ruse
                if setup.kind == "nfc":
                    results.append(other.play_nfc(setup.players, seed, firmware))
                else:
                    results.append(other.play_camera(setup.players, seed, setup.module_px, args.fps, args.whole))
            elif setup.kind == "nfc":
                results.append(play_nfc(setup, seed, firmware))
            else:
                results.append(play_camera(setup, seed, args.fps, args.whole))
        exact = sum(r.exact for r in results)
        keys = sum(r.keys for r in results) / len(results)
        delays = [d for r in results for d in r.delays]
        unit = "games" if all(r.whole for r in results) else "seasons" if setup.game == "circle-of-power" else "rounds"
        title = {"circle-of-power": "Circle of Power", "ruse-and-bruise": "Ruse and Bruise", LMPD: "L, M, P, D"}.get(setup.game, "Rule of Power")
        known = fmt(delays, 1000.0, "ms") if setup.kind == "nfc" else fmt(delays)
        line = f"{name:14} {title:15} {len(results):>3} {unit:7} {exact:>3}/{len(results):<2} {keys:9.1f} {known:>26}   "
        if setup.kind == "camera" and setup.game != "rule-of-power":
            ms = statistics.mean(r.ms_frame or 0.0 for r in results)
            spurious = []
            line += f"{'-':>12} {'-':>8} {'-':>22} {ms:8.0f}"
        elif setup.kind == "camera":
            right = sum(r.right for r in results)
            total = sum(r.total for r in results)
            spurious = [f"game {s}: {x}" for s, r in zip(seeds, results) for x in r.spurious]
            seen = [d for r in results for d in r.seen_delays]
            ms = statistics.mean(r.ms_frame or 0.0 for r in results)
            line += f"{100 * right / max(1, total):11.1f}% {len(spurious):8} {fmt(seen):>22} {ms:8.0f}"
        else:
            spurious = []
            line += f"{'-':>12} {'-':>8} {'-':>22} {'-':>8}"
        print(f"{line}   {setup.what}", flush=True)
        if spurious:
            print(f"{'':30} spurious: {', '.join(spurious[:4])}{' ...' if len(spurious) > 4 else ''}")
    print("(keys/game: per game or round played; act->known: camera, the hand leaving with a card to its CardGone "
          "(negative: reported while the hand was still leaving), Circle of Power's and Ruse and Bruise's to the move known; NFC, a tag held "
          "to a reader to the tracker's answer; Circle of Power plays whole games, its variants in turn: basic, "
          "Lonely Tyrant, Coloured Cities; its camera set-ups the first season, unless --whole; Ruse and Bruise's camera "
          "keys are what no camera sees, typed; Love, Money, Power, Death's camera set-ups the first round, to each commit, "
          "the noble turned and the reveal known, unless --whole)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
