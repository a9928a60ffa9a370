"""Full garbage collections wait for the frame that shows a move."""

from __future__ import annotations

import gc
import weakref

import pytest

from companion.dashboard.app import DashboardApp
from companion.dashboard.collector import IdleCollector
from companion.dashboard.sources import ManualSource
from companion.games.rule_of_power.engine.game import GameSetup
from companion.session import Applied
from tests.dashboard.driving import dealt


class Node:
    """Something that takes part in a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cyclic_garbage_in_the_oldest_generation() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    ref = weakref.ref(a)
    gc.collect(1)  # still alive: moved to the oldest generation
    del a, b
    return ref


def pile_up_younger_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(1)


def test_holds_full_collections_back_and_gives_the_thresholds_back() -> None:
    before = gc.get_threshold()
    collector = IdleCollector(every=10, backstop=100)
    collector.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], max(before[2], 100))
    finally:
        collector.stop()
    assert gc.get_threshold() == before
    collector.stop()  # twice is harmless
    assert gc.get_threshold() == before


def test_collects_only_when_due() -> None:
    collector = IdleCollector(every=5, backstop=100)
    collector.start()
    try:
        gc.collect()
        ref = cyclic_garbage_in_the_oldest_generation()
        assert not collector.due
        assert not collector.collect_if_due()
        assert ref() is not None  # younger collections leave the oldest generation alone
        pile_up_younger_collections(5)
        assert collector.due
        assert collector.collect_if_due()
        assert ref() is None and collector.collections == 1
        assert not collector.due
    finally:
        collector.stop()


def test_a_stopped_collector_never_collects() -> None:
    collector = IdleCollector(every=1, backstop=100)
    pile_up_younger_collections(1)
    assert not collector.collect_if_due()


@pytest.mark.parametrize(("every", "backstop"), [(0, 100), (10, 10), (20, 10)])
def test_rejects_a_cadence_that_cannot_work(every: int, backstop: int) -> None:
    with pytest.raises(ValueError, match="backstop"):
        IdleCollector(every=every, backstop=backstop)


@pytest.mark.asyncio
async def test_the_dashboard_collects_after_showing_a_move(tmp_path) -> None:
    before = gc.get_threshold()
    setup = GameSetup(("ann", "bob"))
    app = DashboardApp(ManualSource(companion_deals=True, seed=3), setup=setup, games_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await dealt(app)
        assert app.collector.started
        gc.collect()  # nothing piled up: a move alone is far from due
        assert isinstance(app.session.propose(next(iter(app.game.legal_moves))), Applied)
        await pilot.pause()
        assert app.collector.collections == 0
        ref = cyclic_garbage_in_the_oldest_generation()
        pile_up_younger_collections(app.collector.every)
        assert isinstance(app.session.propose(next(iter(app.game.legal_moves))), Applied)
        assert ref() is not None  # not while the move is being shown
        await pilot.pause()
        assert app.collector.collections == 1 and ref() is None
    assert gc.get_threshold() == before
