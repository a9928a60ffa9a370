"""Builders for Circle of Power tests: a season scripted card by card, full snapshots of a
state, and random walks through the legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.cards import Card
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Move, Play, Reshuffle, Reveal, Season
from companion.games.circle_of_power.setup import CircleSetup, is_dummy

CORE_SLOTS = ("phase", "season", "action", "seats", "dummy", "seat_of", "dealer", "dealer_name", "leader", "turn",
              "cities", "next_city", "city_left", "city_pool", "bottom", "discards", "trophies", "destroyed", "hands",
              "hidden", "hidden_old", "piles", "pool", "old_pool", "deck_count", "played_a", "played_b", "reshuffled",
              "log", "plays", "trumps", "best", "best_key", "emperors", "emp_index", "totals", "destroyed_totals",
              "season_destroyed", "knocked", "knocked_before", "results", "outcome")


def c(card_id: str) -> Card:
    return Card.from_id(card_id)


def cards(text: str) -> list[Card]:
    return [Card.from_id(x) for x in text.split()]


def snapshot(state: CircleState) -> tuple[Any, ...]:
    """Everything about a state: every slot of its core (lists copied), and what the public
    properties say."""
    core = state._core
    assert set(CORE_SLOTS) == set(type(core).__slots__), "a new core slot must join the snapshot"
    slots = tuple(
        (name, tuple(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
        for name in CORE_SLOTS
        for v in [getattr(core, name)]
    )
    public = (
        state.to_move, state.phase, state.cities, state.next_city, state.city_deck_count, state.battle_deck_count,
        state.played, state.season_plays, state.trump_suits, state.initiative, state.totals, state.destroyed_totals,
        state.knocked_out, state.results, state.outcome(), tuple(state.legal_moves), len(state.move_stack),
    )
    return slots + (public,)


class Script:
    """A season played from each emperor's 15 cards in the order they play them.

    For a player the first three are the hand; each play is followed by a draw, of the card
    the player plays three actions later (so cards 4-9 are drawn in actions 1-6 and cards
    10-15 in actions 7-12). For a dummy the pile is cards 1-6 then 13-15, and the reshuffle
    puts cards 7-12 on it (C6, C15). The cards of actions 1-6 (24) and the cards held over
    (12) must be the 36 battle cards; the cards of actions 7-15 after the first three held
    are the 24 of actions 1-6 again.
    """

    def __init__(self, state: CircleState, sequence: Mapping[str, str]) -> None:
        self.state = state
        self.seq = {name: [c(x) for x in text.split()] for name, text in sequence.items()}
        for name, row in self.seq.items():
            assert len(row) == 15, f"{name} plays {len(row)} cards, not 15"

    def season(self, dealer: str, seats: Sequence[str], cities: Mapping[str, str], bottom: str) -> Season:
        hands = {n: [x.id for x in self.seq[n][:3]] for n in seats if not is_dummy(n)}
        piles = {n: [x.id for x in self.seq[n][:6] + self.seq[n][12:15]] for n in seats if is_dummy(n)}
        return Season.make(dealer, seats, cities, bottom, hands, piles)

    def play(self) -> Play:
        """The next play of the emperor to move."""
        state = self.state
        name = state.to_move
        assert name is not None and state.phase is Phase.PLAY
        a = state.action_number
        row = self.seq[name]
        if is_dummy(name):
            return Play(name, row[a - 1])
        return Play(name, row[a - 1], row[a + 2] if a <= 12 else None)

    def plays(self) -> list[Play]:
        """Push the four plays of the action; returns them."""
        out = []
        for _ in range(4):
            move = self.play()
            self.state.push(move)
            out.append(move)
        return out

    def reshuffle(self) -> Reshuffle:
        return Reshuffle.make({n: [x.id for x in row[6:12]] for n, row in self.seq.items() if is_dummy(n)})


def new(players: Sequence[str] = ("ann", "bob", "cy", "dee"), variant: str = "basic", target: int = 6,
        keep_history: bool = True) -> CircleState:
    return CircleState(CircleSetup(tuple(players), variant, target), keep_history=keep_history)


def started(players: Sequence[str] = ("ann", "bob", "cy", "dee"), variant: str = "basic", *, seed: int = 1,
            keep_history: bool = True, target: int = 6) -> CircleState:
    """A game whose first season is dealt at random (every card seen) and its first city
    turned up."""
    state = new(players, variant, target, keep_history)
    rng = random.Random(seed)
    state.push(GAME.chance_move(state, rng))
    state.push(GAME.chance_move(state, rng))
    return state


def walk(state: CircleState, rng: random.Random, steps: int | None = None) -> Iterable[Move]:
    """Random legal moves (the table's by chance), pushed one by one; yields each after it
    is pushed."""
    n = 0
    while not state.is_game_over() and (steps is None or n < steps):
        if state.to_move is None:
            move = GAME.chance_move(state, rng)
        else:
            move = rng.choice(list(state.legal_moves))
        state.push(move)
        yield move
        n += 1


def replay(setup: CircleSetup, moves: Iterable[Move], keep_history: bool = False) -> CircleState:
    state = CircleState(setup, keep_history=keep_history)
    for move in moves:
        state.push(move)
    return state


def act_until(state: CircleState, script: Script, act: Move, reveal: str | None) -> None:
    """The four plays, the act, and the reveal that follows (if any)."""
    script.plays()
    state.push(act)
    if reveal is not None:
        state.push(Reveal.from_id(reveal))


def table(cities: Mapping[str, str], nxt: str = "JD", hands: Mapping[str, list[str]] | None = None, *,
          dealer: str | None = None, players: Sequence[str] | None = None, piles: Mapping[str, list[str]] | None = None,
          variant: str = "basic", bottom: str | None = None) -> CircleState:
    """The first action of a game, ready to play: ``cities`` in seat order (dummies named
    ``@1``...), ``nxt`` turned up; the dealer sits last, so that the first seat leads. Hands
    and piles not given are dealt unseen."""
    seats = list(cities)
    players = players or tuple(n for n in seats if not is_dummy(n))
    state = new(players, variant)
    jokers = [x for x in ("X1", "X2") if x not in cities.values() and x != nxt]
    dealer = dealer or next(n for n in reversed(seats) if not is_dummy(n))
    state.push(Season.make(dealer, seats, cities, bottom or jokers[-1], hands, piles))
    state.push(Reveal(c(nxt)))
    return state


def played(state: CircleState, ids: Sequence[str]) -> CircleState:
    """Each emperor in turn plays the next of ``ids`` (unseen hands, unseen draws)."""
    for card in ids:
        name = state.to_move
        assert name is not None
        state.push(Play(name, c(card)))
    return state


def win(state: CircleState, winner: str) -> CircleState:
    """The four plays of an action that ``winner`` wins with a 10 of their trump suit (or a
    plain 10 against plain 2s, 3s and 4s), from unseen hands."""
    trumps = state.trump_suits
    taken = {x for _, _, x in state.season_plays}
    low = iter([c(f"{n}{s}") for n in (2, 3, 4, 5, 6) for s in "SHDC"])
    for _ in range(4):
        name = state.to_move
        assert name is not None
        if name == winner:
            suit = trumps[name] or "S"
            card = next(c(f"{n}{suit}") for n in (10, 9, 8) if c(f"{n}{suit}") not in taken)
        else:
            card = next(x for x in low if x.suit != trumps[name] and x not in taken)
        taken.add(card)
        if is_dummy(name):
            top = state.pile(name)[0]
            card = top if isinstance(top, Card) else card
        state.push(Play(name, card))
    assert state.to_move == winner, (state.to_move, winner)
    return state


def at_act(cities: Mapping[str, str], winner: str, nxt: str = "JD", *, trophies: Mapping[str, str] | None = None,
           variant: str = "basic") -> CircleState:
    """A first action won by ``winner``, the lines of victories set to ``trophies`` (ids
    separated by blanks, oldest first): a position to test the acts (C10-C14)."""
    state = win(table(cities, nxt, variant=variant), winner)
    for name, ids in (trophies or {}).items():
        state._core.trophies[state.seats.index(name)] = tuple(c(x) for x in ids.split())
    return state


def censor(moves: Sequence[Move], viewer: str | None) -> list[Move]:
    """The moves as a record kept from ``viewer``'s seat (``None``: by a camera that sees no
    hidden card): the other hands, the dummies' piles and the other players' draws unseen."""
    out: list[Move] = []
    for move in moves:
        if type(move) is Season:
            hands = tuple((n, h) for n, h in move.hands if n == viewer)
            out.append(Season(move.dealer, move.seats, move.cities, move.bottom, hands, ()))
        elif type(move) is Play and move.player != viewer:
            out.append(Play(move.player, move.card))
        elif type(move) is Reshuffle:
            out.append(Reshuffle())
        else:
            out.append(move)
    return out
