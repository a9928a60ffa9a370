"""What a Ruse and Bruise table looks like, step by step, as a game is played on it.

:func:`stage` follows a game move by move and yields the face-up cards after each physical
step, the way players handle them on the table's mat (``goal-<k>``, ``column-<k>``: the table
spec's zones, docs/ruse-and-bruise.md):

- a round's start (B7): the top goal card of each stack turned face up, column 1 first;
- a placement (B8), a card under a Cloak (B14), an Assassin's victim (B12): a card laid face
  down, or taken away face down: nothing face up changes;
- a card turned over (B10): face up in its column;
- an Explorer moving (B11): taken from his column, laid face down at the next one's bottom;
- a Traitor's swap (B15): the two goal cards exchanged, one after the other;
- the round's end (B16): every face-down card turned up, column by column; the distribution
  (B27): the goal cards taken by their winners, face down, and every column gathered into the
  discard piles.

A card's copy is its colour (B1); a goal card has none. The cards lying face down (the stacks,
the discard piles, the hands, the goal stacks, the goal cards won, the cards placed) are not in
the scenes: a camera sees their backs, which name a colour and never a card. Tests and
benchmarks render these scenes (:func:`vision.scenes.natural_play`,
:mod:`~companion.games.ruse_and_bruise.simulation.camera`) or turn them into what an ideal
camera reports (:func:`companion.observations.scene.changes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Assassinate, Cloak, Distribute, Explore, Move, Place, Reveal, Round, Swap, TurnOver
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.table import column_zone, goal_zone
from companion.observations.scene import Scene, TableCard

__all__ = ["stage"]


def stage(setup: RabSetup, moves: Iterable[Move]) -> Iterator[Scene]:
    """The scenes of a game played on a real table, following what each move did."""
    game = RabState(setup, keep_history=False)
    table: list[TableCard] = []
    colours = dict(zip(setup.players, setup.colours))

    def scene(move: Move, caption: str) -> Scene:
        return Scene(tuple(table), move, caption)

    def lay(card: Influence | Goal, owner: str | None, zone: str) -> None:
        table.append(TableCard(card, owner, zone))

    def take(card: Influence | Goal, owner: str | None) -> None:
        for i, t in enumerate(table):
            if t.card is card and t.owner == owner:
                del table[i]
                return

    for move in moves:
        before = game.copy(keep_history=False)
        waiting = before.waiting
        effects = game.apply(move)
        if type(move) is Round:
            for k, goal in enumerate(move.goals, 1):
                lay(goal, None, goal_zone(k))
                yield scene(move, f"{goal.id} is turned over on goal stack {k}")
        elif type(move) is TurnOver:
            owner = effects.owner
            assert owner is not None
            lay(move.card, colours[owner], column_zone(move.column))
            yield scene(move, f"{owner}'s {move.card.id} is turned over in column {move.column}")
        elif type(move) is Explore and move.to is not None:
            owner = effects.owner
            assert owner is not None and isinstance(effects.card, Influence)
            take(effects.card, colours[owner])
            yield scene(move, f"{owner}'s Explorer moves from column {effects.column} to column {move.to}, face down")
        elif type(move) is Swap and move.swap is not None:
            assert waiting.column is not None
            here, there = before.column(waiting.column).goal, before.column(move.swap).goal
            assert here is not None and there is not None
            take(here, None)
            take(there, None)
            lay(there, None, goal_zone(waiting.column))
            yield scene(move, f"{there.id} is brought to column {waiting.column}")
            lay(here, None, goal_zone(move.swap))
            yield scene(move, f"{here.id} goes to column {move.swap}")
        elif type(move) is Reveal:
            for col, cards in zip(before.columns, move.columns):
                owners = [o for o, _, up in col.cards if not up]
                for owner, card in zip(owners, cards):
                    lay(card, colours[owner], column_zone(col.number))
                if cards:
                    yield scene(move, f"column {col.number}'s face-down cards are turned over")
        elif type(move) is Distribute:
            for col, winner in zip(before.columns, move.winners):
                assert col.goal is not None
                take(col.goal, None)
                for owner, placed, _ in col.cards:
                    assert placed is not None
                    take(placed, colours[owner])
                gone = f"{winner} takes {col.goal.id}" if winner else f"{col.goal.id} goes back into the box"
                yield scene(move, f"{gone}; column {col.number}'s cards go to their owners' discard piles")
        elif type(move) in (Place, Cloak, Assassinate):
            yield scene(move, _unseen(move))


def _unseen(move: Move) -> str:
    if type(move) is Place:
        return f"{move.player} places a card face down in column {move.column}"
    if type(move) is Cloak:
        return f"{move.player} places a card face down under the Invisibility Cloak" if move.placed else f"{move.player} places nothing under the Cloak"
    return "the Assassin's victim goes to its owner's discard pile, face down"
