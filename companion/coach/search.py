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
is time, then ``search.advice()`` for the ranking so far. The clock is injectable
(``clock=``), so that a test can run the budget without the wall clock.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from companion.games.rule_of_power.coach.outcome import CATEGORIES, RoundValue, round_value
from companion.games.rule_of_power.coach.policies import (
    RolloutPolicy,
    decision_key,
    decisions,
    describe,
    equivalence_key,
    interchange,
    play_out,
    realize,
)
from companion.games.rule_of_power.coach.reasons import Risk, ThreatCounter, category_reasons, follow_until_turn, risk_reasons
from companion.games.rule_of_power.engine.sampling import Sampler, SamplingError, World, embody
from companion.coach.stats import interval, mean, paired_interval
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Move

__all__ = ["Level", "LEVELS", "Coach", "CoachError", "Search", "Advice", "MoveAdvice", "Clock"]

Clock = Callable[[], float]
"""Seconds, monotonic: :func:`time.perf_counter` by default."""


class CoachError(ValueError):
    """The coach cannot advise here: not this player's turn, or a view that does not add up."""


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the coach thinks: a time budget per decision, and the fewest samples a
    one-shot answer (:meth:`Coach.advise`) takes whatever the clock says, so that a slow
    machine still gets a usable ranking. The hint at the table keeps to the budget instead
    and refines afterwards."""

    name: str
    budget_ms: float
    """The bound on a run of the search (the first hint is ready within it plus the ranking's
    few milliseconds)."""
    min_samples: int
    fixed_samples: int
    """The samples a repeatable player of this level takes per decision (seeded games, tests):
    about what the budget buys on one unloaded core."""


LEVELS: dict[str, Level] = {
    "fast": Level("fast", 20.0, 2, 3),
    "default": Level("default", 70.0, 4, 20),
    "deep": Level("deep", 1000.0, 64, 120),
}


@dataclass(slots=True)
class MoveAdvice:
    """One decision and what the search found about it."""

    key: Hashable
    move: Move
    """A concrete move for the decision (chance settled as in the first sample)."""
    text: str
    margin: float
    """Expected round-point margin of the player's side (its points less the best other side's)."""
    margin_low: float
    margin_high: float
    win: float
    """Chance to win the game (exact when this round decides it, else the model of
    :mod:`~companion.games.rule_of_power.coach.outcome`)."""
    win_low: float
    win_high: float
    samples: int
    categories: dict[str, float]
    """Expected points of each kind for the player's side, less the other sides' average."""
    rule_of_power: float
    reasons: list[str] = field(default_factory=list)
    risks: list[Risk] = field(default_factory=list)
    sample_categories: list[tuple[float, ...]] = field(default_factory=list, repr=False)
    """Per sample, the points of each kind (for comparing two moves on common samples)."""
    sample_wins: list[float] = field(default_factory=list, repr=False)
    """Per sample, the chance to win (for comparing two moves on common samples)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.text,
            "card": self.move.card.id if hasattr(self.move, "card") else None,
            "capture": [c.id for c in getattr(self.move, "capture", ())],
            "target": getattr(self.move, "target", None),
            "kind": type(self.move).__name__.lower(),
            "margin": round(self.margin, 3),
            "margin_interval": [round(self.margin_low, 3), round(self.margin_high, 3)],
            "win": round(self.win, 3),
            "win_interval": [round(self.win_low, 3), round(self.win_high, 3)],
            "samples": self.samples,
            "categories": {k: round(v, 3) for k, v in self.categories.items()},
            "rule_of_power": round(self.rule_of_power, 3),
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

    @property
    def best(self) -> MoveAdvice:
        return self.moves[0]

    def find(self, move: Move) -> MoveAdvice | None:
        """The advice on the decision ``move`` makes, ``None`` if it is not legal here."""
        key = decision_key(move)
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
    __slots__ = ("margins", "wins", "cats", "rop", "threats", "members", "centre", "dropped")

    def __init__(self) -> None:
        self.margins: list[float] = []
        self.wins: list[float] = []
        self.cats: list[tuple[float, ...]] = []
        self.rop = 0
        self.threats = ThreatCounter()
        self.members: list[tuple[Hashable, Move]] = []
        """The equivalent decisions (:func:`equivalence_key`), the first one played out."""
        self.centre: tuple[Card, ...] = ()
        self.dropped = False


@dataclass(slots=True)
class _Sample:
    """A sample under way: its world, and the decisions still to play out in it."""

    world: World
    base: GameState
    playout_seed: int
    todo: list[tuple[_Tally, list[tuple[Hashable, list[Move]]]]]
    done: list[tuple[_Tally, RoundValue, ThreatCounter]] = field(default_factory=list)


