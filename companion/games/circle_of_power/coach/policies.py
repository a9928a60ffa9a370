"""Decisions, and the quick player of the coach's playouts.

A *decision* is what a player chooses: the battle card to play (the card drawn after it is
chance's, C8, which :func:`realize` draws in the world) or the act (conquer or retake which
city, or regroup, C10-C14). Dummies decide nothing: their card is the top of their pile and
their act the one C11 leaves them, so a dummy to move has a single decision, the rules'
(:func:`dummy_move`), which the playouts play for it.

:class:`RolloutPolicy` plays the playouts. It reads its emperor's view alone
(:class:`~companion.games.circle_of_power.view.CircleView`: their hand and the table) and
plays by a few sound habits, quickly:

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

At a table of more than two players it plays as the counting player instead
(:func:`~.opponents.counting_player`: the chance of each card to win the initiative against
the emperors still to play, counted from the unseen cards; after winning, the city it leaves
itself against the cities still to come), again now and then at random. There three rivals
play after or before it by choice, not dummies by their piles: the quick player's habit of
fighting with its strongest plain card wastes it, and a player that plays by it loses to the
counting player by about a quarter of a point a season (-0.23 +/- 0.13 over 200 pairs of
four players), where at two players they are level.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence

from companion.games.circle_of_power.cards import BLACK, Card, colour_in_attack
from companion.games.circle_of_power.coach.opponents import counting_player
from companion.games.circle_of_power.coach.worlds import Chance, reshuffle, reveal
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup, Retake
from companion.games.circle_of_power.rules import dummy_victim, strength, threats, trump_suit, victims
from companion.games.circle_of_power.setup import COLOURED_CITIES, LONELY_TYRANT, is_dummy
from companion.games.circle_of_power.view import CircleView

__all__ = [
    "Player",
    "decisions",
    "alike",
    "realize",
    "dummy_move",
    "act_options",
    "RolloutPolicy",
    "play_out",
    "advance",
    "decide",
    "describe",
]

Player = Callable[[CircleView, random.Random], Move]
"""A player of playouts: ``player(view, rng)`` is the decision of ``view.player``, who is to
decide, from their view alone: a card (the card drawn after it left to :func:`realize`) or an
act."""

_PLAY = Phase.PLAY
_ACT = Phase.ACT
_REVEAL = Phase.REVEAL
_RESHUFFLE = Phase.RESHUFFLE


def decisions(state: CircleState, me: str) -> dict[Hashable, list[Move]]:
    """The decisions of ``me``, the emperor to move, each with the moves making it (keys as
    :meth:`CircleState.decision` gives them), in a stable order: the cards of the hand in
    catalogue order, or the acts as the rules list them (C10). A dummy has one decision, the
    rules' (C8, C11); a player whose hand the companion has not wholly seen has no card the
    coach can list, but their acts, which the public table decides, are listed all the same."""
    if me != state.to_move:
        return {}
    phase = state.phase
    if is_dummy(me):
        return {("rules", me): list(state.legal_moves)}
    if phase is _PLAY:
        if state.unseen_in_hand(me):
            return {}
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


def realize(state: CircleState, decision: Move, chance: Chance, rng: random.Random) -> Move:
    """The move of ``decision`` in a complete world: a player's card with the card they draw,
    the top of the world's battle deck while it has cards (C8); anything else as it is."""
    if type(decision) is Play and decision.drew is None and not is_dummy(decision.player) and state.battle_deck_count:
        return Play(decision.player, decision.card, chance.battle.pop())
    return decision


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


def act_options(view: CircleView) -> list[Move]:
    """A player's acts (C10-C14, C18, C19), one per decision that plays out differently
    (:func:`alike`): each conquest and retake of each city the winner may attack, or the
    regroup; of the retakes (regroups) that differ only by the trophy lost, the first."""
    first: dict[Hashable, Move] = {}
    for move in view.decisions:
        first.setdefault(alike(move), move)
    return list(first.values())


