"""The coach knows no game: a toy trick game that provides a coach model is searched,
reviewed and scanned for risks through the same code as Rule of Power.

The toy game: two players, cards ``1a``..``8b`` (two of each number); each trick the leader
plays a card, the other answers, the higher number takes the trick (the leader keeps a tie)
and leads the next one. The hand ends when the cards are played; a trick is a point.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.coach import Coach, CoachError, model_of, review
from companion.coach.model import Category, World
from companion.coach.risks import RiskScan
from companion.commands.coach import format_advice
from companion.contract.state import TurnBased

from tests.coach.toys import Risk, Value, Watch

DECK = tuple(f"{n}{s}" for n in range(1, 9) for s in "ab")


def number(card: str) -> int:
    return int(card[:-1])


@dataclass(frozen=True)
class Setup:
    players: tuple[str, str]
    hands: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def game(self) -> Tricks:
        return GAME


@dataclass(frozen=True)
class View:
    """What ``player`` may know: their hand, the trick so far, the tricks taken, the cards seen."""

    player: str
    hand: tuple[str, ...]
    trick: tuple[tuple[str, str], ...]
    tricks: tuple[tuple[str, int], ...]
    seen: frozenset[str]
    decisions: tuple[tuple[str, str], ...]


class State(TurnBased[tuple[str, str]]):
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.players = setup.players
        self.hands = {p: list(h) for p, h in zip(setup.players, setup.hands)}
        self.trick: list[tuple[str, str]] = []
        self.tricks = {p: 0 for p in self.players}
        self.seen: set[str] = set()
        self.turn = self.players[0]
        self.move_stack: list[tuple[str, str]] = []

    @property
    def game(self) -> Tricks:
        return GAME

    @property
    def to_move(self) -> str | None:
        return self.turn if any(self.hands.values()) else None

    @property
    def legal_moves(self) -> list[tuple[str, str]]:
        return [(self.turn, card) for card in self.hands[self.turn]] if self.to_move else []

    def decision(self, move: tuple[str, str]) -> tuple[str, str]:
        return move

    def view(self, player: str) -> View:
        moves = tuple(self.legal_moves) if player == self.to_move else ()
        return View(player, tuple(sorted(self.hands[player])), tuple(self.trick), tuple(sorted(self.tricks.items())), frozenset(self.seen), moves)

    def push(self, move: tuple[str, str], *, check: bool = True) -> None:
        player, card = move
        if check and move not in self.legal_moves:
            raise ValueError(f"illegal {move}")
        self.hands[player].remove(card)
        self.seen.add(card)
        self.trick.append(move)
        self.move_stack.append(move)
        other = self.players[1 - self.players.index(player)]
        if len(self.trick) == 1:
            self.turn = other
            return
        (leader, led), (_, answer) = self.trick
        self.turn = player if number(answer) > number(led) else leader
        self.tricks[self.turn] += 1
        self.trick = []

    def copy(self, *, keep_history: bool = True) -> State:
        new = State(self.setup)
        new.hands = {p: list(h) for p, h in self.hands.items()}
        new.trick, new.tricks, new.seen, new.turn = list(self.trick), dict(self.tricks), set(self.seen), self.turn
        return new


class Worlds:
    def __init__(self, state: State, player: str) -> None:
        self.state, self.player = state, player
        self.other = next(p for p in state.players if p != player)
        self.unseen = sorted(set(DECK) - set(state.hands[player]) - state.seen)

    def sample(self, rng: random.Random) -> World:
        pool = self.unseen[:]
        rng.shuffle(pool)
        world = self.state.copy(keep_history=False)
        world.hands[self.other] = pool[: len(self.state.hands[self.other])]
        return World(world, None)


def _random(view: View, rng: random.Random) -> tuple[str, str]:
    return rng.choice(view.decisions)


def _play(state: State, rng: random.Random, policy) -> None:
    """The player to move decides from their view alone."""
    state.push(policy(state.view(state.turn), rng), check=False)


class TrickCoach:
    categories = (Category("tricks", "tricks", "T1"),)
    feats = ("slam",)
    period = "hand"

    def waits_for(self, state: State) -> str:
        return "nothing: the hand is over"

    def position(self, state: State) -> str:
        return f"(trick {sum(state.tricks.values()) + 1}); led: {' '.join(c for _, c in state.trick) or 'nothing'}"

    def period_of(self, state: State) -> int:
        return 1

    def unseen_cards(self, moves: object) -> int:
        return 0

    def worlds(self, state: State, player: str) -> Worlds:
        return Worlds(state, player)

    def decisions(self, state: State, player: str) -> dict[object, list[tuple[str, str]]]:
        return {state.decision(m): [m] for m in sorted(state.moves_of(player))}

    def alike(self, move: tuple[str, str]) -> object:
        return number(move[1])

    def fork(self, world: World) -> World:
        return World(world.state.copy(keep_history=False), world.chance)

    def realize(self, state: State, decision: tuple[str, str], chance: object, rng: random.Random) -> tuple[str, str]:
        return decision

    def policy(self) -> object:
        return _random

    def plain_move(self, view: View) -> tuple[str, str]:
        return max(view.decisions, key=lambda m: number(m[1]))

    def watch(self, state: State, player: str, chance: object, rng: random.Random, policy: object) -> Watch:
        before = dict(state.tricks)
        while state.to_move and state.trick:
            _play(state, rng, policy)
        return Watch(int(any(state.tricks[p] > before[p] for p in state.players if p != player)))

    def play_out(self, state: State, chance: object, rng: random.Random, policy: object) -> None:
        while state.to_move:
            _play(state, rng, policy)

    def value(self, state: State, player: str) -> Value:
        mine = state.tricks[player]
        margin = mine - max(n for p, n in state.tricks.items() if p != player)
        return Value(margin, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0, (float(margin),), (mine == len(state.setup.hands[0]),))

    def describe(self, move: tuple[str, str]) -> str:
        return f"play {move[1]}"

    def move_json(self, move: tuple[str, str]) -> dict[str, object]:
        return {"card": move[1]}

    def reasons(self, item, other) -> list[str]:
        mine, theirs = item.sample_categories, other.sample_categories
        d = sum(a[0] - b[0] for a, b in zip(mine, theirs)) / len(mine)
        return [f"{'gains' if d > 0 else 'gives up'} {abs(d):.2f} tricks"] if abs(d) >= 0.1 else []

    def risks(self, worlds: Worlds, watched: list) -> dict[object, list[Risk]]:
        out: dict[object, list[Risk]] = {}
        for group in watched:
            share = group.watch.hits / group.watch.samples
            for key, _ in group.members:
                text = f"risk: {worlds.other} takes the trick, about {share:.0%}"
                out[key] = [Risk(share, text, text)] if share >= 0.5 else []
        return out


class Tricks:
    name = "tricks"
    title = "Tricks"

    def new_state(self, setup: Setup, *, keep_history: bool = True) -> State:
        return State(setup)

    def coach(self) -> TrickCoach:
        return TrickCoach()


GAME = Tricks()


def _follower(bob_left: str) -> State:
    # bob led 5a and holds one more card; ann answers with 8a or 1a.
    state = State(Setup(("bob", "ann"), (("5a", bob_left), ("8a", "1a"))))
    state.push(("bob", "5a"))
    return state


def test_a_toy_game_is_searched_through_its_model():
    advice = Coach("fast").advise(_follower("3b"), "ann", samples=40, seed=1)
    assert [m.text for m in advice.moves] == ["play 8a", "play 1a"]
    best = advice.best
    assert best.to_json()["card"] == "8a" and set(best.categories) == {"tricks"} and "slam" in best.to_json()
    assert best.reasons[0].startswith("gains")
    assert advice.find(("ann", "1a")) is advice.moves[1]
    text = format_advice(advice, _follower("3b"), 2)
    assert text.startswith("ann to move after line 2 (trick 1); led: 5a") and "the best other side this hand" in text


def test_hidden_cards_do_not_change_the_toy_advice():
    a = Coach("fast").advise(_follower("3b"), "ann", samples=12, seed=2).to_json()
    b = Coach("fast").advise(_follower("7b"), "ann", samples=12, seed=2).to_json()
    a.pop("elapsed_ms"), b.pop("elapsed_ms")
    assert a == b


def test_alike_decisions_share_their_figures_and_risks_are_the_models():
    state = State(Setup(("ann", "bob"), (("3a", "3b", "8b"), ("5a", "6a", "7a"))))
    advice = Coach("fast").advise(state, "ann", samples=20, seed=3)
    threes = [m for m in advice.moves if m.text in ("play 3a", "play 3b")]
    assert len(threes) == 2 and threes[0].sample_wins is threes[1].sample_wins
    assert all(any(r.text.startswith("risk: bob takes the trick") for r in m.risks) for m in threes)
    scan = RiskScan(state, "ann", seed=3).run(20).risks()
    assert set(scan) == {m.key for m in advice.moves}


def test_a_toy_game_is_reviewed_and_played():
    setup = Setup(("bob", "ann"), (("5a", "3b"), ("8a", "1a")))
    marks = review(setup, [("bob", "5a"), ("ann", "1a"), ("bob", "3b"), ("ann", "8a")], "ann", samples=30)
    assert [m.played for m in marks] == ["play 1a"] and marks[0].best == "play 8a" and marks[0].round == 1
    state = _follower("3b")
    assert Coach("fast").choose(state, "ann", None, random.Random(0), repeatable=True) == ("ann", "8a")


def test_errors_name_the_position():
    state = _follower("3b")
    with pytest.raises(CoachError, match="it is ann's turn, not bob's"):
        Coach().advise(state, "bob", samples=1)
    state.push(("ann", "8a"))
    state.push(("ann", "1a"))
    state.push(("bob", "3b"))
    with pytest.raises(CoachError, match="no decision to judge: the game waits for nothing: the hand is over"):
        Coach().advise(state, "ann", samples=1)


def test_a_game_without_a_coach_says_so(capsys, monkeypatch):
    class Silent:
        title = "Circle of Power"

        def coach(self) -> None:
            return None

    with pytest.raises(CoachError, match="Circle of Power has no coach yet"):
        model_of(Silent())
    from companion.cli import main
    from companion.games.rule_of_power import RuleOfPower
    from companion.games.rule_of_power.samples import sample_path

    monkeypatch.setattr(RuleOfPower, "coach", lambda self: None)
    assert main(["hint", str(sample_path("duel")), "--player", "bob", "--line", "4"]) == 2
    assert "Rule of Power has no coach yet" in capsys.readouterr().err
    assert main(["review", str(sample_path("duel"))]) == 2
    assert "Rule of Power has no coach yet" in capsys.readouterr().err


def test_the_core_imports_no_game():
    # The coach's core and its commands know only the games' protocol and registry.
    root = Path(__file__).resolve().parents[2]
    files = sorted((root / "companion" / "coach").glob("*.py")) + [root / "companion" / "commands" / "coach.py"]
    allowed = ("companion.coach", "companion.contract", "companion.contract.registry", "companion.records")
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert not name.startswith("companion") or name.startswith(allowed), (path.name, name)
                if path.parent.name == "coach":
                    assert not name.startswith("companion.records"), (path.name, name)
