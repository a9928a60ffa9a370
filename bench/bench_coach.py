"""The coach's strength and speed, on one core (the process is pinned to one), for each game
that has a coach: Rule of Power, Circle of Power and Love, Money, Power, Death.

Strength: paired deals. A deal is one scoring period (Rule of Power: a round, a shuffled World
deck and a dealer; Circle of Power: a season, its seats, cities, hands, piles and the order of
both decks and of the reshuffle); it is played twice with the two policies' seats swapped, so
luck of the cards cancels out. For each pairing the figures are the periods won, drawn and
lost (by the period's points), and the mean points margin of the first policy per period with
its 95 % interval (over the pairs).

- Rule of Power: coach vs greedy (the move with the best immediate points) and greedy vs
  random at the full number of pairs, coach vs random at a fifth of it (random play is far
  behind, so fewer pairs already show it); for 2 players and for 4 players in 2 teams.
- Circle of Power: coach vs the documented rule-of-thumb player ("thumb",
  :class:`~companion.games.circle_of_power.policies.RuleOfThumbPlayer`), the coach's quick
  player without search vs thumb, and thumb vs random at the full number of pairs, coach vs
  random at a fifth of it; for 2 players (with two dummies, C4) and for 4 players (two of each
  policy, seated alternately). The margin is a season's points (trophies, C16) of the first
  policy's players less the second's, per player.
- Love, Money, Power, Death: coach vs each documented rule-of-thumb player (rule-of-thumb,
  eager, cautious, counter, :mod:`companion.games.love_money_power_death.policies`) and vs
  random, a fifth of the pairs, a deal (a whole game) played once with the coach in each seat
  (:mod:`bench.bench_coach_lmpd`, which runs it alone); the margin is the coach's crowns less
  the others' average, with its 95 % interval, and its CPU time per decision.

Speed: milliseconds per decision of each coach level, playouts per second, and the hint's
latency at the table: the time to the first ranking of the default level (the search kept to
its budget, then the ranking worked out), its median and 95th percentile.

    ./run bench coach                   the full run (500 pairs per pairing, every game): about 140 minutes
    ./run bench coach -- --quick        a small run (40 pairs): about 8 minutes
    ./run bench coach -- --games circle-of-power --seatings 2
    ./run bench coach -- --pairs 200 --level fast --seatings 2
    ./run bench coach -- --samples 12   the coach at a fixed number of samples per decision,
                                        so that its strength does not depend on the machine's load
    ./run bench coach -- --speed-only   the speed figures and the hint latency alone (about two minutes)
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from typing import Any

from bench import bench_coach_lmpd
from companion.coach import LEVELS, Coach
from companion.coach.model import model_of
from companion.games.circle_of_power.cards import BATTLE_DECK, CITY_DECK
from companion.games.circle_of_power.coach.policies import dummy_move, realize as circle_realize
from companion.games.circle_of_power.coach.worlds import Chance, reshuffle, reveal
from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.game import Phase as CirclePhase
from companion.games.circle_of_power.moves import Move as CircleMove
from companion.games.circle_of_power.moves import Season
from companion.games.circle_of_power.policies import RandomPlayer, RuleOfThumbPlayer
from companion.games.circle_of_power.setup import CircleSetup, is_dummy
from companion.games.rule_of_power.coach.policies import Policy as ViewPolicy
from companion.games.rule_of_power.coach.policies import decisions, deal_from, greedy_move, play_turn, random_move, realize
from companion.coach import stats
from companion.games.love_money_power_death import GAME as LMPD
from companion.games.rule_of_power.engine.cards import Card, world_deck
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Move, NewRound
from companion.games.rule_of_power.simulation.virtual_table import make_setup

Policy = Callable[[GameState, list[Card], random.Random], Move]
"""A seat at the bench's Rule of Power table: the move of the player to move, what chance
decides in it drawn from the table's World deck. The simple players see only their view
(:class:`ViewSeat`); the coach searches from that player's view."""

