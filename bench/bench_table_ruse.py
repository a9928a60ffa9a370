"""Ruse and Bruise's tables in ``bench table``: games of 2 to 6 players, followed by NFC readers
with no key, or by a camera with the keys no camera can supply (docs/ruse-and-bruise.md, "What
the table types").

- **NFC**: a reader at each column; the game tapped as the docs tell players to (each goal card
  as it is turned over, each card placed, a card put under a Cloak, the goal card a Traitor
  brings) on the real reader firmware running on the emulated board. Whole games. act -> known
  runs from a tag held to a reader to the tracker's answer to the tap.
- **Camera**: the first round of each game (``--whole`` for whole games) filmed at a natural
  pace over the standard mat (:func:`companion.games.ruse_and_bruise.simulation.camera.film`),
  each frame read by seal detection and the stabiliser on the video's clock; what no camera
  sees typed as soon as the game is ready for it, one key each. act -> known runs from the
  hand that made a move leaving the table to the tracker applying the move.

A question the sensors leave open is answered with one key (the right choice), and counted.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_table import Table

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


class RuseTable(Table):
    """The players' side: the true game, the tracker following it, and the keys pressed."""

    def __init__(self, players: int, seed: int, *, readers: dict[str, str] | None = None) -> None:
        from companion.games.ruse_and_bruise.game import RabState
        from companion.games.ruse_and_bruise.policies import simulate
        from companion.games.ruse_and_bruise.setup import RabSetup
        from companion.games.ruse_and_bruise.simulation.compare import named_alike, seen_alike
        from companion.games.ruse_and_bruise.values import EXAMPLE
        from companion.session import GameSession
        from companion.tracker import Tracker, TrackerConfig

        self.dealt, moves = simulate(NAMES[:players], EXAMPLE, seed=seed)
        # What the table knows: its players, colours and values table; the deal unseen (B29).
        self.setup = RabSetup(self.dealt.players, self.dealt.colours, self.dealt.values)
        self.truth = RabState(self.dealt)
        for move in moves:
            self.truth.push(move)
        self.session = GameSession(self.setup)
        tracker = Tracker(self.session, TrackerConfig(readers=readers or {}, unexplained_after=3.0))
        super().__init__(moves, tracker, same=named_alike if readers else seen_alike, checked=True)

    def type_ready(self, typed: dict[int, Any], now: float) -> None:
        """The moves of ``typed`` the game is ready for, typed in turn, one key each."""
        while len(self.applied) in typed:
            move = typed[len(self.applied)]
            self.keys += 1
            if type(self.session.propose(move, source="keyboard")).__name__ != "Applied":
                self.problems.append(move)
                return
            self.applied.append(move)
            self.handle(self.tracker.tick(now))

    def first_round(self) -> int:
        """How many moves the first round takes, to its distribution (B26)."""
        from companion.games.ruse_and_bruise.moves import Distribute

        return next(n for n, move in enumerate(self.moves, 1) if type(move) is Distribute)

    def kept(self, end: int | None = None) -> bool:
        """Every move up to ``end`` (all of them) applied, nothing out of sync, and the rounds
        played scored as at the table."""
        end = len(self.moves) if end is None else end
        game = self.tracker.game
        rounds = len(self.truth.results) if end == len(self.moves) else 1
        return (not self.problems and len(self.applied) == end and (end < len(self.moves) or game.is_game_over())
                and [r.to_json() for r in game.results[:rounds]] == [r.to_json() for r in self.truth.results[:rounds]])


def play_camera(players: int, seed: int, module_px: float, fps: float, whole: bool = False) -> Any:
    from bench.bench_table import Result
    from companion.games.ruse_and_bruise.simulation.camera import film
    from companion.games.ruse_and_bruise.simulation.keys import typed_moves

    table = RuseTable(players, seed)
    tracker = table.tracker
    end = len(table.moves) if whole else table.first_round()
    moves = table.moves[:end]
    typed = typed_moves(table.dealt, moves)
    index = {id(m): i for i, m in enumerate(moves)}
    last: dict[int, Any] = {}  # move index -> the last hand's action that showed it
    known: dict[int, float] = {}  # move index -> when the tracker applied it
    seconds, frames, t = 0.0, 0, 0.0
    for frame in film(table.dealt, moves, module_px=module_px, fps=fps, seed=seed):
        t = frame.at
        if frame.action is not None and frame.action.scene.move is not None:
            last[index[id(frame.action.scene.move)]] = frame.action
        before = len(table.applied)
        table.handle(tracker.tick(t))
        for obs in frame.observations:
            table.handle(tracker.observe(obs))
        table.type_ready(typed, t)
        for k in range(before, len(table.applied)):
            known[k] = t
        seconds += frame.read_s
        frames += 1
    table.handle(tracker.tick(t + 5.0))
    table.type_ready(typed, t + 5.0)
    delays = [known[k] - a.hand_gone for k, a in sorted(last.items()) if k in known and k not in typed]
    return Result(table.kept(end), table.keys, delays, end == len(table.moves), ms_frame=1000 * seconds / max(1, frames))


def play_nfc(players: int, seed: int, firmware: Any) -> Any:
    from bench.bench_table import Result
    from companion.games.ruse_and_bruise.cards import GOALS, INFLUENCE
    from companion.games.ruse_and_bruise.simulation.taps import TABLE_OWNER, board_layout, taps_for
    from hardware.emulator import BoardEmulator
    from hardware.tapping import TappedBoard

    places, readers = board_layout(players)
    table = RuseTable(players, seed, readers=readers)
    tracker = table.tracker
    colours = {colour: list(INFLUENCE) for colour in table.setup.colours}
    delays: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        with BoardEmulator(firmware, chips="".join(str(k) for k in range(players)), link=Path(tmp) / "board") as emu, TappedBoard(
            emu, colours, Path(tmp) / "tags", deck=list(GOALS), club=TABLE_OWNER
        ) as board:
            for _, taps in taps_for(table.dealt, table.moves):
                for tap in taps:
                    assert tap.reader is not None and tap.owner is not None
                    reader = places[tap.reader]
                    began = time.perf_counter()
                    events = tracker.observe(board.hold(reader, tap.card, tap.owner))
                    delays.append(time.perf_counter() - began)
                    board.lift(reader)
                    table.handle(events)
    return Result(table.kept(), table.keys, delays, True)
