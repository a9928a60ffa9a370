"""Builders for Love, Money, Power, Death tests: tables, deals scripted card by card, rounds
played from a mapping of cards, full snapshots of a state, and random games."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import DEALT, Card
from companion.games.love_money_power_death.moves import UNSEEN, Commit, Deal, Draw, Move, Reveal, TurnUp
from companion.games.love_money_power_death.scoring import RoundResult
from companion.games.love_money_power_death.setup import MOST, LmpdSetup
from companion.games.love_money_power_death.state import LmpdState

PLAYERS = ("ann", "bob", "cy")


def c(card_id: str) -> Card:
    return Card.from_id(card_id)


def table(players: Sequence[str] = PLAYERS, nobles: int | Sequence[str] = MOST) -> LmpdState:
    """A game about to be dealt."""
    return LmpdState(LmpdSetup.make(tuple(players), nobles))


def full_deal(
    state: LmpdState,
    hands: Mapping[str, Sequence[str]] | None = None,
    draws: Mapping[str, Sequence[str]] | None = None,
    order: Sequence[str] = (),
    aside: Sequence[str] = (),
) -> Deal:
    """A deal every card of which is seen: each player's pile is their ``hands`` cards, then
    their ``draws``, then cards nobody named in catalogue order; the noble pile is ``order``
    then the other nobles in use; ``aside`` then filler are set aside."""
    setup = state.setup
    hands = hands or {}
    draws = draws or {}
    named = {c(x) for cards in (*hands.values(), *draws.values(), aside) for x in cards}
    spare = [x for x in DEALT if x not in named]
    piles: dict[str, list[Card]] = {}
    for p in setup.players:
        pile = [c(x) for x in (*hands.get(p, ()), *draws.get(p, ()))]
        while len(pile) < setup.pile_size:
            pile.append(spare.pop(0))
        piles[p] = pile
    set_aside = [c(x) for x in aside]
    while len(set_aside) < setup.aside_size:
        set_aside.append(spare.pop(0))
    nobles = [c(x) for x in order] + [n for n in setup.nobles if n.id not in order]
    return Deal.make(nobles, piles, set_aside, players=setup.players)


def dealt(
    players: Sequence[str] = PLAYERS,
    nobles: int | Sequence[str] = MOST,
    hands: Mapping[str, Sequence[str]] | None = None,
    draws: Mapping[str, Sequence[str]] | None = None,
    order: Sequence[str] = (),
    aside: Sequence[str] = (),
) -> LmpdState:
    """A game just dealt by :func:`full_deal`."""
    state = table(players, nobles)
    state.push(full_deal(state, hands, draws, order, aside))
    return state


def commit_all(state: LmpdState, plays: Mapping[str, str | None]) -> None:
    """Every player commits the card ``plays`` names (``None``: unseen), in the order given."""
    for player, card in plays.items():
        state.push(Commit.of(player, card))


def play_round(state: LmpdState, noble: str, plays: Mapping[str, str], *, seen: bool = True, draw: bool = True) -> RoundResult:
    """A whole round: the commits (seen, or all unseen), the noble, the reveal, and the draw
    after it (the cards as the state knows them) unless the game is over."""
    commit_all(state, {p: (card if seen else None) for p, card in plays.items()})
    state.push(TurnUp.of(noble))
    state.push(Reveal.of(state.players, plays))
    result = state.last_round
    assert result is not None
    if draw and not state.is_game_over():
        state.push(Draw.of(state.players))
    return result


def snapshot(state: LmpdState) -> tuple[Any, ...]:
    """Everything about a state: its fields, and what its public properties say."""
    fields = tuple(
        getattr(state, name)
        for name in (
            "_phase", "_nobles", "_piles", "_hands", "_hidden", "_commits", "_waiting", "_aside", "_noble",
            "_known", "_out", "_turned", "_courts", "_discarded", "_results",
        )
    )
    views = tuple(state.view(p) for p in state.players)
    return fields + views + (tuple(state.legal_moves), state.deciding, state.totals, state.outcome())


def random_game(seed: int, players: int | None = None, *, stop: int | None = None, level: int = 0) -> tuple[LmpdState, list[Move]]:
    """A random game through the state's own moves: chance for the table, random commits in
    random order; ``stop`` moves at most."""
    rng = random.Random(seed)
    count = players or rng.randint(2, 6)
    state = GAME.new_state(GAME.make_setup(GAME.default_players(count)))
    moves: list[Move] = []
    while not state.is_game_over() and (stop is None or len(moves) < stop):
        deciding = state.deciding
        if deciding:
            player = rng.choice(deciding)
            move: Move = rng.choice(state.moves_of(player))
        else:
            move = state.random_table_move(rng)
        state.push(move)
        moves.append(move)
    return state, moves


def unseen_commit(player: str) -> Commit:
    return Commit(player, UNSEEN)
