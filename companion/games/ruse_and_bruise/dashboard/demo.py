"""Ruse and Bruise's demo table (``rop demo --game ruse-and-bruise``): its players decide from
their own views at the level asked, the table's moves and the cards drawn by chance."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from companion.contract import Option
from companion.dashboard.basic.words import names_list
from companion.games.ruse_and_bruise.game import RabState
from companion.games.ruse_and_bruise.moves import Move

if TYPE_CHECKING:
    from companion.dashboard.kit import CameraDemo
    from companion.games.ruse_and_bruise.dashboard.kit import RabKit

__all__ = ["LEVELS", "DemoTable", "RabDemo"]


LEVELS = {
    "random": "random (any decision)",
    "rule-of-thumb": "rule-of-thumb (a newcomer's habits, docs/coach.md)",
    "coach": "coach (the coach's choice at 3 samples a decision)",
}


class DemoTable:
    """The demo's virtual table: each player decides from their own view at ``level``, the
    table's moves and the cards drawn by chance (B9)."""

    def __init__(self, setup: Any, *, seed: int, level: str) -> None:
        from companion.games.ruse_and_bruise.policies import POLICIES

        self.rng = random.Random(seed)
        self.level = level
        self.player = POLICIES[level]() if level in POLICIES else None
        self.intro = f"Ruse and Bruise: {names_list(setup.players)} play ({LEVELS[level].split(' (')[0]}; Space pauses, N steps, F1 keys)"

    def next_move(self, state: Any) -> Move | None:
        assert isinstance(state, RabState) and state.values is not None
        if state.is_game_over():
            return None
        me = state.to_move
        if me is None:
            return state.random_table_move(self.rng)
        by_decision: dict[object, list[Move]] = {}
        for m in state.legal_moves:
            by_decision.setdefault(state.decision(m), []).append(m)
        if self.player is not None:
            view = state.view(me)
            chosen = self.player.choose(view, view.decisions, state.values, self.rng)
        else:
            from companion.coach import Coach

            coach = Coach("fast")
            advice = coach.advise(state, me, samples=3, seed=self.rng.getrandbits(32))
            chosen = coach.pick(advice, state).move
        return self.rng.choice(by_decision[state.decision(chosen)])


class RabDemo:
    """Ruse and Bruise's demo table (``rop demo --game ruse-and-bruise``): the example values
    table of the rulings unless ``--values`` says otherwise (B4)."""

    levels = tuple(LEVELS)
    level_words = ", ".join(LEVELS.values())
    options: tuple[Option, ...] = ()

    def __init__(self, kit: RabKit) -> None:
        self.kit = kit

    def setup(self, players: int, **options: Any) -> Any:
        game = self.kit.game
        given = {k: v for k, v in options.items() if v is not None}
        given.setdefault("values", "example")
        from companion.games.ruse_and_bruise.policies import deal

        chosen = game.make_setup(game.default_players(players), **given)
        return deal(chosen.players, chosen.values, random.Random(players), colours=chosen.colours)

    def table(self, setup: Any, *, seed: int, level: str, slips: float, **options: Any) -> DemoTable:
        return DemoTable(setup, seed=seed, level=level)

    def camera(self, *, seed: int, step_s: float, **options: Any) -> CameraDemo:
        raise ValueError("Ruse and Bruise has no camera demo yet")