class RolloutPolicy:
    """The quick player of playouts (the module's docstring says how it plays), from a
    player's view; at a table of more than two players, the counting player. ``noise``: the
    share of moves played at random."""

    def __init__(self, noise: float = 0.1) -> None:
        self.noise = noise

    def __call__(self, view: CircleView, rng: random.Random) -> Move:
        """The decision of the player of ``view``: a card, without the card a play draws, or
        an act."""
        if len(view.players) > 2:
            return self.counting(view, rng)
        if view.phase == "play":
            return Play(view.player, self.card(view, rng))
        return self.act(view, rng)

    def counting(self, view: CircleView, rng: random.Random) -> Move:
        """The counting player's decision (:func:`~.opponents.counting_player`), or now and
        then any decision."""
        if self.noise and rng.random() < self.noise:
            options = view.decisions
            return options[rng.randrange(len(options))]
        return counting_player(view, rng)

    def card(self, view: CircleView, rng: random.Random) -> Card:
        hand = view.held
        if len(hand) == 1:
            return hand[0]
        if self.noise and rng.random() < self.noise:
            return hand[rng.randrange(len(hand))]
        seats = view.seats
        seat = seats.index(view.player)
        cities = view.cities_by_seat
        nxt = view.next_city
        trumps = [trump_suit(city, nxt) for city in cities]
        mine = trumps[seat]
        played = view.played
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

    def act(self, view: CircleView, rng: random.Random) -> Move:
        options = act_options(view)
        if len(options) == 1:
            return options[0]
        if self.noise and rng.random() < self.noise:
            return options[rng.randrange(len(options))]
        seat = view.seats.index(view.player)
        suits = [c.suit for c in view.held]
        best_score = -99.0
        best: Move = options[0]
        for move in options:
            score = _act_score(view, move, seat, suits)
            if score > best_score:
                best, best_score = move, score
        return best


def _counts(view: CircleView, name: str) -> bool:
    """Whether ``name``'s points matter to the margin: a player still in the game (C16, C20)."""
    return not is_dummy(name) and name not in view.knocked_out


def _wants_initiative(seat: int, cities: Sequence[Card | None]) -> bool:
    """Whether winning takes a city (C10); otherwise it forces a regroup, which wins nothing
    and may rebel (C14)."""
    return bool(victims(seat, cities))


def _standing(view: CircleView, totals: Mapping[str, int], name: str) -> int:
    """``name``'s points so far: the totals of the seasons before and the trophies held."""
    return totals.get(name, 0) + len(view.trophies_by_seat[view.seats.index(name)])


def _act_score(view: CircleView, move: Move, seat: int, suits: list[str | None]) -> float:
    """What an act is worth to the quick player: the point it wins or takes from an opponent
    player, then the city it leaves them (its suit in the hand, whom it may attack, who
    threatens it)."""
    seats = view.seats
    cities = view.cities_by_seat
    nxt = view.next_city
    after = list(cities)
    mine = cities[seat]
    assert mine is not None
    score = 0.0
    if type(move) is Conquer:
        v = seats.index(move.victim)
        theirs = cities[v]
        assert theirs is not None
        variant = view.variant
        destroys = variant == LONELY_TYRANT or (variant == COLOURED_CITIES and colour_in_attack(theirs, mine) == BLACK)
        if destroys:
            score += 1.0 if _counts(view, move.victim) else 0.2
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
            if not _counts(view, victim):
                score += 0.1  # a dummy's trophy counts for nobody
            else:
                me = seats[seat]
                totals = view.totals
                rivals = [p for p in view.players if p != me and p in seats and p not in view.knocked_out]
                # a point taken from the leading rival is worth one won; from another, less
                score += 1.0 if _standing(view, totals, victim) >= max(_standing(view, totals, p) for p in rivals) else 0.35
        after[seat] = cities[v]
        after[v] = mine if view.variant == COLOURED_CITIES else nxt
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
    """One move of a complete world: the emperor's to move (a player's decision by ``policy``
    from their view, realized in the world; a dummy's by the rules, C8, C11), or the table's
    (the next city turned up, C7; the reshuffle, C15) from ``chance``."""
    phase = state.phase
    if phase is _PLAY or phase is _ACT:
        state.push(decide(state, chance, rng, policy), check=False)
    elif phase is _REVEAL:
        state.push(reveal(chance), check=False)
    elif phase is _RESHUFFLE:
        state.push(reshuffle(state, chance), check=False)
    else:
        raise ValueError(f"nothing to play: the game waits for {phase.value}")


def decide(state: CircleState, chance: Chance, rng: random.Random, policy: Player) -> Move:
    """The move of the emperor to move in a complete world: a dummy's by the rules (C8, C11),
    a player's decision by ``policy`` from their view alone, realized in the world."""
    me = state.to_move
    assert me is not None
    if is_dummy(me):
        return dummy_move(state)
    # ``state.view(me)``, made here directly: a playout makes one for every decision.
    return realize(state, policy(CircleView(state, me), rng), chance, rng)


def play_out(state: CircleState, chance: Chance, rng: random.Random, policy: Player) -> None:
    """Play a complete world on with ``policy`` to the end of the season (C16), or of the game
    when the Lonely Tyrant is left (C18)."""
    push = state.push
    while True:
        phase = state.phase
        if phase is _PLAY or phase is _ACT:
            push(decide(state, chance, rng, policy), check=False)
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
