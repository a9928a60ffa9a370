"""The search: every legal decision played out on the same sampled worlds.

This is determinized playout search (perfect-information Monte Carlo) with common random
numbers: sample ``k`` gives one world drawn from the player's view and one seed for the
playouts, and every decision is tried in that same world with that same seed. Differences
between decisions are then differences of play, not of luck, so a handful of samples already
ranks them, and their intervals are comparable.

The search is anytime, and its budget is a bound: :meth:`Search.run` plays one playout (one
decision in one sample) at a time and begins none that would likely end past its deadline,
so a run ends within about one playout of its budget whatever the position. A sample left
half played is finished by the next run; only finished samples count, so a search run in
slices gives exactly the figures of one run of as many samples. Refine it while the player
thinks: ``search = Coach().search(game, "ann")``, ``search.run(budget_ms=50)`` as often as there
is time, then ``search.advice()`` for the ranking so far. The budget is thinking time: by
default the CPU time of the thread that searches (:func:`time.thread_time`), so that on a
loaded machine a decision takes longer but is not thought through less; the hint at the table,
which promises its first ranking within its budget, runs on the wall clock instead. The clock
is injectable (``clock=``), so that a test can run the budget without any real clock.

Everything that needs the rules comes from the game's :class:`~companion.coach.model.
CoachModel`, found through the state's game: the search itself works for any game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.coach.model import CoachError, CoachModel, Policy, Risk, Value, World, model_of
from companion.coach.stats import interval, mean, paired_interval
from companion.contract import Move, State

__all__ = [
    "Level",
    "LEVELS",
    "Coach",
    "CoachError",
    "Search",
    "Advice",
    "MoveAdvice",
    "Clock",
    "Playout",
    "group_alike",
    "play_decision",
    "members_of",
    "check_deciding",
]

Clock = Callable[[], float]
"""Seconds, monotonic: the searching thread's CPU time (:func:`time.thread_time`) by default,
the wall clock (:func:`time.perf_counter`) where latency matters."""


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the coach thinks: a time budget per decision, and the fewest samples a
    one-shot answer (:meth:`Coach.advise`) goes on to take when the budget bought fewer, up to
    a ceiling of thinking time, so that a slow machine still gets a usable ranking and a slow
    position (many players, many decisions, long playouts) still an answer in time. The hint
    at the table keeps to the budget instead and refines afterwards."""

    name: str
    budget_ms: float
    """The bound on a run of the search (the first hint is ready within it plus the ranking's
    few milliseconds)."""
    min_samples: int
    """The fewest samples a one-shot answer takes, within :attr:`most_ms`."""
    most_ms: float
    """The ceiling of a one-shot answer's thinking time: the samples beyond the budget up to
    :attr:`min_samples` are taken only while it lasts, each playout begun only when it likely
    ends within it (at least one sample is always finished)."""
    fixed_samples: int
    """The samples a repeatable player of this level takes per decision (seeded games, tests):
    about what the budget buys on one unloaded core."""


LEVELS: dict[str, Level] = {
    "fast": Level("fast", 20.0, 2, 30.0, 3),
    "default": Level("default", 70.0, 4, 90.0, 20),
    "deep": Level("deep", 1000.0, 64, 1500.0, 120),
}


