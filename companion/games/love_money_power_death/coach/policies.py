"""Decisions, and the quick player of the coach's playouts.

A *decision* is the card a player commits (L6); nothing in it is left to chance. Two cards of
one rank and suit (the copies ``a`` and ``b``, L3) play out alike, and so do the six agents
(an agent has neither suit nor rank, L1, L9): the search plays each such group out once.

:class:`RolloutPolicy` plays the playouts. It reads its player's view alone
(:class:`~companion.games.love_money_power_death.view.LmpdView`: their hand, the nobles still
face down, the cards revealed so far) and commits, quickly, the card most likely to bring
crowns this round (:func:`expected_crowns`): for each suit, the crowns still face down in it
times the chance the card wins a noble of that suit, every other player taken to commit one of
the cards the player cannot place, at random. An agent wins unless another agent comes (L9);
a resource unless an agent comes, or a card of the noble's suit at least as high (or, off
suit, any card of the noble's suit, or a card at least as high, L8: a tie discards the noble).
Now and then (``noise``) it commits at random, so that playouts cover what real players do.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping

from companion.coach.model import Policy
from companion.games.love_money_power_death.cards import SUITS, Card
from companion.games.love_money_power_death.coach.worlds import table_move
from companion.games.love_money_power_death.moves import Commit, Move
from companion.games.love_money_power_death.policies import unseen_cards
from companion.games.love_money_power_death.state import LmpdState
from companion.games.love_money_power_death.view import LmpdView

__all__ = ["decisions", "alike", "describe", "expected_crowns", "RolloutPolicy", "play_out", "play_round"]


def decisions(state: LmpdState, player: str) -> dict[Hashable, list[Move]]:
    """The commits of ``player``, who is deciding, one per card of their hand in catalogue
    order (L6); none when the companion did not see the whole hand."""
    if player not in state.deciding or state.hand_unseen(player):
        return {}
    return {m: [m] for m in state.moves_of(player)}


def alike(move: Move) -> Hashable:
    """Commits that play out alike: the two copies of a resource (L3), and every agent (L1,
    L9: an agent has neither suit nor rank)."""
    card = move.card if isinstance(move, Commit) else None
    if type(card) is not Card:
        return move
    return ("agent",) if card.is_agent else (card.rank, card.suit)


def describe(move: Move) -> str:
    """``commit 4Mb (Money 4)``, ``commit A2 (an agent)``."""
    card = move.card if isinstance(move, Commit) else None
    if type(card) is not Card:
        return "commit a card face down"
    return f"commit {card.id} ({'an agent' if card.is_agent else f'{card.suit_name} {card.rank}'})"


def expected_crowns(view: LmpdView) -> list[tuple[Commit, float]]:
    """Each commit of the view's player with the crowns it may be expected to bring this round
    (see the module's words): a rough, quick estimate from the view alone."""
    unseen = unseen_cards(view)
    total = len(unseen)
    opponents = len(view.hand_sizes) - 1
    crowns = dict.fromkeys(SUITS, 0)
    for noble in view.nobles_left:
        crowns[noble.suit or ""] += noble.rank
    nobles = len(view.nobles_left) or 1
    # Unseen resources by suit and rank, and how many of each suit are at least each rank.
    at_least = {s: [0] * 7 for s in SUITS}
    agents = 0
    for card in unseen:
        if card.is_agent:
            agents += 1
        else:
            at_least[card.suit or ""][card.rank] += 1
    for s in SUITS:
        row = at_least[s]
        for r in range(5, 0, -1):
            row[r] += row[r + 1]
    any_at_least = [sum(at_least[s][r] for s in SUITS) for r in range(7)]
    agent_share = agents / total if total else 0.0
    out = []
    for move in view.decisions:
        seen = move.card
        if type(seen) is not Card:
            out.append((move, 0.0))
            continue
        card = seen
        value = 0.0
        if card.is_agent:
            alone = (1.0 - agent_share) ** opponents
            value = alone * sum(crowns.values())
        else:
            r, own = card.rank, card.suit or ""
            for s in SUITS:
                if not crowns[s]:
                    continue
                beaten = at_least[s][r] if s == own else at_least[s][1] + any_at_least[r] - at_least[s][r]
                safe = 1.0 - agent_share - (beaten / total if total else 0.0)
                value += crowns[s] * (safe**opponents if safe > 0 else 0.0)
        out.append((move, value / nobles))
    return out


class RolloutPolicy:
    """The quick player of the playouts: the commit with the most crowns expected this round
    (:func:`expected_crowns`; among equals the lowest card, which keeps the others), a random
    one with probability ``noise``."""

    __slots__ = ("noise",)

    def __init__(self, noise: float = 0.1) -> None:
        self.noise = noise

    def __call__(self, view: LmpdView, rng: random.Random) -> Commit:
        choices = view.decisions
        if len(choices) == 1:
            return choices[0]
        if self.noise and rng.random() < self.noise:
            return choices[rng.randrange(len(choices))]
        best = max(expected_crowns(view), key=lambda mv: (round(mv[1], 9), -_order(mv[0])))
        return best[0]


def _order(move: Commit) -> int:
    card = move.card
    return card.index if type(card) is Card else -1


def play_round(state: LmpdState, seats: Mapping[str, Policy] | None, rng: random.Random, policy: Policy) -> None:
    """Play ``state`` on to the end of its round (its reveal, L7-L10): each player still to
    commit from their own view, with their seat's style in the world (``seats``) or else
    ``policy``; the table's moves from the world."""
    rounds = len(state.rounds)
    while len(state.rounds) == rounds and not state.is_game_over():
        _step(state, seats or {}, rng, policy)


def play_out(state: LmpdState, seats: Mapping[str, Policy] | None, rng: random.Random, policy: Policy) -> None:
    """Play ``state`` on to the end of the game (L12), every player committing from their own
    view, with their seat's style in the world (``seats``) or else ``policy``; the table's
    moves from the world."""
    while not state.is_game_over():
        _step(state, seats or {}, rng, policy)


def _step(state: LmpdState, seats: Mapping[str, Policy], rng: random.Random, policy: Policy) -> None:
    deciding = state.deciding
    if deciding:
        for who in deciding:
            state.push(seats.get(who, policy)(state.view(who), rng), check=False)
    else:
        state.push(table_move(state), check=False)

