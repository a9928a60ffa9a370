"""The coach's strength and speed, for every registered game that has a coach, on one core (the
process is pinned to one).

Strength: for every table the game's model names (its optional ``tables()``; otherwise 2 and 4
players, or the fewest the game seats, in each of its variants), the coach plays against each
rule-of-thumb player of the model's ``opponents()`` and against a random player. Paired deals:
a deal is one scoring period (a round, a season) drawn from a seed, or a whole game for a game
scored only at its end (the model's optional ``play_game``: Ruse and Bruise), the same seeds for
every pairing; it is played twice, the coach's and the opponent's seats swapped, so that the
luck of the cards cancels out; the report names the unit. The coach sits in the even seats
and the opponent in the odd ones (in teams, the members of one team), then the other way round.
Each pairing reports the deals won, drawn and lost, the coach's mean margin per deal (its
players' points less the opponent's, per player; the model's optional ``points(state)`` says
what a period's points are, by default the change of the game's totals) with its 95 % interval
over the pairs, and
the CPU time of the coach's decisions (mean, 95th percentile, most). A game's headline is its
weakest pairing. The playouts of a deal are the model's own (``worlds``, ``fork``,
``play_out``): every seat decides from its own view, the coach searches from its own.

Speed: milliseconds per decision of each coach level on positions of random games, playouts
per CPU second, and the hint's latency at the table (the time to the first ranking of the
default level).

    ./run bench coach                       every game with a coach, every table, 100 pairs each
    ./run bench coach -- --quick            10 pairs per pairing, the default and fast levels' speed
    ./run bench coach -- --games circle-of-power --tables "2 players" --pairs 200
    ./run bench coach -- --opponents greedy,random
    ./run bench coach -- --samples 12       the coach at a fixed number of samples per decision
    ./run bench coach -- --speed-only       the speed figures and the hint latency alone
    ./run bench coach -- --list             the games, their tables and opponents
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.coach import LEVELS, Coach, CoachError
from companion.coach import stats
from companion.coach.model import CoachModel, Policy, model_of
from companion.contract import Game, State
from companion.contract.registry import game as game_named
from companion.contract.registry import games as all_games

Opening = Callable[[random.Random], Any]
"""A maker of the opening of a scoring period from a seed: a state where someone decides."""

RANDOM = "random"
QUICK = "quick"
"""The coach's quick player of the playouts without its randomness and without search (the
model's ``plain_move``): asked for by name, it shows what the search adds."""


def coached() -> list[Game[Any, Any]]:
    """Every registered game that has a coach, in the registry's order."""
    return [g for g in all_games() if g.coach() is not None]


def _default_tables(game: Game[Any, Any]) -> dict[str, Opening]:
    """2 and 4 players (those the game seats; else its fewest), in each choice of a ``variant``
    option, every other option at its default; a period's opening is dealt by the table's
    chance moves (:meth:`Game.chance_move`)."""
    counts = [n for n in (2, 4) if game.min_players <= n <= game.max_players] or [game.min_players]
    variant = next((o for o in game.options if o.name == "variant" and o.kind == "choice"), None)
    choices: list[dict[str, Any]] = [{"variant": v} for v in variant.choices] if variant else [{}]
    tables: dict[str, Opening] = {}
    for options in choices:
        for n in counts:
            setup = game.make_setup(game.default_players(n), **options)
            name = f"{n} players" + (f", {options['variant']}" if options and options["variant"] != variant.default else "")  # type: ignore[union-attr]

            def make(rng: random.Random, setup: Any = setup) -> Any:
                state = game.new_state(setup, keep_history=False)
                while not state.deciding and not state.is_game_over():
                    state.push(game.chance_move(state, rng))
                return state

            tables[name] = make
    return tables


def tables_of(game: Game[Any, Any]) -> dict[str, Opening]:
    """The tables the coach of ``game`` is measured at: its model's, or the default ones."""
    model = model_of(game)
    own = getattr(model, "tables", None)
    return dict(own()) if callable(own) else _default_tables(game)


