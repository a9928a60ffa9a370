"""Decisions, and the quick player of the coach's playouts.

A *decision* is what a player chooses: the battle card to play (the card drawn after it is
chance's, C8) or the act (conquer or retake which city, or regroup, C10-C14). Dummies decide
nothing: their card is the top of their pile and their act the one C11 leaves them, so a
dummy to move has a single decision, the rules' (:func:`dummy_move`).

:class:`RolloutPolicy` plays the playouts. It reads what its emperor may know (their hand and
the table) and plays by a few sound habits, quickly:

- a card: it wants the initiative when its city can take another (C10); otherwise winning
  forces a regroup, which wins nothing and may rebel (C14). Wanting it, it plays the lowest
  card that beats every card played so far (the lowest such trump when players are still to
  play, a plain card being beaten by any of their trumps; else its highest winner),
  otherwise its lowest card, plain before trump;
- an act: a trophy won is worth a point, and so is one taken from the leading rival (from
  another rival, about a third of one; a dummy's points count for nobody, C16); then the
  city it holds afterwards counts: cards of its suit in the hand (trump in the next action:
  the rulebook's winning strikes), a city it may attack next, a threat to it.

Now and then (``noise``) it plays at random, so that playouts cover what real players do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from companion.games.circle_of_power.cards import BLACK, Card, colour_in_attack
from companion.games.circle_of_power.coach.worlds import Chance, reshuffle, reveal
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Retake
from companion.games.circle_of_power.rules import dummy_victim, strength, threats, trump_suit, victims
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy

__all__ = [
    "Player",
    "decisions",
    "alike",
    "settle",
    "dummy_move",
    "act_options",
    "RolloutPolicy",
    "play_out",
    "advance",
    "describe",
]

Player = Callable[[CircleState, Chance, random.Random], Move]
"""A player of complete worlds: ``player(state, chance, rng)`` is the move of the emperor to
move, a card with the card drawn after it (from ``chance``) or an act."""

_PLAY = Phase.PLAY
_ACT = Phase.ACT
_REVEAL = Phase.REVEAL
_RESHUFFLE = Phase.RESHUFFLE


def decisions(state: CircleState) -> dict[Hashable, list[Move]]:
    """The decisions of the emperor to move, each with the moves making it (keys as
    :meth:`CircleState.decision` gives them), in a stable order: the cards of the hand in
    catalogue order, or the acts as the rules list them (C10). A dummy has one decision, the
    rules' (C8, C11); a player whose hand the companion has not wholly seen has none the coach
    can list."""
    me = state.to_move
    if me is None:
        return {}
    phase = state.phase
    if is_dummy(me):
        return {("rules", me): list(state.legal_moves)}
    if state.unseen_in_hand(me):
        return {}
    if phase is _PLAY:
        return {Play(me, card): [Play(me, card)] for card in sorted(set(state.hand(me)))}
    return {move: [move] for move in state.legal_moves}


def alike(move: Move) -> Hashable:
    """Decisions that play out alike share this key: retakes of one city whatever trophy is
    discarded, and regroups whatever trophy rebels, since a discarded trophy is out of play
    until the season ends and every trophy counts one point (C13, C14, C16)."""
    if type(move) is Retake:
        return ("retake", move.player, move.victim)
    if type(move) is Regroup:
        return ("regroup", move.player)
    return move


def settle(state: CircleState, options: Sequence[Move], chance: Chance, rng: random.Random) -> Move:
    """One concrete move of a decision: a player's card with the card they draw, the top of
    the world's battle deck while it has cards (C8)."""
    move = options[0] if len(options) == 1 else options[rng.randrange(len(options))]
    if type(move) is Play and move.drew is None and not is_dummy(move.player) and state.battle_deck_count:
        return Play(move.player, move.card, chance.battle.pop())
    return move


