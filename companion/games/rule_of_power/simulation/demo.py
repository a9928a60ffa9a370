"""The demo table: a virtual table playing a legal game of its own, with a slip now and then
(an illegal attempt a real table makes), to show how the companion flags it. Its players play
at a chosen level (``policy``: random, greedy, or the coach, which sees only each player's
view). Headless: the dashboard's demo clock, or anything else, asks it for one move at a time."""

from __future__ import annotations

import random

from companion.games.rule_of_power.engine.game import GameSetup, GameState, Phase
from companion.games.rule_of_power.engine.moves import Move, Pass, Play
from companion.games.rule_of_power.simulation.virtual_table import VirtualTable

__all__ = ["DemoTable", "make_slip"]


class DemoTable:
    """Gives the next move of its game, and now and then, before a turn's real move, a slip
    (:meth:`next_move` returns it with ``True``). The first slip comes early, at the third
    turn, so a newcomer sees one in the first minute."""

    def __init__(self, setup: GameSetup, *, seed: int = 7, fate: bool = True, slips: float = 0.08, policy: str = "random") -> None:
        self.setup = setup
        self.seed = seed
        self.fate = fate
        self.slips = slips
        self.policy = policy
        self.table = VirtualTable(setup, seed=seed, fate=fate, policy=policy)
        self.rng = random.Random(seed + 1)
        self._turns = 0
        self._pending: Move | None = None

    def next_move(self, game: GameState) -> tuple[Move, bool] | None:
        """The next move in ``game`` and whether it is a slip; ``None`` when the game is over."""
        pending = self._pending
        if pending is not None:
            self._pending = None
            return pending, False
        move = self.table.next_move(game)
        if move is None:
            return None
        if game.phase is Phase.TURN:
            self._turns += 1
            if self._turns == 3 or (self._turns > 3 and self.rng.random() < self.slips):
                slip = make_slip(game, move, self.rng)
                if slip is not None:
                    self._pending = move
                    return slip, True
        return move, False


def make_slip(game: GameState, intended: Move, rng: random.Random) -> Move | None:
    """An illegal move a real table makes now and then: leaving a capture on the table
    (R4), taking a sum while a matching card lies there (R4), playing out of turn or passing
    with cards in hand (R17). ``None`` when none applies here."""
    me = game.turn
    if me is None:
        return None
    slips: list[Move] = []
    for card in game.hand(me):
        options = game.capture_options(card)
        if options and not game.is_empowered(card):
            slips.append(Play(me, card))
            if len(options[0]) == 1:
                # A sum of other centre cards equal to the value, taken instead of the match.
                rest = [c for c in game.centre if c.value != card.value]
                for a in rest:
                    for b in rest:
                        if a is not b and (a.value or 0) + (b.value or 0) == card.value and a < b:
                            slips.append(Play(me, card, (a, b)))
    others = [p for p in game.players if p != me and game.hand(p)]
    if others:
        p = rng.choice(others)
        card = game.hand(p)[0]
        options = game.capture_options(card)
        slips.append(Play(p, card, options[0] if options else ()))
    if game.hand(me):
        slips.append(Pass(me))
    slips = [s for s in slips if not game.is_legal(s)]
    return rng.choice(slips) if slips else None
