"""What each legal move risks, from the player's view, without playing the period out.

Teaching mode shows, beside every legal move, the concrete risk the coach sees in it. The
risks are the search's own (the game model's :meth:`~companion.coach.model.CoachModel.risks`
on the same watches), but they need only the moment after the move: in each sampled world the
model watches the table after the decision (up to the player's next turn, say) and stops
there. So a :class:`RiskScan` costs a fraction of a search per sample, and a few dozen samples
give the risks of every move in a few tens of milliseconds, with no clock involved (the same
view and seed give the same risks on any machine).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from companion.coach.model import Policy, Risk, model_of
from companion.coach.search import check_deciding, group_alike, members_of, play_decision
from companion.contract import Move, State

__all__ = ["RiskScan", "SCAN_SAMPLES"]

#: Samples for teaching mode: enough for shares to the nearest few per cent.
SCAN_SAMPLES = 32


class _Group:
    """Decisions that play out alike, and what their playouts watched."""

    __slots__ = ("members", "watch")

    def __init__(self) -> None:
        self.members: list[tuple[Hashable, Move]] = []
        self.watch: Any = None


class RiskScan:
    """The risks of every legal decision of ``player`` (who is deciding in ``game``), counted
    over sampled worlds drawn from their view only. :meth:`run` adds samples (call it
    in slices to stay responsive); :meth:`risks` reads the risks so far."""

    def __init__(self, game: State, player: str, *, seed: int = 0, policy: Policy | None = None) -> None:
        self.model = model = model_of(game.game)
        check_deciding(game, player, model)
        self.game = game.copy(keep_history=False)
        self.player = player
        self.seed = seed
        self.policy = policy or model.policy()
        self.worlds = model.worlds(game, player)
        self.groups: dict[Hashable, _Group] = {}
        self.samples = 0

    def run(self, samples: int) -> RiskScan:
        """Add ``samples`` samples."""
        for _ in range(samples):
            self._one_sample()
        return self

    def _one_sample(self) -> None:
        k = self.samples
        rng = random.Random(self.seed * 1_000_003 + k)
        world = self.worlds.sample(rng)
        seed = rng.getrandbits(64)
        for cls, members in group_alike(self.model, world.state, self.player).items():
            group = self.groups.get(cls)
            if group is None:
                if k:
                    continue
                group = self.groups[cls] = _Group()
            played = play_decision(self.model, world, members[0][1][0], self.player, self.policy, seed)
            if not group.members:
                group.members = members_of(played.move, members)
            if group.watch is None:
                group.watch = played.watch
            else:
                group.watch.merge(played.watch)
        self.samples += 1

    def risks(self) -> dict[Hashable, list[Risk]]:
        """Each decision's risks (by :meth:`State.decision`), the strongest first; a decision
        without a risk worth telling has an empty list."""
        told = self.model.risks(self.worlds, [g for g in self.groups.values() if g.members])
        return {key: list(risks) for key, risks in told.items()}

    def risks_of(self, move: Move) -> list[Risk]:
        """The risks of the decision ``move`` makes (empty if it has none, or is not legal)."""
        return self.risks().get(self.game.decision(move), [])
