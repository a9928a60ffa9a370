"""The coach's strength and speed, on one core (the process is pinned to one).

Strength: paired deals. A deal is one round (a shuffled World deck and a dealer); it is played
twice with the two policies' seats swapped, so luck of the cards cancels out. For each
pairing the figures are the rounds won, drawn and lost (by round points), and the mean
round-point margin of the first policy per round with its 95 % interval (over the pairs).
Pairings: coach vs greedy (the move with the best immediate points) and greedy vs random at
the full number of pairs, coach vs random at a fifth of it (random play is far behind, so
fewer pairs already show it); for 2 players and for 4 players in 2 teams.

Speed: milliseconds per decision of each coach level, playouts per second, and the hint's
latency at the table: the time to the first ranking of the default level (the search kept to
its budget, then the ranking worked out), its median and 95th percentile.

    ./run bench coach                   the full run (500 pairs per pairing): about 40 minutes
    ./run bench coach -- --quick        a small run (40 pairs): about 3 minutes
    ./run bench coach -- --pairs 200 --level fast --seatings 2
    ./run bench coach -- --samples 12   the coach at a fixed number of samples per decision,
                                        so that its strength does not depend on the machine's load
    ./run bench coach -- --speed-only   the speed figures and the hint latency alone (about a minute)
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.coach import LEVELS, Coach
from companion.games.rule_of_power.coach.policies import decisions, deal_from, greedy_move, random_move, realize
from companion.coach import stats
from companion.games.rule_of_power.engine.cards import Card, world_deck
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Move, NewRound
from companion.games.rule_of_power.simulation.virtual_table import make_setup

Policy = Callable[[GameState, list[Card], random.Random], Move]

PAIRINGS = ("coach-greedy", "greedy-random", "coach-random")


@dataclass
class CoachPlayer:
    """The coach as a player, keeping its own timings."""

    level: str
    samples: int | None = None
    confidence: float = 1.0
    """Exactly this many samples per decision (strength independent of the machine's load)."""
    decisions: int = 0
    ms: list[float] = field(default_factory=list)
    playouts: int = 0
    search_ms: float = 0.0

    def __call__(self, game: GameState, deck: list[Card], rng: random.Random) -> Move:
        options = decisions(game)
        if len(options) == 1:
            return realize(game, next(iter(options.values())), deck, rng)
        start = time.perf_counter()
        coach = Coach(self.level, confidence=self.confidence)
        advice = coach.advise(game, game.turn or "", samples=self.samples, seed=rng.getrandbits(32))
        self.ms.append((time.perf_counter() - start) * 1000)
        self.playouts += advice.playouts
        self.search_ms += advice.elapsed_ms
        return realize(game, options[coach.pick(advice, game, deck).key], deck, rng)


def play_round(players: int, teams: int, deck_order: list[Card], dealer: str, seats: dict[str, Policy], rng: random.Random) -> dict[str, int]:
    setup = make_setup(players, teams)
    game = GameState(setup, keep_history=False)
    game.push(NewRound.make(dealer))
    deck = deck_order[:]
    while game.phase in (Phase.DEAL, Phase.TURN):
        if game.phase is Phase.DEAL:
            game.push(deal_from(deck, game), check=False)
        else:
            game.push(seats[game.turn](game, deck, rng), check=False)  # type: ignore[index]
    return game.results[-1].score.totals()


def pairing(name: str, a: Policy, b: Policy, players: int, teams: int, pairs: int, seed: int) -> tuple[float, float]:
    setup = make_setup(players, teams)
    sides = setup.sides
    wins = draws = losses = 0
    pair_margins = []
    start = time.perf_counter()
    for k in range(pairs):
        rng = random.Random(seed * 7919 + k)
        deck = list(world_deck())
        rng.shuffle(deck)
        dealer = rng.choice(setup.players)
        margins = []
        for a_side in (0, 1):
            seats = {p: (a if setup.side_of(p) == sides[a_side] else b) for p in setup.players}
            points = play_round(players, teams, deck, dealer, seats, random.Random(rng.getrandbits(32)))
            margin = points[sides[a_side]] - points[sides[1 - a_side]]
            margins.append(margin)
            wins += margin > 0
            draws += margin == 0
            losses += margin < 0
        pair_margins.append(sum(margins) / 2)
    mean = stats.mean(pair_margins)
    half = stats.interval(pair_margins)[1] - mean
    table = f"{players} players" + (f" in {teams} teams" if teams else "")
    print(
        f"  {name:18} {table:20} {pairs} pairs: {wins} won / {draws} drawn / {losses} lost rounds; "
        f"margin {mean:+.2f} +/- {half:.2f} points per round ({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    return mean, half


def _percentile(sorted_ms: Sequence[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def positions(count: int, seed: int) -> list[GameState]:
    """Positions with a decision to make, from random games, 2 and 4 players (half each)."""
    rng = random.Random(seed)
    spots: list[GameState] = []
    for players, teams in ((2, 0), (4, 2)):
        setup = make_setup(players, teams)
        for _ in range(count // 2):
            deck = list(world_deck())
            rng.shuffle(deck)
            game = GameState(setup, keep_history=False)
            game.push(NewRound.make(rng.choice(setup.players)))
            stop = rng.randrange(0, 30 if players == 2 else 24)
            steps = 0
            while game.phase in (Phase.DEAL, Phase.TURN):
                if game.phase is Phase.DEAL:
                    game.push(deal_from(deck, game), check=False)
                    continue
                if steps >= stop and len(decisions(game)) > 1:
                    break
                game.push(random_move(game, deck, rng), check=False)
                steps += 1
            if game.phase is Phase.TURN:
                spots.append(game)
    return spots


def speed(levels: list[str], spots: list[GameState]) -> None:
    """Decisions timed on ``spots``: a one-shot answer (``rop hint``) per level."""
    print("speed per decision (one core):")
    for level in levels:
        ms, playouts, search_ms, cpu = [], 0, 0.0, 0.0
        for k, game in enumerate(spots):
            start, start_cpu = time.perf_counter(), time.process_time()
            advice = Coach(level).advise(game, game.turn or "", seed=k)
            ms.append((time.perf_counter() - start) * 1000)
            cpu += time.process_time() - start_cpu
            playouts += advice.playouts
            search_ms += advice.elapsed_ms
        ms.sort()
        print(
            f"  {level:8} budget {LEVELS[level].budget_ms:5.0f} ms: mean {sum(ms) / len(ms):6.1f} ms, "
            f"95th percentile {_percentile(ms, 0.95):6.1f} ms, max {ms[-1]:6.1f} ms per decision; "
            f"{playouts / (search_ms / 1000):.0f} playouts per second "
            f"({playouts / cpu:.0f} per CPU second; {len(ms)} positions)",
            flush=True,
        )


def hint_latency(spots: list[GameState], repeats: int = 3) -> None:
    """The hint at the table (F7): the time from the key to the first ranking, the way the hint
    screen gets it (a search run within the default level's budget, then its ranking), each
    position ``repeats`` times."""
    first_ms = LEVELS["default"].budget_ms  # what the hint screen gives its first run
    ms: list[float] = []
    samples: list[int] = []
    for r in range(repeats):
        for k, game in enumerate(spots):
            start = time.perf_counter()
            search = Coach("default", seed=r * 1000 + k).search(game, game.turn or "")
            advice = search.run(budget_ms=first_ms).advice()
            ms.append((time.perf_counter() - start) * 1000)
            samples.append(advice.samples)
    ms.sort()
    samples.sort()
    under = sum(1 for x in ms if x < 100.0) / len(ms)
    print(
        f"hint latency (first ranking, default level, budget {first_ms:.0f} ms): median {_percentile(ms, 0.5):.1f} ms, "
        f"95th percentile {_percentile(ms, 0.95):.1f} ms, max {ms[-1]:.1f} ms; {under:.0%} under 100 ms; "
        f"median {_percentile(samples, 0.5):.0f} sampled deals in it ({len(ms)} hints)",
        flush=True,
    )


def one_core() -> str:
    """Pin this process to one core, as the figures say; the core, or why not."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[-1]})
        return f"pinned to core {cores[-1]}"
    except (AttributeError, OSError) as exc:
        return f"not pinned ({exc})"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench coach")
    parser.add_argument("--quick", action="store_true", help="a small run: 40 pairs per pairing")
    parser.add_argument("--pairs", type=int, default=None, help="pairs per pairing (default 500, 40 with --quick)")
    parser.add_argument("--level", choices=list(LEVELS), default="default", help="the coach's level in the pairings")
    parser.add_argument("--samples", type=int, default=None, help="the coach takes exactly this many samples per decision instead of its time budget")
    parser.add_argument("--confidence", type=float, default=1.0, help="standard errors by which the search must beat the simple player's move (0: always the search's best)")
    parser.add_argument("--seatings", default="2,4", help="2 (two players), 4 (two teams of two), or both")
    parser.add_argument("--pairings", default=",".join(PAIRINGS), help=f"which pairings, of {', '.join(PAIRINGS)}")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed-only", action="store_true", help="the speed figures and the hint latency only")
    args = parser.parse_args(argv)
    if args.pairs is not None and args.pairs < 1:
        parser.error(f"--pairs must be at least 1, not {args.pairs}")
    for name in args.pairings.split(","):
        if name not in PAIRINGS:
            parser.error(f"unknown pairing {name!r} in --pairings; the pairings are {', '.join(PAIRINGS)}")
    for seating in args.seatings.split(","):
        if seating.strip() not in ("2", "4"):
            parser.error(f"unknown seating {seating!r} in --seatings: 2 (two players) or 4 (two teams of two)")
    pairs = args.pairs or (40 if args.quick else 500)
    print(f"one core: {one_core()}", flush=True)
    spots = positions(20 if args.quick else 60, args.seed)
    speed(list(LEVELS) if not args.quick else ["fast", "default"], spots)
    hint_latency(spots, 1 if args.quick else 3)
    if args.speed_only:
        return 0
    coach = CoachPlayer(args.level, args.samples, args.confidence)
    policies: dict[str, Policy] = {"coach": coach, "greedy": greedy_move, "random": random_move}
    how = f"{args.samples} samples per decision" if args.samples else f"level {args.level}"
    print(f"paired deals (each round played twice, seats swapped), coach at {how}:")
    for seating in args.seatings.split(","):
        players, teams = (2, 0) if seating.strip() == "2" else (4, 2)
        for name in args.pairings.split(","):
            a, b = name.split("-")
            n = pairs if name != "coach-random" else max(1, pairs // 5)
            pairing(f"{a} vs {b}", policies[a], policies[b], players, teams, n, args.seed)
    if coach.ms:
        coach.ms.sort()
        print(
            f"coach in play: {len(coach.ms)} decisions, mean {sum(coach.ms) / len(coach.ms):.1f} ms, "
            f"95th percentile {_percentile(coach.ms, 0.95):.1f} ms; "
            f"{coach.playouts / (coach.search_ms / 1000):.0f} playouts per second"
        )
    return 0
