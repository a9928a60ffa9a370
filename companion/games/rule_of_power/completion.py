"""Completing a tracked game's record: hands dealt face down are filled in once their cards
have been played.

A camera sees a hand only card by card, as it is played. Every World card dealt must be played
in its deal (R17), so once a deal is over, a player's dealt hand is what they played, discarded
or gave away in it, less what they received. Where that cannot be told (a swap or a Renewal
that nobody saw), the cards stay unseen (``null`` in the record).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.fate import fate_rule
from companion.games.rule_of_power.engine.moves import UNSEEN, Deal, Move, NewRound, Play

__all__ = ["complete_deals"]


def complete_deals(moves: Sequence[Move]) -> list[Move]:
    """The same moves, with each face-down hand replaced by the cards it turned out to hold."""
    out = list(moves)
    deals = [i for i, m in enumerate(out) if isinstance(m, Deal)]
    for k, start in enumerate(deals):
        deal = out[start]
        assert isinstance(deal, Deal)
        if not any(c is UNSEEN for _, cards in deal.hands for c in cards):
            continue
        end = next((i for i in deals[k + 1 :]), len(out))
        end = next((i for i in range(start + 1, end) if isinstance(out[i], NewRound)), end)
        held = _hands(out[start + 1 : end], [p for p, _ in deal.hands])
        hands = []
        for player, cards in deal.hands:
            known = [c for c in cards if isinstance(c, Card)]
            found = held.get(player)
            if found is not None and UNSEEN in cards:
                extra = [c for c in found if c not in known]
                if len(known) + len(extra) == len(cards):
                    cards = (*known, *extra)
            hands.append((player, cards))
        out[start] = Deal(tuple(hands), deal.centre)
    return out


def _hands(moves: Sequence[Move], players: list[str]) -> dict[str, list[Card] | None]:
    """What each player's dealt hand must have been, from the moves of one deal; ``None``
    for a player whose hand cannot be told."""
    out: dict[str, list[Card] | None] = {p: [] for p in players}

    def add(p: str, card: Card) -> None:
        cards = out.get(p)
        if cards is not None and card not in cards:
            cards.append(card)

    def drop(p: str, card: Card) -> None:
        cards = out.get(p)
        if cards is not None and card in cards:
            cards.remove(card)

    received: dict[str, list[Card]] = {p: [] for p in players}
    for m in moves:
        if not isinstance(m, Play):
            continue
        card = m.card
        if card.is_world:
            add(m.player, card)
        for p, c in m.discards:
            if c.is_world:
                add(p, c)
        details = () if card.is_world else fate_rule(card).details
        if "given" in details and m.target:
            if any(c is UNSEEN for c in (*m.given, *m.received)):
                out[m.player] = None
                out[m.target] = None
                continue
            for given in m.given:
                assert isinstance(given, Card)
                add(m.player, given)  # given away: it was in the player's hand
                received[m.target].append(given)
            for got in m.received:
                assert isinstance(got, Card)
                add(m.target, got)
                received[m.player].append(got)
        if "drawn" in details:
            if m.drawn is UNSEEN:
                out[m.player] = None
            elif isinstance(m.drawn, Card):
                received[m.player].append(m.drawn)
    for p in players:
        for c in received[p]:
            drop(p, c)
    return out
