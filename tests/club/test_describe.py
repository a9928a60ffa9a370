"""The live page's view of a table: kept from move to move, it says what working the table's
state out afresh says, after every move of whole games."""

from __future__ import annotations

import json

import pytest

from companion.games.rule_of_power.club.describe import TableView, table_state
from companion.records.format import Replayer, play_event, read_record
from tests.club.conftest import record_lines


@pytest.mark.parametrize("seed,players,teams", [(1, 2, 0), (2, 3, 0), (3, 4, 2), (4, 6, 3), (5, 5, 0)])
def test_the_kept_view_matches_a_fresh_one_after_every_move(seed: int, players: int, teams: int) -> None:
    lines = record_lines(seed, players, teams)
    replayer = Replayer()
    read_record(lines[:1], replayer)
    game = replayer.game
    assert game is not None
    header = json.loads(lines[0])
    view = TableView()
    changed = 0
    for n, line in enumerate(lines[1:], 2):
        before = view.state(game, header)
        play_event(game, json.loads(line), line=n)
        kept = view.state(game, header)
        assert kept == table_state(game, header), f"after line {n}"
        changed += kept.get("running") != before.get("running")
    assert changed > 5  # the running score moved: the view was put to the test
