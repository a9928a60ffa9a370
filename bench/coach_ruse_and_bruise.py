"""Ruse and Bruise's part of ``./run bench coach``: whole games, paired.

A deal is a whole game's cards: the set-up (each player's six goal cards in their stack and
three influence cards in hand, B6) and the order in which each player's own cards come off
their stack (:class:`~companion.games.ruse_and_bruise.coach.games.Luck`: a draw takes the first card of that order the stack holds,
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.coach import Coach
from companion.coach import stats
from companion.coach.model import model_of
from companion.games.ruse_and_bruise.cards import INFLUENCE
from companion.games.ruse_and_bruise.coach.games import Luck, realize, round_move
from companion.games.ruse_and_bruise.coach.games import play_game as whole_game
from companion.games.ruse_and_bruise.game import Phase, RabState
from companion.games.ruse_and_bruise.moves import Move
from companion.games.ruse_and_bruise.policies import RandomPlayer, RuleOfThumbPlayer, deal
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.values import EXAMPLE

__all__ = ["PAIRINGS", "RabDeal", "rab_deal", "play_game", "pairing", "positions", "RabSimple", "RabQuick", "RabCoachPlayer"]

PAIRINGS = ("coach-thumb", "quick-thumb", "thumb-random", "coach-random")
"""Ruse and Bruise's pairings."""

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


@dataclass(frozen=True)
class RabDeal:
    setup: RabSetup
    chance: Luck


def rab_deal(rng: random.Random, players: int) -> RabDeal:
    names = NAMES[:players]
    setup = deal(names, EXAMPLE, rng)
    orders = {}
    for p in names:
        order = list(INFLUENCE)
        rng.shuffle(order)
        orders[p] = tuple(order)
    return RabDeal(setup, Luck(orders))


Seat = Callable[[RabState, Luck, random.Random], Move]
"""A seat at the bench's table: the decision of the player deciding, with what they draw after
it taken from the deal's luck."""


def play_game(game: RabDeal, seats: Mapping[str, Seat], rng: random.Random) -> dict[str, int]:
    """Play the deal's whole game, each player by their seat; each player's final score (B28)."""
    state = RabState(game.setup, keep_history=False)
    whole_game(state, game.chance, rng, lambda now, view, r: seats[view.player](now, game.chance, r))
    return dict(state.totals)


class RabSimple:
    """A player of :mod:`companion.games.ruse_and_bruise.policies` at the table, from its view."""

    def __init__(self, player: RuleOfThumbPlayer | RandomPlayer) -> None:
        self.player = player

    def __call__(self, state: RabState, chance: Luck, rng: random.Random) -> Move:
        me = state.to_move
        assert me is not None and state.values is not None
        view = state.view(me)
        return realize(state, self.player.choose(view, view.decisions, state.values, rng), chance)


class RabQuick:
    """The coach's quick player without randomness, without search."""

    def __call__(self, state: RabState, chance: Luck, rng: random.Random) -> Move:
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

    def __call__(self, state: RabState, chance: Luck, rng: random.Random) -> Move:
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
        rng = stats.deal_rng(seed, k)
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
                    state.push(round_move(state, game.chance) if state.phase is Phase.ROUND else state.random_table_move(rng), check=False)
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
