"""Love, Money, Power, Death's coach: its strength against each of the game's rule-of-thumb
players (its coach model's ``opponents()``) and against random play, and its cost per decision,
on one core (the process is pinned to one).

Strength: paired deals. A deal is a whole game: the order of the noble pile and every pile
(L5). It is played twice with the two policies' seats swapped, so that the luck of the cards
cancels out: at two players A sits first then second; at four, A holds the first and third
seats, then the second and fourth. For each pairing the figures are the games won (a shared win
counts its share, L13) and the mean crowns margin of the first policy per game (its players'
crowns less the other policy's, per player), with its 95 % interval over the pairs.

Speed: each decision of the coach in the pairings, in CPU time (``time.process_time``, the
process on one core) and on the wall clock: mean, 95th percentile, slowest; and the samples a
decision rests on.

    ./run bench coach_lmpd                      every opponent and random, 2 and 4 players, 300 pairs each
    ./run bench coach_lmpd -- --quick           40 pairs each
    ./run bench coach_lmpd -- --opponents counter --players 2 --pairs 100
    ./run bench coach_lmpd -- --samples 20      the coach at 20 samples per decision, whatever the load
    ./run bench coach_lmpd -- --confidence 2    the search's best commit played only when 2 standard errors better

:func:`report` is the whole report, which ``./run bench coach`` prints as well.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from companion.coach import LEVELS, Coach
from companion.coach import stats
from companion.coach.model import Policy, model_of
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.cards import DEALT
from companion.games.love_money_power_death.coach.worlds import table_move
from companion.games.love_money_power_death.moves import Deal, Move
from companion.games.love_money_power_death.policies import random_choice
from companion.games.love_money_power_death.state import LmpdState

Seat = Callable[[LmpdState, str, random.Random], Move]
"""A seat at the bench's table: the commit of ``player``, who is deciding."""


@dataclass
class CoachSeat:
    """The coach as a player, keeping its timings: a decision from the player's view, on its
    level's time budget or on exactly ``samples`` samples; the search's best played over the
    quick player's commit when it is ``confidence`` standard errors better (:meth:`~companion.
    coach.Coach.pick`)."""

    level: str = "default"
    samples: int | None = None
    confidence: float = 1.0
    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)

    def __call__(self, state: LmpdState, player: str, rng: random.Random) -> Move:
        model = model_of(GAME)
        options = model.decisions(state, player)
        if len(options) == 1:
            return next(iter(options.values()))[0]
        wall, cpu = time.perf_counter(), time.process_time()
        coach = Coach(self.level, confidence=self.confidence)
        advice = coach.advise(state, player, samples=self.samples, seed=rng.getrandbits(32))
        move = options[coach.pick(advice, state).key][0]
        self.cpu_ms.append((time.process_time() - cpu) * 1000)
        self.wall_ms.append((time.perf_counter() - wall) * 1000)
        self.sampled.append(advice.samples)
        return move


@dataclass(frozen=True)
class ViewSeat:
    """A simple player at the table: its commit from its own view alone."""

    policy: Policy

    def __call__(self, state: LmpdState, player: str, rng: random.Random) -> Move:
        return self.policy(state.view(player), rng)


def deal(players: Sequence[str], rng: random.Random) -> Deal:
    """A whole deal (L5), every card known to the table: the nobles in use shuffled, then the
    42 other cards dealt into the piles, the rest set aside."""
    setup = GAME.make_setup(players)
    order = list(setup.nobles)
    rng.shuffle(order)
    deck = list(DEALT)
    rng.shuffle(deck)
    size = setup.pile_size
    piles = {p: deck[k * size : (k + 1) * size] for k, p in enumerate(setup.players)}
    return Deal.make(order, piles, deck[len(players) * size :], players=setup.players)


def paired_deals(players: Sequence[str], deals: int, seed: int) -> Iterator[tuple[Deal, random.Random]]:
    """The deals of a pairing, each with the generator that plays it: the same ``seed`` plays
    the same deals, whatever is measured on them."""
    for k in range(deals):
        rng = stats.deal_rng(seed, k)
        yield deal(players, rng), rng


def dealt(players: Sequence[str], the_deal: Deal) -> LmpdState:
    """A game of ``players`` as the deal leaves it (L5)."""
    state = GAME.new_state(GAME.make_setup(players), keep_history=False)
    state.push(the_deal)
    return state


def margin(state: LmpdState, player: str) -> float:
    """The player's crowns less the others' average (L13)."""
    totals = state.totals
    others = [p for p in state.players if p != player]
    return totals[player] - sum(totals[p] for p in others) / len(others)


def play_game(players: Sequence[str], the_deal: Deal, seats: dict[str, Seat], rng: random.Random) -> LmpdState:
    """A whole game of the deal, each player's commit by their seat, in seating order (the
    order carries no meaning, L6), the table's moves from the deal."""
    state = dealt(players, the_deal)
    while not state.is_game_over():
        deciding = state.deciding
        if deciding:
            for who in deciding:
                state.push(seats[who](state, who, rng))
        else:
            state.push(table_move(state))
    return state


