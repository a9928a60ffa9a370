"""``goofspiel-record/1``: a game of Goofspiel, one JSON object per line.

    {"event": "game", "format": "goofspiel-record/1", "players": ["ann", "bob"]}
    {"event": "turn", "card": "P3"}
    {"event": "bid", "player": "bob", "card": null}
    {"event": "bid", "player": "ann", "card": "B2"}
    {"event": "reveal", "cards": {"ann": "B2", "bob": "B5"}}

A bid's ``card`` is ``null`` when the companion did not see it (G3); the reveal names them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.contract import UNSEEN, MalformedEventError, UnknownCardError
from goofspiel.rules import Bid, Card, Move, Reveal, Setup, Turn

if TYPE_CHECKING:
    from goofspiel import Goofspiel


def _card(value: Any, key: str) -> Card:
    if not isinstance(value, str):
        raise MalformedEventError.field(key, "a card id")
    try:
        return Card.from_id(value)
    except KeyError:
        raise UnknownCardError(value, f"{value!r} is no card of Goofspiel (B1-B5, P1-P5)") from None


class GoofspielRecord:
    format = "goofspiel-record/1"
    events = ("turn", "bid", "reveal")

    def __init__(self, game: Goofspiel) -> None:
        self.game = game

    def read_setup(self, header: Mapping[str, Any]) -> Setup:
        players = header.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedEventError.field("players", "a list of names")
        return self.game.make_setup(players)

    def read_move(self, event: Mapping[str, Any], setup: Setup) -> Move:
        kind = event["event"]
        if kind == "turn":
            return Turn(_card(event.get("card"), "card"))
        if kind == "bid":
            player = event.get("player")
            if not isinstance(player, str):
                raise MalformedEventError.field("player", "a name")
            card = event.get("card")
            return Bid(player, UNSEEN if card is None else _card(card, "card"))
        if kind == "reveal":
            cards = event.get("cards")
            if not isinstance(cards, dict):
                raise MalformedEventError.field("cards", "an object of each player's card")
            return Reveal(tuple((p, _card(cards[p], "cards")) for p in setup.players if p in cards))
        raise MalformedEventError(f"unknown event {kind!r}")

    def setup_event(self, setup: Setup) -> dict[str, Any]:
        return {"event": "game", "format": self.format, "players": list(setup.players)}

    def move_event(self, move: Move, setup: Setup) -> dict[str, Any]:
        if type(move) is Turn:
            return {"event": "turn", "card": move.card.id}
        if type(move) is Bid:
            return {"event": "bid", "player": move.player, "card": move.card.id if type(move.card) is Card else None}
        assert type(move) is Reveal
        return {"event": "reveal", "cards": {p: c.id for p, c in move.cards}}

    def complete(self, moves: Sequence[Move]) -> list[Move]:
        """Each bid recorded unseen, named by the reveal that followed it."""
        out = list(moves)
        pending: dict[str, int] = {}
        for i, move in enumerate(out):
            if type(move) is Bid and move.card is UNSEEN:
                pending[move.player] = i
            elif type(move) is Reveal:
                shown = dict(move.cards)
                for p, j in pending.items():
                    out[j] = Bid(p, shown[p])
                pending = {}
        return out

    def is_period_start(self, move: Move) -> bool:
        return type(move) is Turn
