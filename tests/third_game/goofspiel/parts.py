"""What Goofspiel asks of the hosts, built on their basic parts: the dashboard's kit (a bid is
typed "ann bids", face down; the prize and the reveal as the table shows them) and the club's
part (a bid is told without its card: spectators see it at the reveal)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.club.basic import BasicClubPart
from companion.contract import UNSEEN
from companion.dashboard.basic import BasicKit
from companion.dashboard.kit import EntryError
from goofspiel.rules import Bid, Card, GoofState, Move, Reveal, RoundResult, Turn


class GoofKit(BasicKit):
    entry_syntax = "P3 (the prize turned up); ann bids (face down); reveal B2 B5 (each player's bid, in seating order)"
    legend = (("P1-P5", "the prize cards"), ("B1-B5", "each player's bid cards"))

    def table_lines(self, state: GoofState) -> list[str]:
        lines = super().table_lines(state)
        if state.prize is not None:
            lines.append(f"Prize: {state.prize.id}; bid: {', '.join(state.bids) or 'nobody yet'}")
        return lines

    def parse_move(self, text: str, state: GoofState) -> Move | None:
        words = text.lower().split()
        try:
            if len(words) == 1 and words[0].startswith("p"):
                return Turn(Card.from_id(words[0]))
            if len(words) == 2 and words[1] == "bids" and words[0] in state.players:
                return Bid(words[0], UNSEEN)
            if words and words[0] == "reveal":
                cards = [Card.from_id(w) for w in words[1:]]
                if len(cards) != len(state.players):
                    raise EntryError(f"one bid per player, in seating order ({', '.join(state.players)})")
                return Reveal(tuple(zip(state.players, cards)))
        except KeyError as exc:
            raise EntryError(f"{exc.args[0]!r} is no card (B1-B5, P1-P5)") from None
        return None


class GoofClub(BasicClubPart):
    def period_points(self, state: GoofState, result: RoundResult) -> Mapping[str, int]:
        return {p: (result.prize.value if p == result.winner else 0) for p in state.players}

    def describe(self, event: Mapping[str, Any]) -> str:
        kind = event.get("event")
        if kind == "bid":
            return f"{event.get('player')} has bid, face down"
        if kind == "turn":
            return f"Prize turned up: {event.get('card')}"
        if kind == "reveal":
            cards = event.get("cards") or {}
            return "Bids revealed: " + ", ".join(f"{p} {c}" for p, c in cards.items())
        return super().describe(event)
