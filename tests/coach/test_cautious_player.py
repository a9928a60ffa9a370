"""Rule of Power's cautious player (``cautious``) lays its card so that the next player, an
opponent, finds no clean sweep (R7): a centre adding up to more than the highest value in play,
10, or 13 with the Higher Powers (R2)."""

from __future__ import annotations

import random

import pytest

from companion.games.rule_of_power.coach import opponents
from companion.games.rule_of_power.coach.opponents import cautious_move
from companion.games.rule_of_power.engine.moves import DrawFate, Move
from companion.games.rule_of_power.engine.view import PlayerView
from tests.coach.test_counting_player import positions


def _left(view: PlayerView, move: Move) -> int:
    """What the centre adds up to after ``move``."""
    return sum(c.value or 0 for c in opponents._after(view, move)[0])


def test_with_the_higher_powers_it_leaves_no_centre_a_card_of_11_to_13_sweeps(monkeypatch: pytest.MonkeyPatch) -> None:
    views = [
        v
        for v in positions(8000, 11)
        if v.setup.expansion and opponents._sweeps_count(v) and v.is_opponent(opponents._next_player(v))
    ]
    now = [cautious_move(v, random.Random(0)) for v in views]
    # The player as it was: it kept the centre above 10 alone, whatever the deck.
    monkeypatch.setattr(opponents, "_TOP", 10)
    before = [cautious_move(v, random.Random(0)) for v in views]
    changed = [(v, a, b) for v, a, b in zip(views, now, before) if a != b]
    assert len(changed) >= 10, len(changed)
    # It plays otherwise only where it left a centre of 11 to 13; and now, where it can at
    # no greater cost, keeps the centre above 13 or draws a Fate card instead.
    for view, _, old in changed:
        assert 10 < _left(view, old) <= 13, (view, old)
    kept = [m for v, m, _ in changed if isinstance(m, DrawFate) or _left(v, m) > 13]
    assert len(kept) > len(changed) // 2, changed


def test_without_the_higher_powers_it_keeps_the_centre_above_10() -> None:
    views = [
        v
        for v in positions(600, 12)
        if not v.setup.expansion and opponents._sweeps_count(v) and v.is_opponent(opponents._next_player(v))
    ]
    laid = [(v, m) for v in views if (m := cautious_move(v, random.Random(0))) and opponents._after(v, m)[2]]
    assert laid
    kept = [v for v, m in laid if _left(v, m) > 10]
    assert len(kept) > len(laid) // 2
