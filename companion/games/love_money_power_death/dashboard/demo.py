"""Love, Money, Power, Death's demo table for the dashboard (``rop demo --game
love-money-power-death``): a virtual table that deals by the rules (L5), players at a chosen
level who commit in any order (L6), the noble turned once all have (L7), the reveal and the
draws, and a slip now and then (a player committing twice, the noble turned too early), so
that the table sees how the companion flags a move that breaks a rule.

The companion sees every card of the demo's deal (its players need their hands); the screen
still never shows a hand or a card committed before the reveal, as at a real table.

The levels are whatever the game's plug-in parts offer: its own players
(:data:`~companion.games.love_money_power_death.policies.POLICIES`: ``random``, any card;
``rule-of-thumb``, ``eager``, ``cautious`` and ``counter``, a newcomer's habits) and ``coach``
and ``coach:fast``, ``coach:deep``...: the generic coach of :mod:`companion.coach`, which sees
only each player's view.
"""

from __future__ import annotations

import random
from typing import Any, NoReturn

from companion.contract import Option
from companion.dashboard import demo_coach
from companion.games.love_money_power_death import GAME
from companion.games.love_money_power_death.moves import Commit, Move, TurnUp
from companion.games.love_money_power_death.policies import POLICIES
from companion.games.love_money_power_death.setup import LmpdSetup
from companion.games.love_money_power_death.state import LmpdState, Phase

__all__ = ["LmpdDemo", "DemoPlayers", "TableOnClock", "base_levels", "coach_levels", "make_slip"]


def base_levels() -> tuple[str, ...]:
    """The levels of the game's own players (:data:`~..policies.POLICIES`): ``random`` first,
    then the rules of thumb."""
    return tuple(POLICIES[k].name for k in sorted(POLICIES))


def coach_levels() -> tuple[str, ...]:
    """The coach's levels, once the game brings a coach (:func:`companion.dashboard.demo_coach.coach_levels`)."""
    return demo_coach.coach_levels(GAME)


class DemoPlayers:
    """The players' commits at ``level``, each from its own view."""

    def __init__(self, level: str) -> None:
        base, coach = base_levels(), coach_levels()
        if level not in base + coach:
            raise ValueError(f"unknown level {level!r}; the levels are {', '.join(base + coach)}")
        self.level = level
        self.simple = next((cls for cls in POLICIES.values() if cls.name == level), None)

    def choose(self, state: LmpdState, player: str, rng: random.Random) -> Move:
        """``player``'s commit. The coach sees only that player's view: it samples the hidden
        cards itself, with a fixed number of samples so that a seeded demo plays the same on
        any machine."""
        view = state.view(player)
        if self.simple is not None:
            return self.simple.play(view, rng)
        if len(view.decisions) == 1:
            return view.decisions[0]
        return demo_coach.coach_decision(state, player, self.level, rng)


def make_slip(state: LmpdState, rng: random.Random) -> Move | None:
    """An illegal move a real table makes now and then, whose refusal names no hidden card: a
    player committing a second time (L6), or the noble turned before everyone has committed
    (L7). ``None`` when none applies."""
    if state.phase is not Phase.COMMIT:
        return None
    slips: list[Move] = [TurnUp(rng.choice(state.nobles_left))]  # L7: not before everyone has committed
    done = state.committed
    if done:
        slips.append(Commit(rng.choice(done)))  # L6: a card committed cannot be changed
    slips = [s for s in slips if not state.is_legal(s)]
    return rng.choice(slips) if slips else None


class TableOnClock:
    """The demo table, one move at a time for the demo's clock; ``intro`` opens the log. The
    first slip comes early, at the fourth commit, so a newcomer sees one in the first minute."""

    def __init__(self, setup: LmpdSetup, *, seed: int, level: str, slips: float) -> None:
        self.setup = setup
        self.players = DemoPlayers(level)
        self.rng = random.Random(seed)
        self.slip_rng = random.Random(seed + 1)
        self.slips = slips
        self._commits = 0
        self._pending: Move | None = None
        level_words = "" if level == base_levels()[0] else f", players at level {level}"
        self.intro = (
            f"Demo table: {', '.join(setup.players)}; {len(setup.nobles)} nobles{level_words}. Space pauses, N steps, "
            "+/- change the pace, F2 teaching mode, F7 a player's hint, F1 every key. Now and then a player slips: "
            "watch the rule it breaks."
        )

    def next_move(self, state: LmpdState) -> Move | None:
        """The table's next move in ``state`` (maybe a slip the game refuses), ``None`` when the
        game is over."""
        pending = self._pending
        if pending is not None:
            self._pending = None
            return pending
        if state.is_game_over():
            return None
        deciding = state.deciding
        if not deciding:
            return state.random_table_move(self.rng)
        player = deciding[self.rng.randrange(len(deciding))]  # commits come in any order (L6)
        move = self.players.choose(state, player, self.rng)
        self._commits += 1
        if self._commits == 4 or (self._commits > 4 and self.slip_rng.random() < self.slips):
            slip = make_slip(state, self.slip_rng)
            if slip is not None:
                self._pending = move
                return slip
        return move


class LmpdDemo:
    """Love, Money, Power, Death's part of ``rop demo``."""

    level_words = (
        "random (any card), rule-of-thumb, eager, cautious and counter (a newcomer's habits, docs/coach.md), and "
        "coach (the coach, from each player's view only; coach:fast and coach:deep think less or more)"
    )
    options: tuple[Option, ...] = ()
    """The demo table takes no options of its own: the game's are all it has."""

    @property
    def levels(self) -> tuple[str, ...]:
        """The game's own players' levels, then the coach's (:func:`base_levels`,
        :func:`coach_levels`)."""
        return base_levels() + coach_levels()

    def setup(self, players: int, **options: Any) -> LmpdSetup:
        """``players`` players (2-10, L4) with the ``nobles`` and ``fives`` given."""
        if not GAME.min_players <= players <= GAME.max_players:
            raise ValueError(f"L4: the demo table seats {GAME.min_players} to {GAME.max_players} players, not {players}")
        return GAME.make_setup(GAME.default_players(players), **{k: v for k, v in options.items() if v is not None})

    def table(self, setup: LmpdSetup, *, seed: int, level: str, slips: float, **options: Any) -> TableOnClock:
        """The demo table; it takes no options of its own."""
        if options:
            raise ValueError(f"Love, Money, Power, Death's demo table takes no {', '.join(sorted(options))}")
        return TableOnClock(setup, seed=seed, level=level, slips=slips)

    def camera(self, *, seed: int, step_s: float, **options: Any) -> NoReturn:
        """No camera follows a table of this game yet: :class:`ValueError` saying so."""
        raise ValueError("Love, Money, Power, Death has no camera demo yet: its table is not followed by camera (rop demo without --camera-sim)")
