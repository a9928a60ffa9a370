"""What a Love, Money, Power, Death table looks like, step by step, as a game is played on it.

:func:`stage` follows a game move by move and yields the cards a camera sees after each
physical step, the way players handle them on the table's mat (``commit:<player>``,
``court:<player>`` for each seat, ``noble`` and ``discards`` in the middle; docs/tracker.md):

- each player's card committed face down in their commit place (L6): its back shows;
- the round's noble turned face up in the middle, once every player has committed (L7);
- each player's committed card turned face up where it lies, one player after another (L7);
- the noble laid in its winner's court (L10), or on the discards when it is discarded (L8, L9);
- the revealed cards gathered onto the discards, face up (L10): only the top card of the
  discards shows.

The deal, the draws, the piles and the hands change nothing a camera is shown: the piles lie
stacked, the hands are held. Tests and benchmarks render these scenes
(:func:`vision.scenes.natural_play`, :mod:`.camera`) or turn them into the observations an
ideal camera makes (:func:`companion.observations.scene.changes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import Commit, Move, Reveal, TurnUp
from companion.games.love_money_power_death.setup import LmpdSetup
from companion.games.love_money_power_death.state import LmpdState
from companion.games.love_money_power_death.table import COMMIT, COURT, DISCARDS, NOBLE
from companion.observations.scene import Scene, TableCard

__all__ = ["stage", "COMMITTED", "REVEALED", "GATHERED"]

COMMITTED = "commits a card face down"
"""In the caption of each commit: ``"ann commits a card face down"``, never naming it (L6)."""

REVEALED = "turns their card face up"
"""In the caption of each step of a reveal: ``"ann turns their card face up: 4Mb"``."""
GATHERED = "the revealed cards are gathered onto the discards"
"""The caption of the step that clears the commit places after a round."""


def stage(setup: LmpdSetup, moves: Iterable[Move], owner: str | None = None) -> Iterator[Scene]:
    """The scenes of a game played on a real table whose deck's seals carry ``owner`` (``None``:
    the club's deck), following what each move did. A step that follows a round (the noble to
    its court, the cards gathered) belongs to no move."""
    game = LmpdState(setup, keep_history=False)
    table: list[TableCard] = []

    def scene(move: Move | None, caption: str) -> Scene:
        return Scene(tuple(table), move, caption)

    def lay(card: Card, zone: str, face_up: bool = True) -> None:
        table.append(TableCard(card, owner, zone, face_up))

    def take(card: Card) -> None:
        table[:] = [t for t in table if t.card is not card]

    def discard(card: Card) -> None:
        # The discards are a pile: the card laid on it covers the one below.
        table[:] = [t for t in table if t.zone != DISCARDS]
        lay(card, DISCARDS)

    for move in moves:
        effects = game.apply(move)
        if type(move) is Commit and isinstance(move.card, Card):
            lay(move.card, f"{COMMIT}:{move.player}", face_up=False)
            yield scene(move, f"{move.player} {COMMITTED}")
        elif type(move) is TurnUp:
            lay(move.card, NOBLE)
            yield scene(move, f"{move.card.id} is turned face up")
        elif type(move) is Reveal:
            for player, card in move.cards:
                take(card)  # turned over where it lies
                lay(card, f"{COMMIT}:{player}")
                yield scene(move, f"{player} {REVEALED}: {card.id}")
            result = effects.result
            assert result is not None
            take(result.noble)
            if result.winner is not None:
                lay(result.noble, f"{COURT}:{result.winner}")
                yield scene(None, f"{result.winner} lays {result.noble.id} in their court")
            else:
                discard(result.noble)
                yield scene(None, f"{result.noble.id} is discarded")
            for _, card in move.cards:
                take(card)
            discard(move.cards[-1][1])
            yield scene(None, GATHERED)