GAMES = ("rule-of-power", "circle-of-power", "love-money-power-death")
PAIRINGS = ("coach-greedy", "greedy-random", "coach-random")
"""Rule of Power's pairings."""
CIRCLE_PAIRINGS = ("coach-thumb", "quick-thumb", "thumb-random", "coach-random")
"""Circle of Power's pairings: "thumb" is the documented rule-of-thumb player, "quick" the
coach's quick player of the playouts without its randomness (what the coach plays unless its
search finds better)."""


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
            return realize(game, next(iter(options.values()))[0], deck, rng)
        start = time.perf_counter()
        coach = Coach(self.level, confidence=self.confidence)
        advice = coach.advise(game, game.turn or "", samples=self.samples, seed=rng.getrandbits(32))
        self.ms.append((time.perf_counter() - start) * 1000)
        self.playouts += advice.playouts
        self.search_ms += advice.elapsed_ms
        return realize(game, options[coach.pick(advice, game).key][0], deck, rng)


@dataclass(frozen=True)
class ViewSeat:
    """A simple player (:func:`greedy_move`, :func:`random_move`) at the table: its decision
    from the player's view, realized from the table's deck."""

    policy: ViewPolicy

    def __call__(self, game: GameState, deck: list[Card], rng: random.Random) -> Move:
        return play_turn(game, deck, rng, self.policy)


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
                game.push(play_turn(game, deck, rng, random_move), check=False)
                steps += 1
            if game.phase is Phase.TURN:
                spots.append(game)
    return spots


def speed(levels: list[str], spots: Sequence[Any]) -> None:
    """Decisions timed on ``spots``: a one-shot answer (``rop hint``) per level."""
    print("speed per decision (one core):")
    for level in levels:
        ms, playouts, search_ms, cpu = [], 0, 0.0, 0.0
        for k, game in enumerate(spots):
            start, start_cpu = time.perf_counter(), time.process_time()
            advice = Coach(level).advise(game, game.deciding[0], seed=k)
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


def hint_latency(spots: Sequence[Any], repeats: int = 3) -> None:
    """The hint at the table (F7): the time from the key to the first ranking, the way the hint
    screen gets it (a search run within the default level's budget, then its ranking), each
    position ``repeats`` times."""
    first_ms = LEVELS["default"].budget_ms  # what the hint screen gives its first run
    ms: list[float] = []
    samples: list[int] = []
    for r in range(repeats):
        for k, game in enumerate(spots):
            start = time.perf_counter()
            search = Coach("default", seed=r * 1000 + k).search(game, game.deciding[0])
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


# ---------------------------------------------------------------------- Circle of Power

CirclePolicy = Callable[[CircleState, Chance, random.Random], CircleMove]
"""A seat at the bench's Circle of Power table: the move of the player to move, the card drawn
after a play taken from the table's battle deck (``chance``). The simple players see only
their view; the coach searches from that player's view."""


@dataclass(frozen=True)
class CircleDeal:
    """One season's cards: the set-up (seats, dealer, cities, hands and piles, C4-C6) and how
    chance falls (both decks' order, the reshuffle's order, C7, C8, C15)."""

    setup: CircleSetup
    season: Season
    chance: Chance


def circle_deal(rng: random.Random, players: Sequence[str]) -> CircleDeal:
    setup = CircleSetup(tuple(players))
    season = CircleState(setup, keep_history=False).random_table_move(rng)
    assert type(season) is Season
    bottom = season.bottom
    held = {card for _, card in season.cities}
    rest = [x for x in CITY_DECK if x is not bottom and x not in held]
    rng.shuffle(rest)
    dealt = {x for _, cards in season.hands + season.piles for x in cards}
    battle = [x for x in BATTLE_DECK if x not in dealt]
    rng.shuffle(battle)
    order = list(range(len(BATTLE_DECK) + len(CITY_DECK)))
    rng.shuffle(order)
    return CircleDeal(setup, season, Chance(battle, [bottom] + rest, tuple(order)))


