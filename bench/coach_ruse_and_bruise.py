"""Ruse and Bruise's part of ``./run bench coach``: whole games, paired.

A deal is a whole game's cards: the set-up (each player's six goal cards in their stack and
three influence cards in hand, B6) and the order in which each player's own cards come off
their stack (:class:`RabChance`: a draw takes the first card of that order the stack holds,
the discard pile's likewise once it is shuffled into a new stack, B9). Each deal is played
twice with the two policies' seats swapped, so that the luck of the cards cancels out; the
table's moves (a card turned over, an ability, the reveal, the distribution) follow the
rules. A game's margin is the final score (the better of plain and doubled, B28) of the
first policy's players less the second's, per player.

Pairings: the coach against the documented rule-of-thumb player ("thumb",
:class:`~companion.games.ruse_and_bruise.policies.RuleOfThumbPlayer`), the coach's quick
player without search against thumb, thumb against random, the coach against random at a
fifth of the pairs; at 2 players and at 4 (two of each policy, seated alternately).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.coach import Coach
from companion.coach import stats
from companion.coach.model import model_of
from companion.games.ruse_and_bruise.cards import HAND_SIZE, INFLUENCE, Influence
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Cloak, Move, Round
from companion.games.ruse_and_bruise.policies import RandomPlayer, RuleOfThumbPlayer, deal
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.games.ruse_and_bruise.whereabouts import DISCARD, STACK, bits

__all__ = ["PAIRINGS", "RabChance", "RabDeal", "rab_deal", "play_game", "pairing", "positions", "RabSimple", "RabQuick", "RabCoachPlayer"]

PAIRINGS = ("coach-thumb", "quick-thumb", "thumb-random", "coach-random")
"""Ruse and Bruise's pairings."""

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


@dataclass(frozen=True)
class RabChance:
    """How chance falls for a whole game: each player's own cards in the order they come off
    their stack (B9)."""

    orders: Mapping[str, tuple[Influence, ...]]

    def draw(self, state: RabState, player: str, may: Sequence[Influence | None]) -> Influence | None:
        """The card ``player`` draws, of those they ``may`` draw: the first of their order."""
        rank = self.orders[player]
        known = [c for c in may if c is not None]
        if not known:
            return None
        return min(known, key=rank.index)


@dataclass(frozen=True)
class RabDeal:
    setup: RabSetup
    chance: RabChance


def rab_deal(rng: random.Random, players: int) -> RabDeal:
    names = NAMES[:players]
    setup = deal(names, EXAMPLE, rng)
    orders = {}
    for p in names:
        order = list(INFLUENCE)
        rng.shuffle(order)
        orders[p] = tuple(order)
    return RabDeal(setup, RabChance(orders))


Seat = Callable[[RabState, RabChance, random.Random], Move]
"""A seat at the bench's table: the decision of the player deciding, with what they draw after
it taken from the deal's chance."""


def realize(state: RabState, decision: Move, chance: RabChance) -> Move:
    """``decision`` (a move standing for its decision) with the card drawn after it from the
    deal (B9): of the legal moves making that decision, the one whose draw comes first."""
    key = state.decision(decision)
    moves = [m for m in state.legal_moves if state.decision(m) == key]
    if not moves:
        # A card under one's own Cloak when the stack holds one card only, which the turn's
        # draw, named with the placement, has taken already (B9, B14): the Cloak stays empty.
        assert type(decision) is Cloak, decision
        return Cloak(decision.player, False)
    if len(moves) == 1:
        return moves[0]
    player = state.to_move
    assert player is not None
    drawn = chance.draw(state, player, [getattr(m, "drew", None) for m in moves])
    return next(m for m in moves if getattr(m, "drew", None) is drawn)


def _round(state: RabState, chance: RabChance) -> Round:
    """A round begins (B7): the top of each goal stack, each short hand filled from the deal
    (B9, the discard pile shuffled into a new stack when the stack runs out)."""
    c = state._core  # the bench plays the whole table: it knows every card, as the dealer does
    goals = [stack[0] for stack in c.stacks]
    drew: dict[str, list[Influence | None]] = {}
    if c.round > 0:
        for p, name in enumerate(state.players):
            w = c.known[p]
            short = min(HAND_SIZE - w.hand, w.stack + w.discard)
            cards: list[Influence | None] = []
            for _ in range(max(0, short)):
                if w.stack == 0:
                    w = w.reshuffled()
                pile = STACK if w.stack else DISCARD
                x = chance.draw(state, name, [INFLUENCE[i] for i in bits(w.known(pile))])
                cards.append(x)
                w = w.drew(None if x is None else x.index)
            if cards:
                drew[name] = cards
    return Round.make(goals, drew)  # type: ignore[arg-type]


