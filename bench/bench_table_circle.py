"""Circle of Power's tables in ``bench table``: whole games of 2, 3 or 4 players (with the dummies
the rules seat, C4), one variant after another (basic, Lonely Tyrant, Coloured Cities), followed
with no keyboard by a camera or by NFC readers.

- **Camera**: the first season of each game (the whole game when it ends in its first season;
  ``--whole`` for whole games) filmed at a natural pace over Circle of Power's mat
  (:func:`companion.games.circle_of_power.simulation.camera.film`: a hand over every card laid,
  moved or gathered, about a second a step), each frame read by marker detection and the
  stabiliser on the video's clock. act -> known runs from the hand that made a move leaving
  the table to the tracker applying the move.
- **NFC**: the game tapped by the tap protocol (docs/tracker.md: a play, a city and a line
  reader) on the real reader firmware running on the emulated board. act -> known runs from a
  tag held to a reader to the tracker's answer to the tap.

A question the sensors leave open is answered with one key (the right choice), and counted.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_table import Table

VARIANTS = ("basic", "lonely-tyrant", "coloured-cities")
NAMES = ("ann", "bob", "cy", "dee")
OWNER = "ann"


class CircleTable(Table):
    """The players' side: the true game, the tracker following it, and the keys pressed."""

    def __init__(self, players: int, seed: int, *, readers: dict[str, str] | None = None) -> None:
        from companion.games.circle_of_power.game import CircleState
        from companion.games.circle_of_power.moves import Season
        from companion.games.circle_of_power.policies import simulate
        from companion.games.circle_of_power.simulation.compare import seen_alike
        from companion.session import GameSession
        from companion.tracker import Tracker, TrackerConfig

        self.variant = VARIANTS[seed % len(VARIANTS)]
        self.setup, moves = simulate(NAMES[:players], self.variant, seed=seed)
        self.truth = CircleState(self.setup)
        for move in moves:
            self.truth.push(move)
        first = moves[0]
        assert type(first) is Season
        config = TrackerConfig(readers=readers or {}, first_dealer=first.dealer, facts={"seats": first.seats})
        super().__init__(moves, Tracker(GameSession(self.setup), config), same=seen_alike, checked=True)

    def first_season(self) -> int:
        """How many moves the first season takes, to its last act (C16)."""
        from companion.games.circle_of_power.game import CircleState

        game = CircleState(self.setup, keep_history=False)
        for n, move in enumerate(self.moves, 1):
            if game.apply(move).result is not None:
                return n
        return len(self.moves)

    def kept(self, end: int | None = None) -> bool:
        """Every move up to ``end`` (all of them) applied, nothing out of sync, and the seasons
        played scored as at the table."""
        end = len(self.moves) if end is None else end
        game = self.tracker.game
        seasons = len(self.truth.results) if end == len(self.moves) else 1
        return (not self.problems and len(self.applied) == end and (end < len(self.moves) or game.is_game_over())
                and [r.to_json() for r in game.results[:seasons]] == [r.to_json() for r in self.truth.results[:seasons]])


def play_camera(players: int, seed: int, module_px: float, fps: float, whole: bool = False) -> Any:
    from bench.bench_table import Result
    from companion.games.circle_of_power.simulation.camera import film

    table = CircleTable(players, seed)
    tracker = table.tracker
    end = len(table.moves) if whole else table.first_season()
    last: dict[int, Any] = {}  # move index -> the last hand's action that showed it
    known: dict[int, float] = {}  # move index -> when the tracker applied it
    seconds, frames, t = 0.0, 0, 0.0
    for frame in film(table.setup, table.moves[:end], OWNER, module_px=module_px, fps=fps, seed=seed):
        t = frame.at
        action = frame.action
        # The battle cards gathered after an act: the act is known before they go.
        if action is not None and action.scene.move is not None and "gathered" not in action.scene.caption:
            last[next(i for i, m in enumerate(table.moves) if m is action.scene.move)] = action
        before = len(table.applied)
        table.handle(tracker.tick(t))
        for obs in frame.observations:
            table.handle(tracker.observe(obs))
        for k in range(before, len(table.applied)):
            known[k] = t
        seconds += frame.read_s
        frames += 1
    table.handle(tracker.tick(t + 5.0))
    delays = [known[k] - a.hand_gone for k, a in sorted(last.items()) if k in known]
    return Result(table.kept(end), table.keys, delays, end == len(table.moves), ms_frame=1000 * seconds / max(1, frames))


def play_nfc(players: int, seed: int, firmware: Any) -> Any:
    from bench.bench_table import Result
    from companion.games.circle_of_power.cards import ALL_CARDS
    from companion.games.circle_of_power.simulation.taps import board_layout, taps_for
    from hardware.emulator import BoardEmulator
    from hardware.tapping import TappedBoard

    slots, readers = board_layout()
    table = CircleTable(players, seed, readers=readers)
    tracker = table.tracker
    delays: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        with BoardEmulator(firmware, chips="012", link=Path(tmp) / "board") as emu, TappedBoard(
            emu, {}, Path(tmp) / "tags", deck=ALL_CARDS, club=OWNER
        ) as board:
            for _, taps in taps_for(table.setup, table.moves, OWNER):
                for tap in taps:
                    reader = slots[tap.reader]
                    began = time.perf_counter()
                    events = tracker.observe(board.hold(reader, tap.card, OWNER))
                    delays.append(time.perf_counter() - began)
                    board.lift(reader)
                    table.handle(events)
    return Result(table.kept(), table.keys, delays, True)
