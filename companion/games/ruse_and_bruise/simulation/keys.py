"""What a Ruse and Bruise table watched by a camera alone types, as it happens: the moves no
camera sees while a card's back is not observed (docs/ruse-and-bruise.md, "What the table
types"). A card placed face down shows nothing; it is seen only when it is turned over, and the
camera then knows its placement too (a card turned over in a column was placed under, B10). So
the table types, each in one key:

- a placement that turns nothing over (an empty column, or below a face-up card, B8): its
  column (the card stays unseen);
- an Invisibility Cloak's choice (B14): whether a card went under it (unseen);
- a Traitor declined (B15): nothing on the table changes.

Everything else the camera sees (a round's goal cards, a card turned over, a Traitor's goal
cards exchanged, the reveal) or the rules force (an Explorer, an Assassin, a Storm, a pass, the
distribution). For tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import UNSEEN, Cloak, Move, Place, Swap
from companion.games.ruse_and_bruise.setup import RabSetup

__all__ = ["typed_moves", "as_typed"]


def as_typed(move: Move) -> Move:
    """``move`` as the table types it: a card placed face down stays unseen, and so do the
    draws (B29)."""
    if type(move) is Place:
        return Place(move.player, move.column, UNSEEN)
    if type(move) is Cloak:
        return Cloak(move.player, move.placed, UNSEEN if move.placed else None)
    return move


def typed_moves(setup: RabSetup, moves: Sequence[Move]) -> dict[int, Move]:
    """The moves of a game a table with a camera alone types, by their place in ``moves``, as
    it types them (:func:`as_typed`)."""
    game = RabState(setup, keep_history=False)
    out: dict[int, Move] = {}
    for i, move in enumerate(moves):
        if type(move) is Place:
            col = game.column(move.column)
            if not col.cards or col.cards[-1][2]:
                out[i] = as_typed(move)  # it turns nothing over: nothing shows where it went
        elif type(move) is Cloak or (type(move) is Swap and move.swap is None):
            out[i] = as_typed(move)
        game.push(move, check=False)
    return out
