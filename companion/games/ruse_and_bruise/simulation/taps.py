"""What a game of Ruse and Bruise looks like to NFC readers: the taps a table makes for each
move, as docs/ruse-and-bruise.md tells players to ("At the table").

A reader at each column (``column-1`` ... ``column-N``): each goal card is tapped on its
column's reader as it is turned over at a round's start (B7); each card placed is tapped on its
column's reader before it is laid face down (B8); a card put under an Invisibility Cloak on the
Cloak's column's reader (B14); the goal card a Traitor brings into his column on that column's
reader (B15). Everything else (a card turned over, an Explorer moving, an Assassin's victim, a
Storm, a pass, the reveal and the distribution) follows from the taps and the rules: no tap.

A Cloak or a Traitor declined needs no tap when the next tap shows it (the next player's card, a
goal card of the next round). :func:`taps_for` taps the Cloak or the Traitor itself to decline
where the next tap would not show it: nothing follows (the game's last turn), or the Cloak's
owner's own card tapped next on the Cloak's column's reader, which would go under the Cloak;
with ``aloud`` it taps them for every decline. For tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.games.ruse_and_bruise.cards import Goal, Influence
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Place, Round, Swap
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.table import column_zone
from companion.observations import CardTapped

__all__ = ["TABLE_OWNER", "board_layout", "readers", "taps_for"]

TABLE_OWNER = "club"
"""Whose goal cards' tags these are: the table's (``rop tags enrol --owner club --deck goals``)."""

_CLOAK = Influence.from_id("CLOAK")
_TRAITOR = Influence.from_id("TRAITOR")


def readers(players: int) -> dict[str, str]:
    """The readers of :func:`taps_for` (named after their columns) and the zone each serves
    (``TrackerConfig.readers``)."""
    return {column_zone(k): column_zone(k) for k in range(1, players + 1)}


def board_layout(players: int) -> tuple[dict[str, str], dict[str, str]]:
    """Where the readers of :func:`taps_for` sit on one reader board (``hardware.tapping``):
    each column's board reader (column k is ``board:<k - 1>``), and the zone each board reader
    serves (``TrackerConfig.readers``)."""
    places = {column_zone(k): f"board:{k - 1}" for k in range(1, players + 1)}
    return places, {place: zone for zone, place in places.items()}


def taps_for(
    setup: RabSetup, moves: Sequence[Move], *, aloud: bool = False, start: float = 0.0, step: float = 0.3
) -> Iterator[tuple[Move, list[CardTapped]]]:
    """Each true move of a game with the taps that make it, ``step`` seconds apart; the
    influence cards' tags name their colour, the goal cards' the table (:data:`TABLE_OWNER`)."""
    game = RabState(setup, keep_history=False)
    planned: list[tuple[Move, list[tuple[Influence | Goal, int, str]], tuple[Influence, int, str] | None]] = []
    for move in moves:
        waiting = game.waiting
        taps: list[tuple[Influence | Goal, int, str]] = []
        decline: tuple[Influence, int, str] | None = None
        if type(move) is Round:
            taps = [(g, k, TABLE_OWNER) for k, g in enumerate(move.goals, 1)]
        elif type(move) is Place and isinstance(move.card, Influence):
            taps = [(move.card, move.column, _colour(game, move.player))]
        elif type(move) is Cloak:
            assert waiting.column is not None
            if move.placed and isinstance(move.card, Influence):
                taps = [(move.card, waiting.column, _colour(game, move.player))]
            elif not move.placed:
                decline = (_CLOAK, waiting.column, _colour(game, move.player))
        elif type(move) is Swap:
            assert waiting.column is not None
            if move.swap is not None:
                brought = game.column(move.swap).goal
                assert brought is not None
                taps = [(brought, waiting.column, TABLE_OWNER)]
            else:
                decline = (_TRAITOR, waiting.column, _colour(game, move.player))
        planned.append((move, taps, decline))
        game.push(move, check=False)
    t = start
    for i, (move, taps, decline) in enumerate(planned):
        if decline is not None and (aloud or not _shows_decline(decline, _next_tap(planned, i))):
            taps = [decline]
        out = []
        for card, column, owner in taps:
            t += step
            out.append(CardTapped("serial:sim", t, card, owner, column_zone(column)))
        yield move, out


def _colour(game: RabState, player: str) -> str:
    return game.setup.colours[game.players.index(player)]


def _next_tap(planned: Sequence[tuple[Move, list[tuple[Influence | Goal, int, str]], object]], i: int) -> tuple[Influence | Goal, int, str] | None:
    """The first tap after move ``i`` of a move that is tapped anyway."""
    return next((taps[0] for _, taps, _ in planned[i + 1 :] if taps), None)


def _shows_decline(decline: tuple[Influence, int, str], following: tuple[Influence | Goal, int, str] | None) -> bool:
    """Whether the tap ``following`` a decline shows it (docs/ruse-and-bruise.md): there is one,
    and it is not the Cloak's owner's card on the Cloak's column's reader (which would go under
    it, B14)."""
    if following is None:
        return False
    card, column, owner = following
    return not (decline[0] is _CLOAK and isinstance(card, Influence) and owner == decline[2] and column == decline[1])
