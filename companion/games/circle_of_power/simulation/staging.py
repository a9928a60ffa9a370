"""What a Circle of Power table looks like, step by step, as a game is played on it.

:func:`stage` follows a game move by move and yields the face-up cards after each physical
step, the way players handle them on the table's layout (``city:<seat>``, ``battle:<seat>``,
``line:<seat>`` for the four seats, ``city-deck`` in the middle; docs/tracker.md):

- a season's set-up (C6): the joker laid face up at the bottom of the city deck, each city dealt
  face up, from the dealer's left, then the rest of the city deck laid face down on the joker
  (which is then covered);
- the next available city turned face up on the city deck (C7);
- each battle card laid face up in front of its emperor's city (C8);
- the winner's act, card by card, as the rules move them (:class:`~companion.games.
  circle_of_power.effects.Transfer`, C12-C14, C18, C19): a city into a line (face up as a trophy,
  or face down, destroyed), a trophy or a city discarded face down, a city to another seat, the
  next available city taken; then the four battle cards gathered face down;
- the season's end (C16): every card taken up for the next season's shuffle.

Hands, piles, the battle deck and the reshuffle (C15) lie face down: they change nothing a
camera sees. Tests and benchmarks render these scenes (:func:`vision.scenes.natural_play`) or
turn them into the observations an ideal camera would make (:func:`observations`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.effects import CITY, CITY_DECK, GATHERED, TABLE, TROPHIES, Transfer
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Move, Play, Reveal, Season
from companion.games.circle_of_power.setup import CircleSetup
from companion.observations.scene import Scene, TableCard

__all__ = ["stage", "changes", "observations", "city_zone", "battle_zone", "line_zone", "CITY_DECK_ZONE"]

CITY_DECK_ZONE = "city-deck"
"""The city deck in the middle of the table: the next available city lies face up on it."""


def city_zone(seat: int) -> str:
    """Where the emperor in ``seat`` (0-3, clockwise from the bottom edge) keeps their city."""
    return f"city:{seat}"


def battle_zone(seat: int) -> str:
    """Where the emperor in ``seat`` lays the battle card they play, in front of their city."""
    return f"battle:{seat}"


def line_zone(seat: int) -> str:
    """Where the emperor in ``seat`` keeps their line of victories (of history, C19)."""
    return f"line:{seat}"


_Scene = Callable[[Move | None, str], Scene]
_Lay = Callable[[Card, str], None]
_Take = Callable[[Card], None]


def stage(setup: CircleSetup, moves: Iterable[Move], owner: str) -> Iterator[Scene]:
    """The scenes of a game played on a real table whose deck's seals carry ``owner``, following
    what each move did (:class:`~companion.games.circle_of_power.effects.Effects`)."""
    game = CircleState(setup, keep_history=False)
    table: list[TableCard] = []

    def scene(move: Move | None, caption: str) -> Scene:
        return Scene(tuple(table), move, caption)

    def lay(card: Card, zone: str) -> None:
        table.append(TableCard(card, owner, zone))

    def take(card: Card) -> None:
        for i, t in enumerate(table):
            if t.card is card:
                del table[i]
                return

    for move in moves:
        before = game.copy(keep_history=False)
        effects = game.apply(move)
        if type(move) is Season:
            yield from _season_scenes(move, scene, lay, take)
        elif type(move) is Reveal:
            # (The joker at the bottom, face up all along, is the last one uncovered.)
            lay(move.card, CITY_DECK_ZONE)
            yield scene(move, f"{move.card.id} is turned up on the city deck")
        elif type(move) is Play:
            lay(move.card, battle_zone(before.seats.index(move.player)))
            yield scene(move, f"{move.player} plays {move.card.id}")
        elif effects.transfers:
            yield from _act_scenes(before, move, effects.transfers, scene, lay, take)
        if effects.result is not None and table:
            table.clear()
            yield scene(None, f"season {effects.result.number} is over: every card is taken up")


def _season_scenes(move: Season, scene: _Scene, lay: _Lay, take: _Take) -> Iterator[Scene]:
    """C6: the joker face up at the bottom of the city deck, the cities dealt from the
    dealer's left, the rest of the city deck laid face down on the joker."""
    lay(move.bottom, CITY_DECK_ZONE)
    yield scene(move, f"{move.dealer} lays {move.bottom.id} face up for the bottom of the city deck")
    seats = move.seats
    start = (seats.index(move.dealer) + 1) % len(seats)
    cities = dict(move.cities)
    for k in range(len(seats)):
        seat = (start + k) % len(seats)
        lay(cities[seats[seat]], city_zone(seat))
        yield scene(move, f"{seats[seat]}'s city is {cities[seats[seat]].id}")
    take(move.bottom)
    yield scene(move, "the city deck is laid face down on the joker")


def _act_scenes(before: CircleState, move: Move, transfers: Sequence[Transfer], scene: _Scene, lay: _Lay, take: _Take) -> Iterator[Scene]:
    """The winner's act card by card (C12-C14, C18, C19), then the battle cards gathered (C8)."""
    seats = before.seats
    gathered = [t for t in transfers if t.source == TABLE and t.destination == GATHERED]
    for t in transfers:
        if t in gathered or not isinstance(t.card, Card):
            continue
        take(t.card)
        if t.destination == TROPHIES:
            assert t.destination_owner is not None
            lay(t.card, line_zone(seats.index(t.destination_owner)))
            yield scene(move, f"{t.card.id} goes into {t.destination_owner}'s line")
        elif t.destination == CITY:
            assert t.destination_owner is not None
            lay(t.card, city_zone(seats.index(t.destination_owner)))
            where = "from the city deck" if t.source == CITY_DECK else f"from {t.source_owner}"
            yield scene(move, f"{t.destination_owner} takes {t.card.id} {where}")
        else:
            yield scene(move, f"{t.card.id} is laid face down ({t.destination})")
    if gathered:
        for t in gathered:
            assert isinstance(t.card, Card)
            take(t.card)
        yield scene(move, "the battle cards are gathered face down")
