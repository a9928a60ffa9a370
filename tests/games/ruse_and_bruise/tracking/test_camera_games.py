"""Whole games of Ruse and Bruise kept by a camera alone, with the keys no camera can supply
typed at the table (docs/ruse-and-bruise.md, "What the table types"): a card placed where it
turns nothing over (B8), a Cloak's choice (B14), a Traitor declined (B15), and at the round's end,
where the rules cannot tell it, the order of one player's cards turned up in one column (B16).
The camera sees every card placed face down as a back of its colour and names each card as it is
turned over: the goal cards of each round (B7), a card turned over by the one placed under it,
which shows that placement too (B10), a Traitor's goal cards exchanged (B15), the reveal (B16).
The game must end with every move played as far as the camera can tell (B29) and the scores
played."""

from __future__ import annotations

import statistics

import pytest

from companion.games.ruse_and_bruise.moves import Cloak, Place, Reveal, Swap
from companion.games.ruse_and_bruise.simulation.keys import typed_moves
from companion.tracker import MoveApplied, Question

from tests.games.ruse_and_bruise.tracking.harness import RabRun


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_whole_game_seen_by_the_camera_needs_only_the_keys_no_camera_supplies(players: int, seed: int) -> None:
    run = RabRun(players, seed)
    run.play_camera()
    typed = typed_moves(run.dealt, run.moves)
    # Each question is the order of a player's cards in a column at a round's end (B16).
    asked = [e for e in run.events if isinstance(e, Question)]
    assert all(q.prompt == "Which card lies where, from the goal card down?" for q in asked)
    assert len(asked) <= sum(type(m) is Reveal for m in run.moves)
    run.assert_kept(keys=len(asked))
    assert run.keys == len(typed)
    applied = [e for e in run.events if isinstance(e, MoveApplied)]
    assert {e.how for e in applied} <= {"camera", "forced", "answer"}
    assert sum(e.how == "answer" for e in applied) == len(asked)
    # Typed: only placements that turn nothing over, Cloaks' choices and Traitors declined.
    assert {type(m) for m in typed.values()} <= {Place, Cloak, Swap}
    assert all(m.swap is None for m in typed.values() if type(m) is Swap)


def test_the_camera_names_every_placement_it_sees_turned_over() -> None:
    """A card placed under a face-down card turns it over (B10): the camera sees the card turned
    over and so knows the placement as well, unseen card and all; nobody types it."""
    run = RabRun(4, 0)
    run.play_camera()
    typed = typed_moves(run.dealt, run.moves)
    placements = [i for i, m in enumerate(run.moves) if type(m) is Place]
    seen = [i for i in placements if i not in typed]
    assert seen and len(seen) > len(placements) // 3, (len(seen), len(placements))


@pytest.mark.slow
def test_a_whole_game_filmed_by_a_1080p_camera_is_known_as_the_hands_leave() -> None:
    """A whole game of two played at a natural pace over the standard mat, a hand in for every
    step, rendered at the density of a 1080p camera and read by the seal detector and the
    stabiliser on the video's clock: kept with the same keys, each move the camera shows known
    within a second of the hand that made it leaving the table."""
    run = RabRun(2, 0, unexplained_after=3.0)  # as `rop play` waits
    delays = run.play_filmed()
    asked = sum(isinstance(e, Question) for e in run.events)
    run.assert_kept(keys=asked)
    assert run.keys == len(typed_moves(run.dealt, run.moves))
    assert delays and statistics.median(delays) <= 0.6 and max(delays) <= 1.0, sorted(delays)[-3:]
