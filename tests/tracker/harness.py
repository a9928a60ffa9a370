"""A table that plays a known game in front of the tracker, acting as the players: it lays and
picks up cards (ideal camera observations from the game's scenes), announces Fate draws, and
answers the tracker's questions with the truth."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from companion.game import GameState
from companion.moves import Deal, DrawFate, Move, NewRound, Play
from companion.observations import Observation
from companion.simulate import make_setup, simulate_game
from companion.tracker import MoveApplied, OutOfSync, Question, RuleHint, Tracker, TrackerConfig
from companion.tracker.staging import Scene, changes, stage


def same_move(tracked: Move, true: Move) -> bool:
    """A tracked move matches the true one as far as a camera can tell: capture order is not
    seen, nor hidden hands, nor a Fate deck's order, nor cards swapped or drawn face down."""
    if type(tracked) is not type(true):
        return False
    if isinstance(tracked, Deal):
        return tracked.centre == true.centre  # type: ignore[union-attr]
    if isinstance(tracked, NewRound):
        return tracked.dealer == true.dealer  # type: ignore[union-attr]
    if isinstance(tracked, Play):
        assert isinstance(true, Play)
        if tracked.card.id in ("F005", "F008"):
            return (tracked.player, tracked.card, tracked.target) == (true.player, true.card, true.target)
        return tracked._replace(capture=frozenset(tracked.capture), discards=frozenset(tracked.discards)) == true._replace(
            capture=frozenset(true.capture), discards=frozenset(true.discards)
        )
    return tracked == true


class TableRun:
    """Plays ``moves`` (a true game) on a table watched by ``tracker``."""

    def __init__(self, players: int, teams: int = 0, *, fate: bool = False, seed: int = 0, expansion: bool = False) -> None:
        self.setup = make_setup(players, teams, expansion=expansion)
        self.truth, self.moves = simulate_game(self.setup, seed=seed, fate=fate)
        first = next(m for m in self.moves if isinstance(m, NewRound))
        decks = {p: first.deck_of(p) for p in self.setup.players}
        self.tracker = Tracker(
            GameState(self.setup), TrackerConfig(first_dealer=first.dealer, fate_decks=decks, draws_visible=True, settle=1.0)
        )
        self.applied: list[Move] = []
        self.events: list[object] = []
        self.questions = 0
        self.now = 0.0

    def scenes(self) -> Iterator[Scene]:
        return stage(self.setup, self.moves)

    def handle(self, events: Sequence[object]) -> None:
        for e in events:
            self.events.append(e)
            if isinstance(e, MoveApplied):
                self.applied.append(e.move)
                true = self.moves[len(self.applied) - 1]
                assert same_move(e.move, true), f"tracked {e.move} ({e.how}) but the table played {true}"
            elif isinstance(e, Question):
                self.questions += 1
                n = len(self.applied)
                for i, choice in enumerate(e.choices):
                    if all(same_move(a, b) for a, b in zip(choice.moves, self.moves[n : n + len(choice.moves)])):
                        self.handle(self.tracker.answer(i))
                        break
                else:
                    raise AssertionError(f"none of the choices is what happened: {e}")

    def feed(self, observations: Sequence[Observation]) -> None:
        for obs in observations:
            self.handle(self.tracker.tick(obs.at))
            self.handle(self.tracker.observe(obs))

    def wait(self, seconds: float) -> list[object]:
        self.now += seconds
        before = len(self.events)
        self.handle(self.tracker.tick(self.now))
        return self.events[before:]

    def play(self, *, until: int | None = None, perturb: Callable[[TableRun, Scene, Scene | None], None] | None = None) -> None:
        """Play the game scene by scene (to scene ``until``); ``perturb`` may do mischief
        between scenes (it is called before each scene is laid out)."""
        before: Scene | None = None
        for k, scene in enumerate(self.scenes()):
            if until is not None and k >= until:
                return
            if perturb:
                perturb(self, scene, before)
            self.now += 0.5
            if isinstance(scene.move, DrawFate):
                self.handle(self.tracker.draw_fate(scene.move.player))
            self.feed(changes(before, scene, self.now))
            before = scene

    def problems(self) -> list[object]:
        return [e for e in self.events if isinstance(e, (OutOfSync, RuleHint))]
