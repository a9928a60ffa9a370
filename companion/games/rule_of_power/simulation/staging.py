"""What a table looks like, step by step, as a game is played on it.

:func:`stage` follows a game move by move and yields the face-up cards after each physical
step, the way players handle them: a played card is laid in the centre and shown, then picked
up with what it captures; a Crystal or an Exorcist is laid in front of its owner; an event Fate
card is shown and discarded; a round's leftover is swept up by the last capturer. Moves nobody
can see (a deal's hands, a pass) change nothing; a Fate draw, which the table announces to the
companion, has a scene of its own with the table unchanged.

The demo table renders these scenes for the camera path; tests and benchmarks turn them into
the observations an ideal camera would make (:func:`observations`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.effects import CENTRE, HAND, Effects
from companion.games.rule_of_power.engine.game import GameSetup, GameState, Phase
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, Play
from companion.observations.scene import Scene, TableCard

__all__ = ["stage", "changes", "observations"]


def stage(setup: GameSetup, moves: Iterable[Move], *, deck_owner: str | None = None) -> Iterator[Scene]:
    """The scenes of a game played on a real table, following what each move did
    (:class:`~companion.games.rule_of_power.engine.effects.Effects`). ``deck_owner``: whose
    World deck the table plays with, its stickers carrying that player's seal (as
    ``rop markers --owner`` prints a player's cards); ``None``, a shared deck whose stickers
    name no owner. A Fate card always carries its owner's seal."""
    game = GameState(setup, keep_history=False)
    table: list[TableCard] = []

    def scene(move: Move | None, caption: str) -> Scene:
        return Scene(tuple(table), move, caption)

    def remove(card: Card, zone: str) -> None:
        for i, t in enumerate(table):
            if t.card is card and t.zone == zone:
                del table[i]
                return

    for move in moves:
        effects = game.apply(move)
        if isinstance(move, DrawFate):
            # Nothing changes on the table; the scene lets a demo or a test announce the draw.
            yield scene(move, f"{move.player} draws a Fate card")
        elif isinstance(move, Deal) and move.centre:
            table.extend(TableCard(c, deck_owner, "centre") for c in move.centre)
            yield scene(move, "the dealer lays four cards in the centre")
        elif isinstance(move, Play):
            yield from _play_scenes(move, effects, table, scene, remove, deck_owner)
        if effects.round_result is not None and table:
            table.clear()
            yield scene(None, "the round is over: the table is cleared")
        if game.phase is Phase.OVER:
            return


def _play_scenes(
    move: Play,
    effects: Effects,
    table: list[TableCard],
    scene: Callable[[Move | None, str], Scene],
    remove: Callable[[Card, str], None],
    deck_owner: str | None,
) -> Iterator[Scene]:
    """A play the way players handle it: the card is laid in the centre and shown, then picked
    up with what it takes; a Fate card is laid in front of its owner (where a Crystal or an
    Exorcist stays), with the discards it calls for; then what goes out of play leaves."""
    me, card = move.player, move.card
    if card.to_centre:
        table.append(TableCard(card, me if card.is_fate else deck_owner, "centre"))
        yield scene(move, f"{me} lays {card.id} in the centre")
        if effects.captured:
            remove(card, "centre")
            for c in effects.captured:
                remove(c, "centre")
            yield scene(move, f"{me} takes {' '.join(c.id for c in effects.captured)} with {card.id}")
    else:
        table.append(TableCard(card, me, f"fate:{me}"))
        discards = [s for s in effects.spent if s.zone == HAND and s.player is not None]
        table.extend(TableCard(s.card, s.owner if s.card.is_fate else deck_owner, f"fate:{s.player}") for s in discards)
        yield scene(move, f"{me} lays {card.title} in front of them" if effects.in_front else f"{me} shows {card.title}")
    if effects.spent:
        for s in effects.spent:
            remove(s.card, "centre" if s.zone == CENTRE else f"fate:{s.player}")
        yield scene(move, ", ".join(f"{s.card.title} leaves the table" for s in effects.spent))
