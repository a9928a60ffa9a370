"""What a game of Circle of Power looks like to NFC readers: the taps a table makes for each
move, as docs/tracker.md tells players to ("Circle of Power with NFC readers").

Three readers: the **play reader** takes the battle cards as they are played, in turn (the
order of the taps says who played which); the **city reader** takes the city cards as they are
dealt at a season's set-up (the joker for the bottom of the city deck first, then the four
cities from the dealer's left), the next available city as it is turned up (all but the
bottom joker, face up since the set-up, which the companion turns up by itself as the city
deck's last card, C7), and a city that comes to the winner's seat in a retake (or, in
Coloured Cities, the winner's city given to the loser); the **line reader** takes what goes
into a line or leaves one: the city taken over in a conquest or destroyed, the trophy a
retake (after its city) or a rebellion discards, and, in Coloured Cities, a black winner's
own city when they keep it (after the city taken over).

An act the rules leave no choice about (a dummy's, C11; a regroup without a trophy to
choose) needs no tap: the companion makes it as soon as the last battle card is played. An
act is made at the tap that leaves one act open: a retake of a loser holding one trophy at
most at its city's tap (C13). A tap made after the act is taken as the confirmation it is.
:func:`taps_for` taps what a careful table taps: every card the protocol names. For tests
and benchmarks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.games.circle_of_power.cards import BLACK, Card, colour_in_attack
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Retake, Reveal, Season
from companion.games.circle_of_power.setup import COLOURED_CITIES, CircleSetup, is_dummy
from companion.observations import CardTapped

__all__ = ["PLAY_READER", "CITY_READER", "LINE_READER", "READERS", "board_layout", "taps_for"]

PLAY_READER = "play-reader"
CITY_READER = "city-reader"
LINE_READER = "line-reader"
READERS = {PLAY_READER: "play", CITY_READER: "city", LINE_READER: "line"}
"""Each reader of :func:`taps_for` and the zone it serves (``TrackerConfig.readers``)."""


def board_layout() -> tuple[dict[str, str], dict[str, str]]:
    """Where the readers of :func:`taps_for` sit on one reader board (``hardware.tapping``):
    each one's board reader, and the zone each board reader serves (``TrackerConfig.readers``):
    the play reader is ``board:0``, the city reader ``board:1``, the line reader ``board:2``."""
    places = {PLAY_READER: "board:0", CITY_READER: "board:1", LINE_READER: "board:2"}
    zones = {place: READERS[name] for name, place in places.items()}
    return places, zones


def taps_for(
    setup: CircleSetup, moves: Sequence[Move], owner: str, *, start: float = 0.0, step: float = 0.3
) -> Iterator[tuple[Move, list[CardTapped]]]:
    """Each true move of a game with the taps that make it, ``step`` seconds apart; the deck's
    tags name ``owner``."""
    game = CircleState(setup, keep_history=False)
    t = start

    def tap(card: Card, reader: str) -> CardTapped:
        nonlocal t
        t += step
        return CardTapped("serial:sim", t, card, owner, reader)

    for move in moves:
        taps: list[CardTapped] = []
        if type(move) is Season:
            cities = dict(move.cities)
            first = move.seats.index(move.dealer) + 1
            order = [move.seats[(first + k) % len(move.seats)] for k in range(len(move.seats))]
            taps = [tap(move.bottom, CITY_READER)] + [tap(cities[name], CITY_READER) for name in order]
        elif type(move) is Reveal and game.bottom_reveal() is None:
            taps = [tap(move.card, CITY_READER)]  # the bottom joker, face up from the set-up, is nobody's to tap (C7)
        elif type(move) is Play:
            taps = [tap(move.card, PLAY_READER)]
        elif (type(move) is Conquer or type(move) is Retake or type(move) is Regroup) and not is_dummy(move.player):
            taps = [tap(card, reader) for card, reader in _act_taps(game, move)]
        game.push(move, check=False)
        yield move, taps


def _act_taps(game: CircleState, move: Move) -> list[tuple[Card, str]]:
    """The cards a (human) winner taps for their act, in the order they move them."""
    if type(move) is Conquer:
        mine, theirs = game.city(move.player), game.city(move.victim)
        assert mine is not None and theirs is not None
        out = [(theirs, LINE_READER)]
        if game.variant == COLOURED_CITIES and colour_in_attack(mine, theirs) == BLACK:
            # A black winner says what becomes of their own city: kept, or given to the loser.
            out.append((mine, LINE_READER if move.keep else CITY_READER))
        return out
    if type(move) is Retake:
        theirs = game.city(move.victim)
        assert theirs is not None
        return [(theirs, CITY_READER)] + ([(move.discard, LINE_READER)] if move.discard is not None else [])
    assert type(move) is Regroup
    return [(move.discard, LINE_READER)] if move.discard is not None else []
