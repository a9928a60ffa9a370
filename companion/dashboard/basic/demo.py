"""The basic demo: a virtual table whose players pick their moves at random, from their own
legal moves alone, the table's moves drawn by the game (:meth:`Game.chance_move`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from companion.contract import Move, Option
from companion.dashboard.basic.hooks import KitHooks
from companion.dashboard.basic.words import names_list

if TYPE_CHECKING:
    from companion.dashboard.kit import CameraDemo

__all__ = ["BasicDemo", "RandomTable"]


class RandomTable:
    """Random players at one table; where players decide at once, one of them at random moves
    first."""

    def __init__(self, kit: KitHooks, setup: Any, *, seed: int, slips: float) -> None:
        self.kit = kit
        self.rng = random.Random(seed)
        self.intro = f"{kit.game.title}: {names_list(setup.players)} play at random (Space pauses, N steps, F1 keys)"

    def next_move(self, state: Any) -> Move | None:
        if state.is_game_over():
            return None
        deciding = tuple(state.deciding)
        if not deciding:
            return self.kit.game.chance_move(state, self.rng)
        moves = list(state.moves_of(self.rng.choice(deciding)))
        return self.rng.choice(moves)


class BasicDemo:
    """The kit's demo table: random players."""

    levels = ("random",)
    level_words = "random (any legal move of the player's own)"
    options: tuple[Option, ...] = ()

    def __init__(self, kit: KitHooks) -> None:
        self.kit = kit

    def setup(self, players: int, **options: Any) -> Any:
        game = self.kit.game
        return game.make_setup(game.default_players(players), **{k: v for k, v in options.items() if v is not None})

    def table(self, setup: Any, *, seed: int, level: str, slips: float, **options: Any) -> RandomTable:
        return RandomTable(self.kit, setup, seed=seed, slips=slips)

    def camera(self, *, seed: int, step_s: float, **options: Any) -> CameraDemo:
        raise ValueError(f"{self.kit.game.title} has no camera demo yet")