#: Racing: from this many samples on, a decision whose winning chances are, on the common
#: samples, surely (95 %) below the best's gets no more playouts; its figures so far stay.
RACE_FROM = 8


class Search:
    """An anytime search for ``player``, who is to move in ``game``. Reads nothing but the
    player's view (through :class:`~companion.games.rule_of_power.engine.sampling.Sampler`).

    Decisions that differ only by interchangeable cards (two plain 8s, R1) are played out
    once and share their figures."""

    def __init__(
        self,
        game: GameState,
        player: str,
        *,
        seed: int = 0,
        level: Level = LEVELS["default"],
        policy: RolloutPolicy | None = None,
        race: bool = True,
        clock: Clock = time.perf_counter,
    ) -> None:
        if player not in game.players:
            raise CoachError(f"unknown player {player!r}; the players are {', '.join(game.players)}")
        if game.phase is not Phase.TURN:
            raise CoachError(f"no decision to judge: the game waits for {game.phase.value}")
        if game.turn != player:
            raise CoachError(f"it is {game.turn}'s turn, not {player}'s")
        self.game = game.copy(keep_history=False)
        self.player = player
        self.side = game.setup.side_of(player)
        self.level = level
        self.seed = seed
        self.policy = policy or RolloutPolicy()
        self.race = race
        try:
            self.sampler = Sampler(self.game, player)
        except SamplingError as exc:
            raise CoachError(str(exc)) from None
        self.unseen = tuple(self.sampler.unseen)
        self.tallies: dict[Hashable, _Tally] = {}
        self.clock = clock
        self.samples = 0
        """Samples finished: every live decision played out in each."""
        self.playouts = 0
        self.elapsed_ms = 0.0
        self._pending: _Sample | None = None
        self._cost: list[float] = []

    def run(self, budget_ms: float | None = None, *, samples: int | None = None) -> Search:
        """Play on until ``budget_ms`` is spent (the level's budget by default): at least one
        playout, and none begun that would likely end past the deadline. Or, when
        ``samples`` is given, until exactly that many more samples are finished (repeatable
        whatever the machine's speed, for tests and seeded players)."""
        clock = self.clock
        start = clock()
        if samples is not None:
            target = self.samples + samples
            while self.samples < target:
                self._step()
        else:
            budget = self.level.budget_ms if budget_ms is None else budget_ms
            deadline = start + budget / 1000.0
            now = start
            while True:
                self._step()
                before, now = now, clock()
                self._cost.append(now - before)
                if self._live() <= 1 and self.samples and self._pending is None:
                    break  # one decision left in the race needs no more playouts
                if now + self._expected_cost() > deadline:
                    break
        self.elapsed_ms += (clock() - start) * 1000.0
        return self

    def _expected_cost(self) -> float:
        """What the next playout will likely cost: the slowest of the last few (a playout
        from early in a round costs more than one near its end, and a loaded machine varies)."""
        return max(self._cost[-8:])

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
        world = self.sampler.sample(rng)
        base = embody(self.game, world)
        playout_seed = rng.getrandbits(64)
        groups: dict[Hashable, list[tuple[Hashable, list[Move]]]] = {}
        for key, options in decisions(base).items():
            groups.setdefault(equivalence_key(options[0]), []).append((key, options))
        todo = []
        for cls, members in groups.items():
            tally = self.tallies.get(cls)
            if tally is None:
                if k:
                    continue  # a decision the first sample did not have (cannot happen for own cards)
                tally = self.tallies[cls] = _Tally()
            if not tally.dropped:
                todo.append((tally, members))
        todo.reverse()  # played from the end of the list
        return _Sample(world, base, playout_seed, todo)

    def _play(self, sample: _Sample) -> None:
        tally, members = sample.todo.pop()
        options = members[0][1]
        g = sample.base.copy(keep_history=False)
        deck = sample.world.deck[:]
        r = random.Random(sample.playout_seed)
        move = realize(g, options, deck, r)
        g.push(move, check=False)
        if not tally.members:
            tally.members = [(key, move if i == 0 else opts[0]) for i, (key, opts) in enumerate(members)]
            tally.centre = g.centre
        threats = ThreatCounter()
        threats.observe(g, self.player)
        follow_until_turn(g, self.player, deck, r, self.policy, threats)
        play_out(g, deck, r, self.policy)
        sample.done.append((tally, round_value(g, self.side), threats))
        self.playouts += 1

    def _finish_sample(self, sample: _Sample) -> None:
        for tally, value, threats in sample.done:
            tally.margins.append(value.margin)
            tally.wins.append(value.win)
            tally.cats.append(value.categories)
            tally.rop += value.rule_of_power
            tally.threats.merge(threats)
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
        items = []
        takeable = frozenset(c for t in self.tallies.values() for _, m in t.members for c in getattr(m, "capture", ()))
        for t in self.tallies.values():
            lo, hi = interval(t.margins)
            wlo, whi = interval(t.wins)
            n = len(t.margins)
            cats = {name: mean([c[i] for c in t.cats]) for i, (name, _, _) in enumerate(CATEGORIES)}
            rep = t.members[0][1]
            for key, move in t.members:
                item = MoveAdvice(
                    key=key,
                    move=move,
                    text=describe(move),
                    margin=mean(t.margins),
                    margin_low=lo,
                    margin_high=hi,
                    win=mean(t.wins),
                    win_low=max(0.0, wlo),
                    win_high=min(1.0, whi),
                    samples=n,
                    categories=cats,
                    rule_of_power=t.rop / n if n else 0.0,
                    sample_categories=t.cats,
                    sample_wins=t.wins,
                )
                swap = interchange(rep, move)
                centre = tuple(swap.get(c, c) for c in t.centre)
                item.risks = risk_reasons(t.threats.renamed(swap), centre, move, self.game, self.player, self.unseen, takeable)
                items.append(item)
        items.sort(key=lambda m: (-m.win, -m.margin, repr(m.key)))
        for i, item in enumerate(items):
            # Compared with the best move, or for the best with the next one that plays out
            # differently (equivalent moves have nothing to tell apart).
            other = next((m for m in items if m.sample_categories != item.sample_categories), None)
            if other is not None:
                item.reasons = category_reasons(item, other)
            item.reasons.extend(r.text for r in item.risks)
        return Advice(self.player, items, self.samples, self.playouts, self.elapsed_ms, self.level.name)


