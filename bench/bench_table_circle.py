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
from pathlib import Path
from typing import Any

from bench.followed import Followed

VARIANTS = ("basic", "lonely-tyrant", "coloured-cities")
NAMES = ("ann", "bob", "cy", "dee")
OWNER = "ann"


class CircleTable(Followed):
    """The players' side: the true game, the tracker following it, and the keys pressed."""

    def __init__(self, players: int, seed: int, *, readers: dict[str, str] | None = None) -> None:
        from companion.games.circle_of_power.game import CircleState
        from companion.games.circle_of_power.moves import Season
        from companion.games.circle_of_power.policies import simulate
        from companion.games.circle_of_power.simulation.compare import seen_alike
        from companion.session import GameSession
        from companion.tracker import Tracker, TrackerConfig

        super().__init__(seen_alike)
        self.variant = VARIANTS[seed % len(VARIANTS)]
        self.setup, self.moves = simulate(NAMES[:players], self.variant, seed=seed)
        self.truth = CircleState(self.setup)
        for move in self.moves:
            self.truth.push(move)
        first = self.moves[0]
        assert type(first) is Season
        config = TrackerConfig(readers=readers or {}, first_dealer=first.dealer, facts={"seats": first.seats})
        self.tracker = Tracker(GameSession(self.setup), config)

    def first_season(self) -> int:
        """How many moves the first season takes, to its last act (C16)."""
        from companion.games.circle_of_power.game import CircleState

        game = CircleState(self.setup, keep_history=False)
        for n, move in enumerate(self.moves, 1):
            if game.apply(move).result is not None:
                return n
        return len(self.moves)

    def exact(self, end: int | None = None) -> bool:
        """Every move up to ``end`` (all of them) applied, nothing out of sync, and the seasons
        played scored as at the table."""
        end = len(self.moves) if end is None else end
        game = self.tracker.game
        seasons = len(self.truth.results) if end == len(self.moves) else 1
        return (not self.problems and len(self.applied) == end and (end < len(self.moves) or game.is_game_over())
                and [r.to_json() for r in game.results[:seasons]] == [r.to_json() for r in self.truth.results[:seasons]])


def play_camera(players: int, seed: int, module_px: float, fps: float, whole: bool = False) -> Any:
    from bench.bench_table import Result
    from bench.followed import follow_film
    from companion.games.circle_of_power.simulation.camera import film

    table = CircleTable(players, seed)
    end = len(table.moves) if whole else table.first_season()
    frames = film(table.setup, table.moves[:end], OWNER, module_px=module_px, fps=fps, seed=seed)
    # The battle cards gathered after an act: the act is known before they go.
    delays, ms = follow_film(frames, table.moves, table.tracker, table.handle, table.applied, lambda scene: "gathered" not in scene.caption)
    return Result(table.exact(end), table.keys, delays, end == len(table.moves), ms_frame=ms)


def play_nfc(players: int, seed: int, firmware: Any) -> Any:
    from bench.bench_table import Result
    from bench.followed import follow_taps
    from companion.games.circle_of_power.cards import ALL_CARDS
    from companion.games.circle_of_power.simulation.taps import board_layout, taps_for
    from hardware.emulator import BoardEmulator
    from hardware.tapping import TappedBoard

    slots, readers = board_layout()
    table = CircleTable(players, seed, readers=readers)
    with tempfile.TemporaryDirectory() as tmp:
        with BoardEmulator(firmware, chips="012", link=Path(tmp) / "board") as emu, TappedBoard(
            emu, {}, Path(tmp) / "tags", deck=ALL_CARDS, club=OWNER
        ) as board:
            delays = follow_taps(board, table.tracker, table.handle, slots, taps_for(table.setup, table.moves, OWNER), OWNER)
    return Result(table.exact(), table.keys, delays, True)
