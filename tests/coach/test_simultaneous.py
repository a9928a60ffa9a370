"""The coach at a node where the players decide at once: a tiny game of sealed bids, written
here against the contract's State and Game and given a coach model.

Sealed bids: two or three players, cards ``1``..``9`` (one of each). Each holds three cards.
Every trick, all of them commit one card face down, in any order (each commitment a move of
its own, hidden from the others); when all have committed the table reveals them, and the
highest card takes the trick (a point). After three tricks the hand is over.

The hint is given to every player still to commit, whatever the order of the commitments
before; two worlds that differ only in a commitment another player made earlier get the same
advice; a review judges each commitment from its player's view at that moment; and the
playouts' players are handed views only.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pytest

from companion.coach import Coach, CoachError, review
from companion.coach.model import Category, World
from companion.coach.risks import RiskScan
from companion.coach.search import Search

from tests.coach.toys import Risk, Value, Watch

CARDS = tuple(range(1, 10))
TRICKS = 3


class Commit(NamedTuple):
    player: str
    card: int


class Reveal(NamedTuple):
    """The table turns every committed card up."""


@dataclass(frozen=True)
class Setup:
    players: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]

    @property
    def game(self) -> SealedBids:
        return GAME


@dataclass(frozen=True)
class View:
    """What ``player`` may know: their hand and commitment, who has committed (not what), the
    cards revealed and the tricks taken; their decisions when they are to commit."""

    player: str
    hand: tuple[int, ...]
    committed: int | None
    waiting_for: tuple[str, ...]
    revealed: tuple[tuple[tuple[str, int], ...], ...]
    tricks: tuple[tuple[str, int], ...]
    hand_sizes: tuple[int, ...]
    decisions: tuple[Commit, ...]


@dataclass
class State:
    setup: Setup
    hands: dict[str, list[int]] = field(default_factory=dict)
    committed: dict[str, int] = field(default_factory=dict)
    revealed: list[tuple[tuple[str, int], ...]] = field(default_factory=list)
    move_stack: list[Any] = field(default_factory=list)
    _undo: list[Any] = field(default_factory=list)

    @classmethod
    def start(cls, setup: Setup) -> State:
        return cls(setup, {p: list(h) for p, h in zip(setup.players, setup.hands)})

    @property
    def game(self) -> SealedBids:
        return GAME

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def deciding(self) -> tuple[str, ...]:
        if self.is_game_over():
            return ()
        return tuple(p for p in self.players if p not in self.committed)

    @property
    def simultaneous(self) -> bool:
        return True

    @property
    def to_move(self) -> str | None:
        return None  # the players decide at once

    @property
    def legal_moves(self) -> list[Commit]:
        return [m for p in self.deciding for m in self.moves_of(p)]

    def moves_of(self, player: str) -> list[Commit]:
        return [Commit(player, c) for c in sorted(self.hands[player])] if player in self.deciding else []

    def player_of(self, move: Any) -> str | None:
        return move.player if type(move) is Commit else None

    def decision(self, move: Any) -> Any:
        return move

    def is_game_over(self) -> bool:
        return len(self.revealed) == TRICKS

    @property
    def totals(self) -> dict[str, int]:
        won = {p: 0 for p in self.players}
        for trick in self.revealed:
            best = max(trick, key=lambda pc: pc[1])
            won[best[0]] += 1
        return won

    def check(self, move: Any) -> None:
        if type(move) is Commit:
            if move.player not in self.deciding or move.card not in self.hands[move.player]:
                raise ValueError(f"illegal {move}")
        elif self.deciding or self.is_game_over():
            raise ValueError("nothing to reveal")

    def push(self, move: Any, *, check: bool = True) -> None:
        if check:
            self.check(move)
        self._undo.append(({p: list(h) for p, h in self.hands.items()}, dict(self.committed), list(self.revealed)))
        self.move_stack.append(move)
        if type(move) is Commit:
            self.hands[move.player].remove(move.card)
            self.committed[move.player] = move.card
        else:
            self.revealed.append(tuple((p, self.committed[p]) for p in self.players))
            self.committed = {}

    def pop(self) -> Any:
        self.hands, self.committed, self.revealed = self._undo.pop()
        return self.move_stack.pop()

    def copy(self, *, keep_history: bool = True) -> State:
        return State(self.setup, {p: list(h) for p, h in self.hands.items()}, dict(self.committed), list(self.revealed))

    def view(self, player: str) -> View:
        return View(
            player,
            tuple(sorted(self.hands[player])),
            self.committed.get(player),
            self.deciding,
            tuple(self.revealed),
            tuple(sorted(self.totals.items())),
            tuple(len(self.hands[p]) for p in self.players),
            tuple(self.moves_of(player)),
        )

    def resample(self, player: str, rng: random.Random) -> State:
        """Every card ``player`` cannot see drawn again: the other hands and the commitments
        the others made face down."""
        seen = set(self.hands[player]) | {c for trick in self.revealed for _, c in trick}
        if player in self.committed:
            seen.add(self.committed[player])
        pool = [c for c in CARDS if c not in seen]
        rng.shuffle(pool)
        world = self.copy()
        for p in self.players:
            if p == player:
                continue
            n = len(self.hands[p])
            world.hands[p] = [pool.pop() for _ in range(n)]
            if p in self.committed:
                world.committed[p] = pool.pop()
        return world


class SealedBids:
    name = "sealed-bids"
    title = "Sealed Bids"

    def new_state(self, setup: Setup, *, keep_history: bool = True) -> State:
        return State.start(setup)

    def chance_move(self, state: State, rng: random.Random) -> Reveal:
        return Reveal()

    def coach(self) -> BidsCoach:
        return BidsCoach()


class Worlds:
    def __init__(self, state: State, player: str) -> None:
        self.state, self.player = state, player

    def sample(self, rng: random.Random) -> World:
        return World(self.state.resample(self.player, rng), None)


def highest(view: View, rng: random.Random) -> Commit:
    """The quick player: its highest card, now and then another."""
    if rng.random() < 0.2:
        return rng.choice(view.decisions)
    return max(view.decisions, key=lambda m: m.card)


class BidsCoach:
    categories = (Category("tricks", "tricks", "S1"),)
    feats = ("sweep",)
    period = "hand"

    def waits_for(self, state: State) -> str:
        return "nothing: the hand is over" if state.is_game_over() else "the reveal"

    def position(self, state: State) -> str:
        return f"(trick {len(state.revealed) + 1}); committed: {', '.join(state.committed) or 'nobody'}"

    def period_of(self, state: State) -> int:
        return 1

    def unseen_cards(self, moves: Any) -> int:
        return 0

    def worlds(self, state: State, player: str) -> Worlds:
        return Worlds(state, player)

    def decisions(self, state: State, player: str) -> dict[Any, list[Commit]]:
        return {m: [m] for m in state.moves_of(player)}

    def alike(self, move: Commit) -> Any:
        return move

    def fork(self, world: World) -> World:
        return World(world.state.copy(keep_history=False), None)

    def realize(self, state: State, decision: Commit, chance: Any, rng: random.Random) -> Commit:
        return decision

    def policy(self) -> Any:
        return highest

    def plain_move(self, view: View) -> Commit:
        return max(view.decisions, key=lambda m: m.card)

    def _step(self, state: State, rng: random.Random, policy: Any) -> None:
        deciding = state.deciding
        if not deciding:
            state.push(Reveal(), check=False)
        for p in deciding:  # each still to commit, from their own view
            state.push(self.realize(state, policy(state.view(p), rng), None, rng), check=False)

    def watch(self, state: State, player: str, chance: Any, rng: random.Random, policy: Any) -> Watch:
        tricks = len(state.revealed)
        while len(state.revealed) == tricks:
            self._step(state, rng, policy)
        winner = max(state.revealed[-1], key=lambda pc: pc[1])[0]
        return Watch(int(winner == player))

    def play_out(self, state: State, chance: Any, rng: random.Random, policy: Any) -> None:
        while not state.is_game_over():
            self._step(state, rng, policy)

    def value(self, state: State, player: str) -> Value:
        won = state.totals
        margin = won[player] - max(n for p, n in won.items() if p != player)
        return Value(margin, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0, (float(won[player]),), (won[player] == TRICKS,))

    def describe(self, move: Commit) -> str:
        return f"commit {move.card}"

    def move_json(self, move: Commit) -> dict[str, Any]:
        return {"card": move.card}

    def reasons(self, item: Any, other: Any) -> list[str]:
        return []

    def risks(self, worlds: Worlds, watched: Any) -> dict[Any, list[Risk]]:
        out: dict[Any, list[Risk]] = {}
        for group in watched:
            share = 1 - group.watch.hits / group.watch.samples
            for key, _ in group.members:
                out[key] = [Risk(share, f"risk: another takes the trick, about {share:.0%}", "risk")] if share >= 0.5 else []
        return out


GAME = SealedBids()

PLAYERS = ("ann", "bob", "cy")
HANDS = ((9, 2, 4), (8, 3, 5), (7, 1, 6))


def _advice(state: State, player: str, seed: int = 4) -> dict[str, Any]:
    data = Coach("fast").advise(state, player, samples=12, seed=seed).to_json()
    data.pop("elapsed_ms")
    return data


@pytest.mark.parametrize("order", list(itertools.permutations(PLAYERS)), ids="-".join)
def test_every_player_still_to_commit_gets_a_hint_whatever_the_order(order: tuple[str, ...]) -> None:
    state = State.start(Setup(PLAYERS, HANDS))
    hands = dict(zip(PLAYERS, HANDS))
    for k, committing in enumerate(order):
        for player in order[k:]:
            advice = Coach("fast").advise(state, player, samples=4, seed=1)
            assert advice.player == player and {m.move for m in advice.moves} == set(state.moves_of(player))
        for done in order[:k]:
            waiting = [p for p in PLAYERS if p in order[k:]]
            verb = "is" if len(waiting) == 1 else "are"
            with pytest.raises(CoachError, match=f"^{done} has no decision now: {' and '.join(waiting)} {verb} still to commit$"):
                Coach("fast").advise(state, done, samples=1)
        state.push(Commit(committing, hands[committing][0]))
    with pytest.raises(CoachError, match="no decision to judge: the game waits for the reveal"):
        Coach("fast").advise(state, "ann", samples=1)


def test_an_earlier_commitment_of_another_player_does_not_change_the_advice() -> None:
    # ann has committed her 9 in one world, her 2 in the other (her hand the rest of her cards):
    # bob cannot tell the two apart, and is told the same, number for number.
    high = State.start(Setup(PLAYERS, ((9, 2, 4), (8, 3, 5), (7, 1, 6))))
    high.push(Commit("ann", 9))
    low = State.start(Setup(PLAYERS, ((2, 9, 4), (8, 3, 5), (7, 1, 6))))
    low.push(Commit("ann", 2))
    assert high.view("bob") == low.view("bob") and high.view("ann") != low.view("ann")
    assert _advice(high, "bob") == _advice(low, "bob")
    # The test can tell: a coach that saw ann's card would advise bob otherwise (against a 9
    # his 8 is lost; against a 2 his 3 wins as well as his 8).
    class Peeking(Worlds):
        def sample(self, rng: random.Random) -> World:
            return World(self.state.copy(), None)

    peeking = {}
    for name, state in (("high", high), ("low", low)):
        search = Search(state, "bob", seed=4, level=Coach("fast").level)
        search.worlds = Peeking(search.game, "bob")
        peeking[name] = search.run(samples=12).advice().to_json()
        peeking[name].pop("elapsed_ms")
    assert peeking["high"] != peeking["low"]


def test_the_playouts_players_see_their_own_views_only() -> None:
    state = State.start(Setup(PLAYERS, HANDS))
    state.push(Commit("cy", 7))
    seen: list[View] = []

    def spy(view: View, rng: random.Random) -> Commit:
        seen.append(view)
        return highest(view, rng)

    Search(state, "ann", seed=2, policy=spy).run(samples=3)
    # Asked of each player still to commit, in every trick, with that player's view (which
    # holds no commitment but their own), never with a world.
    assert seen and all(type(v) is View and v.decisions for v in seen)
    assert {v.player for v in seen} == {"bob", "ann", "cy"}


def test_a_review_judges_each_commitment_from_its_players_view_then() -> None:
    setup = Setup(PLAYERS, HANDS)
    moves = [Commit("cy", 1), Commit("ann", 2), Commit("bob", 8), Reveal(), Commit("bob", 3), Commit("ann", 9), Commit("cy", 7), Reveal()]
    marks = review(setup, moves, samples=12)
    assert [(m.index, m.player) for m in marks] == [(0, "cy"), (1, "ann"), (2, "bob"), (4, "bob"), (5, "ann"), (6, "cy")]
    assert all(m.played == f"commit {moves[m.index].card}" for m in marks)
    # ann, judged at index 5, could not see the 3 bob had just committed: had he committed his
    # 5, her mark would be the same.
    other = list(moves)
    other[4] = Commit("bob", 5)
    again = review(setup, other[:6], "ann", samples=12)
    assert again[-1].index == 5 and again[-1].to_json() == next(m for m in marks if m.index == 5).to_json()


def test_teaching_risks_for_a_player_still_to_commit() -> None:
    state = State.start(Setup(PLAYERS, HANDS))
    state.push(Commit("ann", 9))
    risks = RiskScan(state, "bob", seed=1).run(16).risks()
    assert set(risks) == set(state.moves_of("bob"))
    with pytest.raises(CoachError, match="ann has no decision now: bob and cy are still to commit"):
        RiskScan(state, "ann")