@dataclass
class Figures:
    """A pairing's figures: per pair, the first policy's mean margin and win share."""

    margins: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    games: int = 0
    won: float = 0.0

    def line(self, name: str, players: int, seconds: float) -> str:
        mean = stats.mean(self.margins)
        lo, hi = stats.interval(self.margins)
        share = stats.mean(self.wins)
        wlo, whi = stats.interval(self.wins)
        return (
            f"  {name:26} {players} players, {len(self.margins)} deals: wins {self.won:.1f} of {self.games} games "
            f"({share:.1%}, 95 % {wlo:.1%} to {whi:.1%}, {1 / players:.0%} for an equal player); margin {mean:+.2f} crowns "
            f"a game (95 % {lo:+.2f} to {hi:+.2f}) ({seconds:.0f} s)"
        )


def pairing(a: Seat, b: Seat, players: int, deals: int, seed: int) -> Figures:
    """``deals`` deals, each played once with ``a`` in each seat in turn and ``b`` in every
    other seat: a player at a table of the other kind, the luck of the cards cancelling out
    over the seats."""
    names = GAME.default_players(players)
    figures = Figures()
    for the_deal, rng in paired_deals(names, deals, seed):
        margins, wins = [], []
        for mine in names:
            seats = {p: (a if p == mine else b) for p in names}
            state = play_game(names, the_deal, seats, random.Random(rng.getrandbits(32)))
            margins.append(margin(state, mine))
            outcome = state.outcome()
            assert outcome is not None
            share = 1 / len(outcome.winners) if mine in outcome.winners else 0.0
            wins.append(share)
            figures.games += 1
            figures.won += share
        figures.margins.append(sum(margins) / len(margins))
        figures.wins.append(sum(wins) / len(wins))
    return figures


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def speed_line(seat: CoachSeat) -> str:
    if not seat.cpu_ms:
        return "  no decision with a choice"
    cpu, wall = seat.cpu_ms, seat.wall_ms
    return (
        f"  the coach ({seat.level}{'' if seat.samples is None else f', {seat.samples} samples'}): {len(cpu)} decisions; "
        f"CPU ms per decision mean {stats.mean(cpu):.1f}, 95th percentile {_percentile(cpu, 0.95):.1f}, slowest {max(cpu):.1f}; "
        f"wall ms mean {stats.mean(wall):.1f}, 95th percentile {_percentile(wall, 0.95):.1f}; "
        f"samples per decision median {_percentile([float(s) for s in seat.sampled], 0.5):.0f}"
    )


def pin() -> str:
    """Pin the process to one core (the last one it may use)."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[-1]})
        return f"pinned to core {cores[-1]}"
    except (AttributeError, OSError) as exc:
        return f"not pinned ({exc})"


def main(argv: list[str]) -> int:
    opponents = list(model_of(GAME).opponents())
    parser = argparse.ArgumentParser(prog="bench coach_lmpd")
    parser.add_argument("--quick", action="store_true", help="a small run: 40 pairs per pairing")
    parser.add_argument("--pairs", type=int, default=None, help="pairs per pairing (default 300, 40 with --quick)")
    parser.add_argument("--players", default="2,4", help="table sizes, of 2 to 10 (default 2,4)")
    parser.add_argument("--opponents", default=",".join([*opponents, "random"]), help=f"of {', '.join(opponents)}, random (default all)")
    parser.add_argument("--level", choices=list(LEVELS), default="default", help="the coach's level (default: default)")
    parser.add_argument("--samples", type=int, default=None, help="the coach takes exactly this many samples per decision instead of its budget")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    parser.add_argument("--confidence", type=float, default=1.0, help="standard errors by which the search must beat the quick player's commit (0: always the search's best)")
    args = parser.parse_args(argv)
    pairs = args.pairs or (40 if args.quick else 300)
    if pairs < 1:
        parser.error("--pairs must be at least 1")
    try:
        sizes = [int(x) for x in args.players.split(",") if x]
    except ValueError:
        parser.error(f"--players {args.players!r}: give table sizes such as 2,4")
    if not sizes or any(not GAME.min_players <= n <= GAME.max_players for n in sizes):
        parser.error(f"--players {args.players!r}: sizes of {GAME.min_players} to {GAME.max_players}")
    chosen = [x for x in args.opponents.split(",") if x]
    unknown = [x for x in chosen if x not in opponents and x != "random"]
    if unknown:
        parser.error(f"unknown opponent {unknown[0]!r}; the opponents are {', '.join([*opponents, 'random'])}")
    print(f"Love, Money, Power, Death: the coach against each rule-of-thumb player ({pin()})", flush=True)
    report(chosen, sizes, pairs, level=args.level, samples=args.samples, seed=args.seed, confidence=args.confidence)
    return 0


def report(
    opponents: Sequence[str], sizes: Sequence[int], pairs: int, *, level: str = "default", samples: int | None = None, seed: int = 1, confidence: float = 1.0
) -> None:
    """The coach against each of ``opponents`` (the model's rule-of-thumb players, or
    ``random``) at each table size, ``pairs`` deals each, then its cost per decision: the
    figures ``./run bench coach`` and ``./run bench coach_lmpd`` print."""
    policies = {**model_of(GAME).opponents(), "random": random_choice}
    for players in sizes:
        seat = CoachSeat(level, samples, confidence)
        for name in opponents:
            start = time.perf_counter()
            figures = pairing(seat, ViewSeat(policies[name]), players, pairs, seed)
            print(figures.line(f"coach vs {name}", players, time.perf_counter() - start), flush=True)
        print(speed_line(seat), flush=True)


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))
