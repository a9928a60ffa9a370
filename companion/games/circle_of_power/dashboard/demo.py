"""Circle of Power's demo table for the dashboard (``rop demo --game circle-of-power``): a
virtual table that shuffles and deals by the rules (C6, C7, C15), dummies that play by theirs
(C8, C11), players at a chosen level, and a slip now and then (a card played out of turn, a
regroup while a city may be taken, an attack the circle does not allow, an act by the loser),
so that the table sees how the companion flags a move that breaks a rule.

The levels are whatever the game's plug-in parts offer: its own players
(:data:`~companion.games.circle_of_power.policies.POLICIES`: ``random``, any legal decision;
``rule-of-thumb``, a newcomer's habits) and, once the game has a coach (``GAME.coach()``),
``coach`` and ``coach:fast``, ``coach:deep``...: the generic coach of :mod:`companion.coach`,
which sees only each player's view.
"""

from __future__ import annotations

import random
from typing import Any, NoReturn

from companion.contract import Option
from companion.dashboard import demo_coach
from companion.games.circle_of_power import GAME
from companion.games.circle_of_power.game import CircleState, Phase
from companion.games.circle_of_power.moves import Conquer, Move, Play, Regroup
from companion.games.circle_of_power.policies import POLICIES, Table
from companion.games.circle_of_power.setup import CircleSetup, is_dummy

__all__ = ["CircleDemo", "DemoPlayers", "TableOnClock", "base_levels", "coach_levels", "make_slip"]

def base_levels() -> tuple[str, ...]:
    """The levels of the game's own players (:data:`~..policies.POLICIES`), weakest first:
    ``random``, ``rule-of-thumb``, and any the game adds."""
    return tuple(POLICIES[k].name for k in sorted(POLICIES))


def coach_levels() -> tuple[str, ...]:
    """The coach's levels, once the game brings a coach (:func:`companion.dashboard.demo_coach.coach_levels`)."""
    return demo_coach.coach_levels(GAME)


class DemoPlayers:
    """The players' decisions at ``level``; dummies play by the rules (C8, C11)."""

    def __init__(self, level: str) -> None:
        base, coach = base_levels(), coach_levels()
        if level not in base + coach:
            raise ValueError(f"unknown level {level!r}; the levels are {', '.join(base + coach)}")
        self.level = level
        self.simple = next((POLICIES[k]() for k in POLICIES if POLICIES[k].name == level), None)

    def choose(self, state: CircleState, rng: random.Random) -> Move:
        """The decision of the player to move (a play without its card drawn, or an act). The
        coach sees only that player's view: it samples the hidden cards itself, with a fixed
        number of samples so that a seeded demo plays the same on any machine."""
        me = state.to_move
        assert me is not None
        view = state.view(me)
        if self.simple is not None:
            return self.simple.choose(view, rng)
        decisions = view.decisions
        if len(decisions) == 1:
            return decisions[0]
        return demo_coach.coach_decision(state, me, self.level, rng)


def make_slip(state: CircleState, rng: random.Random) -> Move | None:
    """An illegal move a real table makes now and then: a player playing out of turn or a card
    already on the table (C8), the winner regrouping while a city may be taken (C10), an attack
    the circle does not allow (C3), the loser acting (C9). ``None`` when none applies."""
    me = state.to_move
    if me is None:
        return None
    slips: list[Move] = []
    if state.phase is Phase.PLAY:
        others = [p for p in state.seats if p != me and not is_dummy(p) and state.hand(p)]
        if others:
            p = rng.choice(others)
            slips.append(Play(p, rng.choice(sorted(state.hand(p)))))
        if state.played and not is_dummy(me):
            slips.append(Play(me, state.played[-1][1]))
    elif state.phase is Phase.ACT and not is_dummy(me):
        choices = state.choices()
        if any(c.act != "regroup" for c in choices):
            slips.append(Regroup(me))
        allowed = {state.seats[c.victim] for c in choices if c.victim is not None}
        slips += [Conquer(me, name) for name in state.seats if name != me and name not in allowed]
        losers = [p for p, _ in state.played if p != me and not is_dummy(p)]
        if losers:
            slips.append(Conquer(losers[0], me))
    slips = [s for s in slips if not state.is_legal(s)]
    return rng.choice(slips) if slips else None


