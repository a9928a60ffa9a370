"""A table that plays a known game in front of the tracker, acting as the players: it lays and
picks up cards (ideal camera observations from the game's scenes), announces Fate draws, and
answers the tracker's questions with the truth."""

from __future__ import annotations

from companion.observations import DrawAnnounced

from collections.abc import Callable, Iterator, Sequence

from companion.games.rule_of_power.engine.moves import Deal, DrawFate, Move, NewRound, Play
from companion.games.rule_of_power.simulation.virtual_table import make_setup, simulate_game
from companion.session import GameSession
from companion.tracker import Tracker, TrackerConfig
from companion.observations.scene import Scene
from companion.games.rule_of_power.simulation.staging import stage
from companion.observations.scene import changes
from companion.games.rule_of_power.simulation.taps import taps_for
from tests.table_run import TrackedTable


def same_move(tracked: Move, true: Move) -> bool:
    """A tracked move matches the true one as far as a camera can tell: the order of cards laid
    or taken together is not seen, nor hidden hands, nor a Fate deck's order, nor cards swapped
    or drawn face down."""
    if type(tracked) is not type(true):
        return False
    if isinstance(tracked, Deal):
        return sorted(tracked.centre) == sorted(true.centre)  # type: ignore[union-attr]
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


class TableRun(TrackedTable):
    """Plays ``moves`` (a true game) on a table watched by ``tracker``."""

    same_move = staticmethod(same_move)

    def __init__(self, players: int, teams: int = 0, *, fate: bool = False, seed: int = 0, expansion: bool = False, deck_owner: str | None = None) -> None:
        self.setup = make_setup(players, teams, expansion=expansion)
        self.deck_owner = deck_owner
        """Whose seal the World cards' stickers bear (a player's own deck), ``None`` for none."""
        self.truth, self.moves = simulate_game(self.setup, seed=seed, fate=fate)
        first = next(m for m in self.moves if isinstance(m, NewRound))
        decks = {p: first.deck_of(p) for p in self.setup.players}
        tracker = Tracker(GameSession(self.setup), TrackerConfig(first_dealer=first.dealer, facts={"fate_decks": decks, "draws_visible": True}, unexplained_after=1.0))
        super().__init__(tracker, self.moves)

    def scenes(self) -> Iterator[Scene]:
        return stage(self.setup, self.moves, deck_owner=self.deck_owner)

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
                self.handle(self.tracker.observe(DrawAnnounced("dashboard", 0.0, scene.move.player)))
            self.feed(changes(before, scene, self.now))
            before = scene


def crystals_met(run: TableRun, i: int) -> bool:
    """Whether the Crystal played by ``run``'s ``i``-th move met another in play (R19): both
    leave the table."""
    from companion.games.rule_of_power.engine.game import GameState

    game = GameState(run.setup, keep_history=False)
    for move in run.moves[:i]:
        game.push(move)
    return len(game.effects(run.moves[i]).spent) == 2


READERS = {"board:0": "centre"}


class NfcRun(TableRun):
    """The same table with NFC readers only: one on the centre, one per player's Fate deck."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        readers = dict(READERS)
        readers.update({f"fate-reader:{p}": f"fate:{p}" for p in self.setup.players})
        first = next(m for m in self.moves if isinstance(m, NewRound))
        self.tracker = Tracker(GameSession(self.setup),
            TrackerConfig(readers=readers, first_dealer=first.dealer, facts={"fate_decks": {p: first.deck_of(p) for p in self.setup.players}, "draws_visible": True}),
        )

    def play(self, *, until=None, perturb=None) -> None:
        for k, (move, taps) in enumerate(taps_for(self.setup, self.moves)):
            if until is not None and k >= until:
                return
            self.feed(taps)


class BothRun(NfcRun):
    """Camera and NFC readers at once: each move's taps come just before the camera sees it."""

    def play(self, *, until=None, perturb=None) -> None:
        taps = {id(move): obs for move, obs in taps_for(self.setup, self.moves)}
        before: Scene | None = None
        done: set[int] = set()
        for scene in self.scenes():
            if scene.move is not None and id(scene.move) not in done:
                done.add(id(scene.move))
                move = scene.move
                # The played card is tapped; what it takes, the camera sees.
                self.feed([o for o in taps.get(id(move), []) if not isinstance(move, Play) or o.card is move.card])
            self.now += 0.5
            self.feed(changes(before, scene, self.now))
            before = scene


def hands_nobody_sees(moves: Sequence[Move]) -> list[set[str]]:
    """For each deal of ``moves`` (a true game), the players whose dealt hand no sensor can
    tell afterwards: those in a Mirror Swap's exchange or drawing with a Renewal, cards that
    change hands face down (R22, R25)."""
    from companion.games.rule_of_power.engine.fate import fate_rule

    out: list[set[str]] = []
    for m in moves:
        if isinstance(m, Deal):
            out.append(set())
        elif isinstance(m, Play) and m.card.is_fate and out:
            details = fate_rule(m.card).details
            if "given" in details and m.target:
                out[-1] |= {m.player, m.target}
            if "drawn" in details:
                out[-1].add(m.player)
    return out


def assert_same_record(saved: Sequence[Move], true: Sequence[Move]) -> None:
    """The record a tracked game saved is the game played: every event as a sensor can tell
    it (:func:`same_move`), and every dealt hand as it was dealt (in any order), except the
    hands no sensor can tell (:func:`hands_nobody_sees`), which stay unseen."""
    from companion.games.rule_of_power.engine.moves import UNSEEN

    assert len(saved) == len(true), (len(saved), len(true))
    unseen = iter(hands_nobody_sees(true))
    for n, (tracked, played) in enumerate(zip(saved, true)):
        assert same_move(tracked, played), f"event {n}: recorded {tracked} but the table played {played}"
        if isinstance(played, Deal):
            assert isinstance(tracked, Deal)
            hidden = next(unseen)
            for (p, cards), (q, real) in zip(tracked.hands, played.hands):
                assert p == q
                if p in hidden and all(c is UNSEEN for c in cards):
                    continue
                assert sorted(c.id for c in cards if c is not UNSEEN) == sorted(c.id for c in real) and UNSEEN not in cards, (
                    f"event {n}: {p}'s hand recorded as {cards}, dealt {real}")
