"""Games kept by NFC taps on the real reader firmware (emulated board, serial line, line
protocol, tag registry), followed by the tracker into the saved record, with no key pressed:
the same record, hands included once completed, and the same scores as the game played.

Reader 0 of the first board lies by the centre; the players' Fate readers follow, on that board
while it has readers left, then on a second board (``board2:0``, ...). Every tap is a tag held
to a reader of an emulated board and lifted again; the observation the host makes of it goes to
the tracker. The target of a Thief or a Mirror Swap is named the documented way: the target
taps one of their Fate cards on their own Fate reader."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState
from companion.games.rule_of_power.engine.moves import DrawFate, Move, NewRound, Pass, Play
from companion.observations import CardTapped
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import GameSession
from companion.games.rule_of_power.simulation.taps import board_layout, fate_reader, taps_for
from companion.tracker import Question, Tracker, TrackerConfig
from hardware.emulator import FirmwareBuild
from hardware.tapping import CLUB, TappedBoard, tapped_boards

from tests.tracker.harness import TableRun, assert_same_record

WAIT = 10.0
"""Seconds a test already failing waits for an observation (a loaded machine is slow)."""
SPEED = 4.0
"""The boards' time runs up to four times faster than the wall clock: the firmware, the serial
line and the host see the same game, sooner."""


def decks_of(run: TableRun) -> dict[str, tuple[Card, ...]]:
    """Each player's Fate deck in ``run``'s game (empty without Fate decks)."""
    first = next(m for m in run.moves if isinstance(m, NewRound))
    return {p: first.deck_of(p) for p in run.setup.players}


def board_tap(board: TappedBoard, reader: str, card: Card, owner: str) -> CardTapped:
    """``owner``'s ``card`` held to ``reader`` (``board:0``, ``board2:1``) and lifted: the tap
    observed, of that card on that reader."""
    obs = board.tap(reader, card, owner)
    assert (obs.card, obs.reader) == (card, reader), obs
    return obs


class SerialTable:
    """``run``'s game played by tapping cards on the emulated board, the tracker following
    into a saved record. Questions are never answered with a key: a target is named by the
    tap gesture, anything else asked fails the test."""

    def __init__(self, run: TableRun, board: TappedBoard, games_dir: Path, *, per_board: int = 8) -> None:
        self.run = run
        self.board = board
        players = run.setup.players
        self.slots, readers = board_layout(players, fate_readers=True, per_board=per_board)
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


def readers_of(run: TableRun, per_board: int = 8) -> list[str]:
    """The board readers ``run``'s table has: the centre's, and a Fate reader per player when
    they have Fate decks."""
    fate = any(run.tracker.config.facts["fate_decks"].values())
    return list(board_layout(run.setup.players, fate, per_board=per_board)[1])


@pytest.fixture
def play_on_board(firmware: FirmwareBuild, tmp_path: Path) -> Iterator:  # type: ignore[type-arg]
    def play(run: TableRun, *, per_board: int = 8, table_type: type[SerialTable] | None = None) -> tuple[SerialTable, Path]:
        with tapped_boards(firmware, readers_of(run, per_board), decks_of(run), tmp_path, timeout=WAIT, speed=SPEED) as board:
            table = (table_type or SerialTable)(run, board, tmp_path / "games", per_board=per_board)
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


@pytest.mark.parametrize(
    "players,teams,seed,per_board",
    [
        # Four players: the centre and four Fate readers on one board.
        (4, 0, 12, 8),
        # Five players on two boards of four readers (boards built before eight): board:0 by
        # the centre, board:1-3 and board2:0-1 by the Fate decks.
        (5, 0, 4, 4),
        # Six players in three teams: the centre and six Fate readers on one board.
        (6, 3, 7, 8),
    ],
)
def test_a_whole_game_of_four_to_six_with_fate_readers_needs_no_key(play_on_board, players, teams, seed, per_board):
    """Every player has a Fate reader, however many sit at the table: draws are tapped,
    Dark Decay discards tapped, targets named by a tap on the target's own Fate reader, and
    no key is pressed (a fourth player used to announce every Fate draw by typing)."""
    run = TableRun(players, teams, fate=True, seed=seed)
    assert run.truth.is_game_over()
    table, path = play_on_board(run, per_board=per_board)
    assert_kept_exactly(table, path)
    draws = sum(isinstance(m, DrawFate) for m in run.moves)
    assert draws >= 5 and table.gestures >= 1
    boards = {reader.partition(":")[0] for reader in table.tracker.config.readers}
    assert boards == ({"board"} if per_board == 8 else {"board", "board2"})


class LateAnswerTable(SerialTable):
    """The same table, but a target question is left open ("Esc: later") while play goes on:
    the next move's cards are tapped first, and the target taps their Fate reader only after
    them, answering late. Which question is left open is :meth:`leave_open`'s to say (the
    first that fits)."""

    def __init__(self, run: TableRun, board: TappedBoard, games_dir: Path, *, per_board: int = 8) -> None:
        super().__init__(run, board, games_dir, per_board=per_board)
        self.late: str | None = None
        """The target whose gesture waits until the next move's taps."""
        self.late_answers = 0

    def leave_open(self, played: Play, following: list[Move]) -> bool:
        """Whether the question about ``played`` is left open, ``following`` being the true
        moves after it up to the next play. Here: when the next move is a World card
        played."""
        return len(following) == 1 and isinstance(following[0], Play) and following[0].card.is_world

    def play(self) -> None:
        asked = False
        for _, taps in taps_for(self.run.setup, self.run.moves):
            for tap in taps:
                owner = tap.owner if tap.card.is_fate else CLUB
                assert owner is not None
                self.handle(self.tracker.observe(board_tap(self.board, self.slots[tap.reader], tap.card, owner)))
            if self.late is not None and not asked:
                asked = True
            elif self.late is not None and taps:
                # The next move's taps are made: now the target names themselves.
                target, self.late = self.late, None
                self.late_answers += 1
                reader = self.slots[fate_reader(target)]
                self.handle(self.tracker.observe(board_tap(self.board, reader, self.decks[target][0], target)))

    def handle(self, events) -> None:  # type: ignore[no-untyped-def]
        run = self.run
        for e in events:
            if isinstance(e, Question) and self.late is None and not self.late_answers:
                n = len(run.applied) + len(e.choices[0].moves)
                last = run.moves[n - 1]
                following = list(itertools.takewhile(lambda m: not isinstance(m, Play), run.moves[n:]))
                following += run.moves[n + len(following) : n + len(following) + 1]
                if isinstance(last, Play) and last.target and following and self.leave_open(last, following):
                    # Left open: the next move's cards come first, the target's tap after them.
                    self.late = last.target
                    run.events.append(e)
                    continue
            super().handle([e])


