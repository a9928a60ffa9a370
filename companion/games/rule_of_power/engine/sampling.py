"""Determinization: one player's view of a round, filled out into a complete world.

A :class:`Sampler` reads only what the player may know (:meth:`GameState.view` plus the
counts anyone at the table can see: how many World and Fate cards each hand holds, how many
cards each Fate deck has left) and draws complete worlds consistent with it:

- the World cards the player cannot place (``view.unseen``) are dealt at random into the
  other hands (cards known to be there after a Mirror Swap, R22, stay there) and the rest
  form the World deck, in a random order;
- the player's own Fate deck is the cards left in it, in a random order (its order is secret
  even to its owner, R18);
- an opponent's Fate cards, in hand and still in the deck, are drawn from the starter Fate
  cards (R3) less those the opponent has in play, since the view does not say which seven
  they chose.

:func:`embody` turns a sample into a :class:`GameState` the search can play on.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.rule_of_power.engine.cards import FATE_CARDS, Card
from companion.games.rule_of_power.engine.game import GameState

__all__ = ["Sampler", "World", "embody", "SamplingError"]


class SamplingError(ValueError):
    """The view cannot be filled out (its counts contradict each other)."""


@dataclass(slots=True)
class World:
    """One sampled world: every hand, every Fate deck and the World deck (top last)."""

    hands: dict[str, tuple[Card, ...]]
    fate_hands: dict[str, tuple[Card, ...]]
    fate_decks: dict[str, tuple[Card, ...]]
    deck: list[Card]


def _by_index(cards: Iterable[Card]) -> list[Card]:
    # Sets of cards iterate in an order that depends on their history: sort, so that the
    # same view and seed give the same sample whatever the game behind them.
    return sorted(cards, key=lambda c: (c.is_fate, c.index))


class Sampler:
    """Draws :class:`World` samples for ``player`` from ``game`` without looking at anything
    the player cannot know."""

    def __init__(self, game: GameState, player: str) -> None:
        view = game.view(player)
        self.player = player
        self.players = game.players
        self.known_hand = tuple(view.hand)
        self.own_fate_hand = tuple(view.fate_hand)
        self.own_fate_deck = _by_index(view.fate_deck_left)
        self.deck_count = view.deck_count
        # Public counts: card backs tell World from Fate cards, and draws are made in view.
        self.world_count = {p: game.world_cards_in_hand(p) for p in game.players}
        self.fate_count = {p: view.hand_sizes[p] - self.world_count[p] for p in game.players}
        self.fate_deck_count = {p: game.fate_deck_count(p) for p in game.players}
        self.own_unknown_fate = self.fate_count[player] - len(self.own_fate_hand)
        known_elsewhere: dict[str, list[Card]] = {p: [] for p in game.players}
        for card, holder in sorted(view.known_elsewhere.items(), key=lambda kv: kv[0].index):
            known_elsewhere[holder].append(card)
        self.known_elsewhere = known_elsewhere
        self.unseen = _by_index(view.unseen)
        in_play: dict[str, set[Card]] = {p: set() for p in game.players}
        for owner, card in view.in_play:
            in_play[owner].add(card)
        self.fate_candidates = {p: [c for c in FATE_CARDS if c not in in_play[p]] for p in game.players}
        slots = sum(self.world_count[p] - len(known_elsewhere[p]) for p in self.players if p != player)
        slots += self.world_count[player] - len(self.known_hand)
        if slots + self.deck_count != len(self.unseen):
            raise SamplingError(
                f"{player}'s view does not add up: {len(self.unseen)} unseen World cards for "
                f"{slots} cards in hands and {self.deck_count} in the deck"
            )

    def sample(self, rng: random.Random) -> World:
        pool = self.unseen[:]
        rng.shuffle(pool)
        hands: dict[str, tuple[Card, ...]] = {}
        fate_hands: dict[str, tuple[Card, ...]] = {}
        fate_decks: dict[str, tuple[Card, ...]] = {}
        for p in self.players:
            if p == self.player:
                missing = self.world_count[p] - len(self.known_hand)
                hands[p] = self.known_hand + tuple(pool[:missing])
                del pool[:missing]
                own = self.own_fate_deck[:]
                rng.shuffle(own)
                # Fate cards the companion saw drawn face down are among those left (R18).
                fate_hands[p] = self.own_fate_hand + tuple(own[: self.own_unknown_fate])
                fate_decks[p] = tuple(own[self.own_unknown_fate :][: self.fate_deck_count[p]])
                continue
            known = tuple(self.known_elsewhere[p])
            missing = self.world_count[p] - len(known)
            hands[p] = known + tuple(pool[:missing])
            del pool[:missing]
            want = self.fate_count[p] + self.fate_deck_count[p]
            if want:
                fate = rng.sample(self.fate_candidates[p], min(want, len(self.fate_candidates[p])))
                fate_hands[p] = tuple(fate[: self.fate_count[p]])
                fate_decks[p] = tuple(fate[self.fate_count[p] :])
            else:
                fate_hands[p] = ()
                fate_decks[p] = ()
        return World(hands, fate_hands, fate_decks, pool)


def embody(game: GameState, world: World) -> GameState:
    """A copy of ``game`` in which every hidden card is the sampled one.

    Everything public (centre, capture stacks, sweeps, Fate cards in play, discards, totals)
    is the game's own; every hand, Fate deck and the deck's contents are the sample's, so
    nothing hidden in ``game`` survives into the copy.
    """
    return game.with_hidden_cards(world.hands, world.fate_hands, world.fate_decks, world.deck)
