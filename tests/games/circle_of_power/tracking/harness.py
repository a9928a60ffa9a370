"""A Circle of Power table that plays a known game in front of the tracker, acting as the
players: it lays and takes up cards (ideal camera observations from the game's scenes) or taps
them on the readers, and answers the tracker's questions with the truth, counting the keys."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.circle_of_power.game import CircleState
from companion.games.circle_of_power.moves import Season
from companion.games.circle_of_power.policies import simulate
from companion.games.circle_of_power.simulation.compare import seen_alike
from companion.games.circle_of_power.simulation.staging import stage
from companion.observations.scene import changes
from companion.games.circle_of_power.simulation.taps import READERS, taps_for
from companion.observations.scene import Scene
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from tests.table_run import TrackedTable

NAMES = ("ann", "bob", "cy", "dee")
OWNER = "ann"
"""Whose deck the table plays with: its seals and tags name her."""


same_move = seen_alike
"""A tracked move matches the true one as far as the sensors can tell."""


class CopRun(TrackedTable):
    """``moves``, a true game of ``players`` players in ``variant``, played on a table watched
    by ``tracker``."""

    same_move = staticmethod(seen_alike)

    def __init__(
        self,
        players: int,
        variant: str = "basic",
        seed: int = 0,
        *,
        target: int = 6,
        level: int | Sequence[int] = 1,
        readers: bool = False,
        unexplained_after: float = 1.0,
    ) -> None:
        self.setup, self.moves = simulate(NAMES[:players], variant, seed=seed, target=target, level=level)
        self.truth = CircleState(self.setup)
        for move in self.moves:
            self.truth.push(move)
        first = self.moves[0]
        assert type(first) is Season
        config = TrackerConfig(
            readers=self.readers() if readers else {},
            first_dealer=first.dealer,
            facts={"seats": first.seats},
            unexplained_after=unexplained_after,
        )
        super().__init__(Tracker(GameSession(self.setup), config), self.moves)

    @staticmethod
    def readers() -> dict[str, str]:
        return dict(READERS)

    def scenes(self) -> list[Scene]:
        return list(stage(self.setup, self.moves, OWNER))

    def play_camera(self, *, step: float = 0.5) -> None:
        """Every scene laid out on the table in turn, ``step`` seconds apart, as an ideal camera
        reports it."""
        before: Scene | None = None
        for scene in self.scenes():
            self.now += step
            self.feed(changes(before, scene, self.now))
            before = scene
        self.wait(5.0)

    def play_nfc(self) -> None:
        """Every tap of the game, as the protocol has the table make them."""
        for _, taps in taps_for(self.setup, self.moves, OWNER):
            self.feed(taps)
            if taps:
                self.now = taps[-1].at