def play_game(game: RabDeal, seats: Mapping[str, Seat], rng: random.Random) -> dict[str, int]:
    """Play the deal's whole game, each player by their seat; each player's final score (B28)."""
    state = RabState(game.setup, keep_history=False)
    while not state.is_game_over():
        who = state.to_move
        if who is not None:
            move = seats[who](state, game.chance, rng)
        elif state.phase is Phase.ROUND:
            move = _round(state, game.chance)
        else:
            move = state.random_table_move(rng)  # the rules decide: every card is known here
        state.push(move, check=False)
    return dict(state.totals)


class RabSimple:
    """A player of :mod:`companion.games.ruse_and_bruise.policies` at the table, from its view."""

    def __init__(self, player: RuleOfThumbPlayer | RandomPlayer) -> None:
        self.player = player

    def __call__(self, state: RabState, chance: RabChance, rng: random.Random) -> Move:
        me = state.to_move
        assert me is not None and state.values is not None
        view = state.view(me)
        return realize(state, self.player.choose(view, view.decisions, state.values, rng), chance)


class RabQuick:
    """The coach's quick player without randomness, without search."""

    def __call__(self, state: RabState, chance: RabChance, rng: random.Random) -> Move:
        me = state.to_move
        assert me is not None
        return realize(state, model_of(state.game).plain_move(state.view(me)), chance)


@dataclass
class RabCoachPlayer:
    """The coach as a player of Ruse and Bruise, keeping its own timings."""

    level: str
    samples: int | None = None
    confidence: float = 1.0
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    playouts: int = 0
    search_ms: float = 0.0

    def __call__(self, state: RabState, chance: RabChance, rng: random.Random) -> Move:
        model = model_of(state.game)
        me = state.to_move
        assert me is not None
        options = model.decisions(state, me)
        if len(options) == 1:
            return realize(state, next(iter(options.values()))[0], chance)
        start, start_cpu = time.perf_counter(), time.process_time()
        coach = Coach(self.level, confidence=self.confidence)
        advice = coach.advise(state, me, samples=self.samples, seed=rng.getrandbits(32))
        choice = coach.pick(advice, state)
        self.ms.append((time.perf_counter() - start) * 1000)
        self.cpu_ms.append((time.process_time() - start_cpu) * 1000)
        self.playouts += advice.playouts
        self.search_ms += advice.elapsed_ms
        return realize(state, options[choice.key][0], chance)


def pairing(name: str, a: Seat, b: Seat, players: int, pairs: int, seed: int) -> tuple[float, float]:
    """``pairs`` deals, each played twice: ``a`` in the even seats and ``b`` in the odd ones,
    then swapped."""
    names = NAMES[:players]
    wins = draws = losses = 0
    pair_margins = []
    start = time.perf_counter()
    for k in range(pairs):
        rng = random.Random(seed * 7919 + k)
        game = rab_deal(rng, players)
        margins = []
        table_seed = rng.getrandbits(32)
        for swap in (False, True):
            seats = {p: (a if (i % 2 == 0) != swap else b) for i, p in enumerate(names)}
            totals = play_game(game, seats, random.Random(table_seed))
            margin = stats.mean([totals[p] for p in names if seats[p] is a]) - stats.mean([totals[p] for p in names if seats[p] is b])
            margins.append(margin)
            wins += margin > 0
            draws += margin == 0
            losses += margin < 0
        pair_margins.append(sum(margins) / 2)
    mean = stats.mean(pair_margins)
    half = stats.interval(pair_margins)[1] - mean if len(pair_margins) > 1 else float("nan")
    print(
        f"  {name:18} {players} players{'':12} {pairs} pairs: {wins} won / {draws} drawn / {losses} lost games; "
        f"margin {mean:+.2f} +/- {half:.2f} points per game ({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    return mean, half


def positions(count: int, seed: int) -> list[RabState]:
    """Positions where a player has a choice, from games of rule-of-thumb players, 2 and 4
    players (half each)."""
    rng = random.Random(seed)
    thumb = RabSimple(RuleOfThumbPlayer())
    spots: list[RabState] = []
    for players in (2, 4):
        wanted = len(spots) + count // 2
        while len(spots) < wanted:
            game = rab_deal(rng, players)
            state = RabState(game.setup, keep_history=False)
            stop = rng.randrange(0, 60)
            steps = 0
            while not state.is_game_over():
                me = state.to_move
                if me is None:
                    state.push(_round(state, game.chance) if state.phase is Phase.ROUND else state.random_table_move(rng), check=False)
                    continue
                if steps >= stop and len(model_of(state.game).decisions(state, me)) > 1:
                    spots.append(state)
                    break
                state.push(thumb(state, game.chance, rng), check=False)
                steps += 1
    return spots


def seats(level: str, samples: int | None, confidence: float) -> tuple[RabCoachPlayer, dict[str, Seat]]:
    coach = RabCoachPlayer(level, samples, confidence)
    return coach, {
        "coach": coach,
        "quick": RabQuick(),
        "thumb": RabSimple(RuleOfThumbPlayer()),
        "random": RabSimple(RandomPlayer()),
    }
