"""A game kept by NFC taps on the real reader firmware (emulated board, serial line, line
protocol, tag registry), followed by the tracker: the same record and scores as the game
played."""

from __future__ import annotations

import queue

from companion.engine.cards import Card
from companion.engine.moves import NewRound
from companion.observations import CardTapped, SensorState, SensorStatus
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from hardware.board_link import BoardLink
from hardware.emulator import BoardEmulator
from hardware.registry import Registry
from hardware.resolver import Resolver

from tests.tracker.harness import TableRun, taps_for

# Reader 0 lies by the centre; readers 1 and 2 by ann's and bob's Fate decks.
READERS = {"board:0": "centre", "board:1": "fate:ann", "board:2": "fate:bob"}
SLOT = {"board:0": 0, "fate-reader:ann": 1, "fate-reader:bob": 2}


def uid_for(card: Card, owner: str) -> str:
    return f"04{card.index:02X}{'ABCD'.index(owner[0].upper()):02X}A1B2C3D4"[:14]


def test_a_round_kept_through_the_reader_board(firmware, tmp_path):
    run = TableRun(2, fate=True, seed=52)
    # One round is enough to pass every kind of tap through the firmware.
    end = next(i for i, m in enumerate(run.moves) if isinstance(m, NewRound) and i > 0)
    moves = run.moves[:end]
    first = run.moves[0]
    registry = Registry.load(tmp_path / "tags")
    for card in Card._by_id.values():
        if card.is_world and not card.is_expansion:
            registry.enrol(uid_for(card, "club"), card, "club", ndef=False)
    for p in run.setup.players:
        for card in first.deck_of(p):
            registry.enrol(uid_for(card, p), card, p, ndef=False)
    tracker = Tracker(GameSession(run.setup),
        TrackerConfig(readers=READERS, first_dealer=first.dealer, fate_decks={p: first.deck_of(p) for p in run.setup.players}, draws_visible=True),
    )
    run.tracker = tracker  # the table answers this tracker's questions
    seen: queue.Queue = queue.Queue()
    with BoardEmulator(firmware, chips="012", link=tmp_path / "board") as emu:
        with BoardLink(emu.port, Resolver(registry, seen.put)):
            status = seen.get(timeout=10)
            while not (isinstance(status, SensorStatus) and status.state is SensorState.CONNECTED):
                status = seen.get(timeout=10)
            for move, taps in taps_for(run.setup, moves):
                for tap in taps:
                    assert isinstance(tap, CardTapped)
                    slot = SLOT[tap.reader]
                    owner = tap.owner if tap.card.is_fate else "club"
                    emu.tag(slot, uid_for(tap.card, owner))
                    obs = seen.get(timeout=5)
                    while not isinstance(obs, CardTapped):
                        obs = seen.get(timeout=5)
                    assert (obs.card, obs.reader) == (tap.card, f"board:{slot}")
                    run.handle(tracker.observe(obs))
                    emu.lift(slot)
    assert not run.problems(), run.problems()[:3]
    game = tracker.game
    assert len(run.applied) == len(moves) + 1  # and the next round begins by itself
    assert len(game.results) == 1
    assert game.results[0].score.to_json() == run.truth.results[0].score.to_json()