def dummy_move(state: CircleState) -> Move:
    """A dummy's move in a complete world: the top card of its pile (C8), or the one act C11
    leaves it: conquer the first city counter-clockwise it may take (keeping a black city in
    Coloured Cities, C19), else regroup, giving up the trophy it won last if its city rebels."""
    me = state.to_move
    assert me is not None
    if state.phase is _PLAY:
        top = state.pile(me)[0]
        assert isinstance(top, Card), "a world knows every dummy's pile"
        return Play(me, top)
    seats = state.seats
    seat = seats.index(me)
    cities = [state.city(n) for n in seats]
    v = dummy_victim(seat, cities)
    if v is not None:
        keep = False
        if state.variant == COLOURED_CITIES:
            mine, theirs = cities[seat], cities[v]
            assert mine is not None and theirs is not None
            keep = colour_in_attack(mine, theirs) == BLACK
        return Conquer(me, seats[v], keep)
    line = state.trophies(me)
    if line and not threats(seat, cities):
        return Regroup(me, line[-1])
    return Regroup(me)


def act_options(state: CircleState) -> list[Move]:
    """A player's acts (C10-C14, C18, C19), one per decision that plays out differently
    (:func:`alike`): each conquest and retake of each city the winner may attack, or the
    regroup."""
    me = state.to_move
    assert me is not None
    seats = state.seats
    seat = seats.index(me)
    cities = [state.city(n) for n in seats]
    found = victims(seat, cities)
    if not found:
        line = state.trophies(me)
        return [Regroup(me, line[0] if line and not threats(seat, cities) else None)]
    variant = state.variant
    mine = cities[seat]
    assert mine is not None
    out: list[Move] = []
    for v in found:
        name = seats[v]
        out.append(Conquer(me, name))
        if variant == COLOURED_CITIES:
            theirs = cities[v]
            assert theirs is not None
            if colour_in_attack(mine, theirs) == BLACK:
                out.append(Conquer(me, name, True))
        if variant != LONELY_TYRANT:
            line = state.trophies(name)
            out.append(Retake(me, name, line[0] if line else None))
    return out


class RolloutPolicy:
    """The quick player of playouts (the module's docstring says how it plays). ``noise``: the
    share of moves played at random."""

    def __init__(self, noise: float = 0.1) -> None:
        self.noise = noise

    def __call__(self, state: CircleState, chance: Chance, rng: random.Random) -> Move:
        me = state.to_move
        assert me is not None
        if is_dummy(me):
            return dummy_move(state)
        if state.phase is _PLAY:
            card = self.card(state, me, rng)
            return Play(me, card, chance.battle.pop() if state.battle_deck_count else None)
        return self.act(state, me, rng)

    def decide(self, state: CircleState, rng: random.Random) -> Move:
        """The decision of the player to move, without the card a play draws."""
        me = state.to_move
        assert me is not None
        if state.phase is _PLAY:
            return Play(me, self.card(state, me, rng))
        return self.act(state, me, rng)

    def card(self, state: CircleState, me: str, rng: random.Random) -> Card:
        hand = state.hand(me)
        if len(hand) == 1:
            return hand[0]
        if self.noise and rng.random() < self.noise:
            return hand[rng.randrange(len(hand))]
        seats = state.seats
        seat = seats.index(me)
        cities = [state.city(n) for n in seats]
        nxt = state.next_city
        trumps = [trump_suit(city, nxt) for city in cities]
        mine = trumps[seat]
        played = state.played
        best = -1
        for name, card in played:
            s = strength(card, trumps[seats.index(name)])
            if s > best:
                best = s
        ranked = sorted(hand, key=lambda c: (strength(c, mine), c.index))
        if _wants_initiative(seat, cities):
            winners = [c for c in ranked if strength(c, mine) >= best]
            if winners:
                if len(played) < 3:
                    trumps_ = [c for c in winners if c.suit == mine]
                    return trumps_[0] if trumps_ else winners[-1]
                return winners[0]
        return ranked[0]

    def act(self, state: CircleState, me: str, rng: random.Random) -> Move:
        options = act_options(state)
        if len(options) == 1:
            return options[0]
        if self.noise and rng.random() < self.noise:
            return options[rng.randrange(len(options))]
        seats = state.seats
        seat = seats.index(me)
        cities = [state.city(n) for n in seats]
        nxt = state.next_city
        suits = [c.suit for c in state.hand(me)]
        best_score = -99.0
        best: Move = options[0]
        for move in options:
            score = _act_score(state, move, seat, cities, nxt, suits)
            if score > best_score:
                best, best_score = move, score
        return best


def _counts(state: CircleState, name: str) -> bool:
    """Whether ``name``'s points matter to the margin: a player still in the game (C16, C20)."""
    return not is_dummy(name) and name not in state.knocked_out