class Coach:
    """The coach at a level (``"fast"``, ``"default"``, ``"deep"``)."""

    def __init__(self, level: str = "default", *, seed: int = 0, confidence: float = 1.0, clock: Clock = time.perf_counter) -> None:
        if level not in LEVELS:
            raise CoachError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self.seed = seed
        self.confidence = confidence
        self.clock = clock

    def search(self, game: GameState, player: str, *, seed: int | None = None) -> Search:
        """A search to run and refine (:meth:`Search.run`, :meth:`Search.advice`)."""
        return Search(game, player, seed=self.seed if seed is None else seed, level=self.level, clock=self.clock)

    def advise(self, game: GameState, player: str, *, budget_ms: float | None = None, samples: int | None = None, seed: int | None = None) -> Advice:
        """The ranked decisions of ``player`` (who is to move), within ``budget_ms`` (the
        level's budget by default) and with at least the level's fewest samples, or after
        exactly ``samples`` samples."""
        search = self.search(game, player, seed=seed).run(budget_ms, samples=samples)
        if samples is None and search.samples < self.level.min_samples:
            search.run(samples=self.level.min_samples - search.samples)
        return search.advice()

    def choose(self, game: GameState, deck: list[Card], rng: random.Random, *, repeatable: bool = False) -> Move:
        """Play the best decision in a real game (for virtual players and the benchmark);
        ``deck`` is the table's World deck (top last), used only to answer a Renewal.
        ``repeatable``: take the level's fixed number of samples instead of its time budget,
        so that a seeded game is played the same on any machine."""
        me = game.turn
        assert me is not None
        options = decisions(game)
        if len(options) == 1:
            return realize(game, next(iter(options.values())), deck, rng)
        samples = self.level.fixed_samples if repeatable else None
        advice = self.advise(game, me, samples=samples, seed=rng.getrandbits(32))
        return realize(game, options[self.pick(advice, game, deck).key], deck, rng)

    def pick(self, advice: Advice, game: GameState, deck: list[Card]) -> MoveAdvice:
        """The decision to play: the simple player's (the playouts' own, without its
        randomness) unless the search finds another clearly better on the common samples
        (by :attr:`confidence` standard errors). A few noisy samples then cannot talk the
        coach out of a sound move."""
        best = advice.best
        plain = RolloutPolicy(noise=0.0, fate_rate=0.0)(game, deck[:], random.Random(0))
        default = advice.find(plain)
        if default is None or default is best or best.sample_wins is default.sample_wins:
            return best
        n = min(len(best.sample_wins), len(default.sample_wins))
        d, lo, _ = paired_interval(best.sample_wins[:n], default.sample_wins[:n])
        se = (d - lo) / 1.96
        return best if d - self.confidence * se > 0 else default
