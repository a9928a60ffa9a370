"""What a game of Love, Money, Power, Death looks like to NFC readers: the taps a table makes
for each move, as docs/tracker.md tells players to ("Love, Money, Power, Death with NFC
readers").

Each player taps the card they commit, face down, on their own commit reader as they lay it
(L6); the noble is tapped on the centre reader as it is turned (L7). Nothing else is tapped:
the deal and the draws stay face down (L5, L11), and the reveal shows the cards the commits
named (L7). For tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.games.love_money_power_death.cards import Card
from companion.games.love_money_power_death.moves import Commit, Move, TurnUp
from companion.games.love_money_power_death.setup import LmpdSetup
from companion.games.love_money_power_death.table import CENTRE, COMMIT
from companion.observations import CardTapped

__all__ = ["CENTRE_READER", "commit_reader", "readers", "board_layout", "taps_for"]

CENTRE_READER = "centre-reader"


def commit_reader(player: str) -> str:
    """The name :func:`taps_for` gives ``player``'s commit reader."""
    return f"{player}-reader"


def readers(players: Sequence[str]) -> dict[str, str]:
    """Each reader of :func:`taps_for` and the zone it serves (``TrackerConfig.readers``)."""
    return {CENTRE_READER: CENTRE, **{commit_reader(p): f"{COMMIT}:{p}" for p in players}}


def board_layout(players: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Where the readers of :func:`taps_for` sit on one reader board (``hardware.tapping``):
    the centre reader is ``board:0``, the players' commit readers ``board:1`` on, in seating
    order (six players and the centre: seven of the board's eight readers); and the zone each
    board reader serves (``TrackerConfig.readers``)."""
    places = {CENTRE_READER: "board:0", **{commit_reader(p): f"board:{k + 1}" for k, p in enumerate(players)}}
    zones = readers(players)
    return places, {place: zones[name] for name, place in places.items()}


def taps_for(setup: LmpdSetup, moves: Sequence[Move], owner: str | None = None, *, start: float = 0.0, step: float = 0.3) -> Iterator[tuple[Move, list[CardTapped]]]:
    """Each true move of a game with the taps that make it, ``step`` seconds apart; the deck's
    tags name ``owner`` (``None``: the club's deck)."""
    t = start

    def tap(card: Card, reader: str) -> CardTapped:
        nonlocal t
        t += step
        return CardTapped("serial:sim", t, card, owner, reader)

    for move in moves:
        taps: list[CardTapped] = []
        if type(move) is Commit:
            assert isinstance(move.card, Card), "a game played on the table: every commit is a card"
            taps = [tap(move.card, commit_reader(move.player))]
        elif type(move) is TurnUp:
            taps = [tap(move.card, CENTRE_READER)]
        yield move, taps