def side_of(state: Any, player: str, keys: Sequence[str]) -> str:
    """The key of ``player``'s side among ``keys`` (a game's totals): their own name, their
    team's (``setup.side_of``), or the key naming them."""
    if player in keys:
        return player
    side = getattr(state.setup, "side_of", None)
    if callable(side) and side(player) in keys:
        return str(side(player))
    return next(k for k in keys if player in k.split("+"))


def period_points(model: CoachModel, state: Any, before: Mapping[str, int]) -> dict[str, float]:
    """Each player's points of the period just ended: the model's ``points(state)`` when it has
    one, else the change of the game's totals (a team's for each of its members)."""
    own = getattr(model, "points", None)
    if callable(own):
        points = own(state)
        return {p: float(points[side_of(state, p, list(points))]) for p in state.players}
    after = state.totals
    keys = list(after)
    return {p: float(after[k] - before.get(k, 0)) for p in state.players for k in [side_of(state, p, keys)]}


# -------------------------------------------------------------------- the seats


class Seat:
    """A seat at the bench's table: the decision of ``player`` (deciding in ``state``, the
    table's complete world) from their view, as a playout's player decides."""

    name: str

    def __call__(self, state: Any, view: Any, rng: random.Random) -> Any:
        raise NotImplementedError


@dataclass
class PolicySeat(Seat):
    """A rule-of-thumb player: its decision from the player's view alone."""

    name: str
    policy: Policy

    def __call__(self, state: Any, view: Any, rng: random.Random) -> Any:
        return self.policy(view, rng)


@dataclass
class RandomSeat(Seat):
    """Any of the player's decisions, uniformly (the model's, in its order)."""

    name: str = RANDOM

    def __call__(self, state: Any, view: Any, rng: random.Random) -> Any:
        options = list(model_of(state.game).decisions(state, view.player).values())
        return options[rng.randrange(len(options))][0]


@dataclass
class QuickSeat(Seat):
    """The quick player of the playouts without randomness (the model's ``plain_move``)."""

    name: str = QUICK

    def __call__(self, state: Any, view: Any, rng: random.Random) -> Any:
        return model_of(state.game).plain_move(view)


@dataclass
class CoachSeat(Seat):
    """The coach as a player (:meth:`Coach.decide`), keeping the CPU time of each decision it
    searched (a decision with one option is not searched)."""

    level: str
    samples: int | None = None
    confidence: float = 1.0
    name: str = "coach"
    cpu_ms: list[float] = field(default_factory=list)
    playouts: int = 0
    samples_taken: list[int] = field(default_factory=list)

    def __call__(self, state: Any, view: Any, rng: random.Random) -> Any:
        player = view.player
        model = model_of(state.game)
        options = model.decisions(state, player)
        if len(options) == 1:
            return next(iter(options.values()))[0]
        start = time.thread_time()
        coach = Coach(self.level, confidence=self.confidence)
        advice = coach.advise(state, player, samples=self.samples, seed=rng.getrandbits(32))
        choice = options[coach.pick(advice, state).key][0]
        self.cpu_ms.append((time.thread_time() - start) * 1000.0)
        self.playouts += advice.playouts
        self.samples_taken.append(advice.samples)
        return choice


# -------------------------------------------------------------------- paired deals


@dataclass
class Result:
    """One pairing's figures."""

    game: str
    table: str
    opponent: str
    unit: str
    """What a deal is: a scoring period (``round``, ``season``) or a ``game``."""
    pairs: int
    won: int
    drawn: int
    lost: int
    margin: float
    half: float
    """Half the width of the 95 % interval of the margin."""
    cpu_ms: list[float]
    seconds: float

    @property
    def low(self) -> float:
        return self.margin - self.half

    def line(self) -> str:
        cpu = _cpu_words(self.cpu_ms)
        return (
            f"  {self.table:34} coach vs {self.opponent:13} {self.pairs} pairs: {self.won} won / {self.drawn} drawn / {self.lost} lost; "
            f"margin {self.margin:+.2f} +/- {self.half:.2f} ({self.low:+.2f} to {self.margin + self.half:+.2f}) a {self.unit}{cpu} "
            f"[{self.seconds:.0f} s]"
        )


