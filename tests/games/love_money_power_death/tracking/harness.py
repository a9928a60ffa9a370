"""A Love, Money, Power, Death table that plays a known game in front of the tracker, acting as
the players: it lays and takes up cards (ideal camera observations from the game's scenes) or
taps them on the readers, and answers the tracker's questions with the truth, counting the
keys."""

from __future__ import annotations

from companion.games.love_money_power_death.policies import simulate
from companion.games.love_money_power_death.simulation.compare import seen_alike
from companion.games.love_money_power_death.simulation.staging import stage
from companion.games.love_money_power_death.simulation.taps import readers, taps_for
from companion.games.love_money_power_death.state import LmpdState
from companion.observations.scene import Scene, changes
from companion.session import GameSession
from companion.tracker import OutOfSync, Question, RuleHint, Tracker, TrackerConfig
from tests.table_run import TrackedTable

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


class LmpdRun(TrackedTable):
    """``moves``, a true game of ``players`` players, played on a table watched by
    ``tracker``; with ``readers``, each player has a commit reader and the table a centre
    reader (:func:`~companion.games.love_money_power_death.simulation.taps.readers`)."""

    same_move = staticmethod(seen_alike)

    def __init__(self, players: int, seed: int = 0, *, level: int = 1, nobles: int = 0, readers: bool = False, unexplained_after: float = 1.0) -> None:
        self.setup, self.moves = simulate(NAMES[:players], nobles, seed=seed, level=level)
        self.truth = LmpdState(self.setup)
        for move in self.moves:
            self.truth.push(move)
        config = TrackerConfig(readers=self.readers() if readers else {}, unexplained_after=unexplained_after)
        super().__init__(Tracker(GameSession(self.setup), config), self.moves)

    def readers(self) -> dict[str, str]:
        return readers(self.setup.players)

    def scenes(self) -> list[Scene]:
        return list(stage(self.setup, self.moves))

    def feed_scenes(self, scenes: list[Scene], before: Scene | None = None, *, step: float = 0.5) -> Scene | None:
        """Each scene laid out on the table in turn, ``step`` seconds apart, as an ideal camera
        reports it; returns the last."""
        for scene in scenes:
            self.now += step
            self.feed(changes(before, scene, self.now))
            before = scene
        return before

    def play_camera(self, *, step: float = 0.5) -> None:
        self.handle(self.tracker.begin())
        self.feed_scenes(self.scenes(), step=step)
        self.wait(5.0)

    def play_nfc(self) -> None:
        """Every tap of the game, as the protocol has the table make them."""
        self.handle(self.tracker.begin())
        for _, taps in taps_for(self.setup, self.moves):
            self.feed(taps)
            if taps:
                self.now = taps[-1].at

    def problems(self) -> list[object]:
        return [e for e in self.events if isinstance(e, (OutOfSync, RuleHint))]

    def assert_kept(self, *, keys: int = 0) -> None:
        assert not self.problems(), self.problems()[:3]
        assert self.questions == keys, [e for e in self.events if isinstance(e, Question)][:2]
        assert len(self.applied) == len(self.moves), (len(self.applied), len(self.moves))
        game = self.tracker.game
        assert game.is_game_over()
        assert [r.to_json() for r in game.rounds] == [r.to_json() for r in self.truth.rounds]
        assert game.outcome() == self.truth.outcome()