def _wants_initiative(seat: int, cities: list[Card | None]) -> bool:
    """Whether winning takes a city (C10); otherwise it forces a regroup, which wins nothing
    and may rebel (C14)."""
    return bool(victims(seat, cities))


def _standing(state: CircleState, name: str) -> int:
    """``name``'s points so far: the totals of the seasons before and the trophies held."""
    return state.totals.get(name, 0) + len(state.trophies(name))


def _act_score(state: CircleState, move: Move, seat: int, cities: list[Card | None], nxt: Card | None, suits: list[str | None]) -> float:
    """What an act is worth to the quick player: the point it wins or takes from an opponent
    player, then the city it leaves them (its suit in the hand, whom it may attack, who
    threatens it)."""
    seats = state.seats
    after = list(cities)
    mine = cities[seat]
    assert mine is not None
    score = 0.0
    if type(move) is Conquer:
        v = seats.index(move.victim)
        theirs = cities[v]
        assert theirs is not None
        variant = state.variant
        destroys = variant == LONELY_TYRANT or (variant == COLOURED_CITIES and colour_in_attack(theirs, mine) == BLACK)
        if destroys:
            score += 1.0 if _counts(state, move.victim) else 0.2
        else:
            score += 1.0
        if variant == COLOURED_CITIES and not move.keep:
            after[v], after[seat] = mine, nxt
        else:
            after[v] = nxt
    elif type(move) is Retake:
        v = seats.index(move.victim)
        if move.discard is not None:
            victim = move.victim
            if not _counts(state, victim):
                score += 0.1  # a dummy's trophy counts for nobody
            else:
                me = seats[seat]
                rivals = [p for p in state.players if p != me and p in seats and p not in state.knocked_out]
                # a point taken from the leading rival is worth one won; from another, less
                score += 1.0 if _standing(state, victim) >= max(_standing(state, p) for p in rivals) else 0.35
        after[seat] = cities[v]
        after[v] = mine if state.variant == COLOURED_CITIES else nxt
    else:
        after[seat] = nxt
    held = after[seat]
    if held is not None:
        if held.suit is not None:
            score += 0.3 * min(3, suits.count(held.suit))
        if victims(seat, after):
            score += 0.3
        if threats(seat, after):
            score -= 0.3
    return score


def advance(state: CircleState, chance: Chance, rng: random.Random, policy: Player) -> None:
    """One move of a complete world: the emperor's to move by ``policy``, or the table's
    (the next city turned up, C7; the reshuffle, C15) from ``chance``."""
    phase = state.phase
    if phase is _PLAY or phase is _ACT:
        state.push(policy(state, chance, rng), check=False)
    elif phase is _REVEAL:
        state.push(reveal(chance), check=False)
    elif phase is _RESHUFFLE:
        state.push(reshuffle(state, chance), check=False)
    else:
        raise ValueError(f"nothing to play: the game waits for {phase.value}")


def play_out(state: CircleState, chance: Chance, rng: random.Random, policy: Player) -> None:
    """Play a complete world on with ``policy`` to the end of the season (C16), or of the game
    when the Lonely Tyrant is left (C18)."""
    push = state.push
    while True:
        phase = state.phase
        if phase is _PLAY or phase is _ACT:
            push(policy(state, chance, rng), check=False)
        elif phase is _REVEAL:
            push(reveal(chance), check=False)
        elif phase is _RESHUFFLE:
            push(reshuffle(state, chance), check=False)
        else:
            return


def describe(move: Move) -> str:
    """A decision in words for the player making it: ``play 9H``, ``conquer bob``, ``retake
    bob's city, discarding QD``, ``regroup``."""
    if type(move) is Play:
        return f"play {move.card.id}"
    if type(move) is Conquer:
        return f"conquer {move.victim}" + (", keeping your city" if move.keep else "")
    if type(move) is Retake:
        lost = f", discarding {move.discard.id}" if move.discard is not None else f" ({move.victim} has no trophy to lose)"
        return f"retake {move.victim}'s city{lost}"
    if type(move) is Regroup:
        return "regroup" + (f", losing {move.discard.id} to rebellion" if move.discard is not None else "")
    return repr(move)
