"""Rule of Power's demo table for the dashboard (``rop demo``): a virtual table of players at a
chosen level, with Fate decks or without and a slip now and then; and the same table seen by a
virtual camera (``rop demo --camera-sim``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.contract import Option
from companion.games.rule_of_power.engine.game import GameSetup, GameState
from companion.games.rule_of_power.engine.moves import Move
from companion.games.rule_of_power.simulation.demo import DemoTable
from companion.games.rule_of_power.simulation.virtual_table import POLICIES, make_setup

if TYPE_CHECKING:
    from companion.observations.log import ObservationLog
    from companion.tracker.runner import StartSensors

__all__ = ["CameraTable", "RuleOfPowerDemo", "TableOnClock"]


class TableOnClock:
    """The demo table, one move at a time for the demo's clock; ``intro`` opens the log."""

    def __init__(self, setup: GameSetup, *, seed: int, level: str, slips: float, fate: bool = True) -> None:
        self.table = DemoTable(setup, seed=seed, fate=fate, slips=slips, policy=level)
        sides = " vs ".join(setup.sides)
        level_words = "" if level == POLICIES[0] else f", players at level {level}"
        self.intro = (
            f"Demo table: {sides}, {'with' if fate else 'without'} Fate decks{level_words}. Space pauses, N steps, "
            "+/- change the pace, F2 teaching mode, F1 every key. Now and then a player slips: watch the rule it breaks."
        )

    def next_move(self, state: GameState) -> Move | None:
        step = self.table.next_move(state)
        return step[0] if step is not None else None


@dataclass(frozen=True)
class CameraTable:
    """The two-player demo table as an observation log's header, and its virtual camera."""

    log: ObservationLog
    start: StartSensors


FATE = Option("fate", "Fate decks at the demo table (R18)", "flag", True)
"""The demo table's Fate decks, on unless ``--no-fate``."""

TEAMS = Option("teams", "number of teams, whose members sit alternately; 0 for everyone alone (R16)", "int", 2, low=0, high=3)
"""The demo seats its players in two teams unless told otherwise."""


class RuleOfPowerDemo:
    """Rule of Power's part of ``rop demo``."""

    levels = POLICIES
    level_words = (
        "random (any legal move), greedy (the best immediate points), coach (the coach, from each "
        "player's view only; coach:fast and coach:deep think less or more)"
    )
    options = (TEAMS, FATE)

    def setup(self, players: int, **options: Any) -> GameSetup:
        """``players`` players in ``teams`` teams whose members sit alternately (R16; two
        unless told otherwise), with the Higher Powers ``expansion`` (R2) or without."""
        return make_setup(players, **{TEAMS.name: TEAMS.default, **options})

    def table(self, setup: GameSetup, *, seed: int, level: str, slips: float, **options: Any) -> TableOnClock:
        """The demo table (``fate``: with Fate decks, the default)."""
        return TableOnClock(setup, seed=seed, level=level, slips=slips, **options)

    def camera(self, *, seed: int, step_s: float, **options: Any) -> CameraTable:
        """Two players on the demo mat, each step ``step_s`` seconds under the camera, with
        Fate decks (``fate``, the default) or without; the Fate draws, which no camera sees,
        announced as the players would."""
        from companion.games.rule_of_power.simulation.camera_sim import CameraSimulation
        from companion.observations.log import ObservationLog

        setup = make_setup(2)
        sim = CameraSimulation(setup, seed=seed, step_s=step_s, **options)
        log = ObservationLog(setup, first_dealer=sim.first_dealer, facts={"fate_decks": sim.fate_decks, "draws_visible": True})
        return CameraTable(log, sim.start)
