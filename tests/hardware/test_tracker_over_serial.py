"""Games kept by NFC taps on the real reader firmware (emulated board, serial line, line
protocol, tag registry), followed by the tracker into the saved record, with no key pressed:
the same record, hands included once completed, and the same scores as the game played.

Reader 0 of the board lies by the centre; readers 1 to 3 by the players' Fate decks. Every tap
is a tag held to a reader of the emulated board and lifted again; the observation the host
makes of it goes to the tracker. The target of a Thief or a Mirror Swap is named the documented
way: the target taps one of their Fate cards on their own Fate reader."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.moves import NewRound, Play
from companion.observations import CardTapped
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import GameSession
from companion.games.rule_of_power.simulation.taps import board_layout, fate_reader, taps_for
from companion.tracker import Question, Tracker, TrackerConfig
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.tapping import CLUB, TappedBoard, board_chips

from tests.tracker.harness import TableRun, assert_same_record

WAIT = 10.0
"""Seconds a test already failing waits for an observation (a loaded machine is slow)."""


def decks_of(run: TableRun) -> dict[str, tuple[Card, ...]]:
    """Each player's Fate deck in ``run``'s game (empty without Fate decks)."""
    first = next(m for m in run.moves if isinstance(m, NewRound))
    return {p: first.deck_of(p) for p in run.setup.players}


def board_tap(board: TappedBoard, slot: int, card: Card, owner: str) -> CardTapped:
    """``owner``'s ``card`` held to reader ``slot`` and lifted: the tap observed, of that card
    on that reader."""
    obs = board.tap(slot, card, owner)
    assert (obs.card, obs.reader) == (card, f"board:{slot}"), obs
    return obs


class SerialTable:
    """``run``'s game played by tapping cards on the emulated board, the tracker following
    into a saved record. Questions are never answered with a key: a target is named by the
    tap gesture, anything else asked fails the test."""

    def __init__(self, run: TableRun, board: TappedBoard, games_dir: Path) -> None:
        self.run = run
        self.board = board
        players = run.setup.players
        self.slots, readers = board_layout(players, fate_readers=True)
        self.decks = decks_of(run)
        first = next(m for m in run.moves if isinstance(m, NewRound))
        session = GameSession(run.setup, record=GameFile.create(games_dir, run.setup))
        self.tracker = Tracker(session, TrackerConfig(readers=readers, first_dealer=first.dealer, facts={"fate_decks": self.decks, "draws_visible": True}))
        run.tracker = self.tracker
        self.gestures = 0
        self.asked: list[Question] = []

    def play(self) -> None:
        for _, taps in taps_for(self.run.setup, self.run.moves):
            for tap in taps:
                assert isinstance(tap, CardTapped)
                owner = tap.owner if tap.card.is_fate else CLUB
                assert owner is not None
                self.handle(self.tracker.observe(board_tap(self.board, self.slots[tap.reader], tap.card, owner)))

    def handle(self, events) -> None:  # type: ignore[no-untyped-def]
        run = self.run
        for e in events:
            if isinstance(e, Question):
                n = len(run.applied)
                last = run.moves[n + len(e.choices[0].moves) - 1]
                if isinstance(last, Play) and last.target and "tap a card on their Fate reader" in e.prompt:
                    # The target taps one of their Fate cards on their own Fate reader.
                    self.gestures += 1
                    slot = self.slots[fate_reader(last.target)]
                    self.handle(self.tracker.observe(board_tap(self.board, slot, self.decks[last.target][0], last.target)))
                    continue
                self.asked.append(e)
            run.handle([e])  # (answers a question with a key: counted in ``asked``)

    def close(self) -> Path:
        record = self.tracker.session.record
        assert isinstance(record, GameFile)
        self.tracker.session.close()
        return record.path


@pytest.fixture
def play_on_board(firmware: FirmwareBuild, tmp_path: Path) -> Iterator:  # type: ignore[type-arg]
    def play(run: TableRun) -> tuple[SerialTable, Path]:
        chips = board_chips(len(run.setup.players) if any(run.tracker.config.facts["fate_decks"].values()) else 0)
        with BoardEmulator(firmware, chips=chips, link=tmp_path / "board") as emu, TappedBoard(emu, decks_of(run), tmp_path / "tags", timeout=WAIT) as board:
            table = SerialTable(run, board, tmp_path / "games")
            table.play()
        return table, table.close()

    yield play


def assert_kept_exactly(table: SerialTable, path: Path) -> None:
    run = table.run
    assert not run.problems(), run.problems()[:3]
    assert not table.asked, [q.prompt for q in table.asked]  # no key pressed
    assert len(run.applied) == len(run.moves)
    assert run.tracker.game.is_game_over()
    saved = load_game(path, keep_history=True)
    assert [r.score.to_json() for r in saved.results] == [r.score.to_json() for r in run.truth.results]
    assert saved.totals == run.truth.totals and saved.outcome() == run.truth.outcome()
    assert_same_record(saved.move_stack, run.moves)


def test_a_whole_two_player_game_of_world_cards(play_on_board):
    """Two players, World cards only: four rounds to the target, the centre reader alone."""
    run = TableRun(2, seed=0)
    assert len(run.truth.results) == 4
    table, path = play_on_board(run)
    assert_kept_exactly(table, path)


def test_a_whole_three_player_game_with_fate_decks(play_on_board):
    """Three players with Fate decks, a Fate reader each: four rounds with Thieves and Mirror
    Swaps whose targets are named by a tap on the target's Fate reader, and Fate cards of
    every kind."""
    run = TableRun(3, fate=True, seed=5)
    assert len(run.truth.results) == 4
    table, path = play_on_board(run)
    assert_kept_exactly(table, path)
    assert table.gestures >= 3  # (the targets named by a tap)


class LateAnswerTable(SerialTable):
    """The same table, but a target question is left open ("Esc: later") while the next
    player's card is already tapped on the centre reader; the target taps their Fate reader
    only after that, answering late."""

    def __init__(self, run: TableRun, board: TappedBoard, games_dir: Path) -> None:
        super().__init__(run, board, games_dir)
        self.late: str | None = None
        """The target whose gesture waits until the next move's taps."""
        self.late_answers = 0

    def play(self) -> None:
        asked_at = None
        for k, (_, taps) in enumerate(taps_for(self.run.setup, self.run.moves)):
            for tap in taps:
                owner = tap.owner if tap.card.is_fate else CLUB
                assert owner is not None
                self.handle(self.tracker.observe(board_tap(self.board, self.slots[tap.reader], tap.card, owner)))
            if self.late is not None and asked_at is None:
                asked_at = k
            elif self.late is not None and taps:
                # The next move's taps are made: now the target names themselves.
                target, self.late = self.late, None
                self.late_answers += 1
                slot = self.slots[fate_reader(target)]
                self.handle(self.tracker.observe(board_tap(self.board, slot, self.decks[target][0], target)))

    def handle(self, events) -> None:  # type: ignore[no-untyped-def]
        run = self.run
        for e in events:
            if isinstance(e, Question) and self.late is None and not self.late_answers:
                n = len(run.applied)
                last = run.moves[n + len(e.choices[0].moves) - 1]
                after = run.moves[n + len(e.choices[0].moves)] if n + len(e.choices[0].moves) < len(run.moves) else None
                if isinstance(last, Play) and last.target and isinstance(after, Play) and after.card.is_world:
                    # Left open: the next player's card comes first, the target's tap after it.
                    self.late = last.target
                    run.events.append(e)
                    continue
            super().handle([e])


def test_a_target_named_late_while_play_went_on_keeps_the_game(firmware: FirmwareBuild, tmp_path: Path) -> None:
    """A Thief's or a Mirror Swap's target question left open while the next player's card is
    tapped, then answered by the target's tap: the move waiting for the answer is never taken
    for a pass, the next play follows it once answered, and the game is kept exactly (it
    used to record a pass, refuse the late answer and end the dashboard)."""
    run = TableRun(3, fate=True, seed=5)
    chips = board_chips(len(run.setup.players))
    with BoardEmulator(firmware, chips=chips, link=tmp_path / "board") as emu, TappedBoard(emu, decks_of(run), tmp_path / "tags", timeout=WAIT) as board:
        table = LateAnswerTable(run, board, tmp_path / "games")
        table.play()
    path = table.close()
    assert table.late_answers == 1
    assert_kept_exactly(table, path)