def test_a_target_named_late_while_play_went_on_keeps_the_game(play_on_board) -> None:
    """A Thief's or a Mirror Swap's target question left open while the next player's card is
    tapped, then answered by the target's tap: the move waiting for the answer is never taken
    for a pass, the next play follows it once answered, and the game is kept exactly (it
    used to record a pass, refuse the late answer and end the dashboard)."""
    run = TableRun(3, fate=True, seed=5)
    table, path = play_on_board(run, table_type=LateAnswerTable)
    assert table.late_answers == 1
    assert_kept_exactly(table, path)


class ThiefWithOnlyFateCardsTable(LateAnswerTable):
    """The sequence the table reported: a player holding no World card any more plays a Thief
    and its target question is left open; the next player holds no World card either (they
    pass, unseen), and the player after them taps their card on the centre reader before the
    target taps their Fate reader."""

    def leave_open(self, played: Play, following: list[Move]) -> bool:
        game = GameState(self.run.setup, keep_history=False)
        for move in self.run.moves[: len(self.run.applied)]:
            game.push(move)
        nobody_else = [m.player for m in following[:-1] if isinstance(m, Pass)]
        return (
            played.card.id == "F006"
            and game.world_cards_in_hand(played.player) == 0
            and bool(nobody_else)
            and game.world_cards_in_hand(nobody_else[0]) == 0
            and isinstance(following[-1], Play)
        )


def test_a_thief_left_open_by_a_player_with_only_fate_cards_is_never_taken_for_a_pass(play_on_board) -> None:
    """ann plays a Thief holding only Fate cards; the question whom it targets is left open;
    bob, holding no World card, passes, and cy's card is tapped; then the target taps their
    Fate reader. ann's Thief must not be recorded as a pass (which let cy's play through,
    refused the late answer, and ended the dashboard): the record is the game played."""
    run = TableRun(3, fate=True, seed=29)
    table, path = play_on_board(run, table_type=ThiefWithOnlyFateCardsTable)
    assert table.late_answers == 1
    assert_kept_exactly(table, path)
