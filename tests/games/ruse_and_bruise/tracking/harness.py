"""A Ruse and Bruise table that plays a known game in front of the tracker, acting as the
players: it taps the cards on the columns' readers, or lays and takes up cards before the camera
(ideal observations from the game's scenes) and types what no camera sees, and answers the
tracker's questions with the truth, counting the keys."""

from __future__ import annotations

from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.policies import simulate
from companion.games.ruse_and_bruise.setup import RabSetup
from companion.games.ruse_and_bruise.simulation.camera import MODULE_PX, film
from companion.games.ruse_and_bruise.simulation.compare import named_alike, seen_alike
from companion.games.ruse_and_bruise.simulation.keys import typed_moves
from companion.games.ruse_and_bruise.simulation.staging import stage
from companion.games.ruse_and_bruise.simulation.taps import readers, taps_for
from companion.games.ruse_and_bruise.values import EXAMPLE
from companion.observations.scene import Scene, changes
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from tests.table_run import TrackedTable
from vision.scenes import Action

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")
KEYBOARD = "keyboard"
"""The session source of a move typed at the table."""


def as_seen(setup: RabSetup) -> RabSetup:
    """The set-up a table knows: its players, colours and values table; the deal unseen (B29)."""
    return RabSetup(setup.players, setup.colours, setup.values)


class RabRun(TrackedTable):
    """A true game of ``players`` players (dealt from ``seed``, played at ``level``), played on
    a table watched by a tracker: by NFC readers at the columns (``readers``), by a camera, or
    both."""

    def __init__(self, players: int, seed: int = 0, *, level: str = "random", readers: bool = False, unexplained_after: float = 1.0) -> None:
        self.dealt, self.moves = simulate(NAMES[:players], EXAMPLE, seed=seed, level=level)
        self.setup = as_seen(self.dealt)
        self.truth = RabState(self.dealt)
        for move in self.moves:
            self.truth.push(move)
        config = TrackerConfig(readers=self.readers(players) if readers else {}, unexplained_after=unexplained_after)
        self.session = GameSession(self.setup)
        super().__init__(Tracker(self.session, config), self.moves)
        self.same_move = named_alike if readers else seen_alike  # type: ignore[method-assign]
        self.keys = 0

    @staticmethod
    def readers(players: int) -> dict[str, str]:
        return readers(players)

    def play_nfc(self, *, aloud: bool = False) -> None:
        """Every tap of the game, as the table makes them."""
        for _, taps in taps_for(self.dealt, self.moves, aloud=aloud):
            self.feed(taps)
            if taps:
                self.now = taps[-1].at

    def scenes(self) -> list[Scene]:
        return list(stage(self.dealt, self.moves))

    def play_camera(self, *, step: float = 0.5) -> None:
        """Every scene laid out before an ideal camera, ``step`` seconds apart; what no camera
        sees typed at the table (:func:`typed_moves`) as soon as the game is ready for it."""
        typed = typed_moves(self.dealt, self.moves)
        before: Scene | None = None
        for scene in self.scenes():
            self.now += step
            self.feed(changes(before, scene, self.now))
            self.type_ready(typed)
            before = scene
        self.wait(5.0)
        self.type_ready(typed)

    def play_filmed(self, end: int | None = None, *, module_px: float = MODULE_PX, seed: int = 0) -> list[float]:
        """The game's first ``end`` moves (all of them) filmed over the standard mat at a
        natural pace and read by the whole camera path, frame by frame on the video's clock;
        what no camera sees typed as soon as the game is ready for it. Returns, for each move
        the camera showed, how long after the hand that made it left the table the tracker
        knew it (seconds)."""
        moves = self.moves[: end or len(self.moves)]
        typed = typed_moves(self.dealt, moves)
        last: dict[int, Action] = {}  # move index -> the last hand's action that showed it
        known: dict[int, float] = {}
        index = {id(m): i for i, m in enumerate(moves)}
        for frame in film(self.dealt, moves, module_px=module_px, seed=seed):
            if frame.action is not None and frame.action.scene.move is not None:
                last[index[id(frame.action.scene.move)]] = frame.action
            self.now = frame.at
            before = len(self.applied)
            self.handle(self.tracker.tick(frame.at))
            for obs in frame.observations:
                self.handle(self.tracker.observe(obs))
            self.type_ready(typed)
            for k in range(before, len(self.applied)):
                known[k] = frame.at
        self.wait(5.0)
        return [known.get(k, self.now) - action.hand_gone for k, action in sorted(last.items()) if k not in typed]

    def type_ready(self, typed: dict[int, object]) -> None:
        """The moves of ``typed`` the game is ready for, typed in turn: a player types their
        move once the table shows it is theirs."""
        while len(self.applied) in typed:
            self.type(typed[len(self.applied)])

    def type(self, move: object) -> None:
        """The table types ``move`` (one key): the dashboard proposes it to the session, the
        tracker follows."""
        self.keys += 1
        result = self.session.propose(move, source=KEYBOARD)  # type: ignore[arg-type]
        assert type(result).__name__ == "Applied", (move, result)
        self.applied.append(move)
        self.handle(self.tracker.tick(self.now))
