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

from collections.abc import Iterable, Iterator
from companion.engine.cards import Card
from companion.engine.game import GameSetup, GameState, Phase
from companion.engine.moves import Deal, DrawFate, Move, Play
from companion.observations import CardGone, CardSeen, Observation
from companion.observations.scene import Scene, TableCard

__all__ = ["stage", "changes", "observations"]


def stage(setup: GameSetup, moves: Iterable[Move]) -> Iterator[Scene]:
    """The scenes of a game played on a real table."""
    game = GameState(setup, keep_history=False)
    table: list[TableCard] = []

    def scene(move: Move | None, caption: str) -> Scene:
        return Scene(tuple(table), move, caption)

    def remove(card: Card, zone: str | None = None) -> None:
        for i, t in enumerate(table):
            if t.card is card and (zone is None or t.zone == zone):
                del table[i]
                return

    for move in moves:
        rounds_before = len(game.results)
        exorcists = [p for p, c in game.in_play if c.id == "F007"]
        crystals = [p for p, c in game.in_play if c.id == "F001"]
        creatures = [c for c in game.centre if c.is_creature]
        game.push(move)
        if isinstance(move, DrawFate):
            # Nothing changes on the table; the scene lets a demo or a test announce the draw.
            yield scene(move, f"{move.player} draws a Fate card")
        elif isinstance(move, Deal) and move.centre:
            table.extend(TableCard(c, None, "centre") for c in move.centre)
            yield scene(move, "the dealer lays four cards in the centre")
        elif isinstance(move, Play):
            me, card = move.player, move.card
            owner = me if card.is_fate else None
            if card.to_centre:
                table.append(TableCard(card, owner, "centre"))
                yield scene(move, f"{me} lays {card.id} in the centre")
                if move.capture:
                    remove(card, "centre")
                    for c in move.capture:
                        remove(c, "centre")
                    yield scene(move, f"{me} takes {' '.join(c.id for c in move.capture)} with {card.id}")
                if card.is_world and card.value == 4 and exorcists:
                    for p in exorcists:
                        remove(Card.from_id("F007"), f"fate:{p}")
                    yield scene(move, "the Minion sends the Exorcist away")
            elif card.id in ("F001", "F007"):
                table.append(TableCard(card, me, f"fate:{me}"))
                yield scene(move, f"{me} lays {card.title} in front of them")
                if card.id == "F001" and crystals:
                    remove(card, f"fate:{me}")
                    for p in crystals:
                        remove(card, f"fate:{p}")
                    yield scene(move, "two Crystals: both are discarded")
                if card.id == "F007" and creatures:
                    for c in creatures:
                        remove(c, "centre")
                    yield scene(move, "the Exorcist removes the Creatures")
            else:
                table.append(TableCard(card, me, f"fate:{me}"))
                for p, c in move.discards:
                    table.append(TableCard(c, p if c.is_fate else None, f"fate:{p}"))
                yield scene(move, f"{me} shows {card.title}")
                remove(card, f"fate:{me}")
                for p, c in move.discards:
                    remove(c, f"fate:{p}")
                yield scene(move, f"{card.title} is discarded")
        if len(game.results) > rounds_before and table:
            table.clear()
            yield scene(None, "the round is over: the table is cleared")
        if game.phase is Phase.OVER:
            return


def changes(before: Scene | None, after: Scene, at: float, source: str = "camera") -> list[Observation]:
    """What an ideal camera reports between two scenes: each card gone, each card seen."""
    old = {(c.card, c.owner): c.zone for c in before.cards} if before else {}
    new = {(c.card, c.owner): c.zone for c in after.cards}
    out: list[Observation] = [CardGone(source, at, k[0], k[1], z) for k, z in old.items() if new.get(k) != z]
    out += [CardSeen(source, at, k[0], k[1], z) for k, z in new.items() if old.get(k) != z]
    return out


def observations(scenes: Iterable[Scene], *, start: float = 0.0, step: float = 0.5, source: str = "camera") -> Iterator[Observation]:
    """What an ideal camera reports over a game's scenes, ``step`` seconds apart."""
    before: Scene | None = None
    t = start
    for s in scenes:
        t += step
        yield from changes(before, s, t, source)
        before = s
