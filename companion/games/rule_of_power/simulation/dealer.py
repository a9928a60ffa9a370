"""The companion as the dealer, for manual play where it shuffles and deals (a table without
cards, a lesson, a hot-seat game): a shuffled World deck, dealt by R15."""

from __future__ import annotations

import random

from companion.games.rule_of_power.engine.cards import Card, world_deck
from companion.games.rule_of_power.engine.game import GameState, deal_from
from companion.games.rule_of_power.engine.moves import Deal, NewRound

__all__ = ["TableDealer"]


class TableDealer:
    """For manual play where the companion shuffles and deals (a table without cards, a
    lesson, a hot-seat game): a shuffled World deck, dealt by R15."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.order: list[Card] = []

    def new_round(self, game: GameState, dealer: str, fate_sets: dict[str, list[Card]]) -> NewRound:
        self.order = list(world_deck(game.setup.expansion))
        self.rng.shuffle(self.order)
        decks = {}
        for p in game.players:
            cards = list(fate_sets.get(p, ()))
            if cards:
                self.rng.shuffle(cards)
                decks[p] = cards
        return NewRound.make(dealer, decks)

    def _deck(self, game: GameState) -> list[Card]:
        pool = game.unlocated
        if not self.order or any(c not in self.order for c in pool):
            self.order = sorted(pool)
            self.rng.shuffle(self.order)
        return [c for c in self.order if c in pool]

    def deal(self, game: GameState) -> Deal:
        return deal_from(self._deck(game), game)

    def top(self, game: GameState) -> Card | None:
        deck = self._deck(game)
        return deck[-1] if deck else None