class TableOnClock:
    """The demo table, one move at a time for the demo's clock; ``intro`` opens the log. The
    first slip comes early, at the third decision, so a newcomer sees one in the first minute."""

    def __init__(self, setup: CircleSetup, *, seed: int, level: str, slips: float) -> None:
        self.setup = setup
        self.players = DemoPlayers(level)
        self.rng = random.Random(seed)
        self.slip_rng = random.Random(seed + 1)
        self.table = Table(self.rng)
        self.slips = slips
        self._decisions = 0
        self._pending: Move | None = None
        dummies = len(setup.dummies)
        them = f" and {dummies} dumm{'y' if dummies == 1 else 'ies'}" if dummies else ""
        target = "" if setup.variant == "lonely-tyrant" else f", target {setup.target}"
        level_words = "" if level == base_levels()[0] else f", players at level {level}"
        self.intro = (
            f"Demo table: {', '.join(setup.players)}{them}; {setup.variant}{target}{level_words}. Space pauses, N steps, "
            "+/- change the pace, F2 teaching mode, F1 every key. Now and then a player slips: watch the rule it breaks."
        )

    def next_move(self, state: CircleState) -> Move | None:
        """The table's next move in ``state`` (maybe a slip the game refuses), ``None`` when the
        game is over."""
        pending = self._pending
        if pending is not None:
            self._pending = None
            return pending
        phase = state.phase
        if phase is Phase.OVER:
            return None
        if phase is Phase.SEASON:
            return self.table.season(state)
        if phase is Phase.REVEAL:
            return self.table.reveal()
        if phase is Phase.RESHUFFLE:
            return self.table.reshuffle(state)
        me = state.to_move
        assert me is not None
        if is_dummy(me):
            return next(iter(state.legal_moves))
        move = self.players.choose(state, self.rng)
        if type(move) is Play and state.battle_deck_count:
            move = Play(me, move.card, self.table.draw())
        self._decisions += 1
        if self._decisions == 3 or (self._decisions > 3 and self.slip_rng.random() < self.slips):
            slip = make_slip(state, self.slip_rng)
            if slip is not None:
                self._pending = move
                return slip
        return move


class CircleDemo:
    """Circle of Power's part of ``rop demo``."""

    level_words = (
        "random (any legal decision), rule-of-thumb (a newcomer's habits), and once the game has a "
        "coach, coach (the coach, from each player's view only; coach:fast and coach:deep think less or more)"
    )
    options: tuple[Option, ...] = ()
    """The demo table takes no options of its own: the game's are all it has."""

    @property
    def levels(self) -> tuple[str, ...]:
        """The game's own players' levels (``random``, ``rule-of-thumb``), then the coach's
        once the game has a coach (:func:`base_levels`, :func:`coach_levels`)."""
        return base_levels() + coach_levels()

    def setup(self, players: int, **options: Any) -> CircleSetup:
        """``players`` players (2-4, C4) with the ``variant`` and ``target`` given."""
        if not GAME.min_players <= players <= GAME.max_players:
            raise ValueError(f"C4: Circle of Power has 2 to 4 players (dummies fill the other seats), not {players}")
        return GAME.make_setup(GAME.default_players(players), **options)

    def table(self, setup: CircleSetup, *, seed: int, level: str, slips: float, **options: Any) -> TableOnClock:
        """The demo table; it takes no options of its own."""
        if options:
            raise ValueError(f"Circle of Power's demo table takes no {', '.join(sorted(options))}")
        return TableOnClock(setup, seed=seed, level=level, slips=slips)

    def camera(self, *, seed: int, step_s: float, **options: Any) -> NoReturn:
        """No camera follows a Circle of Power table yet: :class:`ValueError` saying so."""
        raise ValueError("Circle of Power has no camera demo yet: its table is not followed by camera (rop demo without --camera-sim)")