def _cpu_words(cpu_ms: Sequence[float]) -> str:
    if not cpu_ms:
        return ""
    ms = sorted(cpu_ms)
    return f"; coach CPU {sum(ms) / len(ms):.0f} ms a decision (95th percentile {_percentile(ms, 0.95):.0f}, most {ms[-1]:.0f})"


def _percentile(sorted_ms: Sequence[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def unit_of(model: CoachModel) -> str:
    """What a deal of ``model``'s game is: a ``game`` when the model plays whole games (its
    optional ``play_game``), else its scoring period."""
    return "game" if callable(getattr(model, "play_game", None)) else model.period


def play_period(model: CoachModel, world: Any, seats: Mapping[str, Seat], rng: random.Random) -> dict[str, float]:
    """Play a fork of ``world`` (a complete world at a period's opening) to the end of the
    period, or of the game when the model plays whole games (``play_game``), each player by
    their seat from their own view (automatic seats by the rules, the table from the world's
    chance); each player's points of the period (of the game)."""
    fork = model.fork(world)
    state = fork.state.copy(keep_history=True)  # the table keeps its record, which a coach may read
    before = dict(state.totals)

    def seat_policy(view: Any, rng: random.Random) -> Any:
        return seats[view.player](state, view, rng)

    whole = getattr(model, "play_game", None)
    if callable(whole):
        whole(state, fork.chance, rng, seat_policy)
    else:
        model.play_out(state, fork.chance, rng, seat_policy)
    return period_points(model, state, before)


def deal(opening: Opening, model: CoachModel, seed: int, k: int) -> tuple[Any, random.Random]:
    """Deal ``k`` of a run seeded ``seed``: a complete world at the period's opening (every
    hidden card and the order of what chance still decides drawn at random), and the
    generator of the players' own randomness. The same for every pairing."""
    rng = stats.deal_rng(seed, k)
    state = opening(rng)
    world = model.worlds(state, state.players[0]).sample(rng)
    return world, rng


def pairing(game: Game[Any, Any], table: str, opening: Opening, coach: Seat, other: Seat, pairs: int, seed: int) -> Result:
    """``pairs`` deals, each played twice: ``coach`` in the even seats and ``other`` in the odd
    ones, then swapped. A deal's margin is the points of the coach's players less the other's,
    per player."""
    model = model_of(game)
    wins = draws = losses = 0
    pair_margins: list[float] = []
    start = time.process_time()
    before_cpu = len(getattr(coach, "cpu_ms", []))
    for k in range(pairs):
        world, rng = deal(opening, model, seed, k)
        names = world.state.players
        play_seed = rng.getrandbits(32)
        margins = []
        for swap in (False, True):
            seats = {p: (coach if (i % 2 == 0) != swap else other) for i, p in enumerate(names)}
            points = play_period(model, world, seats, random.Random(play_seed))
            mine = [points[p] for p in names if seats[p] is coach]
            theirs = [points[p] for p in names if seats[p] is other]
            margin = stats.mean(mine) - stats.mean(theirs)
            margins.append(margin)
            wins += margin > 0
            draws += margin == 0
            losses += margin < 0
        pair_margins.append(sum(margins) / 2)
    mean = stats.mean(pair_margins)
    half = stats.interval(pair_margins)[1] - mean
    cpu = list(getattr(coach, "cpu_ms", [])[before_cpu:])
    return Result(game.name, table, other.name, unit_of(model), pairs, wins, draws, losses, mean, half, cpu, time.process_time() - start)


# -------------------------------------------------------------------- speed


def positions(game: Game[Any, Any], count: int, seed: int) -> list[tuple[Any, str]]:
    """``count`` positions of random games of ``game`` (its tables' openings played on at
    random), each with a player deciding who has a choice the coach can judge."""
    model = model_of(game)
    rng = random.Random(seed)
    openings = list(tables_of(game).values())
    found: list[tuple[Any, str]] = []
    tries = 0
    while len(found) < count and tries < count * 20:
        tries += 1
        state = openings[len(found) % len(openings)](rng)
        stop = rng.randrange(0, 40)
        for _ in range(400):
            if state.is_game_over() or (found and len(found) >= count):
                break
            deciding = state.deciding
            if not deciding:
                state.push(game.chance_move(state, rng))
                continue
            choosers = [p for p in deciding if _judged(model, state, p)]
            if stop <= 0 and choosers:
                found.append((state, rng.choice(choosers)))
                break
            stop -= 1
            player = rng.choice(deciding)
            state.push(rng.choice(list(state.moves_of(player))))
    return found


def _judged(model: CoachModel, state: Any, player: str) -> bool:
    try:
        model.worlds(state, player)
    except CoachError:
        return False
    return len(model.decisions(state, player)) > 1


def speed(levels: Sequence[str], spots: Sequence[tuple[Any, str]]) -> None:
    """Decisions timed on ``spots``: a one-shot answer (``rop hint``) per level, in CPU time."""
    print("  speed per decision (one core, CPU time):")
    for level in levels:
        ms, playouts = [], 0
        for k, (state, player) in enumerate(spots):
            start = time.thread_time()
            advice = Coach(level).advise(state, player, seed=k)
            ms.append((time.thread_time() - start) * 1000)
            playouts += advice.playouts
        ms.sort()
        total = sum(ms) / 1000
        print(
            f"    {level:8} budget {LEVELS[level].budget_ms:5.0f} ms: mean {sum(ms) / len(ms):6.1f} ms, "
            f"95th percentile {_percentile(ms, 0.95):6.1f} ms, most {ms[-1]:6.1f} ms per decision; "
            f"{playouts / total:.0f} playouts per CPU second ({len(ms)} positions)",
            flush=True,
        )


def hint_latency(spots: Sequence[tuple[Any, str]], repeats: int = 3) -> None:
    """The hint at the table (F7): the time from the key to the first ranking, the way the hint
    screen gets it (a search run within the default level's budget on the wall clock, then its
    ranking), each position ``repeats`` times."""
    first_ms = LEVELS["default"].budget_ms
    ms: list[float] = []
    samples: list[int] = []
    for r in range(repeats):
        for k, (state, player) in enumerate(spots):
            start = time.perf_counter()
            search = Coach("default", seed=r * 1000 + k, clock=time.perf_counter).search(state, player)
            advice = search.run(budget_ms=first_ms).advice()
            ms.append((time.perf_counter() - start) * 1000)
            samples.append(advice.samples)
    ms.sort()
    samples.sort()
    under = sum(1 for x in ms if x < 100.0) / len(ms)
    print(
        f"  hint latency (first ranking, default level, budget {first_ms:.0f} ms): median {_percentile(ms, 0.5):.1f} ms, "
        f"95th percentile {_percentile(ms, 0.95):.1f} ms, most {ms[-1]:.1f} ms; {under:.0%} under 100 ms; "
        f"median {_percentile(samples, 0.5):.0f} sampled deals in it ({len(ms)} hints)",
        flush=True,
    )


# -------------------------------------------------------------------- the report


def report(game: Game[Any, Any], args: argparse.Namespace) -> list[Result]:
    """Every pairing of ``game``'s coach, then its headline: the weakest pairing."""
    model = model_of(game)
    print(f"{game.title}:", flush=True)
    if not args.strength_only:
        spots = positions(game, 10 if args.quick else 40, args.seed)
        speed(["fast", "default"] if args.quick else list(LEVELS), spots)
        hint_latency(spots, 1 if args.quick else 3)
    if args.speed_only:
        return []
    tables = tables_of(game)
    chosen_tables = _chosen(args.tables, list(tables), "table", game)
    others: dict[str, Seat] = {name: PolicySeat(name, policy) for name, policy in model.opponents().items()}
    others[RANDOM] = RandomSeat()
    others[QUICK] = QuickSeat()
    wanted = _chosen(args.opponents, [n for n in others if n != QUICK], "opponent", game, also=[QUICK])
    coach = CoachSeat(args.level, args.samples, args.confidence)
    how = f"{args.samples} samples per decision" if args.samples else f"level {args.level}"
    unit = unit_of(model)
    what = "a whole game, scored at its end" if unit == "game" else f"one {unit}"
    print(f"  paired deals (each {what}, played twice, seats swapped; the margin is per {unit} and player), the coach at {how}:", flush=True)
    results = []
    for table in chosen_tables:
        for name in wanted:
            result = pairing(game, table, tables[table], coach, others[name], args.pairs, args.seed)
            print(result.line(), flush=True)
            results.append(result)
    if results:
        weakest = min(results, key=lambda r: r.margin)
        print(f"  {game.title}'s headline, the weakest pairing:{weakest.line()[1:]}", flush=True)
        print(f"  the coach in play: {_cpu_words(coach.cpu_ms)[2:]} over {len(coach.cpu_ms)} decisions", flush=True)
    return results


def _chosen(given: str | None, known: list[str], what: str, game: Game[Any, Any], also: Sequence[str] = ()) -> list[str]:
    """The names in ``given``, comma-separated; a name may itself hold commas ("2 players, Fate
    decks"): at each place the longest run of pieces that makes a known name is taken."""
    if not given:
        return known
    pieces = [n.strip() for n in given.split(",") if n.strip()]
    names, start, valid = [], 0, {*known, *also}
    while start < len(pieces):
        end = next((e for e in range(len(pieces), start, -1) if ", ".join(pieces[start:e]) in valid), None)
        if end is None:
            raise SystemExit(f"bench coach: {game.title} has no {what} {pieces[start]!r}; its {what}s are {'; '.join(known)}")
        names.append(", ".join(pieces[start:end]))
        start = end
    return names


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
    parser.add_argument("--games", default=None, help="which games (default: every game with a coach)")
    parser.add_argument("--tables", default=None, help="which tables, by name, comma-separated (default: all of each game's)")
    parser.add_argument("--opponents", default=None, help=f"which opponents (default: each of the model's and {RANDOM}; {QUICK} too on request)")
    parser.add_argument("--quick", action="store_true", help="a small run: 10 pairs per pairing")
    parser.add_argument("--pairs", type=int, default=None, help="pairs per pairing (default 100, 10 with --quick)")
    parser.add_argument("--level", choices=list(LEVELS), default="default", help="the coach's level in the pairings")
    parser.add_argument("--samples", type=int, default=None, help="the coach takes exactly this many samples per decision instead of its time budget")
    parser.add_argument("--confidence", type=float, default=1.0, help="standard errors by which the search must beat the quick player's move (0: always the search's best)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed-only", action="store_true", help="the speed figures and the hint latency only")
    parser.add_argument("--strength-only", action="store_true", help="the pairings only")
    parser.add_argument("--list", action="store_true", help="list the games with a coach, their tables and opponents")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    args = parser.parse_args(argv)
    if args.pairs is not None and args.pairs < 1:
        parser.error(f"--pairs must be at least 1, not {args.pairs}")
    args.pairs = args.pairs or (10 if args.quick else 100)
    known = coached()
    if args.games:
        chosen = []
        for name in (n.strip() for n in args.games.split(",")):
            try:
                g = game_named(name)
            except Exception:
                parser.error(f"unknown game {name!r} in --games; the games with a coach are {', '.join(g.name for g in known)}")
            if g.coach() is None:
                parser.error(f"{g.title} has no coach yet; the games with a coach are {', '.join(g.name for g in known)}")
            chosen.append(g)
    else:
        chosen = known
    if args.list:
        for g in chosen:
            model = model_of(g)
            print(f"{g.name}: tables {'; '.join(tables_of(g))}; opponents {', '.join([*model.opponents(), RANDOM])}")
        return 0
    print(f"one core: {'not pinned (--no-pin)' if args.no_pin else one_core()}", flush=True)
    for g in chosen:
        report(g, args)
    return 0
