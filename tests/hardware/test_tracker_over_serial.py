"""Games kept by NFC taps on the real reader firmware (emulated board, serial line, line
protocol, tag registry), followed by the tracker into the saved record, with no key pressed:
the same record, hands included once completed, and the same scores as the game played.

Reader 0 of the board lies by the centre; readers 1 to 3 by the players' Fate decks. Every tap
is a tag held to a reader of the emulated board and lifted again; the observation the host
makes of it goes to the tracker. The target of a Thief or a Mirror Swap is named the documented
way: the target taps one of their Fate cards on their own Fate reader."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine.cards import Card
from companion.engine.moves import NewRound, Play
from companion.observations import CardLifted, CardTapped, Observation, SensorState, SensorStatus
from companion.records.format import load_game
from companion.records.store import GameFile
from companion.session import GameSession
from companion.simulation.taps import taps_for
from companion.tracker import Question, Tracker, TrackerConfig
from hardware.board_link import BoardLink
from hardware.emulator import BoardEmulator, FirmwareBuild
from hardware.registry import Registry
from hardware.resolver import Resolver

from tests.tracker.harness import TableRun, assert_same_record

WAIT = 10.0
"""Seconds a test already failing waits for an observation (a loaded machine is slow)."""


def uid_for(card: Card, owner: str) -> str:
    return f"04{card.index:02X}{'ABCDEFX'.index(owner[0].upper()):02X}A1B2C3D4"[:14]


class Board:
    """The emulated reader board, its serial link and the tag registry: a tag held to a
    reader and lifted gives the observation the host makes of it."""

    def __init__(self, emulator: BoardEmulator, registry: Registry) -> None:
        self.emulator = emulator
        self.seen: queue.Queue[Observation] = queue.Queue()
        self.link = BoardLink(emulator.port, Resolver(registry, self.seen.put))

    def __enter__(self) -> Board:
        self.link.start()
        self._next(lambda o: isinstance(o, SensorStatus) and o.state is SensorState.CONNECTED)
        return self

    def __exit__(self, *exc: object) -> None:
        self.link.stop()

    def _next(self, wanted) -> Observation:  # type: ignore[no-untyped-def]
        while True:
            obs = self.seen.get(timeout=WAIT)
            if wanted(obs):
                return obs

    def tap(self, slot: int, card: Card, owner: str) -> CardTapped:
        """Hold ``owner``'s ``card`` to reader ``slot`` and lift it again: the tap observed.
        The lift is waited for too, so that the same card can be tapped there again."""
        self.emulator.tag(slot, uid_for(card, owner))
        obs = self._next(lambda o: isinstance(o, CardTapped))
        assert isinstance(obs, CardTapped) and (obs.card, obs.reader) == (card, f"board:{slot}"), obs
        self.emulator.lift(slot)
        self._next(lambda o: isinstance(o, CardLifted) and o.reader == f"board:{slot}")
        return obs


def enrolled(tmp_path: Path, run: TableRun) -> Registry:
    """Every World card of the club and every player's Fate cards, each with its tag."""
    registry = Registry.load(tmp_path / "tags")
    for card in Card._by_id.values():
        if card.is_world and not card.is_expansion:
            registry.enrol(uid_for(card, "club"), card, "club", ndef=False)
    first = next(m for m in run.moves if isinstance(m, NewRound))
    for p in run.setup.players:
        for card in first.deck_of(p):
            registry.enrol(uid_for(card, p), card, p, ndef=False)
    return registry


class SerialTable:
    """``run``'s game played by tapping cards on the emulated board, the tracker following
    into a saved record. Questions are never answered with a key: a target is named by the
    tap gesture, anything else asked fails the test."""

    def __init__(self, run: TableRun, board: Board, games_dir: Path) -> None:
        self.run = run
        self.board = board
        players = run.setup.players
        self.slots = {"board:0": 0, **{f"fate-reader:{p}": 1 + i for i, p in enumerate(players)}}
        first = next(m for m in run.moves if isinstance(m, NewRound))
        readers = {"board:0": "centre", **{f"board:{1 + i}": f"fate:{p}" for i, p in enumerate(players)}}
        self.decks = {p: first.deck_of(p) for p in players}
        session = GameSession(run.setup, record=GameFile.create(games_dir, run.setup))
        self.tracker = Tracker(session, TrackerConfig(readers=readers, first_dealer=first.dealer, fate_decks=self.decks, draws_visible=True))
        run.tracker = self.tracker
        self.gestures = 0
        self.asked: list[Question] = []

    def play(self) -> None:
        for _, taps in taps_for(self.run.setup, self.run.moves):
            for tap in taps:
                assert isinstance(tap, CardTapped)
                owner = tap.owner if tap.card.is_fate else "club"
                assert owner is not None
                self.handle(self.tracker.observe(self.board.tap(self.slots[tap.reader], tap.card, owner)))

    def handle(self, events) -> None:  # type: ignore[no-untyped-def]
        run = self.run
        for e in events:
            if isinstance(e, Question):
                n = len(run.applied)
                last = run.moves[n + len(e.choices[0].moves) - 1]
                if isinstance(last, Play) and last.target and "tap a card on their Fate reader" in e.prompt:
                    # The target taps one of their Fate cards on their own Fate reader.
                    self.gestures += 1
                    slot = self.slots[f"fate-reader:{last.target}"]
                    self.handle(self.tracker.observe(self.board.tap(slot, self.decks[last.target][0], last.target)))
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
        chips = "".join(str(i) for i in range(1 + (len(run.setup.players) if any(run.tracker.config.fate_decks.values()) else 0)))
        with BoardEmulator(firmware, chips=chips, link=tmp_path / "board") as emu, Board(emu, enrolled(tmp_path, run)) as board:
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
