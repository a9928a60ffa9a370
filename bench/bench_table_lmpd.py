"""Love, Money, Power, Death's tables in ``bench table``: games of 2 to 6 players (as many nobles
as the players allow, L4) followed with no keyboard by a camera or by NFC readers.

- **Camera**: the first round of each game (``--whole`` for whole games) filmed at a natural
  pace over the standard mat of its players at 1080p
  (:func:`companion.games.love_money_power_death.simulation.camera.film`: a hand over every
  card committed face down, noble turned, card turned face up, noble laid in its court and
  cards gathered), each frame read by marker detection and the stabiliser on the video's
  clock. act -> known runs from the hand that laid a commit (its back seen), turned the noble,
  or turned the last card of the reveal, leaving the table to the tracker applying the move.
- **NFC**: whole games tapped by the tap protocol (docs/tracker.md: each player's commit
  reader, the centre reader) on the real reader firmware running on the emulated board.
  act -> known runs from a tag held to a reader to the tracker's answer to the tap.

A question the sensors leave open is answered with one key (the right choice), and counted;
none is asked of these tables.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from bench.followed import Followed

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


class LmpdTable(Followed):
    """The players' side: the true game and the tracker following it."""

    def __init__(self, players: int, seed: int, *, readers: dict[str, str] | None = None) -> None:
        from companion.games.love_money_power_death.policies import simulate
        from companion.games.love_money_power_death.simulation.compare import seen_alike
        from companion.games.love_money_power_death.state import LmpdState
        from companion.session import GameSession
        from companion.tracker import Tracker, TrackerConfig

        super().__init__(seen_alike)
        self.setup, self.moves = simulate(NAMES[:players], seed=seed, level=1)
        self.truth = LmpdState(self.setup)
        for move in self.moves:
            self.truth.push(move)
        self.tracker = Tracker(GameSession(self.setup), TrackerConfig(readers=readers or {}, unexplained_after=3.0))

    def first_round(self) -> int:
        """How many moves the first round takes, to the draw after it (L11)."""
        from companion.games.love_money_power_death.moves import Draw

        return next((n for n, m in enumerate(self.moves, 1) if type(m) is Draw), len(self.moves))

    def exact(self, end: int | None = None) -> bool:
        """Every move up to ``end`` (all of them) applied, nothing out of sync, and the rounds
        played decided as at the table."""
        end = len(self.moves) if end is None else end
        game = self.tracker.game
        rounds = len(game.rounds)
        return (not self.problems and len(self.applied) == end and (end < len(self.moves) or game.is_game_over())
                and rounds > 0 and [r.to_json() for r in game.rounds] == [r.to_json() for r in self.truth.rounds[:rounds]])


def play_camera(players: int, seed: int, fps: float, whole: bool = False) -> Any:
    from bench.bench_table import Result
    from bench.followed import follow_film
    from companion.games.love_money_power_death.moves import Commit, Reveal, TurnUp
    from companion.games.love_money_power_death.simulation.camera import film

    table = LmpdTable(players, seed)
    end = len(table.moves) if whole else table.first_round()
    table.handle(table.tracker.begin())
    frames = film(table.setup, table.moves[:end], fps=fps, seed=seed)
    delays, ms = follow_film(frames, table.moves, table.tracker, table.handle, table.applied, lambda scene: type(scene.move) in (Commit, TurnUp, Reveal))
    return Result(table.exact(end), table.keys, delays, end == len(table.moves), ms_frame=ms)


def play_nfc(players: int, seed: int, firmware: Any) -> Any:
    from bench.bench_table import Result
    from bench.followed import follow_taps
    from companion.games.love_money_power_death.cards import ALL_CARDS
    from companion.games.love_money_power_death.simulation.taps import board_layout, taps_for
    from hardware.emulator import BoardEmulator
    from hardware.tapping import CLUB, TappedBoard, board_chips

    slots, readers = board_layout(NAMES[:players])
    table = LmpdTable(players, seed, readers=readers)
    (chips,) = board_chips(slots.values())
    table.handle(table.tracker.begin())
    with tempfile.TemporaryDirectory() as tmp:
        with BoardEmulator(firmware, chips=chips, link=Path(tmp) / "board") as emu, TappedBoard(
            emu, {}, Path(tmp) / "tags", deck=ALL_CARDS, club=CLUB
        ) as board:
            delays = follow_taps(board, table.tracker, table.handle, slots, taps_for(table.setup, table.moves, CLUB), CLUB)
    return Result(table.exact(), table.keys, delays, True)
