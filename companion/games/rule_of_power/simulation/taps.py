"""What a game looks like to NFC readers: the taps a table makes for each move, as the docs
tell players to (docs/tracker.md, "With NFC readers").

The counterpart of :mod:`~companion.games.rule_of_power.simulation.staging` for the readers: the card played on
the centre reader, then the cards it takes while the capture is not yet told apart (R4), a
drawn Fate card on its owner's Fate reader, the discards a Dark Decay calls for (R21) in
seating order, the first deal's centre cards. A Thief's or a Mirror Swap's target is named
only when the tracker asks (the target taps one of their Fate cards on their own Fate
reader), so it is not among these taps. For tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, Play
from companion.observations import CardTapped

__all__ = ["CENTRE_READER", "board_layout", "fate_reader", "taps_for"]

CENTRE_READER = "board:0"
"""The reader by the centre."""


def fate_reader(player: str) -> str:
    """The name of ``player``'s Fate reader in :func:`taps_for`."""
    return f"fate-reader:{player}"


def board_layout(players: Sequence[str], fate_readers: bool, *, per_board: int = 8) -> tuple[dict[str, str], dict[str, str]]:
    """Where the readers of :func:`taps_for` sit on the table's reader boards
    (``hardware.tapping``): each one's board reader, and the zone each board reader watches
    (``TrackerConfig.readers``). The centre reader is ``board:0``; with ``fate_readers``, each
    player's Fate reader follows in seating order, on the first board while it has readers
    left (``per_board``: eight on the board of ``firmware/``, four on the boards built before
    it), then on a second board (``board2:0``, ...), and so on (docs/nfc.md)."""
    from hardware.sensors import board_name

    seats = list(players) if fate_readers else []
    places = [f"{board_name(i // per_board)}:{i % per_board}" for i in range(1 + len(seats))]
    where = {CENTRE_READER: places[0], **{fate_reader(p): places[1 + i] for i, p in enumerate(seats)}}
    zones = {places[0]: "centre", **{places[1 + i]: f"fate:{p}" for i, p in enumerate(seats)}}
    return where, zones


def taps_for(setup: GameSetup, moves: Sequence[Move], *, start: float = 0.0, step: float = 0.3) -> Iterator[tuple[Move, list[CardTapped]]]:
    """Each true move of a game with the taps that make it, ``step`` seconds apart."""
    game = GameState(setup, keep_history=False)
    t = start

    def tap(card: Card, owner: str | None, reader: str) -> CardTapped:
        nonlocal t
        t += step
        return CardTapped("serial:sim", t, card, owner, reader)

    for move in moves:
        taps: list[CardTapped] = []
        if isinstance(move, Deal) and move.centre:
            taps = [tap(c, None, CENTRE_READER) for c in move.centre]
        elif isinstance(move, DrawFate):
            card = game.fate_deck(move.player)[0]
            taps = [tap(card, move.player, fate_reader(move.player))]
        elif isinstance(move, Play):
            card = move.card
            taps = [tap(card, move.player if card.is_fate else None, CENTRE_READER)]
            options = [set(o) for o in game.capture_options(card)] if card.to_centre else []
            if len(options) > 1:
                picked: set[Card] = set()
                for c in move.capture:
                    if sum(1 for o in options if picked <= o) == 1:
                        break
                    picked.add(c)
                    taps.append(tap(c, None, CENTRE_READER))
            for p, c in move.discards:
                taps.append(tap(c, p if c.is_fate else None, CENTRE_READER))
        game.push(move)
        yield move, taps