class CircleSimple:
    """A player of :mod:`companion.games.circle_of_power.policies` at the table, from its view."""

    def __init__(self, player: RuleOfThumbPlayer | RandomPlayer) -> None:
        self.player = player

    def __call__(self, state: CircleState, chance: Chance, rng: random.Random) -> CircleMove:
        me = state.to_move
        assert me is not None
        return circle_realize(state, self.player.choose(state.view(me), rng), chance, rng)


class CircleQuick:
    """The coach's quick player without randomness, without search (the model's plain move,
    from the player's view)."""

    def __call__(self, state: CircleState, chance: Chance, rng: random.Random) -> CircleMove:
        me = state.to_move
        assert me is not None
        return circle_realize(state, model_of(state.game).plain_move(state.view(me)), chance, rng)


@dataclass
class CircleCoachPlayer:
    """The coach as a player of Circle of Power, keeping its own timings."""

    level: str
    samples: int | None = None
    confidence: float = 1.0
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    """The same decisions in CPU time: what they cost, whatever else the core runs."""
    playouts: int = 0
    search_ms: float = 0.0

    def __call__(self, state: CircleState, chance: Chance, rng: random.Random) -> CircleMove:
        model = model_of(state.game)
        me = state.to_move
        assert me is not None
        options = model.decisions(state, me)
        if len(options) == 1:
            return circle_realize(state, next(iter(options.values()))[0], chance, rng)
        start, start_cpu = time.perf_counter(), time.process_time()
        coach = Coach(self.level, confidence=self.confidence)
        advice = coach.advise(state, me, samples=self.samples, seed=rng.getrandbits(32))
        choice = coach.pick(advice, state)
        self.ms.append((time.perf_counter() - start) * 1000)
        self.cpu_ms.append((time.process_time() - start_cpu) * 1000)
        self.playouts += advice.playouts
        self.search_ms += advice.elapsed_ms
        return circle_realize(state, options[choice.key][0], chance, rng)


def play_season(deal: CircleDeal, seats: dict[str, CirclePolicy], rng: random.Random) -> dict[str, int]:
    """Play one season of ``deal``, each player by their policy, the dummies by the rules (C8,
    C11), the table from the deal's chance; each emperor's points (C16)."""
    state = CircleState(deal.setup, keep_history=False)
    state.push(deal.season, check=False)
    chance = deal.chance.copy()
    while True:
        phase = state.phase
        if phase is CirclePhase.REVEAL:
            state.push(reveal(chance), check=False)
        elif phase is CirclePhase.RESHUFFLE:
            state.push(reshuffle(state, chance), check=False)
        elif phase is CirclePhase.PLAY or phase is CirclePhase.ACT:
            me = state.to_move
            assert me is not None
            state.push(dummy_move(state) if is_dummy(me) else seats[me](state, chance, rng), check=False)
        else:
            return dict(state.results[-1].points)


