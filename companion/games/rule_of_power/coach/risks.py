"""What each legal move risks, from the player's view, without playing the round out.

Teaching mode shows, beside every legal move, the concrete risk the coach sees in it ("leaves
W007 Fire Dragon alone in the centre: bob could take it with any of 3 unseen cards (7s), about
40 %"). The risks are the search's own (:func:`~companion.games.rule_of_power.coach.reasons.risk_reasons` on the
same counts), but they need only the moment after the move: in each sampled world, what the
next player could take, and what the opponents take before the player moves again. So a
:class:`RiskScan` plays each decision and follows the table to the player's next turn, and
stops there: a sample costs a fraction of a search's, and a few dozen give the risks of every
move in a few tens of milliseconds, with no clock involved (the same view and seed give the
same risks on any machine).

>>> from companion.games.rule_of_power.engine.game import GameSetup, GameState
>>> from companion.games.rule_of_power.engine.moves import Deal, NewRound, Play
>>> game = GameState(GameSetup(("ann", "bob")))
>>> game.push(NewRound.make("bob"))
>>> game.push(Deal.make({"ann": ["W007", "W012", "W016"], "bob": ["W011", "W021", "W033"]},
...                     ["W030", "W040", "W029", "W039"]))
>>> scan = RiskScan(game, "ann").run(24)
>>> [r.text for r in scan.risks_of(Play.from_ids("ann", "W007"))][:1]  # doctest: +ELLIPSIS
['risk: leaves W007 Fire Dragon (7) in the centre: bob could take it with any of 3 unseen cards (7s), about ...%']
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from companion.games.rule_of_power.coach.policies import RolloutPolicy, decision_key, decisions, equivalence_key, interchange, realize
from companion.games.rule_of_power.coach.reasons import Risk, ThreatCounter, follow_until_turn, risk_reasons
from companion.games.rule_of_power.engine.sampling import Sampler, SamplingError, embody
from companion.coach.search import CoachError
from companion.games.rule_of_power.engine.cards import Card
from companion.games.rule_of_power.engine.game import GameState, Phase
from companion.games.rule_of_power.engine.moves import Move

__all__ = ["RiskScan", "SCAN_SAMPLES"]

#: Samples for teaching mode: enough for shares to the nearest few per cent.
SCAN_SAMPLES = 32


class _Class:
    __slots__ = ("members", "threats", "centre")

    def __init__(self) -> None:
        self.members: list[tuple[Hashable, Move]] = []
        self.threats = ThreatCounter()
        self.centre: tuple[Card, ...] = ()


class RiskScan:
    """The risks of every legal decision of ``player`` (who is to move in ``game``), counted
    over sampled worlds drawn from their view only. :meth:`run` adds samples (call it
    in slices to stay responsive); :meth:`risks` reads the risks so far."""

    def __init__(self, game: GameState, player: str, *, seed: int = 0, policy: RolloutPolicy | None = None) -> None:
        if game.phase is not Phase.TURN or game.turn != player:
            raise CoachError(f"no decision of {player} to judge: {game.turn or 'nobody'} is to move")
        self.game = game.copy(keep_history=False)
        self.player = player
        self.seed = seed
        self.policy = policy or RolloutPolicy()
        try:
            self.sampler = Sampler(self.game, player)
        except SamplingError as exc:
            raise CoachError(str(exc)) from None
        self.unseen = tuple(self.sampler.unseen)
        self.classes: dict[Hashable, _Class] = {}
        self.samples = 0

    def run(self, samples: int) -> RiskScan:
        """Add ``samples`` samples."""
        for _ in range(samples):
            self._one_sample()
        return self

    def _one_sample(self) -> None:
        k = self.samples
        rng = random.Random(self.seed * 1_000_003 + k)
        world = self.sampler.sample(rng)
        base = embody(self.game, world)
        seed = rng.getrandbits(64)
        groups: dict[Hashable, list[tuple[Hashable, list[Move]]]] = {}
        for key, options in decisions(base).items():
            groups.setdefault(equivalence_key(options[0]), []).append((key, options))
        for cls, members in groups.items():
            entry = self.classes.get(cls)
            if entry is None:
                if k:
                    continue
                entry = self.classes[cls] = _Class()
            g = base.copy(keep_history=False)
            deck = world.deck[:]
            r = random.Random(seed)
            move = realize(g, members[0][1], deck, r)
            g.push(move, check=False)
            if not entry.members:
                entry.members = [(key, move if i == 0 else opts[0]) for i, (key, opts) in enumerate(members)]
                entry.centre = g.centre
            entry.threats.observe(g, self.player)
            follow_until_turn(g, self.player, deck, r, self.policy, entry.threats)
        self.samples += 1

    def risks(self) -> dict[Hashable, list[Risk]]:
        """Each decision's risks (by :func:`~companion.games.rule_of_power.coach.policies.decision_key`), the
        strongest first; a decision without a risk worth telling has an empty list."""
        out: dict[Hashable, list[Risk]] = {}
        takeable = frozenset(c for e in self.classes.values() for _, m in e.members for c in getattr(m, "capture", ()))
        for entry in self.classes.values():
            if not entry.members:
                continue
            rep = entry.members[0][1]
            for key, move in entry.members:
                swap = interchange(rep, move)
                centre = tuple(swap.get(c, c) for c in entry.centre)
                out[key] = risk_reasons(entry.threats.renamed(swap), centre, move, self.game, self.player, self.unseen, takeable)
        return out

    def risks_of(self, move: Move) -> list[Risk]:
        """The risks of the decision ``move`` makes (empty if it has none, or is not legal)."""
        return self.risks().get(decision_key(move), [])