@dataclass(slots=True)
class MoveAdvice:
    """One decision and what the search found about it."""

    key: Hashable
    move: Move
    """A concrete move for the decision (what chance decides in it drawn as in the first
    sample)."""
    text: str
    margin: float
    """Expected margin of the player's side at the end of the scoring period (its points less
    the best other side's)."""
    margin_low: float
    margin_high: float
    win: float
    """Chance to win the game (exact when this period decides it, else the game's model)."""
    win_low: float
    win_high: float
    samples: int
    categories: dict[str, float]
    """Expected points of each kind for the player's side, less the other sides' average."""
    feats: dict[str, float]
    """The share of samples in which the side achieves each of the game's feats."""
    details: dict[str, Any] = field(default_factory=dict, repr=False)
    """The game's own fields of the move, for the JSON (:meth:`CoachModel.move_json`)."""
    reasons: list[str] = field(default_factory=list)
    risks: list[Risk] = field(default_factory=list)
    sample_categories: list[tuple[float, ...]] = field(default_factory=list, repr=False)
    """Per sample, the points of each kind (for comparing two moves on common samples)."""
    sample_wins: list[float] = field(default_factory=list, repr=False)
    """Per sample, the chance to win (for comparing two moves on common samples)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.text,
            **self.details,
            "margin": round(self.margin, 3),
            "margin_interval": [round(self.margin_low, 3), round(self.margin_high, 3)],
            "win": round(self.win, 3),
            "win_interval": [round(self.win_low, 3), round(self.win_high, 3)],
            "samples": self.samples,
            "categories": {k: round(v, 3) for k, v in self.categories.items()},
            **{k: round(v, 3) for k, v in self.feats.items()},
            "reasons": list(self.reasons),
            "risks": [r.to_json() for r in self.risks],
        }


@dataclass(slots=True)
class Advice:
    """The ranked decisions of ``player``, best first."""

    player: str
    moves: list[MoveAdvice]
    samples: int
    playouts: int
    elapsed_ms: float
    level: str
    decision: Callable[[Move], Hashable] = field(repr=False, compare=False)
    """The decision a move makes (the position's :meth:`State.decision`)."""

    @property
    def best(self) -> MoveAdvice:
        return self.moves[0]

    def find(self, move: Move) -> MoveAdvice | None:
        """The advice on the decision ``move`` makes, ``None`` if it is not legal here."""
        key = self.decision(move)
        return next((m for m in self.moves if m.key == key), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "level": self.level,
            "samples": self.samples,
            "playouts": self.playouts,
            "elapsed_ms": round(self.elapsed_ms, 1),
            "moves": [m.to_json() for m in self.moves],
        }


class _Tally:
    """The figures of decisions that play out alike, one entry per finished sample."""

    __slots__ = ("margins", "wins", "cats", "feats", "watch", "members", "dropped")

    def __init__(self, feats: int) -> None:
        self.margins: list[float] = []
        self.wins: list[float] = []
        self.cats: list[tuple[float, ...]] = []
        self.feats = [0] * feats
        self.watch: Any = None
        self.members: list[tuple[Hashable, Move]] = []
        """The alike decisions (:meth:`CoachModel.alike`), the first one played out."""
        self.dropped = False

    def add(self, value: Value, watch: Any) -> None:
        """One sample's playout of these decisions."""
        self.margins.append(value.margin)
        self.wins.append(value.win)
        self.cats.append(value.categories)
        for i, achieved in enumerate(value.feats):
            self.feats[i] += achieved
        if self.watch is None:
            self.watch = watch
        else:
            self.watch.merge(watch)


Group = list[tuple[Hashable, list[Move]]]
"""Decisions that play out alike (:meth:`CoachModel.alike`), each with its moves."""
Groups = dict[Hashable, Group]


def group_alike(model: CoachModel, state: State, player: str) -> Groups:
    """``player``'s decisions at ``state`` in groups that play out alike, in the model's order."""
    groups: Groups = {}
    for key, options in model.decisions(state, player).items():
        groups.setdefault(model.alike(options[0]), []).append((key, options))
    return groups


def _names(players: Sequence[str]) -> str:
    """``ann``, ``ann and cy``, ``ann, bob and cy``."""
    return players[0] if len(players) == 1 else f"{', '.join(players[:-1])} and {players[-1]}"


def check_deciding(state: State, player: str, model: CoachModel) -> None:
    """:class:`CoachError` unless ``player`` is deciding in ``state`` (one of
    :attr:`State.deciding`), saying who is instead, in a player's words."""
    if player not in state.players:
        raise CoachError(f"unknown player {player!r}; the players are {', '.join(state.players)}")
    deciding = state.deciding
    if player in deciding:
        return
    if not deciding:
        raise CoachError(f"no decision to judge: the game waits for {model.waits_for(state)}")
    if state.simultaneous:
        verb = "is" if len(deciding) == 1 else "are"
        raise CoachError(f"{player} has no decision now: {_names(deciding)} {verb} still to commit")
    raise CoachError(f"it is {_names(deciding)}'s turn, not {player}'s")


class Playout(NamedTuple):
    """A decision played in a fork of a sample's world, and watched."""

    world: World
    """The fork, just after the decision and what :meth:`CoachModel.watch` played on."""
    rng: random.Random
    move: Move
    """The move played: the decision, realized in this world."""
    watch: Any


def play_decision(model: CoachModel, world: World, decision: Move, player: str, policy: Policy, seed: int) -> Playout:
    """Play ``decision`` (a move making it) in a fork of ``world``, what chance decides in it
    drawn with ``seed`` (the sample's, the same for every decision), and watch the table after
    it."""
    fork = model.fork(world)
    rng = random.Random(seed)
    move = model.realize(fork.state, decision, fork.chance, rng)
    fork.state.push(move, check=False)
    return Playout(fork, rng, move, model.watch(fork.state, player, fork.chance, rng, policy))


def members_of(played: Move, members: Group) -> list[tuple[Hashable, Move]]:
    """Alike decisions, each with a move making it: the first the move played out, the others
    their first option."""
    return [(key, played if i == 0 else options[0]) for i, (key, options) in enumerate(members)]


@dataclass(slots=True)
class _Sample:
    """A sample under way: its world, and the decisions still to play out in it."""

    world: World
    playout_seed: int
    todo: list[tuple[_Tally, Group]]
    done: list[tuple[_Tally, Value, Any]] = field(default_factory=list)


#: Racing: from this many samples on, a decision whose winning chances are, on the common
#: samples, surely (95 %) below the best's gets no more playouts; its figures so far stay.
RACE_FROM = 8


class Search:
    """An anytime search for ``player``, who is deciding in ``game`` (one of
    :attr:`State.deciding`). Reads nothing but the player's view (through the game model's
    :class:`~companion.coach.model.Worlds`); the playouts' players read only their own views.

    Decisions that play out alike (:meth:`~companion.coach.model.CoachModel.alike`) are
    played out once and share their figures."""

    def __init__(
        self,
        game: State,
        player: str,
        *,
        seed: int = 0,
        level: Level = LEVELS["default"],
        policy: Policy | None = None,
        race: bool = True,
        clock: Clock = time.thread_time,
    ) -> None:
        self.model = model = model_of(game.game)
        check_deciding(game, player, model)
        self.game = game.copy(keep_history=False)
        self.player = player
        self.level = level
        self.seed = seed
        self.policy = policy or model.policy()
        self.race = race
        self.worlds = model.worlds(game, player)  # the game as played: a model may read its history
        self.tallies: dict[Hashable, _Tally] = {}
        self.clock = clock
        self.samples = 0
        """Samples finished: every live decision played out in each."""
        self.playouts = 0
        self.elapsed_ms = 0.0
        self._pending: _Sample | None = None
        self._cost: list[float] = []

    def run(self, budget_ms: float | None = None, *, samples: int | None = None, until: int | None = None) -> Search:
        """Play on until ``budget_ms`` is spent (the level's budget by default): at least one
        playout, and none begun that would likely end past the deadline; with ``until``, stop
        as well once that many samples are finished. Or, when ``samples`` is given, until
        exactly that many more samples are finished (repeatable whatever the machine's speed,
        for tests and seeded players)."""
        start = self.clock()
        if samples is not None:
            target = self.samples + samples
            while self.samples < target:
                self._step()
        else:
            self._run_until(start + (self.level.budget_ms if budget_ms is None else budget_ms) / 1000.0, start, until)
        self.elapsed_ms += (self.clock() - start) * 1000.0
        return self

    def _run_until(self, deadline: float, now: float, until: int | None = None) -> None:
        """Playouts until the next would likely end past ``deadline`` (at least one), or
        ``until`` samples are finished."""
        clock = self.clock
        while True:
            self._step()
            before, now = now, clock()
            self._cost.append(now - before)
            if self._live() <= 1 and self.samples and self._pending is None:
                break  # one decision left in the race needs no more playouts
            if until is not None and self.samples >= until:
                break
            if now + self.next_playout_seconds > deadline:
                break

    @property
    def next_playout_seconds(self) -> float:
        """What the next playout will likely cost, in seconds: the slowest of the last few (a
        playout from early in a period costs more than one near its end, and a loaded machine
        varies); nothing before the first."""
        return max(self._cost[-8:], default=0.0)

    def _live(self) -> int:
        return sum(1 for t in self.tallies.values() if not t.dropped)

    def _step(self) -> None:
        """One playout: of the next decision of the sample under way (a new sample begun when
        none is); the sample's results are kept once its last decision is played out."""
        pending = self._pending
        if pending is None:
            pending = self._pending = self._begin_sample()
        self._play(pending)
        if not pending.todo:
            self._pending = None
            self._finish_sample(pending)

    def _begin_sample(self) -> _Sample:
        k = self.samples
        rng = random.Random(self.seed * 1_000_003 + k)
        world = self.worlds.sample(rng)
        playout_seed = rng.getrandbits(64)
        todo = []
        for cls, members in group_alike(self.model, world.state, self.player).items():
            tally = self.tallies.get(cls)
            if tally is None:
                if k:
                    continue  # a decision the first sample did not have (cannot happen for own cards)
                tally = self.tallies[cls] = _Tally(len(self.model.feats))
            if not tally.dropped:
                todo.append((tally, members))
        todo.reverse()  # played from the end of the list
        return _Sample(world, playout_seed, todo)

    def _play(self, sample: _Sample) -> None:
        tally, members = sample.todo.pop()
        model = self.model
        played = play_decision(model, sample.world, members[0][1][0], self.player, self.policy, sample.playout_seed)
        if not tally.members:
            tally.members = members_of(played.move, members)
        state = played.world.state
        model.play_out(state, played.world.chance, played.rng, self.policy)
        sample.done.append((tally, model.value(state, self.player), played.watch))
        self.playouts += 1

    def _finish_sample(self, sample: _Sample) -> None:
        for tally, value, watch in sample.done:
            tally.add(value, watch)
        self.samples += 1
        if self.race and self.samples >= RACE_FROM:
            self._race()

    def _race(self) -> None:
        live = [t for t in self.tallies.values() if not t.dropped]
        if len(live) <= 1:
            return
        best = max(live, key=lambda t: mean(t.wins))
        for t in live:
            if t is not best:
                _, _, high = paired_interval(t.wins, best.wins)
                if high < 0.0:
                    t.dropped = True

    def advice(self) -> Advice:
        """The decisions ranked by winning chances, then by margin, with reasons (from the
        finished samples; the first is finished now if none is yet)."""
        if not self.samples:
            self.run(samples=1)
        groups = [t for t in self.tallies.values() if t.members]
        risks = self.model.risks(self.worlds, groups)
        items = [item for t in groups for item in self._move_advice(t, risks)]
        items.sort(key=lambda m: (-m.win, -m.margin, repr(m.key)))
        self._explain(items)
        return Advice(self.player, items, self.samples, self.playouts, self.elapsed_ms, self.level.name, self.game.decision)

    def _move_advice(self, t: _Tally, risks: Mapping[Hashable, Sequence[Risk]]) -> list[MoveAdvice]:
        """The advice on each decision of a group, all with the group's figures."""
        model = self.model
        n = len(t.margins)
        lo, hi = interval(t.margins)
        wlo, whi = interval(t.wins)
        cats = {c.name: mean([x[i] for x in t.cats]) for i, c in enumerate(model.categories)}
        feats = {name: t.feats[i] / n if n else 0.0 for i, name in enumerate(model.feats)}
        return [
            MoveAdvice(
                key=key,
                move=move,
                text=model.describe(move),
                margin=mean(t.margins),
                margin_low=lo,
                margin_high=hi,
                win=mean(t.wins),
                win_low=max(0.0, wlo),
                win_high=min(1.0, whi),
                samples=n,
                categories=cats,
                feats=feats,
                details=model.move_json(move),
                risks=list(risks.get(key, ())),
                sample_categories=t.cats,
                sample_wins=t.wins,
            )
            for key, move in t.members
        ]

    def _explain(self, items: list[MoveAdvice]) -> None:
        """Each move's reasons: what it gains or gives up, then its risks."""
        for item in items:
            # Compared with the best move, or for the best with the next one that plays out
            # differently (alike moves have nothing to tell apart).
            other = next((m for m in items if m.sample_categories != item.sample_categories), None)
            if other is not None:
                item.reasons = self.model.reasons(item, other)
            item.reasons.extend(r.text for r in item.risks)


class Coach:
    """The coach at a level (``"fast"``, ``"default"``, ``"deep"``)."""

    def __init__(self, level: str = "default", *, seed: int = 0, confidence: float = 1.0, clock: Clock = time.thread_time) -> None:
        if level not in LEVELS:
            raise CoachError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self.seed = seed
        self.confidence = confidence
        self.clock = clock

    def search(self, game: State, player: str, *, seed: int | None = None) -> Search:
        """A search to run and refine (:meth:`Search.run`, :meth:`Search.advice`)."""
        return Search(game, player, seed=self.seed if seed is None else seed, level=self.level, clock=self.clock)

    def advise(self, game: State, player: str, *, budget_ms: float | None = None, samples: int | None = None, seed: int | None = None) -> Advice:
        """The ranked decisions of ``player`` (who is deciding), within ``budget_ms`` (the
        level's budget by default), then up to the level's fewest samples while its ceiling of
        thinking time lasts (:attr:`Level.most_ms`); or after exactly ``samples`` samples."""
        search = self.search(game, player, seed=seed).run(budget_ms, samples=samples)
        level = self.level
        if samples is None and search.samples < level.min_samples:
            left = level.most_ms - search.elapsed_ms
            # Only a playout that likely ends within the ceiling is begun: one begun whatever
            # was left ended past it by up to a playout (some 15 ms at a table of four with the
            # Higher Powers, where decisions then took up to 112 ms).
            if left > search.next_playout_seconds * 1000.0:
                search.run(left, until=level.min_samples)
        return search.advice()

    def decide(self, game: State, player: str, rng: random.Random, *, repeatable: bool = False) -> Move:
        """``player``'s decision as a player in a real game (one of the model's
        :meth:`~companion.coach.model.CoachModel.decisions` options, what chance decides in it
        still to be realized); ``player`` must be deciding. ``repeatable``: take the level's
        fixed number of samples instead of its time budget, so that a seeded game is played
        the same on any machine."""
        model = model_of(game.game)
        check_deciding(game, player, model)
        options = model.decisions(game, player)
        if len(options) == 1:
            return next(iter(options.values()))[0]
        samples = self.level.fixed_samples if repeatable else None
        advice = self.advise(game, player, samples=samples, seed=rng.getrandbits(32))
        return options[self.pick(advice, game).key][0]

    def choose(self, game: State, player: str, chance: Any, rng: random.Random, *, repeatable: bool = False) -> Move:
        """Play ``player``'s best decision in a real game (for virtual players and the
        benchmark): :meth:`decide`, realized with the table's ``chance`` (Rule of Power: its
        World deck, top last)."""
        return model_of(game.game).realize(game, self.decide(game, player, rng, repeatable=repeatable), chance, rng)

    def pick(self, advice: Advice, game: State) -> MoveAdvice:
        """The decision to play: the simple player's (the playouts' own, without its
        randomness, from the player's view) unless the search finds another clearly better on
        the common samples (by :attr:`confidence` standard errors). A few noisy samples then
        cannot talk the coach out of a sound move."""
        best = advice.best
        default = advice.find(model_of(game.game).plain_move(game.view(advice.player)))
        if default is None or default is best or best.sample_wins is default.sample_wins:
            return best
        n = min(len(best.sample_wins), len(default.sample_wins))
        d, lo, _ = paired_interval(best.sample_wins[:n], default.sample_wins[:n])
        se = (d - lo) / 1.96
        return best if d - self.confidence * se > 0 else default