def circle_pairing(name: str, a: CirclePolicy, b: CirclePolicy, players: int, pairs: int, seed: int) -> tuple[float, float]:
    """``pairs`` deals, each played twice: ``a`` in the even seats of the players and ``b`` in
    the odd ones, then swapped. The margin of a season is the points of ``a``'s players less
    ``b``'s, per player."""
    names = ("ann", "bob", "cy", "dee")[:players]
    wins = draws = losses = 0
    pair_margins = []
    start = time.perf_counter()
    for k in range(pairs):
        rng = random.Random(seed * 7919 + k)
        deal = circle_deal(rng, names)
        margins = []
        for swap in (False, True):
            seats = {p: (a if (i % 2 == 0) != swap else b) for i, p in enumerate(names)}
            points = play_season(deal, seats, random.Random(rng.getrandbits(32)))
            mine = [points[p] for p in names if seats[p] is a]
            theirs = [points[p] for p in names if seats[p] is b]
            margin = stats.mean(mine) - stats.mean(theirs)
            margins.append(margin)
            wins += margin > 0
            draws += margin == 0
            losses += margin < 0
        pair_margins.append(sum(margins) / 2)
    mean = stats.mean(pair_margins)
    half = stats.interval(pair_margins)[1] - mean
    table = f"{players} players" + (f" + {4 - players} dummies" if players < 4 else "")
    print(
        f"  {name:18} {table:20} {pairs} pairs: {wins} won / {draws} drawn / {losses} lost seasons; "
        f"margin {mean:+.2f} +/- {half:.2f} points per season ({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    return mean, half


def circle_positions(count: int, seed: int) -> list[CircleState]:
    """Positions where a player has a decision (a card or an act), from seasons of
    rule-of-thumb players, 2 and 4 players (half each)."""
    rng = random.Random(seed)
    thumb = CircleSimple(RuleOfThumbPlayer())
    spots: list[CircleState] = []
    for players in (2, 4):
        names = ("ann", "bob", "cy", "dee")[:players]
        wanted = len(spots) + count // 2
        while len(spots) < wanted:
            deal = circle_deal(rng, names)
            state = CircleState(deal.setup, keep_history=False)
            state.push(deal.season, check=False)
            chance = deal.chance.copy()
            stop = rng.randrange(0, 70)
            steps = 0
            while state.phase not in (CirclePhase.SEASON, CirclePhase.OVER):
                phase = state.phase
                me = state.to_move
                if phase is CirclePhase.REVEAL:
                    state.push(reveal(chance), check=False)
                elif phase is CirclePhase.RESHUFFLE:
                    state.push(reshuffle(state, chance), check=False)
                elif me is not None and is_dummy(me):
                    state.push(dummy_move(state), check=False)
                else:
                    assert me is not None
                    if steps >= stop and len(model_of(state.game).decisions(state, me)) > 1:
                        spots.append(state)
                        break
                    state.push(thumb(state, chance, rng), check=False)
                    steps += 1
    return spots


def circle_report(args: argparse.Namespace, pairs: int) -> None:
    print("Circle of Power:", flush=True)
    spots = circle_positions(20 if args.quick else 60, args.seed)
    speed(list(LEVELS) if not args.quick else ["fast", "default"], spots)
    hint_latency(spots, 1 if args.quick else 3)
    if args.speed_only:
        return
    coach = CircleCoachPlayer(args.level, args.samples, args.confidence)
    policies: dict[str, CirclePolicy] = {
        "coach": coach,
        "quick": CircleQuick(),
        "thumb": CircleSimple(RuleOfThumbPlayer()),
        "random": CircleSimple(RandomPlayer()),
    }
    how = f"{args.samples} samples per decision" if args.samples else f"level {args.level}"
    print(f"paired seasons (each season played twice, seats swapped), coach at {how}:")
    chosen = args.pairings.split(",")
    for seating in args.seatings.split(","):
        players = int(seating.strip())
        for name in [p for p in CIRCLE_PAIRINGS if p in chosen]:
            a, b = name.split("-")
            n = pairs if name != "coach-random" else max(1, pairs // 5)
            circle_pairing(f"{a} vs {b}", policies[a], policies[b], players, n, args.seed)
    _coach_in_play(coach.ms, coach.playouts, coach.search_ms, coach.cpu_ms)


def _coach_in_play(ms: list[float], playouts: int, search_ms: float, cpu_ms: list[float] | None = None) -> None:
    if ms:
        ms.sort()
        cpu = ""
        if cpu_ms:
            cpu_ms.sort()
            cpu = f" (CPU time: mean {sum(cpu_ms) / len(cpu_ms):.1f} ms, 95th percentile {_percentile(cpu_ms, 0.95):.1f} ms)"
        print(
            f"coach in play: {len(ms)} decisions, mean {sum(ms) / len(ms):.1f} ms, "
            f"95th percentile {_percentile(ms, 0.95):.1f} ms, max {ms[-1]:.1f} ms{cpu}; "
            f"{playouts / (search_ms / 1000):.0f} playouts per second",
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


def rule_of_power_report(args: argparse.Namespace, pairs: int) -> None:
    print("Rule of Power:", flush=True)
    spots = positions(20 if args.quick else 60, args.seed)
    speed(list(LEVELS) if not args.quick else ["fast", "default"], spots)
    hint_latency(spots, 1 if args.quick else 3)
    if args.speed_only:
        return
    coach = CoachPlayer(args.level, args.samples, args.confidence)
    policies: dict[str, Policy] = {"coach": coach, "greedy": ViewSeat(greedy_move), "random": ViewSeat(random_move)}
    how = f"{args.samples} samples per decision" if args.samples else f"level {args.level}"
    print(f"paired deals (each round played twice, seats swapped), coach at {how}:")
    chosen = args.pairings.split(",")
    for seating in args.seatings.split(","):
        players, teams = (2, 0) if seating.strip() == "2" else (4, 2)
        for name in [p for p in PAIRINGS if p in chosen]:
            a, b = name.split("-")
            n = pairs if name != "coach-random" else max(1, pairs // 5)
            pairing(f"{a} vs {b}", policies[a], policies[b], players, teams, n, args.seed)
    _coach_in_play(coach.ms, coach.playouts, coach.search_ms)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench coach")
    parser.add_argument("--games", default=",".join(GAMES), help=f"which games, of {', '.join(GAMES)} (default all)")
    parser.add_argument("--quick", action="store_true", help="a small run: 40 pairs per pairing")
    parser.add_argument("--pairs", type=int, default=None, help="pairs per pairing (default 500, 40 with --quick)")
    parser.add_argument("--level", choices=list(LEVELS), default="default", help="the coach's level in the pairings")
    parser.add_argument("--samples", type=int, default=None, help="the coach takes exactly this many samples per decision instead of its time budget")
    parser.add_argument("--confidence", type=float, default=1.0, help="standard errors by which the search must beat the simple player's move (0: always the search's best)")
    parser.add_argument("--seatings", default="2,4", help="2 players (Rule of Power: two; Circle of Power: two and two dummies), 4 (Rule of Power: two teams of two; Circle of Power: four), or both")
    parser.add_argument(
        "--pairings",
        default=",".join(dict.fromkeys(PAIRINGS + CIRCLE_PAIRINGS)),
        help=f"which pairings: Rule of Power's {', '.join(PAIRINGS)}; Circle of Power's {', '.join(CIRCLE_PAIRINGS)}",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed-only", action="store_true", help="the speed figures and the hint latency only")
    args = parser.parse_args(argv)
    if args.pairs is not None and args.pairs < 1:
        parser.error(f"--pairs must be at least 1, not {args.pairs}")
    games = [g.strip() for g in args.games.split(",")]
    for g in games:
        if g not in GAMES:
            parser.error(f"unknown game {g!r} in --games; the games are {', '.join(GAMES)}")
    for name in args.pairings.split(","):
        if name not in PAIRINGS and name not in CIRCLE_PAIRINGS:
            parser.error(
                f"unknown pairing {name!r} in --pairings; the pairings are {', '.join(PAIRINGS)} (Rule of Power) "
                f"and {', '.join(CIRCLE_PAIRINGS)} (Circle of Power)"
            )
    for seating in args.seatings.split(","):
        if seating.strip() not in ("2", "4"):
            parser.error(f"unknown seating {seating!r} in --seatings: 2 (two players) or 4 (four players)")
    pairs = args.pairs or (40 if args.quick else 500)
    print(f"one core: {one_core()}", flush=True)
    if "rule-of-power" in games:
        rule_of_power_report(args, pairs)
    if "circle-of-power" in games:
        circle_report(args, pairs)
    if "love-money-power-death" in games and not args.speed_only:
        lmpd_report(args, pairs)
    return 0


def lmpd_report(args: argparse.Namespace, pairs: int) -> None:
    """Love, Money, Power, Death: the coach against each documented rule-of-thumb player and
    random play, at the same seatings (``bench_coach_lmpd``, which runs it alone)."""
    print("Love, Money, Power, Death:", flush=True)
    opponents = [*model_of(LMPD).opponents(), "random"]
    sizes = [int(s.strip()) for s in args.seatings.split(",")]
    # A deal is a whole game, ten rounds: a fifth of the pairs already shows the margin.
    bench_coach_lmpd.report(opponents, sizes, max(1, pairs // 5), level=args.level, samples=args.samples, seed=args.seed)
